/**
 * Rules naming the network namespace's other objects, against iptables 1.8.9 (nf_tables),
 * ipset 7.17, nfacct and the kernel, in a throwaway namespace. `-m set`: libxt_set looks the
 * set up as the rule is read, so a rule naming a set that does not exist (never made, or
 * destroyed since) is refused, typed or restored; the name's length is checked first and the
 * flags after. `-m nfacct`: the kernel looks the object up as the rule goes in (ENOENT).
 */
import { spawnSync } from 'node:child_process';
import { describe, it } from 'vitest';
import { expectSameAsKernel, type Step } from './differential';
import { netnsUnavailableReason } from './netns';

const reason = netnsUnavailableReason();
const hasIpset = spawnSync('sh', ['-c', 'command -v ipset']).status === 0;
if (reason !== undefined) console.log(`skipping kernel differential tests: ${reason}`);
else if (!hasIpset) console.log('skipping ipset rule tests: ipset is not installed');

const ipt = (line: string): Step => ({ iptables: line.split(' ') });

describe.skipIf(reason !== undefined || !hasIpset)('-m set rules against the kernel', () => {
  it('refuses a set that does not exist, typed or restored, and takes one that does', () => {
    const line = '-A INPUT -m set --match-set s dst -j DROP';
    expectSameAsKernel([
      ipt('-A INPUT -m set --match-set nosuch src -j DROP'),
      ipt('-A INPUT -m set --match-set nosuch src --bogus'),
      ipt('-A INPUT -m set --match-set nosuch src,dst,src,dst,src,dst,src -j DROP'),
      ipt(`-A INPUT -m set --match-set ${'a'.repeat(31)} src -j DROP`),
      ipt(`-A INPUT -m set --match-set ${'a'.repeat(32)} src -j DROP`),
      ipt('-C INPUT -m set --match-set nosuch src -j DROP'),
      ipt('-D INPUT -m set --match-set nosuch src -j DROP'),
      { restore: '*filter\n-A INPUT -j ACCEPT\n-A INPUT -m set --match-set nosuch src -j DROP\nCOMMIT\n' }, // prettier-ignore
      { restore: '*filter\n-A INPUT -m set --match-set nosuch src -j DROP\nCOMMIT\n', args: ['--test'] }, // prettier-ignore
      { ipset: ['create', 's', 'hash:ip'] },
      ipt('-A INPUT -m set --match-set s src -j DROP'),
      ipt('-A INPUT -m set --match-set s src,dst,src,dst,src,dst,src -j DROP'),
      ipt('-A INPUT -m set ! --match-set s dst,src --return-nomatch -j ACCEPT'),
      ipt('-C INPUT -m set --match-set s src -j DROP'),
      { restore: `*filter\n${line}\nCOMMIT\n`, args: ['--noflush'] },
      { save: [] },
      { ipset: ['destroy', 's'] },
      ipt('-F INPUT'),
      { ipset: ['destroy', 's'] },
      // The same line again, now that its set is gone: read afresh, not taken as before.
      { restore: `*filter\n${line}\nCOMMIT\n`, args: ['--noflush'] },
      ipt('-A INPUT -m set --match-set s src -j DROP'),
      { save: [] },
    ]);
  });
});

describe.skipIf(reason !== undefined)('-m nfacct rules against the kernel', () => {
  it('are refused by the kernel when the object does not exist', () => {
    const missing = '-m nfacct --nfacct-name nosuch -j DROP';
    expectSameAsKernel([
      ipt(`-A INPUT ${missing}`),
      ipt(`-I INPUT ${missing}`),
      ipt(`-C INPUT ${missing}`),
      ipt(`-D INPUT ${missing}`),
      { restore: `*filter\n-A INPUT -j ACCEPT\n-A INPUT ${missing}\nCOMMIT\n` },
      { restore: `*filter\n-A INPUT ${missing}\nCOMMIT\n`, args: ['--test'] },
      { nfacct: 'counted' },
      ipt('-A INPUT -m nfacct --nfacct-name counted -j ACCEPT'),
      ipt(`-R INPUT 1 ${missing}`),
      ipt('-A INPUT -p tcp -m nfacct --nfacct-name counted --dport 22 -j ACCEPT'),
      { restore: '*filter\n-A INPUT -m nfacct --nfacct-name counted -j DROP\nCOMMIT\n', args: ['--noflush'] }, // prettier-ignore
      { save: [] },
    ]);
  });
});

/**
 * `-m set` rules against iptables 1.8.9 (nf_tables), ipset 7.17 and the kernel, in a throwaway
 * namespace: libxt_set looks the named set up as the rule is read, so a rule naming a set
 * that does not exist (never made, or destroyed since) is refused, typed or restored; the
 * set's name is checked for length first and its flags after.
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

/**
 * Differential tests: the engine's iptables against iptables 1.8.9 (nf_tables) and the real
 * kernel, in a throwaway network namespace. Every output must be equal line for line.
 */
import { describe, it } from 'vitest';
import { expectSameAsKernel, type Step } from './differential';
import { netnsUnavailableReason } from './netns';
import { EXTRAS_RESTORE, kubeProxyRestore } from './rulesets';

import { spawnSync } from 'node:child_process';

const reason = netnsUnavailableReason();
const hasIpset = spawnSync('sh', ['-c', 'command -v ipset']).status === 0;
if (reason !== undefined) console.log(`skipping kernel differential tests: ${reason}`);

const expectSame = expectSameAsKernel;

const VIEWS: Step[] = [
  { save: [] },
  { save: ['-c'] },
  { save: ['-t', 'nat'] },
  { iptables: ['-t', 'nat', '-L', '-n', '-v'] },
  { iptables: ['-t', 'nat', '-L', '-n', '-v', '-x', '--line-numbers'] },
  { iptables: ['-t', 'nat', '-L', 'KUBE-SERVICES', '-n'] },
  { iptables: ['-t', 'nat', '-L', 'KUBE-POSTROUTING'] },
  { iptables: ['-t', 'nat', '-nvL', 'KUBE-MARK-MASQ'] },
  { iptables: ['-t', 'nat', '-S'] },
  { iptables: ['-S'] },
  { iptables: ['-S', '-v'] },
  { iptables: ['-S', 'INPUT', '2'] },
  { iptables: ['-t', 'filter', '-L', '-n', '-v'] },
  { iptables: ['-L', '-n', '-v', '-x', '--line-numbers'] },
  { iptables: ['-L'] },
  { iptables: ['-L', '-v'] },
  { iptables: ['-L', 'INPUT', '3', '-n'] },
  { iptables: ['-t', 'nat', '-L'] },
];

describe.skipIf(reason !== undefined)('iptables views against the real kernel', () => {
  it('a kube-proxy sync restored into a fresh node', () => {
    expectSame([
      { nfacct: 'ct_state_invalid_dropped_pkts' },
      { restore: kubeProxyRestore(), args: ['--noflush', '--counters'] },
      ...VIEWS,
    ]);
  });

  it('every match and target form, with counters', () => {
    expectSame([
      { nfacct: 'ct_state_invalid_dropped_pkts' },
      { restore: EXTRAS_RESTORE, args: ['--counters'] },
      ...VIEWS,
      { iptables: ['-Z'] },
      { iptables: ['-L', '-n', '-v'] },
    ]);
  });

  it('a fresh namespace: tables appear only when written', () => {
    expectSame([
      { save: [] },
      { iptables: ['-t', 'nat', '-L', '-n'] },
      { iptables: ['-t', 'raw', '-S'] },
      { iptables: ['-t', 'nat', '-F'] },
      { iptables: ['-t', 'mangle', '-Z'] },
      { save: [] },
      { save: ['-t', 'security'] },
      { iptables: ['-t', 'mangle', '-N', 'X'] },
      { restore: '*raw\nCOMMIT\n*security\n:FOO - [0:0]\nCOMMIT\n', args: ['--noflush'] },
      { iptables: ['-A', 'INPUT', '-j', 'ACCEPT'] },
      { save: [] },
      { restore: '*filter\nCOMMIT\n' },
      { save: [] },
    ]);
  });

  it('restore: per-table commits, flush vs --noflush, chain redeclaration, errors', () => {
    expectSame([
      { iptables: ['-N', 'OLD'] },
      { iptables: ['-A', 'OLD', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '-j', 'OLD'] },
      { iptables: ['-P', 'FORWARD', 'DROP'] },
      // The filter section commits; the nat one fails on an undeclared chain at its COMMIT.
      {
        restore:
          '*filter\n:NEW - [0:0]\n-A NEW -j DROP\nCOMMIT\n*nat\n:KUBE-S - [0:0]\n-A KUBE-S -j KUBE-NODEPORTS\nCOMMIT\n',
        args: ['--noflush'],
      },
      { save: [] },
      // Redeclaring a chain flushes it; deleting a chain in the same batch that unhooks it works.
      {
        restore: '*filter\n:INPUT ACCEPT [0:0]\n:OLD - [0:0]\n-D INPUT -j OLD\n-X OLD\nCOMMIT\n',
        args: ['--noflush'],
      },
      { save: [] },
      { restore: '*filter\n-A INPUT -j NEW\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n-X NEW\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n-X NOPE\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n-D INPUT -j DROP\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n-A NOPE -j DROP\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n-N NEW\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n:A - [0:0]\n-A A --foo -j ACCEPT\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n-A INPUT -m foobar -j ACCEPT\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n:X - [0:0]\n', args: ['--noflush'] },
      { restore: '-A INPUT -j ACCEPT\n', args: ['--noflush'] },
      { restore: '*bogus\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n  # indented\nCOMMIT\n', args: ['--noflush'] },
      { restore: '*filter\n-A INPUT -t nat -j ACCEPT\nCOMMIT\n', args: ['--noflush'] },
      {
        restore: "*filter\n-A INPUT -m comment --comment 'single q' -j ACCEPT\nCOMMIT\n",
        args: ['--noflush'],
      },
      {
        restore: '*filter\n-A INPUT -m statistic --mode nth --every 2 -j ACCEPT\nCOMMIT\n',
        args: ['--noflush'],
      },
      {
        restore: '*filter\n-I INPUT -p tcp -j DNAT --to-destination 1.1.1.1:80\nCOMMIT\n',
        args: ['--noflush'],
      },
      {
        restore:
          '*filter\n:INPUT ACCEPT [7:700]\n[3:4] -A INPUT -j ACCEPT\n-A INPUT -c 5 6 -j ACCEPT\nCOMMIT\n',
        args: ['--noflush'],
      },
      { iptables: ['-L', 'INPUT', '-v', '-n'] },
      // Without --noflush the table is rebuilt: user chains go, policies return to ACCEPT.
      { restore: '*filter\n:BAZ - [0:0]\nCOMMIT\n' },
      { save: [] },
    ]);
  });

  it('iptables command errors and edits', () => {
    expectSame([
      { iptables: ['-N', 'KUBE-F'] },
      { iptables: ['-N', 'KUBE-Z'] },
      { iptables: ['-A', 'KUBE-Z', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '-j', 'KUBE-F'] },
      { iptables: ['-X', 'KUBE-F'] },
      { iptables: ['-X', 'KUBE-Z'] },
      { iptables: ['-X', 'NOPE'] },
      { iptables: ['-X', 'INPUT'] },
      { iptables: ['-X'] },
      { iptables: ['-N', 'KUBE-F'] },
      { iptables: ['-A', 'NOPE', '-j', 'DROP'] },
      { iptables: ['-A', 'INPUT', '-j', 'NOPE'] },
      { iptables: ['-F', 'NOPE'] },
      { iptables: ['-L', 'NOPE'] },
      { iptables: ['-S', 'NOPE'] },
      { iptables: ['-I', 'INPUT', '5', '-j', 'ACCEPT'] },
      { iptables: ['-D', 'INPUT', '5'] },
      { iptables: ['-R', 'INPUT', '5', '-j', 'ACCEPT'] },
      { iptables: ['-D', 'INPUT', '-j', 'DROP'] },
      { iptables: ['-C', 'INPUT', '-j', 'KUBE-F'] },
      { iptables: ['-C', 'INPUT', '-j', 'DROP'] },
      { iptables: ['-C', 'NOPE', '-j', 'KUBE-F'] },
      { iptables: ['-A', 'INPUT', '--foo'] },
      { iptables: ['-A', 'INPUT', '-m', 'foo'] },
      { iptables: ['-t', 'foo', '-L'] },
      { iptables: ['-P', 'KUBE-F', 'DROP'] },
      { iptables: ['-P', 'INPUT', 'FOO'] },
      { iptables: [] },
      { iptables: ['--version'] },
      { iptables: ['-L', '-S'] },
      { iptables: ['-A'] },
      { iptables: ['-N', '-X'] },
      { iptables: ['-N', 'ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJ'] },
      { iptables: ['-n', '-A', 'INPUT', '-j', 'ACCEPT'] },
      { iptables: ['-L', '-s', '1.2.3.4'] },
      { iptables: ['-A', 'INPUT', '-s', '1.2.3.400', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '-p', 'foo', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '--dport', '80', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '-m', 'tcp', '--dport', '80', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '-m', 'tcp', '-j', 'ACCEPT'] },
      { iptables: ['-t', 'nat', '-A', 'PREROUTING', '-j', 'DROP'] },
      { iptables: ['-t', 'nat', '-A', 'PREROUTING', '-j', 'MASQUERADE'] },
      {
        iptables: ['-t', 'nat', '-A', 'PREROUTING', '-j', 'DNAT', '--to-destination', '1.2.3.4:80'],
      },
      { iptables: ['-A', 'INPUT', '-o', 'eth0', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '!', '-s', '0.0.0.0/0', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '-m', 'conntrack', '--ctstate', 'FOO', '-j', 'ACCEPT'] },
      {
        iptables: [
          '-A',
          'INPUT',
          '-m',
          'statistic',
          '--mode',
          'random',
          '--probability',
          '2',
          '-j',
          'ACCEPT',
        ],
      },
      { iptables: ['-A', 'INPUT', '-m', 'mark', '--mark', 'foo', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '-m', 'comment', '--comment'] },
      { iptables: ['-A', 'INPUT', 'foo', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '!', '-j', 'ACCEPT'] },
      { iptables: ['-A', 'INPUT', '-j', 'REJECT', '--reject-with', 'tcp-reset'] },
      { iptables: ['-t', 'mangle', '-A', 'INPUT', '-j', 'REJECT'] },
      { iptables: ['-A', 'INPUT', '-m', 'comment', '--comm', 'hi', '-j', 'ACCEPT'] },
      { iptables: ['-I', 'INPUT', '2', '-s', '10.0.0.1', '-j', 'RETURN'] },
      { iptables: ['-R', 'INPUT', '1', '-p', 'udp', '--dport', '53', '-j', 'ACCEPT'] },
      {
        iptables: [
          '-I',
          'INPUT',
          '-m',
          'comment',
          '--comment',
          'kubernetes service portals',
          '-j',
          'KUBE-F',
        ],
      },
      {
        iptables: [
          '-C',
          'INPUT',
          '-m',
          'comment',
          '--comment',
          'kubernetes service portals',
          '-j',
          'KUBE-F',
        ],
      },
      { iptables: ['-D', 'INPUT', '2'] },
      { iptables: ['-E', 'KUBE-F', 'KUBE-G'] },
      { iptables: ['-Z', 'INPUT', '1'] },
      { iptables: ['-L', '-Z', '-n', '-v'] },
      { iptables: ['-S'] },
      { save: [] },
      { iptables: ['-F'] },
      { iptables: ['-X'] },
      { save: [] },
    ]);
  });

  // kube-proxy's IPVS mode matches ipsets; iptables refuses sets that do not exist.
  it.skipIf(!hasIpset)('ipvs-mode set matches (needs the ipset tool)', () => {
    expectSame([
      { ipset: ['create', 'KUBE-CLUSTER-IP', 'hash:ip,port'] },
      { ipset: ['create', 'KUBE-LOOP-BACK', 'hash:ip,port,ip'] },
      {
        restore:
          '*nat\n:KUBE-SERVICES - [0:0]\n:KUBE-POSTROUTING - [0:0]\n:KUBE-MARK-MASQ - [0:0]\n:KUBE-NODE-PORT - [0:0]\n' +
          '-A KUBE-POSTROUTING -m comment --comment "Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose" -m set --match-set KUBE-LOOP-BACK dst,dst,src -j MASQUERADE\n' +
          '-A KUBE-SERVICES -m comment --comment "Kubernetes service cluster ip + port for masquerade purpose" -m set --match-set KUBE-CLUSTER-IP src,dst -j KUBE-MARK-MASQ\n' +
          '-A KUBE-SERVICES -m set ! --match-set KUBE-CLUSTER-IP dst,dst --return-nomatch -j ACCEPT\n' +
          '-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT\n' +
          '-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000\nCOMMIT\n',
        args: ['--noflush'],
      },
      { save: ['-t', 'nat'] },
      { iptables: ['-t', 'nat', '-L', '-n', '-v'] },
      { iptables: ['-t', 'nat', '-L'] },
      { iptables: ['-t', 'nat', '-S', 'KUBE-SERVICES'] },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { jumpRuleArgv, jumpRuleOps } from './jump-rules';

describe('jump rules (proxier.go iptablesJumpChains + iptablesKubeletJumpChains)', () => {
  const ops = jumpRuleOps();

  it('creates the canary in mangle, nat and filter first (iptables Monitor)', () => {
    expect(ops.slice(0, 3).map((op) => jumpRuleArgv(op))).toEqual([
      ['-t', 'mangle', '-N', 'KUBE-PROXY-CANARY'],
      ['-t', 'nat', '-N', 'KUBE-PROXY-CANARY'],
      ['-t', 'filter', '-N', 'KUBE-PROXY-CANARY'],
    ]);
  });

  it('ensures each target chain, then prepends the jump: extra matches, comment, -j', () => {
    expect(ops.slice(3, 5).map((op) => jumpRuleArgv(op))).toEqual([
      ['-t', 'filter', '-N', 'KUBE-EXTERNAL-SERVICES'],
      [
        '-t',
        'filter',
        '-I',
        'INPUT',
        '-m',
        'conntrack',
        '--ctstate',
        'NEW',
        '-m',
        'comment',
        '--comment',
        'kubernetes externally-visible service portals',
        '-j',
        'KUBE-EXTERNAL-SERVICES',
      ],
    ]);
    expect(jumpRuleArgv(ops[4]!, '-C')[2]).toBe('-C');
    expect(ops.filter((op) => op.kind === 'rule')).toHaveLength(14);
  });

  // The final order in a built-in chain is the reverse of the list (each is inserted at 1).
  it.each([
    [
      'filter',
      'INPUT',
      ['KUBE-FIREWALL', 'KUBE-PROXY-FIREWALL', 'KUBE-NODEPORTS', 'KUBE-EXTERNAL-SERVICES'],
    ],
    [
      'filter',
      'FORWARD',
      ['KUBE-PROXY-FIREWALL', 'KUBE-FORWARD', 'KUBE-SERVICES', 'KUBE-EXTERNAL-SERVICES'],
    ],
    ['filter', 'OUTPUT', ['KUBE-FIREWALL', 'KUBE-PROXY-FIREWALL', 'KUBE-SERVICES']],
    ['nat', 'PREROUTING', ['KUBE-SERVICES']],
    ['nat', 'OUTPUT', ['KUBE-SERVICES']],
    ['nat', 'POSTROUTING', ['KUBE-POSTROUTING']],
  ])('%s %s on a fresh node (kube-proxy alone): %j', (table, chain, expected) => {
    const targets = ops
      .filter((op) => op.kind === 'rule' && op.table === table && op.chain === chain)
      .map((op) => op.args.at(-1));
    expect(targets.reverse()).toEqual(expected);
  });

  it('the kubelet duplicates carry no comment', () => {
    const fw = ops.filter((op) => op.kind === 'rule' && op.args.at(-1) === 'KUBE-FIREWALL');
    expect(fw.map((op) => [op.chain, op.args])).toEqual([
      ['INPUT', ['-j', 'KUBE-FIREWALL']],
      ['OUTPUT', ['-j', 'KUBE-FIREWALL']],
    ]);
  });
});

/**
 * `nft` never crashes on bad input: any argument list gives nft's output or one of its errors
 * (exit status 1 with the message on stderr). Seeded, so a failure replays.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nftCommand } from './command';
import { nftApply } from './transaction';
import { createNftState } from './types';

const WORDS = [
  'list',
  'ruleset',
  'tables',
  'table',
  'chains',
  'chain',
  'sets',
  'set',
  'maps',
  'map',
  'ip',
  'ip6',
  'inet',
  'kube-proxy',
  'services',
  'service-ips',
  'cluster-ips',
  'nope',
  '-a',
  '-n',
  '-x',
  '--handle',
  '--bogus',
  '-v',
  'flush',
  '',
  '{',
  '"',
];

describe('nft on any arguments', () => {
  const state = createNftState();
  nftApply(
    state,
    [
      'add table ip kube-proxy { comment "rules for kube-proxy" ; }',
      'add chain ip kube-proxy services',
      'add set ip kube-proxy cluster-ips { type ipv4_addr ; comment "Active ClusterIPs" ; }',
      'add map ip kube-proxy service-ips { type ipv4_addr . inet_proto . inet_service : verdict ; }',
      'add element ip kube-proxy cluster-ips { 10.96.0.10 }',
      'add element ip kube-proxy service-ips { 10.96.0.10 . udp . 53 : goto services }',
      'add rule ip kube-proxy services ip daddr . meta l4proto . th dport vmap @service-ips',
    ].join('\n'),
    { nowMs: 0 },
  );

  it('fuzz seed 20261202: 2,000 argument lists, each a result and never a throw', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 7 }), (argv) => {
        const r = nftCommand(state, argv, 0);
        expect([0, 1]).toContain(r.exitCode);
        if (r.exitCode !== 0) expect(r.stderr).not.toBe('');
        else expect(r.stderr).toBe('');
      }),
      { seed: 20261202, numRuns: 2000 },
    );
  });
});

/**
 * Walking packets through the rules the lab's kube-proxy proxier writes (restored the way
 * kube-proxy does it: jump rules with -N/-C/-I, then iptables-restore --noflush --counters).
 * Node: the upstream fake proxier's (192.168.0.2, clusterCIDR 10.0.0.0/8, mark bit 14).
 */
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../../model/cluster';
import { rngFromSeed, type Rng } from '../../model/runtime';
import { jumpRuleArgv, jumpRuleOps } from '../../kube-proxy/iptables/jump-rules';
import { createIptablesProxier } from '../../kube-proxy/iptables/proxier';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  UPSTREAM_NODE_IPS,
  upstreamProxierOptions,
} from '../../kube-proxy/testing/fixtures';
import { iptablesCommand } from '../command';
import { iptablesRestore } from '../restore';
import { createNetfilter, getChain } from '../state';
import type { NetfilterState, TableName } from '../types';
import { createWalkStore } from './store';
import { traverseTable } from './traverse';
import type { Hook, Packet, TraverseOptions, WalkContext } from './types';
import { packet, type PacketPatch } from './walk-fixtures';

const SERVICES: Service[] = [
  service('ns1', 'svc1', '172.30.0.41', {
    type: 'NodePort',
    ports: [port('p80', 80, { nodePort: 30080 })],
  }),
  service('ns1', 'empty', '172.30.0.42'),
  service('ns1', 'aff', '172.30.0.43', {
    sessionAffinity: 'ClientIP',
    sessionAffinityTimeout: 600,
  }),
];
const EPS = ['10.180.0.1', '10.180.0.2', '10.180.0.3'];
const SLICES: EndpointSlice[] = [
  slice(
    'ns1',
    'svc1',
    EPS.map((ip) => endpoint(ip)),
  ),
  slice('ns1', 'aff', [endpoint('10.180.1.1'), endpoint('10.180.1.2')]),
];
const SVC = 'KUBE-SVC-XPGD46QRK7WJZT7O';
const SEP1 = 'KUBE-SEP-SXIVWICOYRO3J4NJ';
const SEP2 = 'KUBE-SEP-LXVODXWDISEETFEF';
const EXT = 'KUBE-EXT-XPGD46QRK7WJZT7O';
const NODE_IPS = ['127.0.0.1', ...UPSTREAM_NODE_IPS];

function kubeProxyNode(): NetfilterState {
  const state = createNetfilter();
  for (const op of jumpRuleOps()) {
    if (op.kind === 'chain') iptablesCommand(state, jumpRuleArgv(op));
    else if (iptablesCommand(state, jumpRuleArgv(op, '-C')).exitCode !== 0)
      iptablesCommand(state, jumpRuleArgv(op));
  }
  const input = createIptablesProxier(upstreamProxierOptions()).sync(
    cluster(SERVICES, SLICES),
  ).restoreInput;
  const r = iptablesRestore(state, input, { noflush: true, counters: true });
  expect(r.stderr).toBe('');
  return state;
}

function context(rng: Rng, patch: Partial<WalkContext> = {}): WalkContext {
  return {
    conntrack: { state: 'NEW' },
    isLocalAddress: (ip) => NODE_IPS.includes(ip),
    rng,
    now: 0,
    store: createWalkStore(),
    ...patch,
  };
}

/** A pod's SYN to svc1's cluster IP, arriving from the bridge. */
const fromPod = (patch: PacketPatch = {}): Packet =>
  packet({
    src: '10.0.0.5',
    sport: 43812,
    dst: '172.30.0.41',
    dport: 80,
    inIface: 'cni0',
    ...patch,
  });

/** Draws that fail (0x7fffffff) or pass (0) the successive probability rules. */
const draws = (...v: number[]): Rng => {
  let i = 0;
  return { nextU32: () => v[i++] ?? 0 };
};

function walk(
  state: NetfilterState,
  pkt: Packet,
  ctx: WalkContext,
  hook: Hook = 'PREROUTING',
  table: TableName = 'nat',
  opts: TraverseOptions = {},
) {
  return traverseTable(state, table, hook, pkt, ctx, opts);
}

const path = (r: ReturnType<typeof walk>) =>
  r.steps.filter((s) => s.matched).map((s) => `${s.trace} ${s.outcome.kind}`);

describe('a ClusterIP service with 3 endpoints', () => {
  it('pod → cluster IP at PREROUTING: KUBE-SERVICES → KUBE-SVC → KUBE-SEP → DNAT', () => {
    const state = kubeProxyNode();
    const r = walk(state, fromPod(), context(draws(0)));
    expect(r.verdict).toBe('ACCEPT');
    expect(r.nat).toMatchObject({ kind: 'dnat', to: '10.180.0.1:80' });
    expect(r.packet.mark).toBe(0);
    expect(path(r)).toEqual([
      'nat:PREROUTING:rule:1 jump',
      // ns1/aff sorts before ns1/svc1 in KUBE-SERVICES.
      'nat:KUBE-SERVICES:rule:2 jump',
      `nat:${SVC}:rule:2 jump`,
      `nat:${SEP1}:rule:2 nat`,
    ]);
    const skipped = r.steps.filter((s) => !s.matched).map((s) => s.trace);
    expect(skipped).toEqual([
      'nat:KUBE-SERVICES:rule:1',
      `nat:${SVC}:rule:1`,
      `nat:${SEP1}:rule:1`,
    ]);
    expect(r.steps.at(-1)?.text).toBe(
      `-A ${SEP1} -p tcp -m comment --comment "ns1/svc1:p80" -m tcp -j DNAT --to-destination 10.180.0.1:80`,
    );
  });

  const SEED = 20240601;
  const N = 30_000;
  it(`the probability ladder gives each endpoint 1/3 over ${N} walks (seed ${SEED})`, () => {
    const state = kubeProxyNode();
    const ctx = context(rngFromSeed(SEED));
    const hits = new Map<string, number>();
    for (let i = 0; i < N; i++) {
      const r = walk(state, fromPod({ sport: 1024 + (i % 60000) }), ctx, 'PREROUTING', 'nat', {
        steps: 'none',
      });
      const to = r.nat?.to ?? 'none';
      hits.set(to, (hits.get(to) ?? 0) + 1);
    }
    // Binomial(N, 1/3): sigma = sqrt(N * 1/3 * 2/3) ~ 81.6; allow 5 sigma.
    const tolerance = 5 * Math.sqrt((N * 2) / 9);
    expect([...hits.keys()].sort()).toEqual(EPS.map((ip) => `${ip}:80`));
    for (const ip of EPS)
      expect(Math.abs((hits.get(`${ip}:80`) ?? 0) - N / 3)).toBeLessThan(tolerance);
    // Each SVC dispatch rule counted exactly the packets that went to its endpoint.
    const svcRules = getChain(state, 'nat', SVC)?.rules.map((r) => r.counters.packets);
    expect(svcRules).toEqual([0, ...EPS.map((ip) => hits.get(`${ip}:80`))]);
    expect(getChain(state, 'nat', 'KUBE-SERVICES')?.rules[1]?.counters.packets).toBe(N);
  });

  it('hairpin: the endpoint itself hits KUBE-MARK-MASQ in its KUBE-SEP', () => {
    const state = kubeProxyNode();
    const r = walk(state, fromPod({ src: '10.180.0.2' }), context(draws(0x7fffffff, 0)));
    expect(r.nat?.to).toBe('10.180.0.2:80');
    expect(path(r).slice(2)).toEqual([
      `nat:${SVC}:rule:3 jump`,
      `nat:${SEP2}:rule:1 jump`,
      'nat:KUBE-MARK-MASQ:rule:1 mark',
      'nat:KUBE-MARK-MASQ:return:2 return',
      `nat:${SEP2}:rule:2 nat`,
    ]);
    expect(r.packet.mark).toBe(0x4000);
  });

  it('a source outside the cluster CIDR is marked for masquerade in KUBE-SVC', () => {
    const state = kubeProxyNode();
    const r = walk(state, fromPod({ src: '192.168.5.5', inIface: 'eth0' }), context(draws(0)));
    expect(path(r).slice(2, 5)).toEqual([
      `nat:${SVC}:rule:1 jump`,
      'nat:KUBE-MARK-MASQ:rule:1 mark',
      'nat:KUBE-MARK-MASQ:return:2 return',
    ]);
    expect(r.packet.mark).toBe(0x4000);
    expect(r.nat?.to).toBe('10.180.0.1:80');
  });

  it('NodePort: addrtype LOCAL → KUBE-NODEPORTS → KUBE-EXT (masquerade) → KUBE-SVC', () => {
    const state = kubeProxyNode();
    const pkt = packet({ src: '192.168.5.5', dst: '192.168.0.2', dport: 30080, inIface: 'eth0' });
    const r = walk(state, pkt, context(draws(0x7fffffff, 0x7fffffff)));
    expect(path(r)).toEqual([
      'nat:PREROUTING:rule:1 jump',
      'nat:KUBE-SERVICES:rule:3 jump',
      'nat:KUBE-NODEPORTS:rule:2 jump',
      `nat:${EXT}:rule:1 jump`,
      'nat:KUBE-MARK-MASQ:rule:1 mark',
      'nat:KUBE-MARK-MASQ:return:2 return',
      `nat:${EXT}:rule:2 jump`,
      `nat:${SVC}:rule:4 jump`,
      `nat:KUBE-SEP-ICDUIKC33SFI6ZPR:rule:2 nat`,
    ]);
    expect(r.nat?.to).toBe('10.180.0.3:80');
    // Not a local address: the nodeports rule does not match and nothing is translated.
    const other = walk(state, { ...pkt, dst: '192.168.7.7' }, context(draws()));
    expect(other.nat).toBeUndefined();
    expect(other.steps.at(-1)?.trace).toBe('nat:PREROUTING:policy:2');
  });

  it('a localhost NodePort from the node itself counts in the nfacct object', () => {
    const state = kubeProxyNode();
    const ctx = context(draws(0));
    const pkt = packet({
      src: '127.0.0.1',
      dst: '127.0.0.1',
      dport: 30080,
      inIface: undefined,
      outIface: 'lo',
      localOrigin: true,
    });
    const r = walk(state, pkt, ctx, 'OUTPUT');
    expect(path(r).slice(1, 3)).toEqual([
      'nat:KUBE-SERVICES:rule:3 jump',
      'nat:KUBE-NODEPORTS:rule:1 jump',
    ]);
    expect(ctx.store.nfacct).toEqual({ localhost_nps_accepted_pkts: { packets: 1, bytes: 60 } });
  });

  it('a service without endpoints is rejected in filter KUBE-SERVICES', () => {
    const state = kubeProxyNode();
    const pkt = fromPod({ dst: '172.30.0.42', outIface: 'eth0' });
    const r = walk(state, pkt, context(draws()), 'FORWARD', 'filter');
    expect(r.verdict).toBe('REJECT');
    expect(r.reject).toEqual({ with: 'icmp-port-unreachable' });
    expect(r.steps.at(-1)).toMatchObject({ chain: 'KUBE-SERVICES', ruleNum: 1, depth: 1 });
    // Only NEW connections are sent there.
    const est = walk(
      state,
      pkt,
      context(draws(), { conntrack: { state: 'ESTABLISHED' } }),
      'FORWARD',
      'filter',
    );
    expect(est.verdict).toBe('ACCEPT');
    expect(est.steps.at(-1)?.chain).toBe('KUBE-FORWARD');
  });
});

describe('session affinity (ClientIP, 600 s) via xt_recent', () => {
  const SVC_AFF = 'KUBE-SVC-7OAMXYFOHIJTWZAG';
  const clients = Array.from({ length: 20 }, (_, i) => `10.0.3.${i + 10}`);
  const to = (state: NetfilterState, ctx: WalkContext, src: string, sport: number) =>
    walk(state, fromPod({ src, sport, dst: '172.30.0.43' }), ctx);

  it('the same endpoint within the timeout, re-chosen by the ladder after it (seed 7)', () => {
    const state = kubeProxyNode();
    const store = createWalkStore();
    const rng = rngFromSeed(7);
    const at = (ms: number) => context(rng, { store, now: ms });
    const first = clients.map((c) => to(state, at(0), c, 40000).nat?.to);
    const again = clients.map((c) => to(state, at(60_000), c, 40001));
    expect(again.map((r) => r.nat?.to)).toEqual(first);
    for (const r of again) {
      const chosen = r.steps.find(
        (s) => s.chain === SVC_AFF && s.matched && s.outcome.kind === 'jump',
      );
      expect(chosen?.text).toContain('--rcheck --seconds 600 --reap');
    }
    // 600 s after the last --set (at 60 s) the entry still counts; a millisecond later it does not.
    expect(
      to(state, at(660_000), clients[0] ?? '', 40002).steps.some(
        (s) => s.text.includes('--rcheck') && s.matched,
      ),
    ).toBe(true);
    const later = clients.map((c) => to(state, at(1_400_000), c, 40003));
    for (const r of later) {
      const chosen = r.steps.find(
        (s) => s.chain === SVC_AFF && s.matched && s.outcome.kind === 'jump',
      );
      expect(chosen?.text).not.toContain('--rcheck');
    }
    expect(later.map((r) => r.nat?.to)).not.toEqual(first);
  });
});

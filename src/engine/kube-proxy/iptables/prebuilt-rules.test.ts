/**
 * The parses the proxier builds as it writes its most frequent lines (prebuilt-rules.ts) must
 * be exactly what the node's iptables-restore makes of those lines, and restoring the proxier's
 * pieces (which hand those parses over) must leave the very tables restoring the joined text
 * does: same iptables-save, with and without counters, same `iptables -L`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  Cluster,
  EndpointSlice,
  KubeProxyConfig,
  Protocol,
  Service,
} from '../../model/cluster';
import { iptablesCommand } from '../../netfilter/command';
import { forgetLineCaches } from '../../netfilter/parse-cache';
import { iptablesRestore } from '../../netfilter/restore';
import { chainLine, ruleLine } from '../../netfilter/restore-lines';
import { joinPieces, PrebuiltLines, type RestorePieces } from '../../netfilter/restore-pieces';
import { bumpRuleCounters, createNetfilter } from '../../netfilter/state';
import type { NetfilterState } from '../../netfilter/types';
import { iptablesSave } from '../../netfilter/views';
import {
  cluster,
  endpoint,
  kubeProxyConfig,
  port,
  service,
  slice,
  slicePort,
  upstreamProxierOptions,
  type EndpointSpec,
} from '../testing/fixtures';
import { clusterIPParse, endpointDnatParse, hairpinParse, ladderParse } from './prebuilt-rules';
import { createIptablesProxier, LARGE_CLUSTER_ENDPOINTS_THRESHOLD } from './proxier';

const PROTOCOLS: readonly Protocol[] = ['TCP', 'UDP', 'SCTP'];
const STATES: readonly EndpointSpec[] = [
  {},
  {},
  { ready: false, serving: true, terminating: true },
  { ready: false, serving: false, terminating: true },
  { ready: false },
];

const serviceArb = fc.record({
  type: fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer'),
  protocols: fc.array(fc.nat(PROTOCOLS.length - 1), { minLength: 1, maxLength: 2 }),
  externalIPs: fc.nat(2),
  etpLocal: fc.boolean(),
  itpLocal: fc.boolean(),
  affinity: fc.boolean(),
  sourceRange: fc.constantFrom('', '192.168.0.0/16', '203.0.113.0/24'),
  endpoints: fc.array(
    fc.record({ local: fc.boolean(), state: fc.nat(STATES.length - 1), port: fc.nat(2) }),
    { maxLength: 5 },
  ),
});

type ServiceSpec = typeof serviceArb extends fc.Arbitrary<infer T> ? T : never;

function build(i: number, s: ServiceSpec): [Service, EndpointSlice] {
  const name = `svc${i}`;
  const external = s.type !== 'ClusterIP';
  const ports = s.protocols.map((p, k) => ({
    name: `p${k}`,
    port: 80 + k,
    protocol: PROTOCOLS[p]!,
  }));
  const svc = service('ns', name, `172.30.${i >> 8}.${i & 255}`, {
    type: s.type,
    ports: ports.map((p, k) => port(p.name, p.port, { protocol: p.protocol, nodePort: external ? 30000 + 4 * i + k : 0 })), // prettier-ignore
    externalIPs: Array.from({ length: s.externalIPs }, (_, k) => `198.51.${i}.${k + 1}`),
    loadBalancerIngress: s.type === 'LoadBalancer' ? [{ ip: `5.6.${i >> 8}.${i & 255}` }] : [],
    loadBalancerSourceRanges: s.sourceRange === '' ? [] : [s.sourceRange],
    externalTrafficPolicy: s.etpLocal ? 'Local' : 'Cluster',
    internalTrafficPolicy: s.itpLocal ? 'Local' : 'Cluster',
    sessionAffinity: s.affinity ? 'ClientIP' : 'None',
    healthCheckNodePort: s.type === 'LoadBalancer' && s.etpLocal ? 32000 + i : 0,
  });
  const eps = s.endpoints.map((e, k) =>
    endpoint(`10.${1 + (i >> 8)}.${i & 255}.${k + 1}`, {
      ...STATES[e.state],
      node: e.local ? 'test-node' : 'n2',
    }),
  );
  const slicePorts = ports.map((p) => slicePort(p.name, 8080 + p.port, p.protocol));
  return [svc, slice('ns', name, eps, slicePorts)];
}

/** One more Service with enough endpoints for large-cluster mode (no endpoint comments). */
function padding(): [Service, EndpointSlice] {
  const n = LARGE_CLUSTER_ENDPOINTS_THRESHOLD + 1;
  const eps = Array.from({ length: n }, (_, k) => endpoint(`10.200.${k >> 8}.${k & 255}`));
  return [service('pad', 'big', '172.31.0.1'), slice('pad', 'big', eps)];
}

/** The local-traffic detectors: `-s CIDR` ones, and interface ones the builders leave alone. */
const DETECTORS: readonly Partial<KubeProxyConfig>[] = [
  { detectLocalMode: 'ClusterCIDR' },
  { detectLocalMode: 'NodeCIDR' },
  { detectLocalMode: 'BridgeInterface', bridgeInterface: 'cbr0' },
  { detectLocalMode: 'InterfaceNamePrefix', interfaceNamePrefix: 'veth' },
];

const clusterArb = fc
  .record({
    services: fc.array(serviceArb, { minLength: 1, maxLength: 6 }),
    large: fc.boolean(),
    masqueradeAll: fc.boolean(),
    detector: fc.nat(DETECTORS.length - 1),
  })
  .map(({ services, large, masqueradeAll, detector }): Cluster => {
    const built = services.map((s, i) => build(i, s));
    if (large) built.push(padding());
    return cluster(
      built.map(([s]) => s),
      built.map(([, e]) => e),
      kubeProxyConfig({ masqueradeAll, ...DETECTORS[detector] }),
    );
  });

function syncPieces(c: Cluster): RestorePieces {
  return createIptablesProxier(upstreamProxierOptions({}, c.kubeProxy)).sync(c).restorePieces;
}

/**
 * Each prebuilt line with its parse: the lines handed over once (taken: the pieces then carry
 * none), and the kept texts' lines (KUBE-SERVICES), each text once.
 */
function prebuiltLines(pieces: RestorePieces): [string, unknown][] {
  const out: [string, unknown][] = [];
  const keptTexts = new Set<string>();
  for (const p of pieces.pieces) {
    let parses: readonly unknown[] | undefined;
    if (p instanceof PrebuiltLines) parses = p.take();
    else if (typeof p !== 'string' && !keptTexts.has(p.text)) {
      keptTexts.add(p.text);
      parses = p.parses;
    }
    if (typeof p === 'string' || parses === undefined) continue;
    p.text.split('\n').forEach((line, i) => {
      const parse = parses[i];
      if (parse !== undefined) out.push([line, parse]);
    });
  }
  return out;
}

function views(state: NetfilterState): string[] {
  const now = { nowEpochSeconds: 0 };
  return [
    iptablesSave(state, now).stdout,
    iptablesSave(state, { ...now, counters: true }).stdout,
    iptablesCommand(state, ['-t', 'nat', '-L', '-n', '-v', '--line-numbers']).stdout,
  ];
}

function countOnePacketEach(state: NetfilterState): void {
  for (const chain of state.tables.nat?.chains ?? []) {
    chain.rules.forEach((_, i) => bumpRuleCounters(state, 'nat', chain.name, i, 60));
  }
}

function restored(input: string | RestorePieces): NetfilterState {
  const state = createNetfilter();
  const out = iptablesRestore(state, input, { noflush: true, counters: true });
  expect(out).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  return state;
}

describe('parses built with the lines (prebuilt-rules.ts)', () => {
  it('equal the restore’s parse of each line, in both large-cluster modes', () => {
    let rules = 0;
    let chains = 0;
    fc.assert(
      fc.property(clusterArb, (c) => {
        for (const [line, parse] of prebuiltLines(syncPieces(c))) {
          if (typeof parse === 'string') {
            chains++;
            expect(chainLine('nat', line, 1, true)).toBe(parse);
            continue;
          }
          rules++;
          const read = ruleLine('nat', line, 1, true);
          expect(parse).toStrictEqual(read);
          // Same key order too (the objects take the same shape as the restore's).
          expect(JSON.stringify(parse)).toBe(JSON.stringify(read));
        }
      }),
      { numRuns: 30 },
    );
    expect(rules).toBeGreaterThan(1000);
    expect(chains).toBeGreaterThan(1000);
  });

  it('leave the tables restoring the text leaves, also when the pieces are restored again', () => {
    fc.assert(
      fc.property(clusterArb, fc.boolean(), (c, firstRestore) => {
        // A process's first restore keeps each parse as the table's rule; later ones cache it.
        if (firstRestore) forgetLineCaches();
        const pieces = syncPieces(c);
        const first = restored(pieces);
        countOnePacketEach(first);
        // Taken once: restoring the pieces again (with no cached parse: a first restore, or a
        // cache that dropped them) reads the lines; the first table's rules, which count
        // packets in place, are not the second one's.
        if (firstRestore) forgetLineCaches();
        const again = views(restored(pieces));
        const fromText = restored(joinPieces(pieces.pieces));
        expect(again).toEqual(views(fromText));
        countOnePacketEach(fromText);
        expect(views(first)).toEqual(views(fromText));
      }),
      { numRuns: 20 },
    );
  });

  it('are left to the restore for input they are not sure of', () => {
    expect(hairpinParse('KUBE-SEP-A', undefined, '10.0.0.1', 'KUBE-MARK-MASQ')).toBeDefined();
    expect(hairpinParse('KUBE-SEP-A', undefined, '10.0.0.01', 'KUBE-MARK-MASQ')).toBeUndefined();
    expect(hairpinParse('KUBE-SEP-A', 'a b', '10.0.0.1', 'KUBE-MARK-MASQ')).toBeUndefined();
    expect(hairpinParse('KUBE-SEP-A', undefined, '10.0.0.1/8', 'KUBE-MARK-MASQ')).toBeUndefined();
    expect(hairpinParse('KUBE-SEP-ABCDEFGHIJKLMNOPQRSTUVWX', undefined, '10.0.0.1', 'KUBE-MARK-MASQ')).toBeUndefined(); // prettier-ignore
    expect(endpointDnatParse('KUBE-SEP-A', undefined, 'tcp', '10.0.0.1:80')).toBeDefined();
    expect(endpointDnatParse('KUBE-SEP-A', undefined, 'tcp', '10.0.0.1:080')).toBeUndefined();
    expect(endpointDnatParse('KUBE-SEP-A', undefined, 'icmp', '10.0.0.1:80')).toBeUndefined();
    expect(endpointDnatParse('KUBE-SEP-A', undefined, 'tcp', '10.0.0.1:80-81')).toBeUndefined();
    expect(ladderParse('KUBE-SVC-A', 'x -> y', '0.5000000000', 'KUBE-SEP-A')).toBeDefined();
    expect(ladderParse('KUBE-SVC-A', 'x "y"', undefined, 'KUBE-SEP-A')).toBeUndefined();
    expect(ladderParse('KUBE-SVC-A', undefined, '1.5', 'KUBE-SEP-A')).toBeUndefined();
    expect(ladderParse('KUBE-SVC-A', undefined, undefined, 'DROP')).toBeUndefined();
    const masq = {
      chain: 'KUBE-SVC-A',
      comment: 'ns/a:p cluster IP',
      protocol: 'tcp',
      clusterIP: '172.30.0.1',
      port: 80,
      notLocal: ['!', '-s', '10.0.0.0/8'],
      target: 'KUBE-MARK-MASQ',
    };
    expect(clusterIPParse(masq)).toBeDefined();
    expect(clusterIPParse({ ...masq, notLocal: [] })).toBeDefined();
    expect(clusterIPParse({ ...masq, notLocal: ['!', '-i', 'cbr0'] })).toBeUndefined();
    expect(clusterIPParse({ ...masq, notLocal: ['-s', '10.0.0.0/8'] })).toBeUndefined();
    expect(clusterIPParse({ ...masq, port: 65536 })).toBeUndefined();
    expect(clusterIPParse({ ...masq, clusterIP: 'None' })).toBeUndefined();
  });
});

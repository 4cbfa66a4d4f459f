/**
 * The proxier caches per-Service state between syncs (change tracking by object identity,
 * rendered service-port fragments, the stale-chain registry). These properties drive one
 * long-lived proxier through random cluster edits and check it against proxiers without
 * history: what it leaves in the kernel, and each restore input it writes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cluster, EndpointSlice, Protocol, Service } from '../../model/cluster';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  slicePort,
  upstreamProxierOptions,
  type EndpointSpec,
} from '../testing/fixtures';
import { applyRestore, kernelSnapshot, type Kernel } from '../testing/restore-applier';
import { createIptablesProxier, type SyncResult } from './proxier';

// --- random clusters: few namespace/names, so edits keep hitting the same Services ---------

const KEYS = [
  ['ns1', 'a'],
  ['ns1', 'b'],
  ['ns2', 'a'],
] as const;
const PORT_SETS: readonly (readonly [string, number, Protocol])[][] = [
  [['p80', 80, 'TCP']],
  [
    ['p80', 80, 'TCP'],
    ['p81', 81, 'UDP'],
  ],
  [['', 80, 'TCP']],
];
const STATES: Record<string, EndpointSpec> = {
  ready: {},
  servingTerminating: { ready: false, serving: true, terminating: true },
  terminating: { ready: false, serving: false, terminating: true },
  notReady: { ready: false },
};

const serviceArb = fc
  .record({
    key: fc.nat(KEYS.length - 1),
    type: fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer'),
    headless: fc.constantFrom(false, false, false, true),
    ports: fc.nat(PORT_SETS.length - 1),
    externalIP: fc.boolean(),
    etpLocal: fc.boolean(),
    itpLocal: fc.constantFrom(false, false, true),
    affinity: fc.boolean(),
    sourceRange: fc.constantFrom('', '192.168.0.0/16', '203.0.113.0/24'),
  })
  .map((s): Service => {
    const [ns, name] = KEYS[s.key]!;
    const external = s.type !== 'ClusterIP';
    return service(ns, name, s.headless ? 'None' : `172.30.0.${10 + s.key}`, {
      type: s.type,
      ports: PORT_SETS[s.ports]!.map(([n, p, protocol], i) =>
        port(n, p, { protocol, nodePort: external ? 30000 + 10 * s.key + i : 0 }),
      ),
      externalIPs: s.externalIP ? [`198.51.100.${s.key}`] : [],
      loadBalancerIngress: s.type === 'LoadBalancer' ? [{ ip: `5.6.7.${s.key}` }] : [],
      loadBalancerSourceRanges: s.sourceRange === '' ? [] : [s.sourceRange],
      externalTrafficPolicy: s.etpLocal ? 'Local' : 'Cluster',
      internalTrafficPolicy: s.itpLocal ? 'Local' : 'Cluster',
      sessionAffinity: s.affinity ? 'ClientIP' : 'None',
      healthCheckNodePort: s.type === 'LoadBalancer' && s.etpLocal ? 32000 + s.key : 0,
    });
  });

const sliceArb = fc
  .record({
    key: fc.nat(KEYS.length - 1),
    suffix: fc.constantFrom('x', 'y'),
    ports: fc.nat(PORT_SETS.length - 1),
    skipped: fc.constantFrom(false, false, false, true),
    endpoints: fc.array(
      fc.record({
        ip: fc.integer({ min: 1, max: 6 }),
        local: fc.boolean(),
        state: fc.constantFrom('ready', 'ready', ...Object.keys(STATES)),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .map((s): EndpointSlice => {
    const [ns, name] = KEYS[s.key]!;
    const eps = s.endpoints.map((e) =>
      endpoint(`10.1.0.${e.ip}`, { ...STATES[e.state], node: e.local ? 'test-node' : 'n2' }),
    );
    const built = slice(
      ns,
      name,
      eps,
      PORT_SETS[s.ports]!.map(([n, p, pr]) => slicePort(n, p, pr)),
      s.suffix,
    );
    if (!s.skipped) return built;
    const labels = { ...built.meta.labels, 'service.kubernetes.io/headless': '' };
    return { ...built, meta: { ...built.meta, labels } };
  });

type Edit =
  | { kind: 'putService' | 'addService'; svc: Service }
  | { kind: 'replaceService'; at: number; svc: Service }
  | { kind: 'putSlice'; slice: EndpointSlice }
  | { kind: 'replaceSlice'; at: number; slice: EndpointSlice }
  | { kind: 'removeService' | 'removeSlice'; at: number }
  | { kind: 'cloneEqual'; at: number; services: boolean }
  | { kind: 'reverse'; services: boolean }
  | { kind: 'bulk'; size: number };

/** One edit, weighted towards upserts. Replacements keep list positions, as the loader's do. */
const weighted = (pairs: [number, fc.Arbitrary<Edit>][]) =>
  pairs.map(([weight, arbitrary]) => ({ weight, arbitrary }));
const index = fc.nat();
const editArb = fc.oneof(
  ...weighted([
    [3, serviceArb.map((svc): Edit => ({ kind: 'putService', svc }))],
    [1, serviceArb.map((svc): Edit => ({ kind: 'addService', svc }))],
    [
      1,
      fc.tuple(index, serviceArb).map(([at, svc]): Edit => ({ kind: 'replaceService', at, svc })),
    ],
    [1, index.map((at): Edit => ({ kind: 'removeService', at }))],
    [4, sliceArb.map((slice): Edit => ({ kind: 'putSlice', slice }))],
    [
      1,
      fc.tuple(index, sliceArb).map(([at, slice]): Edit => ({ kind: 'replaceSlice', at, slice })),
    ],
    [1, index.map((at): Edit => ({ kind: 'removeSlice', at }))],
    [
      1,
      fc
        .tuple(index, fc.boolean())
        .map(([at, services]): Edit => ({ kind: 'cloneEqual', at, services })),
    ],
    [1, fc.boolean().map((services): Edit => ({ kind: 'reverse', services }))],
  ]),
);
const bulkArb = fc.constantFrom(0, 990, 1005).map((size): Edit => ({ kind: 'bulk', size }));

interface State {
  services: readonly Service[];
  slices: readonly EndpointSlice[];
}

const sameName = (a: Service | EndpointSlice, b: Service | EndpointSlice): boolean =>
  a.meta.namespace === b.meta.namespace && a.meta.name === b.meta.name;

function replaceOrAppend<T extends Service | EndpointSlice>(list: readonly T[], item: T): T[] {
  const i = list.findIndex((x) => sameName(x, item));
  return i < 0 ? [...list, item] : list.map((x, j) => (j === i ? item : x));
}

/** `list` with the item at `n` (modulo the length) mapped, or dropped. */
const mapAt = <T>(list: readonly T[], n: number, f: (x: T) => T): T[] =>
  list.map((x, i) => (i === n % list.length ? f(x) : x));
const dropAt = <T>(list: readonly T[], n: number): T[] =>
  list.filter((_, i) => i !== n % list.length);

/** A Service with `size` endpoints: enough to cross largeClusterEndpointsThreshold (1000). */
function bulk(state: State, size: number): State {
  const services = state.services.filter((s) => s.meta.namespace !== 'bulk');
  const slices = state.slices.filter((s) => s.meta.namespace !== 'bulk');
  if (size === 0) return { services, slices };
  const ips = Array.from({ length: size }, (_, i) => `10.2.${i >> 8}.${i & 255}`);
  const eps = ips.map((ip) => endpoint(ip));
  return {
    services: [...services, service('bulk', 'big', '172.30.1.1')],
    slices: [...slices, slice('bulk', 'big', eps)],
  };
}

function applyEdit({ services, slices }: State, e: Edit): State {
  switch (e.kind) {
    case 'putService':
      return { services: replaceOrAppend(services, e.svc), slices };
    case 'addService':
      return { services: [...services, e.svc], slices };
    case 'replaceService':
      return { services: mapAt(services, e.at, () => e.svc), slices };
    case 'removeService':
      return { services: dropAt(services, e.at), slices };
    case 'putSlice':
      return { services, slices: replaceOrAppend(slices, e.slice) };
    case 'replaceSlice':
      return { services, slices: mapAt(slices, e.at, () => e.slice) };
    case 'removeSlice':
      return { services, slices: dropAt(slices, e.at) };
    case 'cloneEqual': // a new object with the same content (a reloaded scenario): no change
      return e.services
        ? { services: mapAt(services, e.at, (s) => structuredClone(s)), slices }
        : { services, slices: mapAt(slices, e.at, (s) => structuredClone(s)) };
    case 'reverse':
      return e.services
        ? { services: [...services].reverse(), slices }
        : { services, slices: [...slices].reverse() };
    case 'bulk':
      return bulk({ services, slices }, e.size);
  }
}

const clusterOf = (s: State): Cluster => cluster(s.services, s.slices);
const options = upstreamProxierOptions();

describe('sync caches agree with proxiers that have no history', () => {
  // Each sync sees 1-3 edits; no bulk Service here, so large-cluster mode never starts.
  const step = fc.record({
    edits: fc.array(editArb, { minLength: 1, maxLength: 3 }),
    fail: fc.constantFrom(false, false, false, false, false, false, true),
    force: fc.constantFrom(false, false, false, false, false, true),
    readKernel: fc.boolean(),
    leftover: fc.constantFrom(false, false, false, false, true),
  });

  it('after any edits, the kernel holds what a fresh full sync writes (fast-check seed 424242)', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const proxier = createIptablesProxier(options);
        const kernel: Kernel = new Map();
        let state: State = { services: [], slices: [] };
        for (const s of steps) {
          state = s.edits.reduce(applyEdit, state);
          if (s.force) proxier.forceFullSync();
          // A chain left behind by someone else, seen only when kube-proxy reads the kernel.
          if (s.leftover) kernel.get('nat')?.set('KUBE-SEP-LEFTOVER0000000', []);
          const readKernel = s.readKernel || s.leftover;
          const existingNatChains = readKernel ? [...(kernel.get('nat')?.keys() ?? [])] : undefined;
          const out = proxier.sync(
            clusterOf(state),
            existingNatChains ? { existingNatChains } : {},
          );
          if (s.fail) {
            proxier.restoreFailed(); // the kernel is unchanged
            continue;
          }
          applyRestore(kernel, out.restoreInput);
          const fresh: Kernel = new Map();
          applyRestore(fresh, createIptablesProxier(options).sync(clusterOf(state)).restoreInput);
          expect(kernelSnapshot(kernel)).toEqual(kernelSnapshot(fresh));
          expect(proxier.natChains()).toEqual([...(kernel.get('nat')?.keys() ?? [])].sort());
        }
      }),
      { seed: 424242, numRuns: 150 },
    );
  });

  it('every sync writes what a proxier without that history writes, across large-cluster mode changes (fast-check seed 8675309)', () => {
    const modeStep = fc.record({
      edits: fc.array(
        fc.oneof({ arbitrary: editArb, weight: 3 }, { arbitrary: bulkArb, weight: 1 }),
        { minLength: 0, maxLength: 3 },
      ),
      force: fc.constantFrom(false, false, false, true),
    });
    fc.assert(
      fc.property(fc.array(modeStep, { minLength: 1, maxLength: 20 }), (steps) => {
        const proxier = createIptablesProxier(options);
        let state: State = { services: [], slices: [] };
        let previous: Cluster | undefined;
        for (const s of steps) {
          state = s.edits.reduce(applyEdit, state);
          const current = clusterOf(state);
          // A full sync depends only on the cluster and the chains in the kernel: compare
          // with a new proxier's first sync. A partial one also depends on the previous
          // cluster: compare with a new proxier that synced that first.
          const existingNatChains = proxier.natChains();
          if (s.force) proxier.forceFullSync();
          const out: SyncResult = proxier.sync(current);
          const reference = createIptablesProxier(options);
          if (s.force || !previous) {
            expect(out).toEqual(reference.sync(current, { existingNatChains }));
          } else {
            reference.sync(previous);
            expect(out).toEqual(reference.sync(current));
          }
          previous = current;
        }
      }),
      { seed: 8675309, numRuns: 60 },
    );
  }, 60_000);
});

/**
 * The copy-on-write batches and the incrementally kept indexes (chain by name, jump
 * references, listing order, parsed-line cache) must give exactly what a table built from
 * scratch gives: compared through every view, seeded.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../model/cluster';
import { rngFromSeed, type Rng } from '../model/runtime';
import { createIptablesProxier } from '../kube-proxy/iptables/proxier';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  upstreamProxierOptions,
} from '../kube-proxy/testing/fixtures';
import {
  createNetfilter,
  iptablesCommand,
  iptablesList,
  iptablesRestore,
  iptablesRulesSpec,
  iptablesSave,
  type NetfilterState,
} from './index';

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.nextU32() % xs.length] as T;

/** Every view of a node: save with counters, -S and -L -n -v -x of each table. */
function views(s: NetfilterState): string {
  let out = iptablesSave(s, { counters: true, nowEpochSeconds: 0 }).stdout;
  for (const table of ['filter', 'nat', 'mangle']) {
    out += iptablesRulesSpec(s, { table, verbose: true }).stdout;
    out += iptablesList(s, { table, numeric: true, verbose: true, exact: true }).stdout;
  }
  return out;
}

function fresh(input: string): NetfilterState {
  const s = createNetfilter();
  expect(iptablesRestore(s, input, { noflush: true, counters: true }).stderr).toBe('');
  return s;
}

interface Svc {
  readonly svc: Service;
  readonly slice: EndpointSlice;
}

function makeService(rng: Rng, i: number, gen: number): Svc {
  const name = `s${i}`;
  const type = pick(rng, ['ClusterIP', 'ClusterIP', 'NodePort'] as const);
  const svc = service('ns', name, `172.30.${i >> 8}.${i & 255}`, {
    type,
    ports: [port('p80', 80, type === 'NodePort' ? { nodePort: 30000 + i } : {})],
    ...(rng.nextU32() % 5 === 0 ? { sessionAffinity: 'ClientIP' as const } : {}),
  });
  const eps = Array.from({ length: 1 + (rng.nextU32() % 4) }, (_, e) =>
    endpoint(`10.${gen % 200}.${i >> 6}.${((i & 63) << 2) + e}`, {
      node: rng.nextU32() % 3 === 0 ? 'other' : 'test-node',
      ready: rng.nextU32() % 9 !== 0,
    }),
  );
  return { svc, slice: slice('ns', name, eps) };
}

describe('incremental state equals a fresh restore', () => {
  it('2,000 services, then partial syncs with churn (seed 7)', () => {
    const rng = rngFromSeed(7);
    const svcs = new Map<number, Svc>();
    for (let i = 0; i < 2000; i++) svcs.set(i, makeService(rng, i, 0));
    const clusterOf = () =>
      cluster(
        [...svcs.values()].map((x) => x.svc),
        [...svcs.values()].map((x) => x.slice),
      );
    const proxier = createIptablesProxier(upstreamProxierOptions());
    const node = fresh(proxier.sync(clusterOf()).restoreInput);
    for (let round = 1; round <= 6; round++) {
      for (let k = 0; k < 40; k++) {
        const i = rng.nextU32() % 2100;
        if (svcs.has(i) && rng.nextU32() % 3 === 0) svcs.delete(i);
        else svcs.set(i, makeService(rng, i, round));
      }
      // More than syncPeriod apart: large-cluster mode deletes stale chains only that often.
      const sync = proxier.sync(clusterOf(), { now: round * 31_000 });
      expect(sync.full).toBe(false);
      const r = iptablesRestore(node, sync.restoreInput, { noflush: true, counters: true });
      expect(r.stderr).toBe('');
    }
    const full = createIptablesProxier(upstreamProxierOptions()).sync(clusterOf()).restoreInput;
    expect(views(node)).toBe(views(fresh(full)));
  });

  it('random iptables commands and restores: same outputs as a state without indexes (seed 11)', () => {
    const rng = rngFromSeed(11);
    const chains = ['A', 'B', 'C', 'D', 'E'];
    const target = () => pick(rng, [...chains, 'RETURN', 'ACCEPT', 'PREROUTING']);
    const commands: (() => string[])[] = [
      () => ['-N', pick(rng, chains)],
      () => ['-A', pick(rng, [...chains, 'OUTPUT']), '-j', target()],
      () => ['-A', pick(rng, chains), '-s', `10.0.0.${rng.nextU32() % 4}`, '-g', target()],
      () => ['-I', pick(rng, chains), String(1 + (rng.nextU32() % 3)), '-j', target()],
      () => ['-R', pick(rng, chains), '1', '-j', target()],
      () => ['-D', pick(rng, chains), '1'],
      () => ['-D', pick(rng, chains), '-j', target()],
      () => ['-C', pick(rng, chains), '-j', target()],
      () => (rng.nextU32() % 4 === 0 ? ['-F'] : ['-F', pick(rng, chains)]),
      () => (rng.nextU32() % 6 === 0 ? ['-X'] : ['-X', pick(rng, chains)]),
      () => ['-E', pick(rng, chains), pick(rng, chains)],
      () => ['-Z', pick(rng, [...chains, 'OUTPUT'])],
      () => ['-P', 'OUTPUT', pick(rng, ['ACCEPT', 'DROP'])],
      () => ['-L', pick(rng, chains), '-n', '-v'],
    ];
    // The rules each chain was last given by a restore: replayed word for word, they take
    // the path for a chain rewritten with the rules it has (see TableDraft.repeatsBase).
    const written = new Map<string, string>();
    const restoreInput = (): string => {
      let t = '*nat\n';
      for (let k = 0; k < 6; k++) {
        const c = pick(rng, chains);
        const kind = rng.nextU32() % 7;
        if (kind <= 1) t += `:${c} - [0:0]\n`;
        else if (kind === 2) t += `-A ${c} -j ${target()}\n`;
        else if (kind === 3) t += `-X ${c}\n`;
        else if (kind === 4) t += `-E ${c} ${pick(rng, chains)}\n`;
        else if (kind === 5) t += `:${c} - [0:0]\n${written.get(c) ?? ''}`;
        else {
          const rules = `-A ${c} -j ${target()}\n-A ${c} -j ${target()}\n`;
          written.set(c, rules);
          t += `:${c} - [0:0]\n${rules}`;
        }
      }
      return `${t}COMMIT\n`;
    };
    const state = createNetfilter();
    for (let step = 0; step < 1500; step++) {
      const plain = JSON.parse(JSON.stringify(state)) as NetfilterState;
      const op = rng.nextU32() % 5 === 0 ? restoreInput() : pick(rng, commands)();
      const noflush = rng.nextU32() % 8 !== 0;
      const run = (s: NetfilterState) =>
        typeof op === 'string'
          ? iptablesRestore(s, op, { noflush })
          : iptablesCommand(s, ['-t', 'nat', ...op]);
      const label = typeof op === 'string' ? op : op.join(' ');
      expect(run(state), label).toEqual(run(plain));
      expect(JSON.stringify(state), label).toBe(JSON.stringify(plain));
      expect(views(state), label).toBe(views(plain));
    }
  });
});

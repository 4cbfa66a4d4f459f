/**
 * Differential tests of kube-proxy's nftables mode: the transactions the engine's proxier
 * writes are loaded with the real `nft -f -` (nftables 1.0.6) in a throwaway namespace and
 * into the engine's nf_tables model; `nft list …` must then print the same, line for line.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/engine/model/cluster';
import {
  createNftablesProxier,
  nftablesCleanupTransaction,
} from '../../src/engine/kube-proxy/nftables/proxier';
import {
  bootNodeNftables,
  syncNodeNftables,
  type NodeNftables,
} from '../../src/engine/sim/node-nftables';
import { nftUnavailableReason, runNftBoth, type NftStep } from './nft-differential';
import { afterShapeChanges, serviceShapes } from './service-shapes';

/** The shapes in nftables mode (`patch` adds to the configuration). */
function nftShapes(patch: Parameters<typeof serviceShapes>[0] = {}): Cluster {
  return serviceShapes({ mode: 'nftables', ...patch });
}

const reason = nftUnavailableReason();
if (reason !== undefined) console.log(`skipping nft differential tests: ${reason}`);

const T = ['ip', 'kube-proxy'];
const VIEWS: NftStep[] = [
  { nft: ['list', 'table', ...T] },
  { nft: ['-a', 'list', 'table', ...T] },
  { nft: ['list', 'ruleset'] },
  { nft: ['list', 'tables'] },
  { nft: ['list', 'chains'] },
  { nft: ['list', 'sets'] },
  { nft: ['list', 'maps'] },
  { nft: ['list', 'chain', ...T, 'services'] },
  { nft: ['-a', 'list', 'chain', ...T, 'masquerading'] },
  { nft: ['list', 'map', ...T, 'service-ips'] },
  { nft: ['list', 'set', ...T, 'cluster-ips'] },
  { nft: ['list', 'chain', ...T, 'nope'] },
  { nft: ['list', 'set', ...T, 'service-ips'] },
  { nft: ['list', 'table', 'ip', 'nope'] },
  { nft: ['list', 'table'] },
  { nft: ['list', 'table', 'ip'] },
  { nft: ['list', 'table', 'ip', 'ip'] },
  { nft: ['list', 'chain', 'ip'] },
  { nft: ['bogus'] },
  { nft: ['bogus', 'x'] },
  { nft: ['bogus', 'x', 'y'] },
  { nft: ['ip'] },
  { nft: ['table'] },
  { nft: ['list', 'ruleset', 'extra'] },
  { nft: ['list'] },
  { nft: ['-x'] },
  { nft: [] },
];

function expectSame(steps: readonly NftStep[]): void {
  for (const c of runNftBoth(steps)) {
    expect
      .soft(c.engine.stdout.split('\n'), `${c.label}: stdout`)
      .toEqual(c.real.stdout.split('\n'));
    expect.soft(c.engine.stderr, `${c.label}: stderr`).toBe(c.real.stderr);
    expect.soft(c.engine.exitCode, `${c.label}: exit code`).toBe(c.real.exitCode);
  }
}

function transactions(versions: readonly Cluster[], times: readonly number[]): NftStep[] {
  const proxier = createNftablesProxier({
    nodeName: 'node-1',
    nodeIPs: ['192.168.1.10'],
    podCIDR: '10.244.0.0/24',
    config: versions[0]!.kubeProxy,
    serviceCIDRs: '10.96.0.0/12',
  });
  const out: NftStep[] = [];
  versions.forEach((c, i) => {
    const r = proxier.sync(c, { now: times[i] ?? 0 });
    if (r.staleChainsTransaction !== '') out.push({ load: r.staleChainsTransaction });
    if (r.transaction !== '') out.push({ load: r.transaction });
  });
  return out;
}

describe.skipIf(reason !== undefined)('kube-proxy nftables mode against the real nft', () => {
  it('a full sync of every service shape', () => {
    expectSame([...transactions([nftShapes()], [0]), ...VIEWS]);
  });

  it('a partial sync after a scale-down and a deletion, then the stale chains deleted', () => {
    const c = nftShapes();
    const after = afterShapeChanges(c);
    expectSame([...transactions([c, after, after], [0, 1000, 3000]), ...VIEWS]);
  });

  it('nodePortAddresses restricted, masqueradeAll, an interface-name local detector', () => {
    const c = nftShapes({
      nodePortAddresses: ['192.168.1.0/24'],
      masqueradeAll: true,
      detectLocalMode: 'InterfaceNamePrefix',
      interfaceNamePrefix: 'veth',
    });
    expectSame([...transactions([c], [0]), ...VIEWS.slice(0, 3)]);
  });

  it("kube-proxy's cleanup deletes the table", () => {
    expectSame([
      ...transactions([nftShapes()], [0]),
      { load: nftablesCleanupTransaction() },
      { nft: ['list', 'ruleset'] },
      { nft: ['list', 'table', ...T] },
      // Run again without a table: the error kube-proxy ignores (IsNotFound).
      { load: nftablesCleanupTransaction() },
    ]);
  });

  it('a restarted kube-proxy resyncs over the table it left, then deletes the stale chains', () => {
    const c = nftShapes();
    const after = afterShapeChanges(c);
    const steps: NftStep[] = [];
    const record = (n: NodeNftables, cl: Cluster, now: number) => {
      const r = syncNodeNftables(n, cl, now);
      expect(n.lastError).toBe('');
      for (const tx of [r.staleChainsTransaction, r.transaction])
        if (tx !== '') steps.push({ load: tx });
    };
    const first = bootNodeNftables(c.nodes[0]!, c);
    record(first, c, 0);
    // A new kube-proxy process: it lists the chains and sets its predecessor left.
    const second: NodeNftables = { ...bootNodeNftables(c.nodes[0]!, after), state: first.state };
    record(second, after, 5000);
    record(second, after, 7000);
    expect(steps.some((s) => 'load' in s && s.load.startsWith('delete chain'))).toBe(true);
    expectSame([...steps, ...VIEWS.slice(0, 2)]);
  });

  it('kernel errors: a chain still jumped to, an element with another value, a missing element', () => {
    expectSame([
      ...transactions([nftShapes()], [0]),
      { load: 'delete chain ip kube-proxy mark-for-masquerade\n' },
      {
        load: 'add element ip kube-proxy service-ips { 10.96.0.20 . tcp . 80 : goto reject-chain }\n',
      },
      { load: 'delete element ip kube-proxy service-ips { 1.1.1.1 . tcp . 80 }\n' },
      {
        load: 'add chain ip kube-proxy y\nadd rule ip kube-proxy y drop\ndelete chain ip kube-proxy y\n',
      },
      ...[
        'delete chain ip kube-proxy nope',
        'flush chain ip kube-proxy nope',
        'flush set ip kube-proxy nope',
        'flush map ip kube-proxy nope',
        'delete set ip kube-proxy nope',
        'delete map ip kube-proxy nope',
        'add rule ip kube-proxy nope drop',
        'add element ip kube-proxy nope { 1.2.3.4 }',
        'delete element ip kube-proxy nope { 1.2.3.4 }',
        'flush table ip nope',
        'delete table ip nope',
        'add chain ip nope x',
      ].map((line) => ({ load: `${line}\n` })),
      { nft: ['list', 'chains'] },
    ]);
  });

  it('a transaction naming a set that does not exist is refused as a whole', () => {
    expectSame([
      ...transactions([nftShapes()], [0]),
      {
        load: 'add chain ip kube-proxy x\nadd rule ip kube-proxy x ip saddr @nope drop\n',
      },
      { nft: ['list', 'chains'] },
    ]);
  });
});

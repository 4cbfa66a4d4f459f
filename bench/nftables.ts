/**
 * nftables-mode figures for `npm run bench` (issue 4 §5): for N Services × 10 endpoints, what
 * kube-proxy's nftables proxier writes on one node (rules, chains, set/map elements,
 * transaction lines), how long the first full sync takes (transaction built + applied to the
 * simulated nf_tables) and a partial sync after one endpoint change; for 1,000 Services, the
 * real `nft -f` of the same transaction in a throwaway namespace.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import {
  createNftablesProxier,
  createNftState,
  generateScaleScenario,
  loadScenario,
  nftApply,
  type Cluster,
  type EndpointSlice,
  type NftState,
} from '../src/engine';

interface NftFigures {
  readonly services: number;
  readonly rules: number;
  readonly chains: number;
  readonly elements: number;
  readonly txLines: number;
  readonly firstSync: number;
  readonly partialSync: number;
  readonly transaction: string;
}

function count(state: NftState): { rules: number; chains: number; elements: number } {
  let rules = 0;
  let chains = 0;
  let elements = 0;
  for (const t of state.tables.values()) {
    for (const c of t.chains.values()) {
      chains++;
      rules += c.rules.length;
    }
    for (const s of t.sets.values()) elements += s.elements.size;
  }
  return { rules, chains, elements };
}

function flipFirstEndpoint(cluster: Cluster, ready: boolean): Cluster {
  const [first, ...rest] = cluster.endpointSlices;
  const ep = first?.endpoints[0];
  if (first === undefined || ep === undefined) return cluster;
  const changed: EndpointSlice = {
    ...first,
    endpoints: [{ ...ep, conditions: { ...ep.conditions, ready } }, ...first.endpoints.slice(1)],
  };
  return { ...cluster, endpointSlices: [changed, ...rest] };
}

function figures(services: number): NftFigures {
  const { cluster: loaded } = loadScenario(generateScaleScenario(services));
  const cluster: Cluster = { ...loaded, kubeProxy: { ...loaded.kubeProxy, mode: 'nftables' } };
  const node = cluster.nodes[0]!;
  const proxier = createNftablesProxier({
    nodeName: node.meta.name,
    nodeIPs: [node.internalIP],
    podCIDR: node.podCIDR,
    config: cluster.kubeProxy,
    serviceCIDRs: cluster.lab.serviceCIDR,
  });
  const state = createNftState();
  let t = performance.now();
  const first = proxier.sync(cluster, { now: 0 });
  const applied = nftApply(state, first.transaction, { nowMs: 0 });
  const firstSync = performance.now() - t;
  if (applied.exitCode !== 0) throw new Error(applied.stderr);
  const times: number[] = [];
  for (let i = 1; i <= 9; i++) {
    const next = flipFirstEndpoint(cluster, i % 2 === 0);
    t = performance.now();
    const r = proxier.sync(next, { now: i * 10_000 });
    nftApply(state, r.staleChainsTransaction + r.transaction, { nowMs: i * 10_000 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return {
    services,
    ...count(state),
    txLines: first.transaction.split('\n').length - 1,
    firstSync,
    partialSync: times[4]!,
    transaction: first.transaction,
  };
}

function realNft(transaction: string): string {
  if (process.getuid?.() !== 0) return 'skipped: not root';
  if (spawnSync('nft', ['--version']).status !== 0) return 'skipped: nft is not installed';
  const ns = `kpl-bench-nft-${process.pid}`;
  if (spawnSync('ip', ['netns', 'add', ns]).status !== 0) return 'skipped: cannot create a netns';
  try {
    const t = performance.now();
    const r = spawnSync('ip', ['netns', 'exec', ns, 'nft', '-f', '-'], {
      input: transaction,
      encoding: 'utf8',
      timeout: 300_000,
    });
    const took = performance.now() - t;
    return r.status === 0 ? `${took.toFixed(1)} ms` : `failed: ${r.stderr.slice(0, 200)}`;
  } finally {
    spawnSync('ip', ['netns', 'del', ns]);
  }
}

export function nftablesBench(): void {
  console.log('\nkube-proxy nftables mode, N Services × 10 endpoints (one node)');
  console.log('  services   rules  chains  elements  tx lines  first sync   partial sync');
  let tx1000 = '';
  for (const n of [10, 100, 1000, 10_000]) {
    const f = figures(n);
    if (n === 1000) tx1000 = f.transaction;
    console.log(
      `  ${String(n).padStart(8)} ${String(f.rules).padStart(7)} ${String(f.chains).padStart(7)} ${String(f.elements).padStart(9)} ${String(f.txLines).padStart(9)} ${f.firstSync.toFixed(1).padStart(8)} ms ${f.partialSync.toFixed(1).padStart(10)} ms`,
    );
  }
  console.log(`  real nft -f of the 1,000-Service transaction: ${realNft(tx1000)}`);
}

/**
 * IPVS-mode figures for `npm run bench` (issue 4 §5): for N ClusterIP Services × 10 endpoints,
 * what kube-proxy's IPVS proxier programs on node-1 (virtual servers, real servers, the iptables
 * rules it still writes, ipset entries, kube-ipvs0 addresses), how long its first sync takes
 * (kubelet's boot included) and a warm resync (IPVS mode has no partial syncs: every sync walks
 * every Service).
 */
import { performance } from 'node:perf_hooks';
import { generateScaleScenario, loadScenario, World } from '../src/engine';

function ms(t: number): string {
  return `${t.toFixed(1)} ms`;
}

function median(runs: number, fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function ipvsFigures(services: number) {
  const text = generateScaleScenario(services).replace(/^mode: iptables$/m, 'mode: ipvs');
  const { cluster } = loadScenario(text);
  const world = new World(cluster);
  const t = performance.now();
  const kernel = world.kernel('node-1')!;
  const first = performance.now() - t;
  const sync = kernel.lastSync!;
  const warm = median(3, () => world.setCluster({ ...cluster }));
  return {
    first,
    warm: warm / world.kernels.size,
    virtualServers: kernel.ipvs.services.length,
    realServers: kernel.ipvs.services.reduce((n, v) => n + v.destinations.length, 0),
    rules: sync.natRules + sync.filterRules,
    entries: kernel.ipsets.sets.reduce((n, set) => n + set.count, 0),
    bound: kernel.kubeIpvs0?.addresses.length ?? 0,
  };
}

export function ipvsBench(): void {
  console.log('\nIPVS mode: kube-proxy sync on node-1 (N ClusterIP Services × 10 endpoints)');
  console.log(
    '  Services  virtual  real      iptables  ipset    kube-ipvs0  first sync  warm sync',
  );
  console.log('            servers  servers   rules     entries  addresses');
  for (const n of [10, 100, 1_000, 10_000]) {
    const f = ipvsFigures(n);
    const cols = [n, f.virtualServers, f.realServers, f.rules, f.entries, f.bound];
    const widths = [8, 7, 7, 8, 7, 10];
    console.log(
      `  ${cols.map((c, i) => String(c).padStart(widths[i]!)).join('  ')}  ${ms(f.first).padStart(10)}  ${ms(f.warm).padStart(9)}`,
    );
  }
}

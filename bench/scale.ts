/**
 * The scale experiment's figures for `npm run bench` (issue 4 §5; lesson 8 charts the same
 * numbers, computed by the engine in the browser for up to 1,000 Services): for N ClusterIP
 * Services × 10 endpoints, per proxy mode, on node-1: the rules kube-proxy programs (and the
 * ipset or nft set/map elements, IPVS virtual and real servers), the rules a new connection's
 * first packet is evaluated against on the way to the Service matched last in KUBE-SERVICES
 * (with the hash lookups among them), node-1's first sync (kubelet's boot included) and the
 * heap the whole simulated cluster keeps.
 */
import { performance } from 'node:perf_hooks';
import { measureScalePoint, type ProxyMode } from '../src/engine';

const MODES: readonly ProxyMode[] = ['iptables', 'ipvs', 'nftables'];

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/** One run; the world is dropped on return, so the next run's baseline does not hold it. */
function measured(mode: ProxyMode, n: number, target: string | undefined) {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const run = measureScalePoint(mode, n, target, () => performance.now());
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - before;
  // The world stays reachable (run) until after the second measurement.
  return { point: run.point, target: run.target, heap: run.world.kernels.size > 0 ? heap : 0 };
}

export function scaleBench(sizes: readonly number[] = [10, 100, 1_000, 10_000]): void {
  console.log(
    '\nScale experiment (issue 4 §5): N Services × 10 endpoints, node-1, first packet of a new',
  );
  console.log('connection from a pod to the Service matched last in iptables KUBE-SERVICES');
  console.log(
    '  mode      Services   rules    set elems  VS / RS          1st packet: rules  lookups  first sync   heap',
  );
  for (const n of sizes) {
    let target: string | undefined;
    for (const mode of MODES) {
      const run = measured(mode, n, target);
      target ??= run.target;
      const p = run.point;
      const vsrs = p.virtualServers > 0 ? `${p.virtualServers} / ${p.realServers}` : '–';
      console.log(
        `  ${mode.padEnd(9)} ${String(n).padStart(8)}  ${String(p.rules).padStart(7)}  ${String(p.setElements).padStart(9)}  ${vsrs.padEnd(15)}  ${String(p.firstPacketRules).padStart(17)}  ${String(p.firstPacketLookups).padStart(7)}  ${`${p.firstSyncMs.toFixed(1)} ms`.padStart(10)}  ${mib(run.heap).padStart(10)}`,
      );
    }
  }
}

/**
 * Load distribution at scale (issue 3): 10,000 TCP connections over 1,000 Services sharing 10
 * pods, every packet through the nodes' kernels and the pods' socket layers; the spread per pod,
 * and the heap before, with the connections' entries live, and after they closed and expired.
 */
import { generateLoadScenario, hostView, setTraceDetail, World } from '../src/engine';
import { runConnections } from './load-loop';

function ms(v: number): string {
  return `${v.toFixed(1)} ms`;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

interface LoadFigures {
  readonly ms: number;
  /** CPU time (user + system, every thread: GC included), ms. */
  readonly cpu: number;
  readonly perPod: readonly number[];
  readonly failed: number;
  /** Wall time of the first 1,000 connections (or all, when fewer): JIT warm-up is in them. */
  readonly firstThousandMs: number;
}

/** runConnections (bench/load-loop.ts) with the CPU time it took (user + system, every thread). */
function loadBatch(world: World, services: number, count: number, start: number): LoadFigures {
  const c = process.cpuUsage();
  const loop = runConnections(world, services, count, start, () => performance.now());
  const d = process.cpuUsage(c);
  return {
    ms: loop.ms,
    cpu: (d.user + d.system) / 1000,
    perPod: [...loop.perPod.values()],
    failed: loop.failed,
    firstThousandMs: loop.firstThousandMs,
  };
}

function heapNow(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

function connectionFigures(services: number, count: number) {
  const { world } = World.fromScenario(generateLoadScenario(services, 10));
  const node = hostView(world, { kind: 'node', name: 'node-1' }, () => undefined);
  world.kernel('node-1');
  world.kernel('node-2');
  setTraceDetail(world, 'off');
  const heapStart = heapNow();
  const first = loadBatch(world, services, count, 0);
  const liveEntries = node.nodeKernel()?.conntrack.count ?? 0;
  const heapLive = heapNow();
  // TIME_WAIT: 60 s for the sockets, 120 s for conntrack; then everything has expired.
  const expiry = performance.now();
  node.advanceClock(180_000);
  const expiryMs = performance.now() - expiry;
  const heapExpired = heapNow();
  const expiredEntries = node.nodeKernel()?.conntrack.count ?? 0;
  // A second, shorter run: what stays after it has expired must not have grown.
  const second = loadBatch(world, services, count / 5, count);
  node.advanceClock(180_000);
  const heapExpired2 = heapNow();
  return {
    first,
    second,
    liveEntries,
    expiredEntries,
    expiryMs,
    heapStart,
    heapLive,
    heapExpired,
    heapExpired2,
  };
}

/** Prints the figures; returns the 10,000-connection time and the heap growth after expiry. */
export function connectionsBench(conns = 10_000): {
  ms: number;
  cpu: number;
  heapGrowth: number;
  /** Answers per pod in the order the pods first answered (the other host must match it). */
  perPod: readonly number[];
} {
  const c = connectionFigures(1_000, conns);
  const spread = (f: LoadFigures) => {
    const mean = f.perPod.reduce((a, b) => a + b, 0) / 10;
    const chi2 = f.perPod.reduce((a, n) => a + (n - mean) ** 2 / mean, 0);
    return `per pod ${Math.min(...f.perPod)}..${Math.max(...f.perPod)} (expected ${mean}), chi² ${chi2.toFixed(1)} (9 d.f.)`;
  };
  const n = (x: number) => x.toLocaleString('en-US');
  const took = (f: LoadFigures, count: number) =>
    `${ms(f.ms)} (cpu ${ms(f.cpu)}; ${((f.ms * 1000) / count).toFixed(0)} µs per connection)`;
  console.log('load distribution, 1,000 Services × the same 10 pods, TCP connections from one pod');
  console.log(
    '  (every packet through bridge, iptables, conntrack, NAT, sockets; counters and tcpdump capture kept, trace steps off)',
  );
  console.log(`  ${n(conns)} connections (open, GET, close)   ${took(c.first, conns)}`);
  console.log(`    ${spread(c.first)}, ${c.first.failed} failed`);
  if (conns > 1_000) {
    // A fresh process runs the first connections before V8 has optimised the datapath's
    // functions; the split shows how much of the run that is.
    const rest = c.first.ms - c.first.firstThousandMs;
    console.log(
      `    the first 1,000 ${ms(c.first.firstThousandMs)} (JIT warm-up is in them), the other ${n(conns - 1_000)} ${ms(rest)} (${((rest * 1000) / (conns - 1_000)).toFixed(0)} µs per connection)`,
    );
  }
  console.log(`  ${n(conns / 5)} more, after the first expired     ${took(c.second, conns / 5)}`);
  console.log(`    ${spread(c.second)}, ${c.second.failed} failed`);
  console.log(
    `  conntrack entries: after run 1 ${c.liveEntries}, 180 s later ${c.expiredEntries} (the 180 s, every socket and entry of the run timing out: ${ms(c.expiryMs)})`,
  );
  console.log(
    `  heap: before ${mib(c.heapStart)}, after ${n(conns)} ${mib(c.heapLive)}, expired ${mib(c.heapExpired)}; after ${n(conns / 5)} more, expired ${mib(c.heapExpired2)}\n`,
  );
  return {
    ms: c.first.ms,
    cpu: c.first.cpu,
    heapGrowth: c.heapExpired2 - c.heapStart,
    perPod: c.first.perPod,
  };
}

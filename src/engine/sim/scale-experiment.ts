/**
 * The scale experiment (issue 4 §5, lesson 8's chart): N ClusterIP Services, each with the same
 * 10 web pods as endpoints ({@link generateLoadScenario}), in one proxy mode. What kube-proxy
 * programs on node-1, how long node-1's first sync takes, and what the first packet (the SYN)
 * of a new connection from a pod on node-1 costs there: the rules it is matched against and the
 * hash lookups it needs.
 *
 * The Service the connection goes to is the one whose KUBE-SERVICES rule comes last in
 * iptables mode: the worst case of iptables' linear list (kube-proxy writes the Service rules
 * in its own map order; a packet to a Service tries every rule before its own). nftables
 * (verdict map `service-ips`) and IPVS (ipset `KUBE-CLUSTER-IP` + ip_vs's service table) find
 * every Service with one hash lookup, so the choice does not matter there.
 *
 * The time is the host's clock (`now`, injected: the engine has none of its own).
 */
import type { ProxyMode } from '../model/cluster';
import { generateLoadScenario, loadServiceIP } from '../testing/load-scenario';
import type { ScaleFigures } from '../../protocol/lab';
import type { TraceStep } from '../../protocol/trace';
import { flowControls } from './flows';
import { setTraceDetail, traceCursor, traceSince } from './network';
import { World } from './world';

export const SCALE_ENDPOINTS_PER_SERVICE = 10;

/** One point, as the lab protocol carries it to the web lab's chart. */
export type ScalePoint = ScaleFigures;

/** The ClusterIP whose rule is last in node-1's nat KUBE-SERVICES (iptables mode). */
function lastServiceInKubeServices(world: World): string {
  const chain = world
    .kernel('node-1')
    ?.netfilter.tables.nat?.chains.find((c) => c.name === 'KUBE-SERVICES');
  for (const rule of [...(chain?.rules ?? [])].reverse())
    if (rule.target.kind === 'jump' && rule.target.chain.startsWith('KUBE-SVC-') && rule.dst)
      return rule.dst.addr;
  return loadServiceIP(0);
}

function countRules(world: World, mode: ProxyMode): number {
  const kernel = world.kernel('node-1')!;
  if (mode === 'nftables') {
    const table = kernel.nftables?.state.tables.get('ip kube-proxy');
    let n = 0;
    for (const c of table?.chains.values() ?? []) n += c.rules.length;
    return n;
  }
  let n = 0;
  for (const table of Object.values(kernel.netfilter.tables))
    for (const c of table.chains) n += c.rules.length;
  return n;
}

function countSetElements(world: World, mode: ProxyMode): number {
  const kernel = world.kernel('node-1')!;
  if (mode === 'ipvs') return kernel.ipsets.sets.reduce((n, s) => n + s.count, 0);
  if (mode !== 'nftables') return 0;
  let n = 0;
  for (const s of kernel.nftables?.state.tables.get('ip kube-proxy')?.sets.values() ?? [])
    n += s.elements.size;
  return n;
}

/** Steps of the SYN on node-1: the first packet the flow sent. */
function firstPacketCost(steps: readonly TraceStep[]): { rules: number; lookups: number } {
  const syn = steps.find((s) => s.kind === 'send')?.packetId;
  let rules = 0;
  let lookups = 0;
  for (const s of steps) {
    if (s.packetId !== syn || s.at.host !== 'node-1') continue;
    if (s.kind === 'rule') {
      rules++;
      if (s.rule.includes('--match-set')) lookups++;
    } else if (s.kind === 'nft-rule') {
      rules++;
      if (s.lookup !== undefined) lookups++;
    } else if (s.kind === 'ipvs' && s.action === 'schedule') lookups++;
  }
  return { rules, lookups };
}

function scenarioIn(mode: ProxyMode, services: number): string {
  return generateLoadScenario(services, SCALE_ENDPOINTS_PER_SERVICE).replace(
    /^mode: iptables$/m,
    `mode: ${mode}`,
  );
}

/**
 * One mode at one size; `target` undefined: the last Service in KUBE-SERVICES (iptables mode
 * picks it, see above). The world is returned too, for a host that measures its memory.
 */
export function measureScalePoint(
  mode: ProxyMode,
  services: number,
  target: string | undefined,
  now: () => number,
): { point: ScalePoint; target: string; world: World } {
  const { world } = World.fromScenario(scenarioIn(mode, services));
  const t = now();
  world.kernel('node-1');
  const firstSyncMs = now() - t;
  world.kernel('node-2');
  const vip = target ?? lastServiceInKubeServices(world);
  setTraceDetail(world, 'all');
  const from = traceCursor(world);
  const client = flowControls(world, { kind: 'pod', namespace: 'default', name: 'client' });
  client.open('scale', 'tcp', vip, 80);
  const cost = firstPacketCost(traceSince(world, from));
  const kernel = world.kernel('node-1')!;
  const point: ScalePoint = {
    mode,
    services,
    rules: countRules(world, mode),
    setElements: countSetElements(world, mode),
    virtualServers: kernel.ipvs.services.length,
    realServers: kernel.ipvs.services.reduce((n, v) => n + v.destinations.length, 0),
    firstPacketRules: cost.rules,
    firstPacketLookups: cost.lookups,
    firstSyncMs,
  };
  return { point, target: vip, world };
}

/**
 * One point per mode for `services` Services. iptables mode runs first whatever the order
 * asked, since it decides which Service the connection goes to.
 */
export function measureScale(
  services: number,
  modes: readonly ProxyMode[],
  now: () => number,
): ScalePoint[] {
  const iptables = measureScalePoint('iptables', services, undefined, now);
  return modes.map((mode) =>
    mode === 'iptables'
      ? iptables.point
      : measureScalePoint(mode, services, iptables.target, now).point,
  );
}

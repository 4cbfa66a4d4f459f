/**
 * Layer 2: dev_queue_xmit() on a device and the neighbour (ARP) that answers for the next hop.
 * A pod's eth0 is the peer of its node's veth port (veth_xmit hands the frame to the other
 * namespace, skb_scrub_packet clearing conntrack and mark); the node's cni0 transmits through
 * the bridge (br_dev_xmit → fdb → br_forward: the frame comes from the bridge device itself,
 * so should_deliver() never sees it as hairpin); eth0s share the LAN.
 */
import type { HostRef } from '../routing';
import { cni0Reachable, cni0Resolve, queuedOutcome } from './arp';
import { fdbLearn, fdbPort } from './bridge-fdb';
import { flood } from './bridge-flood';
import { dropped, leaveNamespace } from './hooks';
import { hostNet, lanHostByIp, primaryAddress } from './net';
import { bridgeOwner, portOfPod } from './bridge-ports';
import type { Answer } from './neighbour';
import { hostLabel, type Skb } from './packet';
import { setFrame } from './link-header';
import { podQueue } from './pod-arp';
import { place, why } from './recorder';
import { MAX_HOPS, type BridgeDst, type Ctx, type Outcome } from './types';

function wire(
  ctx: Ctx,
  skb: Skb,
  from: HostRef,
  fromIface: string,
  to: HostRef,
  toIface: string,
): void {
  if (!ctx.rec.on) return;
  ctx.rec.add(skb, {
    kind: 'wire',
    at: place(from, fromIface),
    why: why('datapath.wire', { from: hostLabel(from), to: hostLabel(to) }),
    to: place(to, toIface),
    packet: skb.header,
  });
}

/** The frame leaves `node`'s bridge by `port` and crosses the veth to the pod's eth0. */
function outOfPort(ctx: Ctx, node: string, port: string, skb: Skb, pod: HostRef): void {
  const nodeRef: HostRef = { kind: 'node', name: node };
  ctx.rec.capture(skb, nodeRef, port, 'out');
  leaveNamespace(skb);
  wire(ctx, skb, nodeRef, port, pod, 'eth0');
}

/** The frame leaves `node`'s bridge by `port` and arrives on the pod's eth0. */
export function deliverToPort(
  ctx: Ctx,
  node: string,
  port: string,
  skb: Skb,
  pod: HostRef,
): Outcome {
  outOfPort(ctx, node, port, skb, pod);
  return ctx.stack.hostReceive(ctx, pod, 'eth0', skb);
}

/**
 * A flooded frame reaches a pod whose MAC it is not for: tcpdump (promiscuous) on the pod's eth0
 * sees it, then the stack drops it (eth_type_trans: PACKET_OTHERHOST; ip_rcv drops those).
 */
export function deliverToOtherHost(
  ctx: Ctx,
  node: string,
  port: string,
  skb: Skb,
  pod: HostRef,
): Outcome {
  outOfPort(ctx, node, port, skb, pod);
  ctx.rec.capture(skb, pod, 'eth0', 'in');
  return dropped(ctx, pod, skb, 'eth0', 'neighbour', why('datapath.drop.otherhost'));
}

/** br_dev_xmit(): cni0 sends a frame to `mac` (the fdb's port, else flooded to every port). */
export function cni0Xmit(ctx: Ctx, node: string, skb: Skb, mac: string): Outcome {
  const world = ctx.world;
  const bp = fdbPort(world, world.cluster, node, mac, world.clock.now());
  if (bp === undefined) return flood(ctx, node, skb, mac, undefined);
  const from: HostRef = { kind: 'node', name: node };
  if (ctx.rec.on)
    ctx.rec.add(skb, {
      kind: 'bridge',
      at: place(from, 'cni0'),
      why: why('datapath.bridge.xmit', { port: bp.port }),
      bridge: 'cni0',
      inPort: 'cni0',
      outPort: bp.port,
      callIptables: false,
    });
  return deliverToPort(ctx, node, bp.port, skb, bp.ref);
}

/** Who answers ARP for `ip` on `node`'s bridge segment: the bridge (cni0's address) or a pod. */
export function bridgeNeighbour(ctx: Ctx, node: string, ip: string): BridgeDst | undefined {
  const owner = bridgeOwner(ctx.world.cluster, node, ip);
  if (owner === 'cni0') return { kind: 'host' };
  return owner === undefined ? undefined : { kind: 'port', port: owner.port };
}

/**
 * Who answers a pod's ARP for `ip` now (a pod or cni0 on its bridge), as neighbour.ts asks it:
 * a stand-in link-layer address (the bridge port, or cni0), or undefined.
 */
export function podAnswer(ctx: Ctx, pod: HostRef, ip: string): Answer {
  return () => {
    const bp = portOfPod(ctx.world.cluster, pod);
    const dst = bp === undefined ? undefined : bridgeNeighbour(ctx, bp.pod.nodeName, ip);
    return dst === undefined ? undefined : dst.kind === 'port' ? dst.port : 'cni0';
  };
}

/** The next hop never answered ARP: the frame is lost. */
function neighbourLost(ctx: Ctx, from: HostRef, skb: Skb, oif: string, nexthop: string): Outcome {
  return dropped(
    ctx,
    from,
    skb,
    oif,
    'neighbour',
    why('datapath.drop.neighbour', { ip: nexthop, iface: oif }),
    'LOST',
  );
}

/** dev_queue_xmit() of `skb` on `oif` of `from`, towards the neighbour owning `nexthop`. */
export function transmit(ctx: Ctx, from: HostRef, oif: string, skb: Skb, nexthop: string): Outcome {
  if (++ctx.hops > MAX_HOPS) return dropped(ctx, from, skb, oif, 'loop', why('datapath.drop.loop'));
  const cluster = ctx.world.cluster;

  if (from.kind === 'pod') {
    const bp = portOfPod(cluster, from);
    if (bp === undefined || oif !== 'eth0') return neighbourLost(ctx, from, skb, oif, nexthop);
    const node = bp.pod.nodeName;
    const dst = bridgeNeighbour(ctx, node, nexthop);
    if (dst === undefined) {
      // Nobody on the bridge owns the next hop: the pod's ARP for it goes unanswered.
      const pending = { skb, resume: (later: Ctx) => transmit(later, from, oif, skb, nexthop) };
      if (podQueue(ctx, from, nexthop, podAnswer(ctx, from, nexthop), pending))
        return dropped(ctx, from, skb, 'eth0', 'neighbour', why('datapath.neigh.queued', { ip: nexthop, iface: 'eth0', state: 'INCOMPLETE' }), 'LOST'); // prettier-ignore
      return transmit(ctx, from, oif, skb, nexthop);
    }
    leaveNamespace(skb);
    setFrame(skb, from, 'eth0', nexthop);
    const nodeRef: HostRef = { kind: 'node', name: node };
    // br_handle_frame_finish() → br_fdb_update(): cni0 learns the pod's MAC on its port.
    fdbLearn(ctx.world, node, bp.pod, bp.port, ctx.world.clock.now());
    wire(ctx, skb, from, 'eth0', nodeRef, bp.port);
    ctx.rec.capture(skb, nodeRef, bp.port, 'in');
    return ctx.stack.bridgeInput(ctx, node, bp.port, skb, dst);
  }

  if (from.kind === 'node' && oif === 'cni0') {
    // ip_finish_output2() → neigh_output(): the node's neighbour entry for the next hop.
    const node = from.name;
    setFrame(skb, from, 'cni0', nexthop);
    const mac = cni0Reachable(ctx, node, nexthop);
    if (mac !== undefined) return cni0Xmit(ctx, node, skb, mac);
    const res = cni0Resolve(ctx, node, nexthop, {
      skb,
      inIface: undefined,
      resume: (later, mac) => cni0Xmit(later, node, skb, mac),
    });
    if (res.kind === 'queued') return queuedOutcome(ctx, node, skb, nexthop, res.state);
    return cni0Xmit(ctx, node, skb, res.mac);
  }

  if (oif === 'eth0') {
    const net = hostNet(cluster, from);
    const self = net === undefined ? undefined : primaryAddress(net, 'eth0');
    const peer = self === undefined ? undefined : lanHostByIp(cluster, self, nexthop);
    if (peer === undefined) {
      const external = net?.routes.some((r) => r.dst === 'default' && r.via === nexthop) === true;
      if (!external) return neighbourLost(ctx, from, skb, oif, nexthop);
      return dropped(
        ctx,
        from,
        skb,
        oif,
        'left-lab',
        why('datapath.drop.left-lab', { via: nexthop }),
        'LOST',
      );
    }
    leaveNamespace(skb);
    setFrame(skb, from, 'eth0', nexthop);
    wire(ctx, skb, from, 'eth0', peer, 'eth0');
    if (peer.kind === 'node') return ctx.stack.nodeReceive(ctx, peer.name, 'eth0', skb, false);
    return ctx.stack.hostReceive(ctx, peer, 'eth0', skb);
  }
  return neighbourLost(ctx, from, skb, oif, nexthop);
}

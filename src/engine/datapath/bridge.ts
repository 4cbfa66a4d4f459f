/**
 * A node's bridge cni0 (net/bridge) with br_netfilter (br_netfilter_hooks.c):
 *
 * - br_handle_frame(): a frame from a port first meets the bridge PRE_ROUTING hook. With
 *   net.bridge.bridge-nf-call-iptables = 1, br_nf_pre_routing() runs the IPv4 PREROUTING hook
 *   for every IPv4 frame, whatever its destination MAC (IN=cni0, PHYSIN=the port), and keeps
 *   the port as nf_bridge->physindev.
 * - br_nf_pre_routing_finish(): when PREROUTING changed the destination address, it routes
 *   (ip_route_input); a route back out of the same bridge is "bridged DNAT"
 *   (br_nf_pre_routing_finish_bridge: the neighbour's MAC becomes the destination, the frame
 *   stays at layer 2); any other route sends the frame up to the IP stack (destination MAC =
 *   the bridge's), where ip_sabotage_in keeps PREROUTING from running twice.
 * - br_handle_frame_finish(): the frame is for the bridge itself (its MAC) → br_pass_frame_up
 *   → ip_rcv on cni0; else the fdb port → br_forward(): should_deliver() refuses to send a
 *   frame back out the port it came in on unless that port has BR_HAIRPIN_MODE — a silent
 *   drop, before the FORWARD hook and so before conntrack confirmation.
 * - __br_forward(): bridged IPv4 frames that went through br_nf_pre_routing run the IPv4
 *   FORWARD (IN=cni0 OUT=cni0, PHYSIN/PHYSOUT the ports) and POSTROUTING hooks
 *   (br_nf_forward_ip, br_nf_post_routing; MASQUERADE there picks cni0's address).
 *
 * With the sysctl at 0 none of the IPv4 hooks run for bridged frames: a frame to the gateway
 * MAC goes up the IP stack and is routed (cni0 itself sends it back, so the hairpin flag does
 * not matter), and pod-to-pod frames never meet netfilter.
 */
import type { Explanation } from '../../protocol/trace';
import { cni0Reachable, cni0Resolve, queuedOutcome } from './arp';
import { fdbPort } from './bridge-fdb';
import { bridgeToPortWhy } from './bridge-why';
import { flood } from './bridge-flood';
import { dropped, nodeCtx, releaseConntrack, settle, type NodeCtx } from './hooks';
import { forwardHook, postrouting, prerouting } from './ipv4-hooks';
import { deliverToPort } from './link';
import { fibLookup, martianSource } from './net';
import { podByPort } from './bridge-ports';
import type { Skb } from './packet';
import { place, why } from './recorder';
import { kernelSysctl, portHairpin } from './state';
import type { BridgeDst, Ctx, DropReason, Outcome } from './types';

/** br_handle_frame() on `node`'s cni0 for a frame from `inPort` addressed to `dst`. */
export function bridgeInput(
  ctx: Ctx,
  nodeName: string,
  inPort: string,
  skb: Skb,
  dst: BridgeDst,
): Outcome {
  const node = nodeCtx(ctx, nodeName);
  if (node === undefined) {
    return dropped(
      ctx,
      { kind: 'node', name: nodeName },
      skb,
      inPort,
      'no-route',
      why('datapath.drop.no-host'),
    );
  }
  const callIptables = kernelSysctl(node.kernel, 'net.bridge.bridge-nf-call-iptables', '1') === '1';
  if (ctx.rec.on)
    bridgeStep(
      ctx,
      node,
      skb,
      inPort,
      callIptables,
      dst.kind === 'port' ? dst.port : undefined,
      dst.kind === 'port'
        ? bridgeToPortWhy(ctx, node, skb, inPort, callIptables)
        : why('datapath.bridge.to-host', { port: inPort }),
    );

  let target = dst;
  let prerouted = false;
  if (callIptables) {
    // br_nf_pre_routing(): setup_pre_routing() keeps the port, skb->dev becomes the bridge.
    skb.physIn = inPort;
    const daddr = skb.header.dst;
    const fate = prerouting(ctx, node, skb, { inIface: 'cni0', physIn: inPort });
    if (fate.kind !== 'accept')
      return settle(ctx, node, skb, fate, 'cni0', { local: false, inIface: 'cni0' });
    prerouted = true;
    if (skb.header.dst !== daddr) {
      // br_nf_pre_routing_finish(): the destination changed, route it (ip_route_input).
      const martian = martianSource(node.net, skb.header.src);
      if (martian !== undefined) {
        return refuse(
          ctx,
          node,
          skb,
          'martian',
          why('datapath.drop.martian', { src: skb.header.src, iface: 'cni0', detail: martian }),
        );
      }
      const fib = fibLookup(node.net, skb.header.dst);
      if (fib === undefined) {
        return refuse(
          ctx,
          node,
          skb,
          'no-route',
          why('datapath.drop.no-route', { dst: skb.header.dst }),
        );
      }
      if (fib.type === 'unicast' && fib.dev === 'cni0') {
        // Bridged DNAT: the node's neighbour entry gives the frame its destination MAC
        // (neigh_hh_bridge when CONNECTED, else neigh->output and br_dev_xmit's bridged_dnat).
        const nexthop = fib.nexthop;
        skb.llTo = nexthop;
        // The hh fast path first: no pending packet is built for a REACHABLE neighbour.
        const mac = cni0Reachable(ctx, nodeName, nexthop);
        if (mac !== undefined) return toMac(ctx, nodeName, node, inPort, skb, mac, callIptables);
        const res = cni0Resolve(ctx, nodeName, nexthop, {
          skb,
          inIface: 'cni0',
          resume: (later, mac) => toMac(later, nodeName, undefined, inPort, skb, mac, callIptables),
        });
        if (res.kind === 'queued') return queuedOutcome(ctx, nodeName, skb, nexthop, res.state);
        return toMac(ctx, nodeName, node, inPort, skb, res.mac, callIptables);
      } else if (target.kind === 'port') {
        // Routed elsewhere: the destination MAC becomes the bridge's own (PACKET_HOST).
        target = { kind: 'host' };
        skb.llTo = '';
        if (ctx.rec.on) {
          const e = why('datapath.bridge.to-host', { port: inPort });
          bridgeStep(ctx, node, skb, inPort, callIptables, undefined, e);
        }
      }
    }
  }

  return bridgeFinish(ctx, node, inPort, skb, target, callIptables, prerouted);
}

/** The trace's bridge step of a frame from `inPort` (to `outPort`, or up to the bridge). */
function bridgeStep(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  inPort: string,
  callIptables: boolean,
  outPort: string | undefined,
  e: Explanation,
): void {
  ctx.rec.add(skb, {
    kind: 'bridge',
    at: place(node.ref, 'cni0'),
    why: e,
    bridge: 'cni0',
    inPort,
    ...(outPort !== undefined ? { outPort } : {}),
    callIptables,
  });
}

/** br_nf_pre_routing_finish() refuses the frame (martian source, no route). */
function refuse(ctx: Ctx, node: NodeCtx, skb: Skb, reason: DropReason, e: Explanation): Outcome {
  return settle(ctx, node, skb, { kind: 'drop', reason, why: e }, 'cni0', { local: false });
}

/**
 * A bridged-DNAT frame now addressed to `mac`: the fdb's port, or flooded. `node`: the node's
 * context when sent at once (undefined when a resumed ARP queue sends it later).
 */
function toMac(
  ctx: Ctx,
  nodeName: string,
  known: NodeCtx | undefined,
  inPort: string,
  skb: Skb,
  mac: string,
  callIptables: boolean,
): Outcome {
  const world = ctx.world;
  const port = fdbPort(world, world.cluster, nodeName, mac, world.clock.now())?.port;
  if (ctx.rec.on)
    ctx.rec.add(skb, {
      kind: 'bridge',
      at: place({ kind: 'node', name: nodeName }, 'cni0'),
      why: why('datapath.bridge.bridged-dnat', { port: inPort }),
      bridge: 'cni0',
      inPort,
      ...(port !== undefined ? { outPort: port } : {}),
      callIptables,
    });
  if (port !== undefined) {
    const node = known ?? nodeCtx(ctx, nodeName)!;
    return bridgeFinish(ctx, node, inPort, skb, { kind: 'port', port }, callIptables, true);
  }
  ctx.rec.capture(skb, { kind: 'node', name: nodeName }, 'cni0', 'in');
  return flood(ctx, nodeName, skb, mac, inPort);
}

/** br_handle_frame_finish() for a frame to the bridge itself or to a known port. */
function bridgeFinish(
  ctx: Ctx,
  node: NodeCtx,
  inPort: string,
  skb: Skb,
  target: BridgeDst,
  callIptables: boolean,
  prerouted: boolean,
): Outcome {
  const nodeName = node.name;
  // br_handle_frame_finish(). tcpdump puts cni0 in promiscuous mode, so it sees every frame here.
  ctx.rec.capture(skb, node.ref, 'cni0', 'in');
  if (target.kind === 'host') return ctx.stack.nodeReceive(ctx, nodeName, 'cni0', skb, prerouted);

  // br_forward() → should_deliver(): back out the in port only with the port's hairpin flag.
  if (target.port === inPort && !portHairpin(ctx.world, node.dp, inPort)) {
    releaseConntrack(ctx, node, skb, 'cni0');
    return dropped(
      ctx,
      node.ref,
      skb,
      'cni0',
      'hairpin',
      why('datapath.drop.hairpin', { port: inPort }),
    );
  }
  const pod = podByPort(ctx.world.cluster, nodeName, target.port);
  if (pod === undefined) {
    return dropped(
      ctx,
      node.ref,
      skb,
      'cni0',
      'neighbour',
      why('datapath.drop.no-port', { port: target.port }),
    );
  }
  if (callIptables && skb.physIn !== undefined) {
    // br_nf_forward_ip() and br_nf_post_routing(): FORWARD and POSTROUTING with IN/OUT=cni0.
    const devs = { inIface: 'cni0', outIface: 'cni0', physIn: skb.physIn, physOut: target.port };
    const fwd = forwardHook(ctx, node, skb, devs);
    if (fwd.kind !== 'accept')
      return settle(ctx, node, skb, fwd, 'cni0', { local: false, inIface: 'cni0' });
    const post = postrouting(ctx, node, skb, {
      outIface: 'cni0',
      physIn: skb.physIn,
      physOut: target.port,
    });
    if (post.kind !== 'accept') return settle(ctx, node, skb, post, 'cni0', { local: false });
  }
  return deliverToPort(ctx, nodeName, target.port, skb, pod.ref);
}

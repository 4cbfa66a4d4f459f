/**
 * A node's IPv4 layer (net/ipv4): ip_rcv → PREROUTING → ip_rcv_finish (ip_route_input with
 * fib_validate_source) → ip_local_deliver (INPUT) or ip_forward (TTL, FORWARD) → ip_output
 * (POSTROUTING, ip_finish_output2 → neighbour → device); and ip_local_out for packets the node
 * sends itself (routing first, OUTPUT, ip_route_me_harder after DNAT, POSTROUTING).
 */
import type { Hook } from '../../protocol/trace';
import {
  ACCEPT,
  confirm,
  conntrackIn,
  dropped,
  enterHook,
  nodeCtx,
  settle,
  walkTables,
  type Fate,
  type NodeCtx,
} from './hooks';
import { ipvsReply, ipvsRequest, type IpvsVerdict } from './ipvs';
import { forwardHook, postrouting, prerouting } from './ipv4-hooks';
import { natHook } from './nat';
import { nftFilter } from './nft-hooks';
import { fibLookup, martianSource, type FibResult } from './net';
import { withField } from './header-copy';
import { DEFAULT_TTL, type HookDevices, type Skb } from './packet';
import { place, why } from './recorder';
import { kernelSysctl } from './state';
import type { Ctx, DropReason, Outcome } from './types';

/** Runs the steps of a hook in order; the first fate that is not ACCEPT ends it. */
function chain(...steps: (() => Fate)[]): Fate {
  for (const s of steps) {
    const fate = s();
    if (fate.kind !== 'accept') return fate;
  }
  return ACCEPT;
}

function unknownNode(ctx: Ctx, name: string, skb: Skb): Outcome {
  return dropped(
    ctx,
    { kind: 'node', name },
    skb,
    undefined,
    'no-route',
    why('datapath.drop.no-host'),
  );
}

/** ip_rcv() on `iface` of a node; `prerouted`: br_netfilter already ran PREROUTING. */
export function nodeReceive(
  ctx: Ctx,
  name: string,
  iface: string,
  skb: Skb,
  prerouted: boolean,
): Outcome {
  const node = nodeCtx(ctx, name);
  if (node === undefined) return unknownNode(ctx, name, skb);
  // cni0's receive was captured by the bridge (br_pass_frame_up), with the header it had there.
  if (iface !== 'cni0') ctx.rec.capture(skb, node.ref, iface, 'in');
  const devs: HookDevices = { inIface: iface, physIn: skb.physIn };
  if (!prerouted) {
    const fate = prerouting(ctx, node, skb, devs);
    if (fate.kind !== 'accept')
      return settle(ctx, node, skb, fate, iface, { local: false, inIface: iface });
  }
  // ip_route_input_slow(): martian sources are refused before the destination is looked at.
  // A packet looped back through lo keeps the route it was sent with.
  const martian = iface === 'lo' ? undefined : martianSource(node.net, skb.header.src);
  if (martian !== undefined) {
    return refuse(
      ctx,
      node,
      skb,
      iface,
      'martian',
      why('datapath.drop.martian', { src: skb.header.src, iface, detail: martian }),
    );
  }
  const fib = fibLookup(node.net, skb.header.dst);
  if (fib === undefined) {
    return refuse(
      ctx,
      node,
      skb,
      iface,
      'no-route',
      why('datapath.drop.no-route', { dst: skb.header.dst }),
    );
  }
  if (fib.type === 'local') return localDeliver(ctx, node, skb, iface);
  if (kernelSysctl(node.kernel, 'net.ipv4.ip_forward', '1') !== '1') {
    return refuse(ctx, node, skb, iface, 'no-route', why('datapath.drop.forwarding-off'));
  }
  return forward(ctx, node, skb, iface, fib);
}

function refuse(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  iface: string,
  reason: DropReason,
  explanation: ReturnType<typeof why>,
): Outcome {
  return settle(ctx, node, skb, { kind: 'drop', reason, why: explanation }, iface, {
    local: false,
  });
}

/**
 * ip_local_deliver(): INPUT (mangle, filter, security; IPVS at priority 98/99; nat SNAT),
 * confirm, the socket layer.
 */
function localDeliver(ctx: Ctx, node: NodeCtx, skb: Skb, iface: string): Outcome {
  if (ctx.rec.on)
    ctx.rec.add(skb, {
      kind: 'route',
      at: place(node.ref, iface),
      why: why('datapath.route.local', { dst: skb.header.dst }),
      decision: 'local',
    });
  const hook: Hook = 'INPUT';
  const devs: HookDevices = { inIface: iface, physIn: skb.physIn };
  enterHook(ctx, node, skb, hook, ['mangle', 'filter', 'security', 'nat'], iface);
  let fate = chain(
    () => walkTables(ctx, node, skb, hook, ['mangle', 'filter'], devs),
    () => nftFilter(ctx, node, skb, hook, devs, -150, 50),
    () => walkTables(ctx, node, skb, hook, ['security'], devs),
  );
  // IPVS at NF_IP_PRI_NAT_SRC - 2 / - 1: after the filter tables, before nat INPUT.
  if (fate.kind === 'accept' && ipvsReply(ctx, node, skb, hook, iface).kind === 'pass') {
    const ipvs = ipvsRequest(ctx, node, skb, hook, iface);
    if (ipvs.kind !== 'pass' && !(ipvs.kind === 'forward' && ipvs.local))
      return ipvsSendOrCont(ctx, node, skb, ipvs, iface, { local: true, inIface: iface });
  }
  if (fate.kind === 'accept')
    fate = chain(
      () => natHook(ctx, node, skb, hook, devs),
      () => confirm(ctx, node, skb, iface),
    );
  if (fate.kind !== 'accept')
    return settle(ctx, node, skb, fate, iface, { local: true, inIface: iface });
  if (ctx.rec.on)
    ctx.rec.verdict(
      skb,
      place(node.ref, iface),
      'DELIVERED',
      why('datapath.delivered', { host: node.name }),
    );
  return { kind: 'delivered', host: node.ref, iface, packet: skb.header, packetId: skb.id };
}

/**
 * What IPVS does with a request it took: ip_vs_leave() answers ICMP port unreachable; a
 * packet for a remote real server is routed to it and re-injected at LOCAL_OUT
 * (ip_vs_nat_send_or_cont: raw, mangle, filter, security — the nat table is not consulted
 * again, the connection's NAT is set up) and sent through POSTROUTING.
 */
function ipvsSendOrCont(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  v: Exclude<IpvsVerdict, { kind: 'pass' }>,
  iface: string | undefined,
  rejected: { local: boolean; inIface?: string },
): Outcome {
  if (v.kind === 'no-destination')
    return ctx.stack.reject(ctx, node.name, skb, 'icmp-port-unreachable', rejected);
  if (v.kind === 'drop')
    return settle(
      ctx,
      node,
      skb,
      { kind: 'drop', reason: 'netfilter', why: why('ipvs.drop') },
      iface,
      { local: true },
    );
  // Masq rewrote the destination; Route/Tunnel keep the virtual address and route to the server.
  const fib = fibLookup(node.net, v.nexthop ?? skb.header.dst);
  if (fib === undefined || fib.type !== 'unicast')
    return refuse(
      ctx,
      node,
      skb,
      iface ?? 'lo',
      'no-route',
      why('datapath.drop.no-route', { dst: skb.header.dst }),
    );
  ctx.rec.add(skb, {
    kind: 'route',
    at: place(node.ref),
    why: why('ipvs.route', { dst: skb.header.dst }),
    decision: 'output',
    oif: fib.dev,
    ...(fib.via !== undefined ? { via: fib.via } : {}),
  });
  const hook: Hook = 'OUTPUT';
  const devs: HookDevices = { outIface: fib.dev, physIn: skb.physIn };
  enterHook(ctx, node, skb, hook, ['raw', 'mangle', 'filter', 'security'], fib.dev);
  const fate = chain(
    () => walkTables(ctx, node, skb, hook, ['raw', 'mangle', 'filter'], devs),
    () => nftFilter(ctx, node, skb, hook, devs, -100, 50),
    () => walkTables(ctx, node, skb, hook, ['security'], devs),
  );
  if (fate.kind !== 'accept') return settle(ctx, node, skb, fate, fib.dev, { local: false });
  return output(ctx, node, skb, fib.dev, fib.nexthop);
}

/** ip_forward(): TTL, FORWARD, then ip_output(). */
function forward(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  iface: string,
  fib: Extract<FibResult, { type: 'unicast' }>,
): Outcome {
  if (ctx.rec.on)
    ctx.rec.add(skb, {
      kind: 'route',
      at: place(node.ref, iface),
      why: why('datapath.route.forward', { dst: skb.header.dst, route: fib.dst }),
      decision: 'forward',
      oif: fib.dev,
      ...(fib.via !== undefined ? { via: fib.via } : {}),
    });
  const ttl = skb.header.ttl ?? DEFAULT_TTL;
  if (ttl <= 1) {
    // ip_forward() sends ICMP time exceeded here; the lab does not generate it.
    return refuse(ctx, node, skb, iface, 'ttl', why('datapath.drop.ttl'));
  }
  skb.header = withField(skb.header, 'ttl', ttl - 1);
  const devs: HookDevices = { inIface: iface, outIface: fib.dev, physIn: skb.physIn };
  const fate = forwardHook(ctx, node, skb, devs);
  if (fate.kind !== 'accept')
    return settle(ctx, node, skb, fate, iface, { local: false, inIface: iface });
  return output(ctx, node, skb, fib.dev, fib.nexthop, iface);
}

/**
 * ip_output(): POSTROUTING, then the device (lo loops back into ip_rcv). POSTROUTING's input
 * device is skb->dev as ip_output() found it: the device a forwarded packet came in on
 * (`iif`; LOG prints it as IN=, nf_tables traces it), none for the node's own packets.
 */
export function output(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  oif: string,
  nexthop: string,
  iif?: string,
): Outcome {
  const devs: HookDevices =
    iif === undefined
      ? { outIface: oif, physIn: skb.physIn }
      : { inIface: iif, outIface: oif, physIn: skb.physIn };
  const fate = postrouting(ctx, node, skb, devs);
  if (fate.kind !== 'accept') return settle(ctx, node, skb, fate, oif, { local: false });
  ctx.rec.capture(skb, node.ref, oif, 'out', nexthop);
  if (oif === 'lo') {
    // loopback_xmit(): the same skb, conntrack attached, comes back in on lo.
    skb.physIn = undefined;
    return ctx.stack.nodeReceive(ctx, node.name, 'lo', skb, false);
  }
  return ctx.stack.transmit(ctx, node.ref, oif, skb, nexthop);
}

/**
 * ip_local_out() of a packet the node generates: route (source chosen when 0.0.0.0), OUTPUT
 * (raw, conntrack, mangle, nat DNAT; ip_route_me_harder when the destination changed; filter,
 * security), then ip_output().
 */
export function nodeOutput(ctx: Ctx, name: string, skb: Skb): Outcome {
  const node = nodeCtx(ctx, name);
  if (node === undefined) return unknownNode(ctx, name, skb);
  skb.localOrigin = true;
  let fib = fibLookup(node.net, skb.header.dst);
  if (fib === undefined) {
    return dropped(
      ctx,
      node.ref,
      skb,
      undefined,
      'no-route',
      why('datapath.drop.no-route', { dst: skb.header.dst }),
    );
  }
  if (skb.header.src === '0.0.0.0') skb.header = withField(skb.header, 'src', fib.src);
  const oifOf = (f: FibResult): string => (f.type === 'local' ? 'lo' : f.dev);
  const routeStep = (f: FibResult, id: string): void => {
    if (!ctx.rec.on) return;
    ctx.rec.add(skb, {
      kind: 'route',
      at: place(node.ref),
      why: why(id, { dst: skb.header.dst }),
      decision: 'output',
      oif: oifOf(f),
      ...(f.type === 'unicast' && f.via !== undefined ? { via: f.via } : {}),
    });
  };
  routeStep(fib, 'datapath.route.output');
  const hook: Hook = 'OUTPUT';
  let devs: HookDevices = { outIface: oifOf(fib) };
  enterHook(ctx, node, skb, hook, ['raw', 'mangle', 'nat', 'filter', 'security'], devs.outIface);
  const dstBefore = skb.header.dst;
  let fate = chain(
    () => walkTables(ctx, node, skb, hook, ['raw'], devs),
    () => (conntrackIn(ctx, node, skb, devs.outIface), ACCEPT),
    () => walkTables(ctx, node, skb, hook, ['mangle'], devs),
    () => nftFilter(ctx, node, skb, hook, devs, -150, -100),
    () => natHook(ctx, node, skb, hook, devs),
  );
  if (fate.kind === 'accept' && skb.header.dst !== dstBefore) {
    // nf_nat_ipv4_local_fn(): the destination changed, ip_route_me_harder() routes again.
    const again = fibLookup(node.net, skb.header.dst);
    if (again === undefined) {
      fate = {
        kind: 'drop',
        reason: 'no-route',
        why: why('datapath.drop.no-route', { dst: skb.header.dst }),
      };
    } else {
      fib = again;
      devs = { outIface: oifOf(fib) };
      routeStep(fib, 'datapath.route.rerouted');
    }
  }
  if (fate.kind === 'accept' && ipvsReply(ctx, node, skb, hook, devs.outIface).kind === 'pass') {
    // ip_vs_local_request4 (LOCAL_OUT): the node's own connection to a virtual server.
    const ipvs = ipvsRequest(ctx, node, skb, hook, devs.outIface);
    if (ipvs.kind === 'no-destination' || ipvs.kind === 'drop')
      return ipvsSendOrCont(ctx, node, skb, ipvs, devs.outIface, { local: true });
    if (ipvs.kind === 'forward') {
      const again = fibLookup(node.net, skb.header.dst);
      if (again !== undefined) {
        fib = again;
        devs = { outIface: oifOf(fib) };
        routeStep(fib, 'datapath.route.rerouted');
      }
    }
  }
  if (fate.kind === 'accept') {
    fate = chain(
      () => walkTables(ctx, node, skb, hook, ['filter'], devs),
      () => nftFilter(ctx, node, skb, hook, devs, -100, 50),
      () => walkTables(ctx, node, skb, hook, ['security'], devs),
    );
  }
  if (fate.kind !== 'accept')
    return settle(ctx, node, skb, fate, devs.outIface, { local: fib.type === 'local' });
  return output(ctx, node, skb, oifOf(fib), fib.type === 'unicast' ? fib.nexthop : skb.header.dst);
}

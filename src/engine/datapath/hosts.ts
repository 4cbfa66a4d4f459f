/**
 * Pods (their own network namespace) and external clients: an IPv4 stack without iptables
 * rules and without forwarding (net.ipv4.ip_forward is 0 in a new namespace), whose conntrack
 * the lab does not model. Receive: ip_rcv_finish → ip_route_input (fib_validate_source drops
 * a packet whose source is the host's own address: a martian, as a pod reached through its
 * own Service without masquerade sees) → ip_local_deliver. Send: route, then the device.
 */
import type { HostRef } from '../routing';
import { dropped } from './hooks';
import { fibLookup, hostNet, martianSource } from './net';
import { withField } from './header-copy';
import { hostLabel, type Skb } from './packet';
import { place, why } from './recorder';
import type { Ctx, Outcome } from './types';

/** A pod's or external client's receive on `iface`. */
export function hostReceive(ctx: Ctx, host: HostRef, iface: string, skb: Skb): Outcome {
  const net = hostNet(ctx.world.cluster, host);
  if (net === undefined) {
    return dropped(ctx, host, skb, iface, 'no-route', why('datapath.drop.no-host'));
  }
  if (iface !== 'lo') ctx.rec.capture(skb, host, iface, 'in');
  const martian = iface === 'lo' ? undefined : martianSource(net, skb.header.src);
  if (martian !== undefined) {
    return dropped(
      ctx,
      host,
      skb,
      iface,
      'martian',
      why('datapath.drop.martian', { src: skb.header.src, iface, detail: martian }),
    );
  }
  const fib = fibLookup(net, skb.header.dst);
  if (fib?.type !== 'local') {
    return dropped(
      ctx,
      host,
      skb,
      iface,
      'not-local',
      why('datapath.drop.not-local', { dst: skb.header.dst, host: hostLabel(host) }),
    );
  }
  if (ctx.rec.on) {
    ctx.rec.add(skb, {
      kind: 'route',
      at: place(host, iface),
      why: why('datapath.route.local', { dst: skb.header.dst }),
      decision: 'local',
    });
    ctx.rec.verdict(
      skb,
      place(host, iface),
      'DELIVERED',
      why('datapath.delivered', { host: hostLabel(host) }),
    );
  }
  return { kind: 'delivered', host, iface, packet: skb.header, packetId: skb.id };
}

/** A pod or external client sends: route (source chosen when 0.0.0.0), then eth0 or lo. */
export function hostOutput(ctx: Ctx, host: HostRef, skb: Skb): Outcome {
  const net = hostNet(ctx.world.cluster, host);
  const fib = net === undefined ? undefined : fibLookup(net, skb.header.dst);
  if (fib === undefined) {
    return dropped(
      ctx,
      host,
      skb,
      undefined,
      'no-route',
      why('datapath.drop.no-route', { dst: skb.header.dst }),
    );
  }
  if (skb.header.src === '0.0.0.0') skb.header = withField(skb.header, 'src', fib.src);
  skb.localOrigin = true;
  const oif = fib.type === 'local' ? 'lo' : fib.dev;
  if (ctx.rec.on)
    ctx.rec.add(skb, {
      kind: 'route',
      at: place(host),
      why: why('datapath.route.output', { dst: skb.header.dst }),
      decision: 'output',
      oif,
      ...(fib.type === 'unicast' && fib.via !== undefined ? { via: fib.via } : {}),
    });
  if (fib.type === 'local') return hostReceive(ctx, host, 'lo', skb);
  ctx.rec.capture(skb, host, oif, 'out', fib.nexthop);
  return ctx.stack.transmit(ctx, host, oif, skb, fib.nexthop);
}

/**
 * The Ethernet header of the frame a packet last crossed a link in, for the trace's PACKET
 * lines (xtables-monitor prints MACSRC/MACDST, or the raw header as LL=). The datapath does
 * not carry MAC addresses: a frame notes who sent it from which device and whose address the
 * sender resolved (its next hop; after a bridged DNAT, the new destination), and the MACs are
 * looked up only when a traced packet asks (the interfaces' MACs, as `ip link` shows them).
 */
import type { Cluster } from '../model/cluster';
import { hostNetwork, type HostRef } from '../routing';
import { bridgeOwner } from './bridge-ports';
import { lanHostByIp } from './net';
import type { LinkFrame } from './capture-ring';
import type { Skb } from './packet';

/** The frame the sender puts the packet in: no allocation, three fields of the skb. */
export function setFrame(skb: Skb, from: HostRef, iface: string, nexthop: string): void {
  skb.llFrom = from;
  skb.llFromIf = iface;
  skb.llTo = nexthop;
}

function macOf(cluster: Cluster, host: HostRef, iface: string): string | undefined {
  return hostNetwork(cluster, host)?.interfaces.find((i) => i.name === iface)?.mac;
}

/** Source and destination MAC of the skb's frame, when it has one and both are known. */
export function frameMacs(
  cluster: Cluster,
  skb: Skb,
): { readonly src: string; readonly dst: string } | undefined {
  const from = skb.llFrom;
  const iface = skb.llFromIf;
  const to = skb.llTo;
  if (from === undefined || iface === undefined || to === undefined) return undefined;
  return linkMacs(cluster, { from, iface, to });
}

/** loopback_setup(): lo's address is all zeros, and so is every frame on it. */
const LOOPBACK_MAC = '00:00:00:00:00:00';

/** Source and destination MAC of a frame (a capture record's), when both are known. */
export function linkMacs(
  cluster: Cluster,
  frame: LinkFrame,
): { readonly src: string; readonly dst: string } | undefined {
  const { from, iface, to } = frame;
  if (iface === 'lo') return { src: LOOPBACK_MAC, dst: LOOPBACK_MAC };
  const src = macOf(cluster, from, iface);
  let dst: string | undefined;
  // A pod's eth0 and a node's cni0 are on the node's bridge; an eth0 of a node or client on the LAN.
  const bridgeNode =
    from.kind === 'pod'
      ? cluster.pods.find((p) => p.meta.namespace === from.namespace && p.meta.name === from.name)
          ?.nodeName
      : from.kind === 'node' && iface === 'cni0'
        ? from.name
        : undefined;
  if (bridgeNode !== undefined) {
    const owner = to === '' ? 'cni0' : bridgeOwner(cluster, bridgeNode, to);
    if (owner === 'cni0') dst = macOf(cluster, { kind: 'node', name: bridgeNode }, 'cni0');
    else if (owner !== undefined) dst = macOf(cluster, owner.ref, 'eth0');
  } else {
    const self = hostNetwork(cluster, from)?.interfaces.find((i) => i.name === iface);
    const addr = self?.addresses.find((a) => a.family === 'inet')?.address;
    const peer = addr === undefined ? undefined : lanHostByIp(cluster, addr, to);
    if (peer !== undefined) dst = macOf(cluster, peer, 'eth0');
  }
  return src === undefined || dst === undefined ? undefined : { src, dst };
}

/**
 * ipt_REJECT (net/ipv4/netfilter/ipt_REJECT.c → nf_reject_ipv4.c): the packet is dropped and
 * the node's kernel answers.
 *
 * - ICMP errors (nf_send_unreach → icmp_send → __icmp_send): no error about an ICMP error or
 *   a non-first fragment. Source address: the rejected packet's destination when its route was
 *   local (RTCF_LOCAL, e.g. REJECT in INPUT); otherwise 0 — or, with
 *   net.ipv4.icmp_errors_use_inbound_ifaddr = 1, the input device's address — and then
 *   icmp_route_lookup() lets routing pick the source of the route back to the sender (for a
 *   pod behind cni0: cni0's address). The error quotes the rejected header as it was then
 *   (after DNAT) and at most 576 bytes in all; it leaves through OUTPUT/POSTROUTING, where
 *   conntrack relates it to the connection only if that one was confirmed.
 * - tcp-reset (nf_send_reset): source/destination and ports swapped from the rejected header;
 *   seq = its ack number if it had ACK, else ACK set with ack = seq + SYN + FIN + payload. The
 *   RST carries the rejected packet's conntrack (nf_ct_attach, reply direction), so POSTROUTING
 *   un-DNATs it. A bridged packet (br_netfilter physindev) gets its RST sent straight out of
 *   that bridge port instead (dev_queue_xmit), with no hook and no NAT.
 * - icmp rate limits (icmp_ratelimit, icmp_msgs_per_sec) are not modelled: every REJECT answers.
 */
import type { PacketHeader } from '../../protocol/trace';
import type { RejectWith } from '../netfilter';
import { dropped, nodeCtx, releaseConntrack, type NodeCtx } from './hooks';
import { deliverToPort } from './link';
import { fibLookup, primaryAddress } from './net';
import { podByPort } from './bridge-ports';
import { newSkb, parseTcpFlags, type Skb } from './packet';
import { place, why } from './recorder';
import { kernelSysctl } from './state';
import type { Ctx, Outcome, RejectedAt } from './types';

/** ICMP destination-unreachable codes of --reject-with (ipt_REJECT.c reject_tg). */
const UNREACH_CODE: Partial<Record<RejectWith, number>> = {
  'icmp-net-unreachable': 0,
  'icmp-host-unreachable': 1,
  'icmp-proto-unreachable': 2,
  'icmp-port-unreachable': 3,
  'icmp-net-prohibited': 9,
  'icmp-host-prohibited': 10,
  'icmp-admin-prohibited': 13,
};

/** ICMP types that are errors (icmp_pointers[].error). */
export const ICMP_ERRORS: ReadonlySet<number> = new Set([3, 4, 5, 11, 12]);

/** An IP header + ICMP header + the quoted packet, at most 576 bytes (RFC 1812, __icmp_send). */
export function icmpLength(rejectedLength: number): number {
  return 20 + 8 + Math.min(rejectedLength, 576 - 20 - 8);
}

/** nf_reject_ip_tcphdr_put(): the RST answering `h`. */
function tcpReset(h: PacketHeader): PacketHeader {
  const f = parseTcpFlags(h.tcpFlags);
  const payload = h.payload ?? 0;
  // Fields in the order every header has them (header-copy.ts HEADER_ORDER).
  const ports = {
    ...(h.dport !== undefined ? { sport: h.dport } : {}),
    ...(h.sport !== undefined ? { dport: h.sport } : {}),
  };
  const base = { src: h.dst, dst: h.src, proto: 'tcp' as const, ...ports };
  if (f.ack) {
    const seq = h.ack !== undefined ? { seq: h.ack } : {};
    return { ...base, tcpFlags: 'R', length: 40, mark: 0, ...seq, ttl: 64 };
  }
  const ack =
    h.seq === undefined ? undefined : (h.seq + (f.syn ? 1 : 0) + (f.fin ? 1 : 0) + payload) >>> 0;
  const acked = ack !== undefined ? { ack } : {};
  return { ...base, tcpFlags: 'R.', length: 40, mark: 0, seq: 0, ...acked, ttl: 64 };
}

/** __icmp_send()'s choice of source address. */
function icmpSource(ctx: Ctx, node: NodeCtx, h: PacketHeader, at: RejectedAt): string {
  if (at.local) return h.dst;
  const inbound = kernelSysctl(node.kernel, 'net.ipv4.icmp_errors_use_inbound_ifaddr', '0');
  if (inbound === '1' && at.inIface !== undefined) {
    const addr = primaryAddress(node.net, at.inIface);
    if (addr !== undefined) return addr;
  }
  const back = fibLookup(node.net, h.src);
  return back?.src ?? '0.0.0.0';
}

/** REJECT on `node`: answer (if the kernel would), then drop the original. */
export function reject(
  ctx: Ctx,
  nodeName: string,
  skb: Skb,
  how: RejectWith,
  at: RejectedAt,
): Outcome {
  const node = nodeCtx(ctx, nodeName);
  const nodeRef = { kind: 'node' as const, name: nodeName };
  const iface = at.inIface;
  // The REJECT verdict step is the end of the original packet.
  const finish = (explanation: ReturnType<typeof why>): Outcome => {
    if (node !== undefined) releaseConntrack(ctx, node, skb, iface);
    return { kind: 'dropped', host: nodeRef, reason: 'netfilter', why: explanation };
  };
  ctx.rec.verdict(skb, place(nodeRef, iface), 'REJECT', why('datapath.reject', { with: how }));
  const h = skb.header;
  if (node === undefined) return finish(why('datapath.drop.no-host'));
  if (how === 'tcp-reset') {
    if (h.proto !== 'tcp' || parseTcpFlags(h.tcpFlags).rst)
      return finish(why('datapath.reject.no-answer'));
    const reply = newSkb(ctx.newPacketId(), tcpReset(h));
    const physIn = skb.physIn;
    if (physIn !== undefined) {
      // nf_send_reset(): bridged — the RST goes straight back out of the port it came in on.
      const pod = podByPort(ctx.world.cluster, nodeName, physIn);
      releaseConntrack(ctx, node, skb, iface);
      send(ctx, node, reply, physIn);
      const then =
        pod === undefined
          ? dropped(
              ctx,
              nodeRef,
              reply,
              physIn,
              'neighbour',
              why('datapath.drop.no-port', { port: physIn }),
            )
          : deliverToPort(ctx, nodeName, physIn, reply, pod.ref);
      return { kind: 'answered', by: nodeRef, reply: reply.header, then };
    }
    if (skb.ct !== undefined) {
      // nf_ct_attach(): the RST belongs to the connection, in the other direction, RELATED.
      reply.ct = {
        entry: skb.ct.entry,
        dir: skb.ct.dir === 'ORIGINAL' ? 'REPLY' : 'ORIGINAL',
        state: 'RELATED',
      };
    }
    const generated = reply.header;
    send(ctx, node, reply, undefined);
    const then = ctx.stack.nodeOutput(ctx, nodeName, reply);
    releaseConntrack(ctx, node, skb, iface);
    return { kind: 'answered', by: nodeRef, reply: generated, then };
  }
  const code = UNREACH_CODE[how];
  if (code === undefined) return finish(why('datapath.reject.no-answer')); // echo-reply: "Doesn't happen"
  return sendIcmpUnreachable(ctx, node, skb, code, at);
}

/** What an ICMP error quotes of the packet it is about: addresses, protocol, ports or echo. */
export function quotedHeader(h: PacketHeader): NonNullable<PacketHeader['inner']> {
  return {
    src: h.src,
    dst: h.dst,
    proto: h.proto,
    ...(h.sport !== undefined ? { sport: h.sport } : {}),
    ...(h.dport !== undefined ? { dport: h.dport } : {}),
    ...(h.icmp !== undefined ? { icmp: h.icmp } : {}),
    ...(h.proto === 'icmp' && h.seq !== undefined ? { seq: h.seq } : {}),
  };
}

/**
 * icmp_send(ICMP_DEST_UNREACH, `code`) about `skb` from `node` (REJECT, or a next hop that never
 * answered ARP): the original is freed, the error leaves through OUTPUT and POSTROUTING.
 */
export function sendIcmpUnreachable(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  code: number,
  at: RejectedAt,
): Outcome {
  const h = skb.header;
  const iface = at.inIface;
  if (h.proto === 'icmp' && h.icmp !== undefined && ICMP_ERRORS.has(h.icmp.type)) {
    releaseConntrack(ctx, node, skb, iface);
    const e = why('datapath.reject.no-answer');
    return { kind: 'dropped', host: node.ref, reason: 'netfilter', why: e };
  }
  const header: PacketHeader = {
    src: icmpSource(ctx, node, h, at),
    dst: h.src,
    proto: 'icmp',
    icmp: { type: 3, code },
    length: icmpLength(h.length),
    mark: 0,
    inner: quotedHeader(h),
    ttl: 64,
  };
  const reply = newSkb(ctx.newPacketId(), header);
  // The original is freed before the error is looked up at OUTPUT: an unconfirmed entry is
  // not in the hash either way, so the error finds no connection to relate to.
  releaseConntrack(ctx, node, skb, iface);
  send(ctx, node, reply, undefined);
  const then = ctx.stack.nodeOutput(ctx, node.name, reply);
  return { kind: 'answered', by: node.ref, reply: header, then };
}

/** The `send` step of a kernel-generated answer. */
function send(ctx: Ctx, node: NodeCtx, reply: Skb, iface: string | undefined): void {
  ctx.rec.add(reply, {
    kind: 'send',
    at: place(node.ref, iface),
    why: why('datapath.send.kernel', { host: node.name }),
    packet: reply.header,
  });
}

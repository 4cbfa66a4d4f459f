/**
 * ip_vs_out_icmp() (net/netfilter/ipvs/ip_vs_core.c): an ICMP error leaving a node about a
 * packet of an IPVS NAT connection — e.g. the node's own host unreachable when a real server's
 * address stopped answering ARP. The quoted packet went client → real server; it is looked up
 * inverted (ip_vs_fill_iph_skb_icmp(…, inverse = true)), as the real server's reply would be,
 * and handle_response_icmp() → ip_vs_nat_icmp(inout = 1) makes the error look like it came
 * from the virtual service: the outer source and the quoted destination address become the
 * virtual address, the quoted destination port the virtual port; ip_vs_out_stats counts it.
 */
import type { Hook } from '../../protocol/trace';
import { estimatorCatchUp, findConnOut, findService, type IpvsState } from '../ipvs';
import type { NodeCtx } from './hooks';
import type { Skb } from './packet';
import { place, why } from './recorder';
import type { Ctx } from './types';

/** ICMP types ip_vs_out_icmp() translates: unreachable, source quench, time exceeded. */
const HANDLED = new Set([3, 4, 11]);

/** Translates `skb` if it is an ICMP error about an IPVS NAT connection; true when it did. */
export function ipvsOutIcmp(
  ctx: Ctx,
  node: NodeCtx,
  ipvs: IpvsState,
  skb: Skb,
  hook: Hook,
  iface: string | undefined,
): boolean {
  const h = skb.header;
  const inner = h.inner;
  if (h.icmp === undefined || !HANDLED.has(h.icmp.type) || inner === undefined) return false;
  const protocol = inner.proto === 'tcp' ? 'TCP' : inner.proto === 'udp' ? 'UDP' : undefined;
  if (protocol === undefined || inner.sport === undefined || inner.dport === undefined)
    return false;
  const conn = findConnOut(ipvs, protocol, {
    src: inner.dst,
    dst: inner.src,
    sport: inner.dport,
    dport: inner.sport,
  });
  if (conn === undefined || conn.dest?.fwd !== 'Masq') return false;
  const before = h;
  skb.header = { ...h, src: conn.vaddr, inner: { ...inner, dst: conn.vaddr, dport: conn.vport } };
  const now = ctx.world.clock.now();
  const svc = findService(ipvs, protocol, conn.vaddr, conn.vport);
  for (const st of [svc?.stats, conn.dest?.stats]) {
    if (st === undefined) continue;
    estimatorCatchUp(st, now);
    st.outpkts++;
    st.outbytes += h.length;
  }
  if (ctx.rec.on) {
    const service = `${protocol.padEnd(4)} ${conn.vaddr}:${conn.vport}`;
    ctx.rec.add(skb, {
      kind: 'ipvs',
      at: place(node.ref, iface),
      hook,
      why: why('ipvs.icmp', { service, rs: `${conn.daddr}:${conn.dport}` }),
      service,
      scheduler: svc?.scheduler ?? '',
      action: 'reply',
      realServer: `${conn.daddr}:${conn.dport}`,
      forward: 'Masq',
      connState: conn.state,
      before,
      after: skb.header,
    });
  }
  return true;
}

/**
 * IPVS on the packet path (net/netfilter/ipvs/ip_vs_core.c ip_vs_ops4):
 *
 * - requests: ip_vs_remote_request4 at LOCAL_IN (priority NF_IP_PRI_NAT_SRC - 1, after the
 *   filter table, before nat INPUT) for a virtual server's address, which is local because
 *   kube-proxy bound it to kube-ipvs0; ip_vs_local_request4 at LOCAL_OUT for the node's own
 *   connections. ip_vs_in(): the connection entry, or the scheduler for a first packet (TCP:
 *   SYN only), ip_vs_leave() answering ICMP port unreachable when no real server is available;
 * - NAT transmit (ip_vs_nat_xmit): the destination becomes the real server, the conntrack
 *   entry's reply tuple is altered to expect it (ip_vs_update_conntrack, net.ipv4.vs.conntrack=1),
 *   and the packet is re-injected at LOCAL_OUT (ip_vs_nat_send_or_cont) towards POSTROUTING;
 *   a local real server gets it delivered instead. Route (DR) and Tunnel keep the destination;
 *   the lab sends Tunnel's packet unencapsulated (IPIP is not modelled);
 * - replies: ip_vs_reply4 at FORWARD (and LOCAL_IN / LOCAL_OUT for the node's own
 *   connections) finds the connection of a real server's packet (ip_vs_out) and restores the
 *   virtual server as its source (handle_response).
 */
import type { Hook, PacketHeader } from '../../protocol/trace';
import {
  connTransition,
  dropConn,
  estimatorCatchUp,
  expireConns,
  findConnOut,
  findService,
  scheduleConn,
  type IpvsConn,
  type IpvsProtocol,
  type IpvsState,
  type VirtualService,
} from '../ipvs';
import type { NodeCtx } from './hooks';
import { ipvsOutIcmp } from './ipvs-icmp';
import { withAddresses } from './header-copy';
import { parseTcpFlags, type Skb } from './packet';
import { place, why } from './recorder';
import type { Ctx } from './types';

export type IpvsVerdict =
  /** Not an IPVS packet: the path goes on unchanged. */
  | { readonly kind: 'pass' }
  /**
   * Rewritten for a real server (request) or the client (reply); `nexthop`: where a request
   * is routed (the real server: for Route/Tunnel the destination stays the virtual address).
   */
  | { readonly kind: 'forward'; readonly local: boolean; readonly nexthop?: string }
  /** ip_vs_leave(): no destination; the kernel answers ICMP port unreachable. */
  | { readonly kind: 'no-destination' }
  | { readonly kind: 'drop' };

const PASS: IpvsVerdict = { kind: 'pass' };

const protoOf = (h: PacketHeader): IpvsProtocol | undefined =>
  h.proto === 'tcp' ? 'TCP' : h.proto === 'udp' ? 'UDP' : undefined;

function ipvsOf(node: NodeCtx): IpvsState | undefined {
  const ipvs = node.kernel.ipvs;
  return ipvs.services.length + ipvs.conns.length === 0 ? undefined : ipvs;
}

const serviceName = (s: { protocol: string; addr: string; port: number }): string =>
  `${s.protocol.padEnd(4)} ${s.addr}:${s.port}`;

function countIn(
  svc: VirtualService | undefined,
  conn: IpvsConn,
  bytes: number,
  now: number,
): void {
  for (const st of [svc?.stats, conn.dest?.stats]) {
    if (st === undefined) continue;
    estimatorCatchUp(st, now);
    st.inpkts++;
    st.inbytes += bytes;
  }
}

/**
 * What ip_vs_in() and ip_vs_out() do first: an ICMP error goes to ip_vs_out_icmp() (the
 * connection it quotes); a packet IPVS has no protocol handler for, or a node without IPVS,
 * passes; otherwise expired connections go before the lookup.
 */
function ipvsStart(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  iface: string | undefined,
):
  | IpvsVerdict
  | {
      ipvs: NonNullable<ReturnType<typeof ipvsOf>>;
      h: Skb['header'];
      /** The packet's addresses and ports (the lookup keys). */
      pkt: { src: string; dst: string; sport: number; dport: number };
      protocol: NonNullable<ReturnType<typeof protoOf>>;
      now: number;
    } {
  const ipvs = ipvsOf(node);
  const h = skb.header;
  if (h.proto === 'icmp' && ipvs !== undefined)
    return ipvsOutIcmp(ctx, node, ipvs, skb, hook, iface)
      ? { kind: 'forward', local: false }
      : PASS;
  const protocol = protoOf(h);
  const { sport, dport } = h;
  if (ipvs === undefined || protocol === undefined || sport === undefined || dport === undefined)
    return PASS;
  const now = ctx.world.clock.now();
  expireConns(ipvs, now);
  return { ipvs, h, pkt: { src: h.src, dst: h.dst, sport, dport }, protocol, now };
}

/** ip_vs_in() for a packet addressed to a virtual server (or belonging to an IPVS connection). */
export function ipvsRequest(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  iface?: string,
): IpvsVerdict {
  const start = ipvsStart(ctx, node, skb, hook, iface);
  if ('kind' in start) return start;
  const { ipvs, h, pkt, protocol, now } = start;
  const svc = findService(ipvs, protocol, pkt.dst, pkt.dport);
  const flags = parseTcpFlags(h.tcpFlags);
  const at = place(node.ref, iface);
  let conn = ipvs.conns.find(
    (c) =>
      !c.template &&
      c.protocol === protocol &&
      c.caddr === pkt.src &&
      c.cport === pkt.sport &&
      c.vaddr === pkt.dst &&
      c.vport === pkt.dport,
  );
  const sysctl = node.kernel.sysctls;
  // A connection whose real server is gone: expire_nodest_conn=1 ends it on this packet.
  if (conn !== undefined && (conn.dest === undefined || !conn.dest.available)) {
    if (sysctl['net.ipv4.vs.expire_nodest_conn'] !== '0') {
      const dead = conn;
      dropConn(ipvs, dead);
      ctx.rec.add(skb, {
        kind: 'ipvs',
        at,
        hook,
        why: why('ipvs.expired', { rs: `${dead.daddr}:${dead.dport}` }),
        service: serviceName({ protocol, addr: dead.vaddr, port: dead.vport }),
        scheduler: svc?.scheduler ?? '',
        action: 'expired',
        realServer: `${dead.daddr}:${dead.dport}`,
      });
      conn = undefined;
      // A new connection (TCP SYN, any UDP datagram) is scheduled again; the rest is dropped.
      if (protocol === 'TCP' && !(flags.syn && !flags.ack)) return { kind: 'drop' };
    } else return { kind: 'drop' };
  }
  // conn_reuse_mode=1: a SYN reusing the ports of a finished connection is scheduled afresh.
  if (
    conn !== undefined &&
    protocol === 'TCP' &&
    flags.syn &&
    !flags.ack &&
    (conn.state === 'TIME_WAIT' || conn.state === 'CLOSE')
  ) {
    dropConn(ipvs, conn);
    conn = undefined;
  }
  let action: 'schedule' | 'persistent' | 'existing' = 'existing';
  if (conn === undefined) {
    if (svc === undefined) return PASS;
    // tcp_conn_schedule(): only a SYN opens a TCP connection; other segments go to the stack.
    if (protocol === 'TCP' && !(flags.syn && !flags.ack)) return PASS;
    const r = scheduleConn(
      ipvs,
      svc,
      pkt,
      now,
      sysctl['net.ipv4.vs.expire_quiescent_template'] !== '0',
    );
    if (r.kind === 'no-dest') {
      ctx.rec.add(skb, {
        kind: 'ipvs',
        at,
        hook,
        why: why('ipvs.no-destination', { service: serviceName(svc) }),
        service: serviceName(svc),
        scheduler: svc.scheduler,
        action: 'no-destination',
      });
      return { kind: 'no-destination' };
    }
    conn = r.conn;
    action = r.viaTemplate ? 'persistent' : 'schedule';
  }
  countIn(svc, conn, h.length, now);
  connTransition(ipvs, conn, 'input', flags, conn.dest?.fwd !== 'Masq', now);
  const dest = conn.dest!;
  const before = skb.header;
  if (dest.fwd === 'Masq') {
    skb.header = withAddresses(before, { src: before.src, dst: conn.daddr, dport: conn.dport });
    updateConntrack(skb, conn);
  }
  const service = serviceName({ protocol, addr: conn.vaddr, port: conn.vport });
  ctx.rec.add(skb, {
    kind: 'ipvs',
    at,
    hook,
    why: why(`ipvs.${action}`, {
      service,
      scheduler: svc?.scheduler ?? '',
      rs: `${conn.daddr}:${conn.dport}`,
      fwd: dest.fwd,
      state: conn.state,
    }),
    service,
    scheduler: svc?.scheduler ?? '',
    action,
    realServer: `${conn.daddr}:${conn.dport}`,
    forward: dest.fwd,
    connState: conn.state,
    before,
    after: skb.header,
  });
  const local = isLocal(node, conn.daddr);
  return { kind: 'forward', local, nexthop: conn.daddr };
}

function isLocal(node: NodeCtx, ip: string): boolean {
  return (
    node.net.interfaces.some((i) => i.addresses.some((a) => a.address === ip)) ||
    ip.startsWith('127.')
  );
}

/**
 * ip_vs_update_conntrack(): an unconfirmed entry's reply tuple now expects the real server
 * (what `conntrack -L` shows as the reply side); no NAT status bit is set.
 */
function updateConntrack(skb: Skb, conn: IpvsConn): void {
  const ct = skb.ct;
  if (ct === undefined || ct.dir !== 'ORIGINAL' || ct.state !== 'NEW') return;
  const r = ct.entry.reply;
  if (r.proto === 'icmp') return;
  ct.entry.reply = { ...r, src: conn.daddr, sport: conn.dport };
}

/** ip_vs_out() / handle_response(): a real server's packet gets the virtual server as source. */
export function ipvsReply(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  iface?: string,
): IpvsVerdict {
  const start = ipvsStart(ctx, node, skb, hook, iface);
  if ('kind' in start) return start;
  const { ipvs, h, pkt, protocol, now } = start;
  const conn = findConnOut(ipvs, protocol, pkt);
  if (conn === undefined || conn.dest?.fwd !== 'Masq') return PASS;
  const before = skb.header;
  skb.header = withAddresses(before, { src: conn.vaddr, dst: before.dst, sport: conn.vport });
  connTransition(ipvs, conn, 'output', parseTcpFlags(h.tcpFlags), false, now);
  const svc = findService(ipvs, protocol, conn.vaddr, conn.vport);
  for (const st of [svc?.stats, conn.dest?.stats]) {
    if (st === undefined) continue;
    estimatorCatchUp(st, now);
    st.outpkts++;
    st.outbytes += h.length;
  }
  const service = serviceName({ protocol, addr: conn.vaddr, port: conn.vport });
  ctx.rec.add(skb, {
    kind: 'ipvs',
    at: place(node.ref, iface),
    hook,
    why: why('ipvs.reply', { service, rs: `${conn.daddr}:${conn.dport}`, state: conn.state }),
    service,
    scheduler: svc?.scheduler ?? '',
    action: 'reply',
    realServer: `${conn.daddr}:${conn.dport}`,
    forward: 'Masq',
    connState: conn.state,
    before,
    after: skb.header,
  });
  return { kind: 'forward', local: false };
}

/**
 * IPVS's own connection table (ip_vs_conn.c) with the TCP state machine of ip_vs_proto_tcp.c
 * (tcp_states: INPUT / OUTPUT / INPUT-ONLY, per-state timeouts) and UDP's single state
 * (ip_vs_proto_udp.c, 5 minutes). ActiveConn/InActConn accounting as set_tcp_state() does it:
 * a new connection starts INACTIVE (the destination's conn_flags carry IP_VS_CONN_F_INACTIVE,
 * __ip_vs_update_dest), and moves between the counters when it enters or leaves an active state
 * (tcp_state_active(): ESTABLISHED, SYN_SENT, SYN_RECV, SYNACK on current kernels).
 * Entries expire lazily: every reader passes the virtual time.
 */
import { estimatorCatchUp } from './estimator';
import { schedule, type SchedPacket } from './schedulers';
import {
  TCP_STATES,
  SVC_F_PERSISTENT,
  type Destination,
  type IpvsConn,
  type IpvsState,
  type IpvsTcpState,
  type VirtualService,
} from './types';

/** tcp_timeouts[] (seconds). ESTABLISHED, FIN_WAIT and UDP follow `ipvsadm --set`. */
const TCP_TIMEOUTS: Readonly<Record<IpvsTcpState, number>> = {
  NONE: 2,
  ESTABLISHED: 15 * 60,
  SYN_SENT: 2 * 60,
  SYN_RECV: 60,
  FIN_WAIT: 2 * 60,
  TIME_WAIT: 2 * 60,
  CLOSE: 10,
  CLOSE_WAIT: 60,
  LAST_ACK: 30,
  LISTEN: 2 * 60,
  SYNACK: 120,
};

const ACTIVE_STATES: ReadonlySet<IpvsTcpState> = new Set([
  'ESTABLISHED',
  'SYN_SENT',
  'SYN_RECV',
  'SYNACK',
]);

type Row = readonly IpvsTcpState[];
const [, sES, sSS, sSR, sFW, sTW, sCL, sCW, sLA, sLI] = TCP_STATES;
/** tcp_states[]: rows syn, fin, ack, rst; columns the current state in TCP_STATES order. */
const TCP_TABLE: Readonly<Record<'input' | 'output' | 'inputOnly', readonly Row[]>> = {
  input: [
    [sSR, sES, sES, sSR, sSR, sSR, sSR, sSR, sSR, sSR, sSR],
    [sCL, sCW, sSS, sTW, sTW, sTW, sCL, sCW, sLA, sLI, sTW],
    [sCL, sES, sSS, sES, sFW, sTW, sCL, sCW, sCL, sLI, sES],
    [sCL, sCL, sCL, sSR, sCL, sCL, sCL, sCL, sLA, sLI, sSR],
  ],
  output: [
    [sSS, sES, sSS, sSR, sSS, sSS, sSS, sSS, sSS, sLI, sSR],
    [sTW, sFW, sSS, sTW, sFW, sTW, sCL, sTW, sLA, sLI, sTW],
    [sES, sES, sSS, sES, sFW, sTW, sCL, sCW, sLA, sES, sES],
    [sCL, sCL, sSS, sCL, sCL, sTW, sCL, sCL, sCL, sCL, sCL],
  ],
  inputOnly: [
    [sSR, sES, sES, sSR, sSR, sSR, sSR, sSR, sSR, sSR, sSR],
    [sCL, sFW, sSS, sTW, sFW, sTW, sCL, sCW, sLA, sLI, sTW],
    [sCL, sES, sSS, sES, sFW, sTW, sCL, sCW, sCL, sLI, sES],
    [sCL, sCL, sCL, sSR, sCL, sCL, sCL, sCL, sLA, sLI, sCL],
  ],
};

export interface TcpFlagBits {
  readonly syn?: boolean;
  readonly fin?: boolean;
  readonly ack?: boolean;
  readonly rst?: boolean;
}

/** tcp_state_idx(): rst, then syn, fin, ack; -1 for none. */
function stateIndex(f: TcpFlagBits): number {
  if (f.rst) return 3;
  if (f.syn) return 0;
  if (f.fin) return 1;
  if (f.ack) return 2;
  return -1;
}

/** The timeout of a state, seconds, with the `ipvsadm --set` overrides. */
export function stateTimeout(ipvs: IpvsState, state: IpvsTcpState | 'UDP'): number {
  if (state === 'UDP') return ipvs.timeouts.udp;
  if (state === 'ESTABLISHED') return ipvs.timeouts.tcp;
  if (state === 'FIN_WAIT') return ipvs.timeouts.tcpfin;
  return TCP_TIMEOUTS[state];
}

function setState(ipvs: IpvsState, conn: IpvsConn, state: IpvsTcpState | 'UDP', now: number) {
  const dest = conn.dest;
  if (state !== conn.state && dest !== undefined && conn.state !== 'UDP' && state !== 'UDP') {
    const active = ACTIVE_STATES.has(state);
    if (!conn.inactive && !active) {
      dest.activeConns--;
      dest.inactConns++;
      conn.inactive = true;
    } else if (conn.inactive && active) {
      dest.activeConns++;
      dest.inactConns--;
      conn.inactive = false;
    }
  }
  conn.state = state;
  conn.timeoutMs = stateTimeout(ipvs, state) * 1000;
  conn.expiresAt = now + conn.timeoutMs;
}

/** set_tcp_state() for a packet of `conn` in `dir` (input: client → VIP; output: the reply). */
export function connTransition(
  ipvs: IpvsState,
  conn: IpvsConn,
  dir: 'input' | 'output',
  flags: TcpFlagBits,
  inputOnly: boolean,
  now: number,
): void {
  if (conn.protocol !== 'TCP') {
    conn.expiresAt = now + conn.timeoutMs;
    return;
  }
  const idx = stateIndex(flags);
  const col = TCP_STATES.indexOf(conn.state as IpvsTcpState);
  const table = dir === 'output' ? 'output' : inputOnly ? 'inputOnly' : 'input';
  const next = idx < 0 ? 'CLOSE' : TCP_TABLE[table][idx]![col]!;
  setState(ipvs, conn, next, now);
}

/** Removes entries whose timer ran out (ip_vs_conn_expire), releasing their counters. */
export function expireConns(ipvs: IpvsState, now: number): void {
  if (!ipvs.conns.some((c) => c.expiresAt <= now)) return;
  ipvs.conns = ipvs.conns.filter((c) => {
    if (c.expiresAt > now) return true;
    unbind(c);
    return false;
  });
}

function unbind(c: IpvsConn): void {
  const d = c.dest;
  if (d === undefined) return;
  if (c.template) d.persistConns--;
  else if (c.inactive) d.inactConns--;
  else d.activeConns--;
  c.dest = undefined;
}

/** Expires one entry now (expire_nodest_conn; `ipvsadm` has no per-entry delete). */
export function dropConn(ipvs: IpvsState, conn: IpvsConn): void {
  unbind(conn);
  ipvs.conns = ipvs.conns.filter((c) => c !== conn);
}

/** ip_vs_conn_in_get(): the entry of a client → virtual packet. */
export function findConnIn(
  ipvs: IpvsState,
  svc: VirtualService,
  pkt: SchedPacket,
): IpvsConn | undefined {
  return ipvs.conns.find(
    (c) =>
      !c.template &&
      c.protocol === svc.protocol &&
      c.caddr === pkt.src &&
      c.cport === pkt.sport &&
      c.vaddr === pkt.dst &&
      c.vport === pkt.dport,
  );
}

/** ip_vs_conn_out_get(): the entry a real server's reply belongs to. */
export function findConnOut(
  ipvs: IpvsState,
  protocol: string,
  pkt: SchedPacket,
): IpvsConn | undefined {
  return ipvs.conns.find(
    (c) =>
      !c.template &&
      c.protocol === protocol &&
      c.daddr === pkt.src &&
      c.dport === pkt.sport &&
      c.caddr === pkt.dst &&
      c.cport === pkt.dport,
  );
}

function newConn(
  ipvs: IpvsState,
  svc: VirtualService,
  pkt: SchedPacket,
  dest: Destination,
  template: boolean,
  now: number,
): IpvsConn {
  const conn: IpvsConn = {
    protocol: svc.protocol,
    caddr: pkt.src,
    cport: template ? 0 : pkt.sport,
    vaddr: svc.addr,
    vport: template ? 0 : svc.port,
    daddr: dest.addr,
    dport: template ? 0 : dest.port,
    dest,
    state: svc.protocol === 'UDP' && !template ? 'UDP' : 'NONE',
    inactive: true,
    template,
    expiresAt: now,
    timeoutMs: 0,
  };
  if (template) {
    dest.persistConns++;
    conn.timeoutMs = svc.timeout * 1000;
  } else {
    dest.inactConns++;
    conn.timeoutMs = stateTimeout(ipvs, conn.state) * 1000;
  }
  conn.expiresAt = now + conn.timeoutMs;
  ipvs.conns.push(conn);
  return conn;
}

export type ScheduleResult =
  | { readonly kind: 'conn'; readonly conn: IpvsConn; readonly viaTemplate: boolean }
  | { readonly kind: 'no-dest' };

/**
 * ip_vs_schedule(): a persistent service first looks for the client's template
 * (ip_vs_sched_persist) and reuses its destination while it is usable (a weight-0 one is
 * dropped with expire_quiescent_template=1); otherwise the scheduler picks and, for persistent
 * services, a template (client port 0, state NONE) records the choice.
 */
export function scheduleConn(
  ipvs: IpvsState,
  svc: VirtualService,
  pkt: SchedPacket,
  now: number,
  expireQuiescentTemplate: boolean,
): ScheduleResult {
  expireConns(ipvs, now);
  let viaTemplate = false;
  let dest: Destination | undefined;
  if (svc.flags & SVC_F_PERSISTENT) {
    const tpl = ipvs.conns.find(
      (c) =>
        c.template && c.protocol === svc.protocol && c.caddr === pkt.src && c.vaddr === svc.addr,
    );
    if (tpl !== undefined && tpl.dest !== undefined && tpl.dest.available) {
      if (tpl.dest.weight === 0 && expireQuiescentTemplate) dropConn(ipvs, tpl);
      else {
        dest = tpl.dest;
        tpl.expiresAt = now + tpl.timeoutMs;
        viaTemplate = true;
      }
    }
    if (dest === undefined) {
      dest = schedule(svc, pkt);
      if (dest !== undefined) newConn(ipvs, svc, pkt, dest, true, now);
    }
  } else dest = schedule(svc, pkt);
  if (dest === undefined) return { kind: 'no-dest' };
  estimatorCatchUp(dest.stats, now);
  estimatorCatchUp(svc.stats, now);
  dest.stats.conns++;
  svc.stats.conns++;
  return { kind: 'conn', conn: newConn(ipvs, svc, pkt, dest, false, now), viaTemplate };
}

/** Seconds left on an entry, as /proc/net/ip_vs_conn prints them ((expires - jiffies) / HZ). */
export function secondsLeft(conn: IpvsConn, now: number): number {
  return Math.max(0, Math.floor((conn.expiresAt - now) / 1000));
}

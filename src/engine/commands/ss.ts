/**
 * `ss` (iproute2 6.1) over the TCP and UDP sockets of the host's kernel: -t -u -a -l -n -H -4 -6
 * -o, `state`/`exclude` and filter expressions (ss-options.ts, ss-states.ts, ss-filter.ts), the
 * header, states and addresses as misc/ss.c prints them, laid out by ss-columns.ts. What the
 * lab knows of each socket that ss also shows:
 *
 * - The Go programs (the pods' agnhost web server, CoreDNS, the API server, the kubelet,
 *   kube-proxy's health server) listen on `:PORT`, which Go opens as an IPv6 socket that also
 *   takes IPv4 (IPV6_V6ONLY off); kube-proxy's metrics server on 127.0.0.1:10249 is IPv4:
 *   ss prints it `*:8080`, and a connection it accepted `[::ffff:10.244.0.5]:8080`, listed after
 *   the IPv4 sockets (ss asks the kernel for AF_INET, then AF_INET6). curl, nc, dig and
 *   nslookup use IPv4 sockets.
 * - LISTEN: Recv-Q is the accept queue (empty: the lab's servers accept at once), Send-Q the
 *   backlog (Go listens with net.core.somaxconn, 4096; nc with 1). Otherwise Send-Q is
 *   write_seq - snd_una (a SYN or FIN not yet acknowledged counts one) and Recv-Q what the
 *   program has not read (the lab's programs read at once).
 * - Order: UDP, then TCP; per family the listeners first, then the others in the order the
 *   lab made them (the kernel walks its hash tables, whose order depends on a random secret).
 * - -o: `timer:(timewait,…)` and the retransmission timer (`on`) as the kernel reports them.
 *   TCP keep-alive is not modelled (a note says so where a real ss would show its timer: the
 *   connections a Go server accepted; curl's own end only lives as long as the command).
 */
import { labNote } from '../model/lab-notes';
import type { Socket, TcpSocket } from '../hosts';
import { serviceName } from '../netfilter/services';
import { ipToInt } from '../model/ip';
import { filterMatches, type FilterSocket } from './ss-filter';
import { COL_NETID, COL_STATE, COLUMNS, renderTable, type Row } from './ss-columns';
import { SS_CONN, SS_UDP_DEFAULT, stateBit, stateCount } from './ss-states';
import { note, parseSsArgs, type SsOptions } from './ss-options';
import type { CommandContext, CommandRegistry, CommandResult, HostSockets } from './registry';
import { registerCommand } from './registry';

const STATE_NAMES: Readonly<Record<TcpSocket['state'], string>> = {
  ESTABLISHED: 'ESTAB',
  SYN_SENT: 'SYN-SENT',
  SYN_RECV: 'SYN-RECV',
  FIN_WAIT1: 'FIN-WAIT-1',
  FIN_WAIT2: 'FIN-WAIT-2',
  TIME_WAIT: 'TIME-WAIT',
  CLOSED: 'UNCONN',
  CLOSE_WAIT: 'CLOSE-WAIT',
  LAST_ACK: 'LAST-ACK',
  LISTEN: 'LISTEN',
  CLOSING: 'CLOSING',
};

/**
 * Whether the socket is one of the lab's Go servers' dual-stack sockets (a listener on
 * `:PORT` and what it accepted; one on an IPv4 address is an AF_INET socket).
 */
const isGo = (s: Socket): boolean => s.owner.kind === 'app' && s.owner.ipv4Only !== true;

/** The socket's addresses as the kernel stores them (IPv4, or IPv6 with v4-mapped addresses). */
function filterView(s: Socket): FilterSocket {
  const dual = isGo(s);
  const bits = (addr: string, port: number) => {
    const w = ipToInt(addr) >>> 0;
    if (!dual) return { words: [w], port };
    return { words: addr === '0.0.0.0' ? [0, 0, 0, 0] : [0, 0, 0xffff, w], port };
  };
  const remote = s.remote ?? { addr: '0.0.0.0', port: 0 };
  return { local: bits(s.local.addr, s.local.port), remote: bits(remote.addr, remote.port) };
}

const passes = (o: SsOptions, s: Socket): boolean =>
  o.filter === undefined || filterMatches(o.filter, filterView(s));

/** ss's address: IPv4 as is; a dual-stack socket's any address `*`, others v4-mapped. */
function address(addr: string, dual: boolean): string {
  if (!dual) return addr;
  return addr === '0.0.0.0' ? '*' : `[::ffff:${addr}]`;
}

function service(port: number, proto: 'tcp' | 'udp', o: SsOptions, t: HostSockets): string {
  if (port === 0) return '*';
  if (o.numeric || (port >= t.portRange[0] && port <= t.portRange[1])) return String(port);
  return serviceName(port, proto) ?? String(port);
}

/** print_ms_timer(): `59sec`, `1.500ms`, `1min39sec`… */
export function msTimer(timeout: number): string {
  let secs = Math.floor(timeout / 1000);
  const minutes = Math.floor(secs / 60);
  secs %= 60;
  let msecs = timeout % 1000;
  let buf = '';
  if (minutes > 0) {
    msecs = 0;
    buf = `${minutes}min`;
    if (minutes > 9) secs = 0;
  }
  if (secs > 0) {
    if (secs > 9) msecs = 0;
    buf += `${secs}${msecs > 0 ? '.' : 'sec'}`;
  }
  if (msecs > 0) buf += `${String(msecs).padStart(3, '0')}ms`;
  return buf;
}

/** The kernel's idiag_timer for a TCP socket: its name, ms left and retransmissions. */
function timerOf(s: TcpSocket, now: number): string {
  if (s.state === 'TIME_WAIT' && s.timeWaitUntil !== undefined)
    return ` timer:(timewait,${msTimer(Math.max(0, s.timeWaitUntil - now))},0)`;
  if (s.rtxDue !== undefined && s.state !== 'LISTEN')
    return ` timer:(on,${msTimer(Math.max(0, s.rtxDue - now))},${s.retransmits})`;
  return '';
}

function sendQueue(s: TcpSocket): number {
  if (s.state === 'LISTEN') return s.owner.kind === 'app' ? 4096 : 1;
  const unsent = s.sendQueue.reduce((n, p) => n + (p.kind === 'text' ? p.text.length : 0), 0);
  return s.sndNxt - s.sndUna + unsent;
}

/**
 * The states listed: those asked for; otherwise each kind of socket listed brings its defaults
 * (ss-states.ts), and with neither -t nor -u, SS_CONN.
 */
function statesOf(o: SsOptions, typed: boolean): number {
  if (o.states !== 0) return o.states;
  if (!typed) return SS_CONN;
  // -4 and -6 bring their family's default states too (default_afs: SS_CONN).
  const family = o.v4 || o.v6 ? SS_CONN : 0;
  return (o.tcp ? SS_CONN : 0) | (o.udp ? SS_UDP_DEFAULT : 0) | family;
}

function rows(t: HostSockets, o: SsOptions, states: number, showTcp: boolean, showUdp: boolean) {
  const out: Row[] = [];
  let keepalive = false;
  // Which families ss asks the kernel for: both, or the last of -4 and -6 given (preferred_family;
  // `ss -4 -6` lists IPv6 sockets only, as the real ss does).
  const families = o.lastFamily === undefined ? [false, true] : [o.lastFamily === 6];
  const add = (proto: 'tcp' | 'udp', s: Socket, state: string, rq: number, sq: number, ext: string) => {
    const dual = isGo(s);
    const peer = s.remote ?? { addr: '0.0.0.0', port: 0 };
    out.push([
      proto,
      state,
      String(rq).padEnd(6),
      String(sq).padEnd(6),
      `${address(s.local.addr, dual)}:`,
      service(s.local.port, proto, o, t),
      `${address(peer.addr, dual)}:`,
      service(peer.port, proto, o, t),
      ext,
      '',
    ]);
  }; // prettier-ignore
  if (showUdp)
    for (const dual of families)
      for (const s of t.sockets) {
        if (s.proto !== 'udp' || s.closed || isGo(s) !== dual) continue;
        const state = s.remote === undefined ? 'UNCONN' : 'ESTAB';
        if (states & stateBit(state) && passes(o, s)) add('udp', s, state, 0, 0, '');
      }
  if (showTcp)
    for (const dual of families) {
      const tcp = t.sockets.filter(
        (s): s is TcpSocket => s.proto === 'tcp' && s.state !== 'CLOSED' && isGo(s) === dual,
      );
      for (const s of [...tcp.filter((x) => x.state === 'LISTEN'), ...tcp.filter((x) => x.state !== 'LISTEN')]) {
        const state = STATE_NAMES[s.state];
        if (!(states & stateBit(state)) || !passes(o, s)) continue;
        const timer = o.timers ? timerOf(s, t.nowMs) : '';
        // Go servers turn keep-alive on for what they accept: a real ss -o shows its timer.
        if (o.timers && timer === '' && s.state !== 'LISTEN' && isGo(s)) keepalive = true;
        add('tcp', s, state, 0, sendQueue(s), timer);
      }
    } // prettier-ignore
  return { rows: out, keepalive };
}

function ss(ctx: CommandContext, argv: string[]): CommandResult {
  const o = parseSsArgs(argv.slice(1));
  if ('exitCode' in o) return o;
  const table = ctx.world.sockets?.();
  if (table === undefined) return note(labNote('command.unmodelled', { command: 'ss' }));
  const typed = o.tcp || o.udp;
  const showTcp = o.tcp || !typed;
  const showUdp = o.udp || !typed;
  const states = statesOf(o, typed);
  const { rows: body, keepalive } = rows(table, o, states, showTcp, showUdp);
  // Netid only when more than one kind of socket is listed, State when more than one state.
  const enabled = COLUMNS.map((_, c) =>
    c === COL_NETID ? showTcp && showUdp : c === COL_STATE ? stateCount(states) > 1 : true,
  );
  const screen = ctx.stdoutIsTty === false ? undefined : ctx.world.terminalColumns?.();
  const notes = [
    ...(typed ? [] : [labNote('ss.families')]),
    ...(keepalive ? [labNote('ss.keepalive')] : []),
    ...(ctx.world.host.kind === 'node' ? [labNote('ss.node')] : []),
  ];
  return {
    stdout: renderTable(o.header, body, enabled, screen),
    stderr: notes.join(''),
    exitCode: 0,
  };
}

export function registerSs(registry: CommandRegistry): void {
  registerCommand(registry, 'ss', ss);
}

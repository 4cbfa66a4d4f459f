/**
 * `ss` (iproute2 6.1) over the TCP and UDP sockets of the host's kernel: -t -u -a -l -n -H -4 -6
 * -o, the header, states and addresses as misc/ss.c prints them, laid out by ss-columns.ts.
 * What the lab knows of each socket that ss also shows:
 *
 * - The Go programs (the pods' agnhost web server, CoreDNS, the API server and the kubelet)
 *   listen on `:PORT`, which Go opens as an IPv6 socket that also takes IPv4 (IPV6_V6ONLY off):
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
import { COL_NETID, COL_STATE, COLUMNS, renderTable, type Row } from './ss-columns';
import { SS_USAGE } from './ss-usage';
import type { CommandContext, CommandRegistry, CommandResult, HostSockets } from './registry';
import { registerCommand } from './registry';

interface SsOptions {
  tcp: boolean;
  udp: boolean;
  /** -a / -l: which of the two came last. */
  states: 'connected' | 'all' | 'listening';
  numeric: boolean;
  header: boolean;
  v4: boolean;
  v6: boolean;
  timers: boolean;
}

type Flag =
  | 'tcp'
  | 'udp'
  | 'all'
  | 'listening'
  | 'numeric'
  | 'header'
  | 'v4'
  | 'v6'
  | 'timers'
  | 'help'
  | 'version';

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

/** Options ss has that the lab does not model (short letters; long names below). */
const UNMODELLED_SHORT = 'erpmiTsbEZzNKOSMdwx0fADF';
const TAKES_ARGUMENT = 'fADFN';
const LONG: Readonly<Record<string, Flag>> = {
  tcp: 'tcp',
  udp: 'udp',
  all: 'all',
  listening: 'listening',
  numeric: 'numeric',
  'no-header': 'header',
  ipv4: 'v4',
  ipv6: 'v6',
  options: 'timers',
  help: 'help',
  version: 'version',
};
const UNMODELLED_LONG = [
  'resolve', 'extended', 'memory', 'processes', 'threads', 'info', 'tipcinfo', 'summary', 'tos',
  'cgroup', 'bpf', 'events', 'context', 'contexts', 'net', 'packet', 'mptcp', 'sctp', 'dccp',
  'raw', 'unix', 'tipc', 'vsock', 'xdp', 'family', 'kill', 'oneline', 'inet-sockopt', 'query',
  'socket', 'diag', 'filter',
]; // prettier-ignore

const SHORT: Readonly<Record<string, Flag>> = {
  t: 'tcp',
  u: 'udp',
  a: 'all',
  l: 'listening',
  n: 'numeric',
  H: 'header',
  '4': 'v4',
  '6': 'v6',
  o: 'timers',
  h: 'help',
  V: 'version',
};

const usageError = (first: string): CommandResult => ({
  stdout: '',
  stderr: `${first}\n${SS_USAGE}`,
  exitCode: 255,
});
const note = (text: string): CommandResult => ({ stdout: '', stderr: text, exitCode: 1 });

type Parsed = SsOptions | CommandResult;

function parse(argv: readonly string[]): Parsed {
  const o: SsOptions = {
    tcp: false,
    udp: false,
    states: 'connected',
    numeric: false,
    header: true,
    v4: false,
    v6: false,
    timers: false,
  };
  const set = (what: Flag): CommandResult | undefined => {
    if (what === 'help') return { stdout: SS_USAGE, stderr: '', exitCode: 0 };
    if (what === 'version') return { stdout: 'ss utility, iproute2-6.1.0\n', stderr: '', exitCode: 0 }; // prettier-ignore
    if (what === 'header') o.header = false;
    else if (what === 'all' || what === 'listening') o.states = what;
    else o[what] = true;
    return undefined;
  };
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a.startsWith('--')) {
      const name = a.slice(2).split('=')[0]!;
      const what = LONG[name];
      if (what !== undefined) {
        const r = set(what);
        if (r !== undefined) return r;
      } else if (UNMODELLED_LONG.includes(name))
        return note(labNote('tool.option', { tool: 'ss', option: `-${name}` }));
      else return usageError(`ss: unrecognized option '${a}'`);
      continue;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      const what = SHORT[c];
      if (what !== undefined) {
        const r = set(what);
        if (r !== undefined) return r;
      } else if (UNMODELLED_SHORT.includes(c)) {
        if (TAKES_ARGUMENT.includes(c) && k === a.length - 1 && argv[i + 1] === undefined)
          return usageError(`ss: option requires an argument -- '${c}'`);
        return note(labNote('tool.option', { tool: 'ss', option: c }));
      } else return usageError(`ss: invalid option -- '${c}'`);
    }
  }
  if (i < argv.length) return note(labNote('ss.filter', { filter: argv.slice(i).join(' ') }));
  return o;
}

/** Whether the program behind a socket is one of the lab's Go servers (dual-stack sockets). */
const isGo = (s: Socket): boolean => s.owner.kind === 'app';

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
  if (s.state === 'LISTEN') return isGo(s) ? 4096 : 1;
  const unsent = s.sendQueue.reduce((n, p) => n + (p.kind === 'text' ? p.text.length : 0), 0);
  return s.sndNxt - s.sndUna + unsent;
}

const ALL_STATES = [...Object.values(STATE_NAMES)];

/**
 * The states listed (ss.c): -a all, -l LISTEN and UNCONN (the last of the two given wins);
 * otherwise each kind of socket asked for brings its defaults (default_dbs): TCP SS_CONN,
 * every state but LISTEN, UNCONN, TIME-WAIT and SYN-RECV; UDP only ESTAB (connected sockets).
 */
function statesOf(o: SsOptions, showTcp: boolean): ReadonlySet<string> {
  if (o.states === 'all') return new Set(ALL_STATES);
  if (o.states === 'listening') return new Set(['LISTEN', 'UNCONN']);
  if (!showTcp) return new Set(['ESTAB']);
  const off = ['LISTEN', 'UNCONN', 'TIME-WAIT', 'SYN-RECV'];
  return new Set(ALL_STATES.filter((s) => !off.includes(s)));
}

function rows(
  t: HostSockets,
  o: SsOptions,
  states: ReadonlySet<string>,
  showTcp: boolean,
  showUdp: boolean,
) {
  const out: Row[] = [];
  let keepalive = false;
  const families = [false, true].filter((dual) => (dual ? !o.v4 || o.v6 : !o.v6 || o.v4));
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
        if (states.has(state)) add('udp', s, state, 0, 0, '');
      }
  if (showTcp)
    for (const dual of families) {
      const tcp = t.sockets.filter(
        (s): s is TcpSocket => s.proto === 'tcp' && s.state !== 'CLOSED' && isGo(s) === dual,
      );
      for (const s of [...tcp.filter((x) => x.state === 'LISTEN'), ...tcp.filter((x) => x.state !== 'LISTEN')]) {
        const state = STATE_NAMES[s.state];
        if (!states.has(state)) continue;
        const timer = o.timers ? timerOf(s, t.nowMs) : '';
        // Go servers turn keep-alive on for what they accept: a real ss -o shows its timer.
        if (o.timers && timer === '' && s.state !== 'LISTEN' && isGo(s)) keepalive = true;
        add('tcp', s, state, 0, sendQueue(s), timer);
      }
    } // prettier-ignore
  return { rows: out, keepalive };
}

function ss(ctx: CommandContext, argv: string[]): CommandResult {
  const o = parse(argv.slice(1));
  if ('exitCode' in o) return o;
  const table = ctx.world.sockets?.();
  if (table === undefined) return note(labNote('command.unmodelled', { command: 'ss' }));
  const typed = o.tcp || o.udp;
  const showTcp = o.tcp || !typed;
  const showUdp = o.udp || !typed;
  const states = statesOf(o, showTcp);
  const { rows: body, keepalive } = rows(table, o, states, showTcp, showUdp);
  // Netid only when more than one kind of socket is listed, State when more than one state.
  const enabled = COLUMNS.map((_, c) =>
    c === COL_NETID ? showTcp && showUdp : c === COL_STATE ? states.size > 1 : true,
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

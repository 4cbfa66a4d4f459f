/**
 * `ipvsadm` (1.31) over a node's IPVS: listing (-L/-l with -n, --stats, --rate, --exact, -c,
 * --timeout, -t/-u/--sctp-service), and the editing commands a teacher uses to show forwarding
 * methods (-A/-E/-D services, -a/-e/-d real servers with -m/-g/-i and -w, -C, --set). Errors as
 * ipvsadm.c fail() and libipvs ipvs_strerror() print them.
 */
import {
  addDest,
  addService,
  deleteDest,
  deleteService,
  editDest,
  editService,
  findDest,
  findService,
  flushServices,
  LAB_SCHEDULERS,
  renderIpvsConns,
  renderIpvsList,
  renderIpvsService,
  renderIpvsTimeout,
  SVC_F_PERSISTENT,
  type ForwardMethod,
  type IpvsProtocol,
  type ListFormat,
} from '../ipvs';
import { ipIsValid } from '../model/ip';
import { serviceName } from '../netfilter/services';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { labNote } from '../model/lab-notes';

const fail = (msg: string, code = 2): CommandResult => ({
  stdout: '',
  stderr: `${msg}\n`,
  exitCode: code,
});

type Cmd = 'list' | 'add' | 'edit' | 'del' | 'adddest' | 'editdest' | 'deldest' | 'flush' | 'set';

interface Parsed {
  cmd?: Cmd;
  numeric: boolean;
  format: ListFormat;
  exact: boolean;
  conns: boolean;
  timeout: boolean;
  svc?: { protocol: IpvsProtocol; addr: string; port: number };
  dest?: { addr: string; port?: number };
  scheduler?: string;
  persistent?: number;
  weight?: number;
  fwd?: ForwardMethod;
  setValues: string[];
}

const LONG: Readonly<Record<string, string>> = {
  '--list': 'L',
  '--numeric': 'n',
  '--connection': 'c',
  '--tcp-service': 't',
  '--udp-service': 'u',
  '--add-service': 'A',
  '--edit-service': 'E',
  '--delete-service': 'D',
  '--clear': 'C',
  '--add-server': 'a',
  '--edit-server': 'e',
  '--delete-server': 'd',
  '--real-server': 'r',
  '--scheduler': 's',
  '--persistent': 'p',
  '--weight': 'w',
  '--masquerading': 'm',
  '--gatewaying': 'g',
  '--ipip': 'i',
};
const WITH_ARG = new Set(['t', 'u', 's', 'r', 'w', 'sctp']);

/**
 * ipvsadm 1.31's other options (its getopt table): real, but not modelled here — the lab says
 * so rather than calling them invalid.
 */
const UNMODELLED_SHORT = new Set([...'RSZhvfMxyob6j']);
const UNMODELLED_LONG = new Set(['--restore', '--save', '--zero', '--help', '--version', '--fwmark-service', '--netmask', '--u-threshold', '--l-threshold', '--daemon', '--thresholds', '--persistent-conn', '--nosort', '--sort', '--ipv6', '--ops', '--pe', '--sched-flags', '--start-daemon', '--stop-daemon', '--mcast-interface', '--syncid', '--tun-type']); // prettier-ignore
const unmodelled = (option: string): CommandResult =>
  fail(labNote('ipvsadm.option', { option }).trimEnd(), 2);
const COMMAND_OF: Readonly<Record<string, Cmd>> = {
  L: 'list',
  l: 'list',
  A: 'add',
  E: 'edit',
  D: 'del',
  a: 'adddest',
  e: 'editdest',
  d: 'deldest',
  C: 'flush',
};

/** parse_service(): `addr[:port]`; a missing port is 0 for services, the service's for servers. */
function addrPort(text: string): { addr: string; port?: number } | undefined {
  const m = /^([0-9.]+)(?::(\d+))?$/.exec(text);
  if (m === null || !ipIsValid(m[1]!) || (m[2] !== undefined && Number(m[2]) > 65535))
    return undefined;
  return { addr: m[1]!, ...(m[2] !== undefined ? { port: Number(m[2]) } : {}) };
}

function parse(argv: readonly string[]): Parsed | CommandResult {
  const p: Parsed = {
    numeric: false,
    format: 'plain',
    exact: false,
    conns: false,
    timeout: false,
    setValues: [],
  };
  const setCmd = (c: Cmd): CommandResult | undefined => {
    if (p.cmd !== undefined && p.cmd !== c) return fail('multiple commands specified');
    p.cmd = c;
    return undefined;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let letters: string[];
    if (arg === '--stats') {
      p.format = 'stats';
      continue;
    }
    if (arg === '--rate') {
      p.format = 'rate';
      continue;
    }
    if (arg === '--exact') {
      p.exact = true;
      continue;
    }
    if (arg === '--timeout') {
      p.timeout = true;
      continue;
    }
    if (arg === '--set') {
      const e = setCmd('set');
      if (e) return e;
      continue;
    }
    if (arg === '--sctp-service') letters = ['sctp'];
    else if (arg.startsWith('--')) {
      const l = LONG[arg];
      if (l === undefined && UNMODELLED_LONG.has(arg.split('=')[0]!)) return unmodelled(arg);
      if (l === undefined) return fail(`${arg}: unknown option`, 2);
      letters = [l];
    } else if (arg.startsWith('-') && arg.length > 1) letters = [...arg.slice(1)];
    else {
      if (p.cmd === 'set') {
        p.setValues.push(arg);
        continue;
      }
      return fail(`unexpected argument ${arg}`);
    }
    for (let k = 0; k < letters.length; k++) {
      const l = letters[k]!;
      let value: string | undefined;
      if (
        WITH_ARG.has(l) ||
        (l === 'p' && argv[i + 1] !== undefined && /^\d+$/.test(argv[i + 1]!))
      ) {
        const rest = letters.slice(k + 1).join('');
        value = rest !== '' ? rest : argv[++i];
        k = letters.length;
        if (value === undefined) return fail(`-${l}: missing argument`, 2);
      }
      const cmd = COMMAND_OF[l];
      if (cmd !== undefined) {
        const e = setCmd(cmd);
        if (e) return e;
        continue;
      }
      switch (l) {
        case 'n':
          p.numeric = true;
          break;
        case 'c':
          p.conns = true;
          break;
        case 't':
        case 'u':
        case 'sctp': {
          const ap = addrPort(value!);
          if (ap === undefined) return fail('illegal virtual server address[:port] specified');
          p.svc = {
            protocol: l === 't' ? 'TCP' : l === 'u' ? 'UDP' : 'SCTP',
            addr: ap.addr,
            port: ap.port ?? 0,
          };
          break;
        }
        case 'r': {
          const ap = addrPort(value!);
          if (ap === undefined) return fail('illegal real server address[:port] specified');
          p.dest = ap;
          break;
        }
        case 's':
          p.scheduler = value!;
          break;
        case 'p':
          p.persistent = value === undefined ? 300 : Number(value);
          break;
        case 'w': {
          const w = /^\d+$/.test(value!) ? Number(value) : -1;
          if (w < 0 || w > 65535) return fail('illegal weight specified');
          p.weight = w;
          break;
        }
        case 'm':
          p.fwd = 'Masq';
          break;
        case 'g':
          p.fwd = 'Route';
          break;
        case 'i':
          p.fwd = 'Tunnel';
          break;
        default:
          if (UNMODELLED_SHORT.has(l)) return unmodelled(`-${l}`);
          return fail(`invalid option \`-${l}'`);
      }
    }
  }
  return p;
}

function ipvsadm(ctx: CommandContext, argv: string[]): CommandResult {
  const node = ctx.world.nodeKernel();
  if (node?.ipvs === undefined)
    return fail(
      "Can't initialize ipvs: Protocol not available\nAre you sure that IP Virtual Server is built in the kernel or as module?",
      2,
    );
  const { state: ipvs, now } = node.ipvs();
  const parsed = parse(argv.slice(1));
  if ('exitCode' in parsed) return parsed;
  const p = parsed;
  const ok = (stdout = ''): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
  const lib = (msg: string): CommandResult => ({ stdout: '', stderr: `${msg}\n`, exitCode: 1 });
  const cmd = p.cmd ?? (p.svc === undefined && !p.conns && !p.timeout ? 'list' : 'list');
  if (cmd === 'list') {
    if (p.timeout) return ok(renderIpvsTimeout(ipvs));
    const portName = p.numeric ? undefined : serviceName;
    const opts = { format: p.format, exact: p.exact, ...(portName ? { portName } : {}) };
    let out: string;
    if (p.conns) out = renderIpvsConns(ipvs, now, opts);
    else if (p.svc !== undefined) {
      const svc = findService(ipvs, p.svc.protocol, p.svc.addr, p.svc.port);
      if (svc === undefined) return lib('No such service');
      out = renderIpvsService(svc, opts, ipvs, now);
    } else out = renderIpvsList(ipvs, opts, now);
    return ok(out);
  }
  if (cmd === 'flush') {
    flushServices(ipvs);
    return ok();
  }
  if (cmd === 'set') {
    if (p.setValues.length < 3) return fail('--set option requires 3 timeout values');
    const [tcp, fin, udp] = p.setValues.map(Number);
    if (tcp! > 0) ipvs.timeouts.tcp = tcp!;
    if (fin! > 0) ipvs.timeouts.tcpfin = fin!;
    if (udp! > 0) ipvs.timeouts.udp = udp!;
    return ok();
  }
  if (p.svc === undefined)
    return fail(
      `You need to supply the 'service-address' option for the '${cmd === 'add' ? 'add-service' : cmd === 'edit' ? 'edit-service' : cmd === 'del' ? 'delete-service' : cmd === 'adddest' ? 'add-server' : cmd === 'editdest' ? 'edit-server' : 'delete-server'}' command`,
    );
  const existing = findService(ipvs, p.svc.protocol, p.svc.addr, p.svc.port);
  if (cmd === 'add' || cmd === 'edit') {
    const scheduler = p.scheduler ?? (cmd === 'edit' && existing ? existing.scheduler : 'wlc');
    if (!(LAB_SCHEDULERS as readonly string[]).includes(scheduler))
      return lib('Scheduler or persistence engine not found');
    const spec = {
      ...p.svc,
      scheduler,
      flags: p.persistent !== undefined ? SVC_F_PERSISTENT : 0,
      timeout: p.persistent ?? 0,
    };
    if (cmd === 'add')
      return addService(ipvs, spec) === 'exists' ? lib('Service already exists') : ok();
    if (existing === undefined) return lib('No such service');
    editService(existing, spec);
    return ok();
  }
  if (cmd === 'del') {
    if (existing === undefined) return lib('No such service');
    deleteService(ipvs, existing);
    return ok();
  }
  if (p.dest === undefined)
    return fail(
      `You need to supply the 'real-server' option for the '${cmd === 'adddest' ? 'add-server' : cmd === 'editdest' ? 'edit-server' : 'delete-server'}' command`,
    );
  if (existing === undefined) return lib('Service not defined');
  const port = p.dest.port ?? p.svc.port;
  const dest = findDest(existing, p.dest.addr, port);
  if (cmd === 'adddest') {
    const r = addDest(existing, {
      addr: p.dest.addr,
      port,
      weight: p.weight ?? 1,
      fwd: p.fwd ?? 'Route',
    });
    return r === 'exists' ? lib('Destination already exists') : ok();
  }
  if (dest === undefined) return lib('No such destination');
  if (cmd === 'editdest') editDest(existing, dest, p.weight ?? dest.weight);
  else deleteDest(existing, dest);
  return ok();
}

export function registerIpvsadm(registry: CommandRegistry): void {
  registerCommand(registry, 'ipvsadm', ipvsadm);
}

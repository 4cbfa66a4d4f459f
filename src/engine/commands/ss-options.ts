/**
 * ss's command line (iproute2 6.1 misc/ss.c main()): the options the lab models, the real ones
 * it does not (a note), getopt's complaints with ss's usage (exit 255), then `state`/`exclude`
 * pairs and a filter expression (ss-filter.ts).
 */
import { labNote } from '../model/lab-notes';
import type { CommandResult } from './registry';
import { isFilterError, parseFilter, type SsFilter } from './ss-filter';
import { scanState, SS_ALL, SS_LISTENING } from './ss-states';
import { SS_USAGE } from './ss-usage';

export interface SsOptions {
  tcp: boolean;
  udp: boolean;
  /** The states asked for (-a, -l, `state`, `exclude`; the last of -a and -l wins); 0: none. */
  states: number;
  /** The filter expression after the options and states, if any. */
  filter?: SsFilter;
  /** The last of -4 and -6 (ss.c's preferred_family: the family listed, and a filter's). */
  lastFamily?: 4 | 6;
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
export const note = (text: string): CommandResult => ({ stdout: '', stderr: text, exitCode: 1 });

type Parsed = SsOptions | CommandResult;

export function parseSsArgs(argv: readonly string[]): Parsed {
  const o: SsOptions = {
    tcp: false,
    udp: false,
    states: 0,
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
    else if (what === 'v4' || what === 'v6') {
      o[what] = true;
      o.lastFamily = what === 'v4' ? 4 : 6;
    } else if (what === 'all') o.states = SS_ALL;
    else if (what === 'listening') o.states = SS_LISTENING;
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
  // `state NAME` and `exclude NAME` pairs, before any filter expression (ss.c main()).
  let saw = false;
  while (argv[i] === 'state' || argv[i] === 'exclude' || argv[i] === 'excl') {
    const name = argv[i + 1];
    if (name === undefined)
      return { stdout: '', stderr: 'Command line is not complete. Try option "help"\n', exitCode: 255 }; // prettier-ignore
    const states = scanState(name);
    if (states === undefined)
      return { stdout: '', stderr: `ss: wrong state name: ${name}\n`, exitCode: 255 };
    if (argv[i] === 'state') o.states = (saw ? o.states : 0) | states;
    else o.states = (saw ? o.states : SS_ALL) & ~states;
    saw = true;
    i += 2;
  }
  if (i < argv.length) {
    const typed = o.tcp || o.udp;
    const family = o.lastFamily;
    const f = parseFilter(argv.slice(i), { tcp: o.tcp || !typed, udp: o.udp || !typed, family });
    if (!isFilterError(f)) o.filter = f;
    else if (f.kind === 'syntax')
      return usageError('ss: bison bellows (while parsing filter): "syntax error!" Sorry.');
    else if (f.kind === 'message') return { stdout: '', stderr: f.stderr, exitCode: f.exitCode };
    else return note(labNote('ss.filter', { filter: argv.slice(i).join(' ') }));
  }
  return o;
}

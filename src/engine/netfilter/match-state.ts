/**
 * Matches on packet/connection state: mark (xt_mark rev 1), conntrack (rev 3, --ctstate), state,
 * statistic and recent (rev 1).
 */
import { notModelled, XtError } from './errors';
import { makeExt, parseMarkMask, parseUint, type ExtParser } from './ext';
import { probabilityThreshold } from './format';
import { ipIsValid } from '../model/ip';
import {
  CT_STATES,
  type ConntrackMatch,
  type CtState,
  type MarkMatch,
  type RecentMatch,
  type StateMatch,
  type StatisticMatch,
} from './types';

export function markMatch(): ExtParser<MarkMatch> {
  return makeExt({
    name: 'mark',
    options: [{ name: 'mark', arg: true, invert: true, mand: true }],
    init: () => ({ mark: 0, mask: 0xffffffff, invert: false }),
    parse(s, _o, arg, invert) {
      const { value, mask } = parseMarkMask('mark', 'mark', arg);
      s.mark = value;
      s.mask = mask;
      s.invert = invert;
    },
    finish: (s) => ({ name: 'mark', ...s }),
  });
}

/**
 * conntrack_ps_state(): each comma-separated word is compared case-insensitively against the
 * state names over the word's length (so prefixes like "est" are accepted), in the order
 * INVALID, NEW, ESTABLISHED, RELATED, UNTRACKED, SNAT, DNAT.
 */
function parseStates(arg: string, ext: 'ctstate' | 'state' = 'ctstate'): CtState[] {
  // The state match (state_parse_states()) knows the same words but SNAT and DNAT.
  const order: CtState[] = ['INVALID', 'NEW', 'ESTABLISHED', 'RELATED', 'UNTRACKED'];
  if (ext === 'ctstate') order.push('SNAT', 'DNAT');
  const set = new Set<CtState>();
  let rest = arg;
  for (;;) {
    const comma = rest.indexOf(',');
    const word = comma < 0 ? rest : rest.slice(0, comma);
    const hit =
      word === ''
        ? undefined
        : order.find(
            (s) =>
              s.slice(0, word.length).toLowerCase() === word.toLowerCase() &&
              word.length <= s.length,
          );
    if (hit === undefined) throw XtError.param(`Bad ${ext} "${rest}"`);
    set.add(hit);
    if (comma < 0) break;
    rest = rest.slice(comma + 1);
  }
  // Stored as a bit mask: the printed order is the bit order (print_state()).
  return CT_STATES.filter((s) => set.has(s));
}

/**
 * The conntrack match's other options (libxt_conntrack.c revision 3): real, and taken by the
 * real tool, but not modelled by the lab, which says so rather than call them unknown.
 */
const CONNTRACK_UNMODELLED = [
  'ctproto', 'ctorigsrc', 'ctorigdst', 'ctreplsrc', 'ctrepldst', 'ctstatus', 'ctexpire',
  'ctorigsrcport', 'ctorigdstport', 'ctreplsrcport', 'ctrepldstport', 'ctdir',
]; // prettier-ignore

export function conntrackMatch(): ExtParser<ConntrackMatch> {
  return makeExt({
    name: 'conntrack',
    options: [
      { name: 'ctstate', arg: true, invert: true },
      ...CONNTRACK_UNMODELLED.map((name) => ({ name, arg: true, invert: name !== 'ctdir' })),
    ],
    init: () => ({ states: [] as CtState[], invert: false }),
    parse(s, option, arg, invert) {
      if (option !== 'ctstate')
        throw notModelled('iptables.match-option', { name: 'conntrack', option });
      s.states = parseStates(arg);
      s.invert = invert;
    },
    finish(s, seen) {
      if (seen.size === 0) throw XtError.param('conntrack: At least one option is required');
      return { name: 'conntrack', states: s.states, invert: s.invert };
    },
  });
}

/** `-m state --state` (libxt_conntrack.c's state match, revision 0): conntrack's states. */
export function stateMatch(): ExtParser<StateMatch> {
  return makeExt({
    name: 'state',
    options: [{ name: 'state', arg: true, invert: true, mand: true }],
    init: () => ({ states: [] as CtState[], invert: false }),
    parse(s, _o, arg, invert) {
      s.states = parseStates(arg, 'state');
      s.invert = invert;
    },
    finish: (s) => ({ name: 'state', states: s.states, invert: s.invert }),
  });
}

export function statisticMatch(): ExtParser<StatisticMatch> {
  return makeExt({
    name: 'statistic',
    options: [
      { name: 'mode', arg: true, mand: true },
      { name: 'probability', arg: true, invert: true, excl: ['every', 'packet'] },
      { name: 'every', arg: true, invert: true, excl: ['probability'], also: ['packet'] },
      { name: 'packet', arg: true, excl: ['probability'], also: ['every'] },
    ],
    init: () => ({
      mode: 'random' as StatisticMatch['mode'],
      probability: 0,
      every: 0,
      packet: 0,
      invert: false,
    }),
    parse(s, option, arg, invert) {
      // statistic_parse(): any inverted option inverts the whole match.
      if (invert) s.invert = true;
      if (option === 'mode') {
        if (arg === 'random') s.mode = 'random';
        else if (arg === 'nth') s.mode = 'nth';
        else throw XtError.param(`Bad mode "${arg}"`);
      } else if (option === 'probability') {
        // XTTYPE_DOUBLE: strtod over the whole argument, within [0, 1].
        const p = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(arg) ? Number(arg) : NaN;
        if (!(p >= 0 && p <= 1)) {
          throw XtError.param(
            `statistic: bad value for option "--probability", or out of range (0-1).\n`,
          );
        }
        s.probability = probabilityThreshold(p);
      } else if (option === 'every') {
        s.every = parseUint('statistic', 'every', arg, 1, 0xffffffff);
      } else {
        s.packet = parseUint('statistic', 'packet', arg, 0, 0xffffffff);
      }
    },
    finish(s, seen) {
      if (s.mode === 'random' && !seen.has('probability')) {
        throw XtError.param('--probability must be specified when using random mode');
      }
      if (s.mode === 'nth' && !seen.has('every') && !seen.has('packet')) {
        throw XtError.param('--every and --packet must be specified when using nth mode');
      }
      if (s.packet > s.every - 1 && s.mode === 'nth')
        throw XtError.param('the --packet p must be 0 <= p <= n-1');
      return { name: 'statistic', ...s };
    },
  });
}

const RECENT_OPS = ['set', 'rcheck', 'update', 'remove'] as const;

export function recentMatch(): ExtParser<RecentMatch> {
  return makeExt({
    name: 'recent',
    options: [
      ...RECENT_OPS.map((name) => ({ name, arg: false, invert: true, excl: [...RECENT_OPS] })),
      { name: 'seconds', arg: true },
      { name: 'reap', arg: false, also: ['seconds'] },
      { name: 'hitcount', arg: true },
      { name: 'rttl', arg: false },
      { name: 'name', arg: true },
      { name: 'rsource', arg: false },
      { name: 'rdest', arg: false },
      { name: 'mask', arg: true },
    ],
    // recent_init(): name DEFAULT, source side, full mask.
    init: () => ({
      op: 'set' as RecentMatch['op'],
      invert: false,
      seconds: 0,
      reap: false,
      hitcount: 0,
      rttl: false,
      listName: 'DEFAULT',
      side: 'source' as RecentMatch['side'],
      mask: '255.255.255.255',
    }),
    parse(s, option, arg, invert) {
      switch (option) {
        case 'set':
        case 'rcheck':
        case 'update':
        case 'remove':
          s.op = option;
          if (invert) s.invert = true;
          break;
        case 'seconds':
          s.seconds = parseUint('recent', 'seconds', arg, 1, 0xffffffff);
          break;
        case 'hitcount':
          s.hitcount = parseUint('recent', 'hitcount', arg, 0, 0xffffffff);
          break;
        case 'reap':
          s.reap = true;
          break;
        case 'rttl':
          s.rttl = true;
          break;
        case 'name':
          s.listName = arg;
          break;
        case 'rsource':
          s.side = 'source';
          break;
        case 'rdest':
          s.side = 'dest';
          break;
        default:
          if (!ipIsValid(arg)) throw XtError.param(`host/network \`${arg}' not found`);
          s.mask = arg;
      }
    },
    finish(s, seen) {
      if (!RECENT_OPS.some((o) => seen.has(o))) {
        throw XtError.param(
          "recent: you must specify one of `--set', `--rcheck' `--update' or `--remove'",
        );
      }
      return { name: 'recent', ...s };
    },
  });
}

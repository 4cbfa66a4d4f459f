/**
 * Target extensions with options: REJECT (libipt_REJECT), DNAT/SNAT/MASQUERADE/REDIRECT
 * (libxt_NAT: ./target-nat.ts), MARK (libxt_MARK rev 2), CONNMARK (rev 2), LOG, CT/NOTRACK.
 * ACCEPT/DROP/RETURN take no options and a name that is no target is a chain to jump to.
 */
import { noteTraceTarget } from './trace-targets';
import { notModelled, XtError } from './errors';
import { natTarget } from './target-nat';
import { makeExt, parseMarkMask, parseUint, strtoui, type ExtParser } from './ext';
import { REJECT_TYPES, type RejectWith, type Target } from './types';

/** Reject types with their aliases, in the table order REJECT_parse() searches. */
const REJECT_ALIASES: Readonly<Partial<Record<RejectWith, string>>> = {
  'icmp-net-unreachable': 'net-unreach',
  'icmp-host-unreachable': 'host-unreach',
  'icmp-proto-unreachable': 'proto-unreach',
  'icmp-port-unreachable': 'port-unreach',
  'icmp-net-prohibited': 'net-prohib',
  'icmp-host-prohibited': 'host-prohib',
  'tcp-reset': 'tcp-rst',
  'icmp-admin-prohibited': 'admin-prohib',
};

function rejectTarget(): ExtParser<Target> {
  return makeExt({
    name: 'REJECT',
    options: [{ name: 'reject-with', arg: true }],
    init: () => ({ with: 'icmp-port-unreachable' as RejectWith }),
    parse(s, _o, arg) {
      // strncasecmp(name, arg, strlen(arg)): the argument may be any prefix of a name or alias.
      const a = arg.toLowerCase();
      const hit = REJECT_TYPES.find((t) => {
        const alias = REJECT_ALIASES[t];
        return alias !== undefined && (t.startsWith(a) || alias.startsWith(a));
      });
      if (hit === undefined) throw XtError.param(`unknown reject type "${arg}"`);
      s.with = hit;
    },
    finish: (s) => ({ kind: 'REJECT', with: s.with }),
  });
}

const MARK_OPS = ['set-xmark', 'set-mark', 'and-mark', 'or-mark', 'xor-mark'];

/** mark_tg_parse(): every form is stored as value/mask (xt_mark_tginfo2). */
function markValueMask(ext: string, option: string, arg: string): { value: number; mask: number } {
  if (option === 'set-xmark') return parseMarkMask(ext, option, arg);
  if (option === 'set-mark') {
    const vm = parseMarkMask(ext, option, arg);
    return { value: vm.value, mask: (vm.value | vm.mask) >>> 0 };
  }
  const v = parseUint(ext, option, arg, 0, 0xffffffff);
  if (option === 'and-mark') return { value: 0, mask: ~v >>> 0 };
  if (option === 'or-mark') return { value: v, mask: v };
  return { value: v, mask: 0 };
}

function markTarget(): ExtParser<Target> {
  return makeExt({
    name: 'MARK',
    options: MARK_OPS.map((name) => ({ name, arg: true, excl: MARK_OPS })),
    init: () => ({ value: 0, mask: 0 }),
    parse(s, option, arg) {
      Object.assign(s, markValueMask('MARK', option, arg));
    },
    finish(s, seen) {
      if (seen.size === 0) {
        throw XtError.param(
          'MARK: One of the --set-xmark, --{and,or,xor,set}-mark options is required',
        );
      }
      return { kind: 'MARK', value: s.value, mask: s.mask };
    },
  });
}

const CONNMARK_OPS = [...MARK_OPS, 'save-mark', 'restore-mark'];

function connmarkTarget(): ExtParser<Target> {
  return makeExt({
    name: 'CONNMARK',
    options: [
      ...CONNMARK_OPS.map((name) => ({ name, arg: !name.endsWith('e-mark'), excl: CONNMARK_OPS })),
      { name: 'ctmask', arg: true, excl: ['mask'] },
      { name: 'nfmask', arg: true, excl: ['mask'] },
      { name: 'mask', arg: true, excl: ['ctmask', 'nfmask'] },
    ],
    // connmark_tg_init(): both masks default to all ones for save/restore.
    init: () => ({
      mode: 'set' as 'set' | 'save' | 'restore',
      ctmark: 0,
      ctmask: 0xffffffff,
      nfmask: 0xffffffff,
    }),
    parse(s, option, arg) {
      if (option === 'save-mark') s.mode = 'save';
      else if (option === 'restore-mark') s.mode = 'restore';
      else if (option === 'ctmask') s.ctmask = parseUint('CONNMARK', option, arg, 0, 0xffffffff);
      else if (option === 'nfmask') s.nfmask = parseUint('CONNMARK', option, arg, 0, 0xffffffff);
      else if (option === 'mask')
        s.ctmask = s.nfmask = parseUint('CONNMARK', option, arg, 0, 0xffffffff);
      else {
        const vm = markValueMask('CONNMARK', option, arg);
        s.mode = 'set';
        s.ctmark = vm.value;
        s.ctmask = vm.mask;
      }
    },
    finish(s, seen) {
      if (!CONNMARK_OPS.some((o) => seen.has(o)))
        throw XtError.param('CONNMARK target: No operation specified');
      return { kind: 'CONNMARK', ...s };
    },
  });
}

/** xtopt_parse_sysloglevel(): 0-7 or one of these names. */
const LOG_LEVELS: Readonly<Record<string, number>> = {
  alert: 1,
  crit: 2,
  debug: 7,
  emerg: 0,
  error: 3,
  info: 6,
  notice: 5,
  panic: 0,
  warning: 4,
};
const LOG_FLAGS: Readonly<Record<string, number>> = {
  'log-tcp-sequence': 0x01,
  'log-tcp-options': 0x02,
  'log-ip-options': 0x04,
  'log-uid': 0x08,
  'log-macdecode': 0x20,
};

function logTarget(): ExtParser<Target> {
  return makeExt({
    name: 'LOG',
    options: [
      { name: 'log-level', arg: true },
      { name: 'log-prefix', arg: true },
      ...Object.keys(LOG_FLAGS).map((name) => ({ name, arg: false })),
    ],
    init: () => ({ prefix: '', level: 4, flags: 0 }),
    parse(s, option, arg) {
      if (option === 'log-level') {
        const level = strtoui(arg, 0, 7) ?? LOG_LEVELS[arg];
        if (level === undefined) throw XtError.param(`log level "${arg}" unknown\n`);
        s.level = level;
      } else if (option === 'log-prefix') {
        if (arg.length > 29)
          throw XtError.param('Argument must have a maximum length of 29 characters\n');
        if (arg.length < 1)
          throw XtError.param('Argument must have a minimum length of 1 characters\n');
        s.prefix = arg;
      } else {
        s.flags |= LOG_FLAGS[option] ?? 0;
      }
    },
    finish: (s) => ({ kind: 'LOG', ...s }),
  });
}

/** The CT target's options (libxt_CT revision 2); the lab models --notrack only. */
const CT_OPTIONS = ['notrack', 'helper', 'ctevents', 'expevents', 'zone-orig', 'zone-reply', 'zone', 'timeout']; // prettier-ignore

function ctTarget(): ExtParser<Target> {
  return makeExt({
    name: 'CT',
    options: CT_OPTIONS.map((name) => ({ name, arg: name !== 'notrack' })),
    init: () => ({ notrack: false }),
    parse(s, option) {
      if (option !== 'notrack') throw notModelled('iptables.target-option', { name: 'CT', option });
      s.notrack = true;
    },
    finish: (s) => ({ kind: 'CT', notrack: s.notrack }),
  });
}

export const STANDARD_VERDICTS = ['ACCEPT', 'DROP', 'RETURN'] as const;

/** A target without options: `finish` gives the target (a fresh parser per rule). */
function bareTarget(name: string, finish: () => Target): ExtParser<Target> {
  return makeExt({ name, options: [], init: () => null, parse() {}, finish });
}

/** The parser for a target extension, or undefined when the name is a chain. */
export function targetParser(name: string): ExtParser<Target> | undefined {
  switch (name) {
    case 'ACCEPT':
    case 'DROP':
    case 'RETURN':
      return bareTarget(name, () => ({ kind: name }));
    case 'REJECT':
      return rejectTarget();
    case 'DNAT':
    case 'SNAT':
    case 'MASQUERADE':
    case 'REDIRECT':
      return natTarget(name);
    case 'MARK':
      return markTarget();
    case 'CONNMARK':
      return connmarkTarget();
    case 'LOG':
      return logTarget();
    case 'NOTRACK':
      return bareTarget(name, () => ({ kind: 'NOTRACK' }));
    case 'CT':
      return ctTarget();
    case 'TRACE':
      return bareTarget(name, () => {
        noteTraceTarget();
        return { kind: 'TRACE' };
      });
    default:
      return undefined;
  }
}

/**
 * Target extensions with options: REJECT (libipt_REJECT), DNAT/SNAT/MASQUERADE/REDIRECT (libxt_NAT),
 * MARK (libxt_MARK rev 2), CONNMARK (rev 2), LOG. ACCEPT/DROP/RETURN take no options and a
 * name that is no target is a chain to jump to.
 */
import { noteTraceTarget } from './trace-targets';
import { XtError } from './errors';
import { makeExt, parseMarkMask, parseUint, strtoui, type ExtParser, type ParseCtx } from './ext';
import { parsePort } from './match-ports';
import { ipIsValid } from '../model/ip';
import { REJECT_TYPES, type NatRange, type RejectWith, type Target } from './types';

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

/** parse_ports() of libxt_NAT: `p` or `p-q` (a range takes numbers only). */
function parseNatPorts(text: string): { min: number; max: number } {
  const dash = text.indexOf('-');
  const first = dash < 0 ? text : text.slice(0, dash);
  let min = strtoui(first, 0, 65535);
  if (min === undefined) {
    if (dash < 0 && !text.includes(':')) min = parsePortOrFail(text);
    else if (first.includes(':')) throw XtError.param('Invalid port:port syntax - use dash');
    else throw XtError.param(`Port \`${text}' not valid`);
  }
  if (dash < 0) return { min, max: min };
  const max = strtoui(text.slice(dash + 1), 0, 65535);
  if (max === undefined) throw XtError.param(`Port \`${text.slice(dash + 1)}' not valid`);
  if (max < min) throw XtError.param(`Port range \`${text.slice(dash + 1)}' funky`);
  return { min, max };
}

function parsePortOrFail(text: string): number {
  try {
    return parsePort(text, undefined);
  } catch {
    throw XtError.param(`Port \`${text}' not valid`);
  }
}

/** TCP, UDP, SCTP, DCCP and ICMP rules may map ports (__NAT_parse portok). */
function portOk(ctx: ParseCtx): boolean {
  return [6, 17, 132, 33, 1].includes(ctx.proto);
}

/** parse_to(): `[ip[-ip]][:port[-port]]`. */
function parseTo(arg: string, ctx: ParseCtx): Partial<NatRange> {
  if (arg.includes('[')) throw XtError.param('Invalid address format');
  let colon = arg.indexOf(':');
  if (colon >= 0 && arg.indexOf(':', colon + 1) >= 0) colon = -1;
  const out: { -readonly [K in keyof NatRange]?: NatRange[K] } = {};
  if (colon >= 0) {
    if (!portOk(ctx)) throw XtError.param('Need TCP, UDP, SCTP or DCCP with port specification');
    const ports = parseNatPorts(arg.slice(colon + 1));
    out.minPort = ports.min;
    out.maxPort = ports.max;
    if (colon === 0) return out;
  }
  const addrs = colon >= 0 ? arg.slice(0, colon) : arg;
  const dash = addrs.indexOf('-');
  const lo = dash < 0 ? addrs : addrs.slice(0, dash);
  const hi = dash < 0 ? lo : addrs.slice(dash + 1);
  if (!ipIsValid(lo)) throw XtError.param(`Bad IP address "${lo}"`);
  if (!ipIsValid(hi)) throw XtError.param(`Bad IP address "${hi}"`);
  out.minAddr = lo;
  out.maxAddr = hi;
  return out;
}

/** libxt_NAT's targets; MASQUERADE and REDIRECT take only ports (`--to-ports`). */
function natTarget(kind: 'DNAT' | 'SNAT' | 'MASQUERADE' | 'REDIRECT'): ExtParser<Target> {
  const portsOnly = kind === 'MASQUERADE' || kind === 'REDIRECT';
  const rangeOpt = kind === 'DNAT' ? 'to-destination' : kind === 'SNAT' ? 'to-source' : 'to-ports';
  const options = [
    { name: rangeOpt, arg: true, mand: !portsOnly },
    { name: 'random', arg: false },
    ...(kind === 'SNAT' || kind === 'MASQUERADE' ? [{ name: 'random-fully', arg: false }] : []),
    ...(!portsOnly ? [{ name: 'persistent', arg: false }] : []),
  ];
  return makeExt({
    name: kind,
    options,
    init: () => ({
      range: {} as Partial<NatRange>,
      random: false,
      randomFully: false,
      persistent: false,
    }),
    parse(s, option, arg, _invert, ctx) {
      if (option === rangeOpt) {
        if (portsOnly) {
          if (!portOk(ctx))
            throw XtError.param('Need TCP, UDP, SCTP or DCCP with port specification');
          const p = parseNatPorts(arg);
          s.range = { minPort: p.min, maxPort: p.max };
        } else {
          s.range = parseTo(arg, ctx);
        }
      } else if (option === 'random') s.random = true;
      else if (option === 'random-fully') s.randomFully = true;
      else s.persistent = true;
    },
    finish: (s) => ({ kind, range: natRange(s.range, s) }),
  });
}

/** The range with its flags; fields in the order parseTo() sets them (a spread, only faster). */
function natRange(
  r: Partial<NatRange>,
  flags: Pick<NatRange, 'random' | 'randomFully' | 'persistent'>,
): NatRange {
  const out: { -readonly [K in keyof NatRange]?: NatRange[K] } = {};
  if (r.minPort !== undefined) out.minPort = r.minPort;
  if (r.maxPort !== undefined) out.maxPort = r.maxPort;
  if (r.minAddr !== undefined) out.minAddr = r.minAddr;
  if (r.maxAddr !== undefined) out.maxAddr = r.maxAddr;
  out.random = flags.random;
  out.randomFully = flags.randomFully;
  out.persistent = flags.persistent;
  return out as NatRange;
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

export const STANDARD_VERDICTS = ['ACCEPT', 'DROP', 'RETURN'] as const;

/** The parser for a target extension, or undefined when the name is a chain. */
export function targetParser(name: string): ExtParser<Target> | undefined {
  switch (name) {
    case 'ACCEPT':
    case 'DROP':
    case 'RETURN':
      return makeExt({
        name,
        options: [],
        init: () => null,
        parse() {},
        finish: () => ({ kind: name }),
      });
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
    case 'TRACE':
      return makeExt({
        name,
        options: [],
        init: () => null,
        parse() {},
        finish: () => {
          noteTraceTarget();
          return { kind: 'TRACE' };
        },
      });
    default:
      return undefined;
  }
}

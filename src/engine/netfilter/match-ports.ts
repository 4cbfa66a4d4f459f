/**
 * Port matches: tcp, udp, sctp (libxt_tcp/udp/sctp) and multiport (libxt_multiport rev 1).
 */
import { notModelled, XtError } from './errors';
import { makeExt, strtoui, type ExtParser, type ParseCtx } from './ext';
import { servicePort } from './services';
import type { MultiportMatch, PortRange, PortsMatch, TcpFlagsMatch } from './types';

export const PROTO_TCP = 6;
export const PROTO_UDP = 17;
export const PROTO_SCTP = 132;

/** xtables_parse_port(): a number 0-65535 or a service name of that protocol. */
export function parsePort(text: string, proto: string | undefined): number {
  const n = strtoui(text, 0, 65535);
  if (n !== undefined) return n;
  const named = servicePort(text, proto);
  if (named !== undefined) return named;
  throw XtError.param(`invalid port/service \`${text}' specified`);
}

/** parse_tcp_ports(): `p`, `p:q`, `:q` (from 0) or `p:` (to 65535). */
function parseRange(text: string, proto: string, invert: boolean): PortRange {
  const colon = text.indexOf(':');
  if (colon < 0) {
    const p = parsePort(text, proto);
    return { min: p, max: p, invert };
  }
  const a = text.slice(0, colon);
  const b = text.slice(colon + 1);
  const min = a === '' ? 0 : parsePort(a, proto);
  const max = b === '' ? 0xffff : parsePort(b, proto);
  if (min > max) throw XtError.param('invalid portrange (min > max)');
  return { min, max, invert };
}

const PORT_OPTIONS = [
  { name: 'source-port', arg: true, invert: true },
  { name: 'sport', arg: true, invert: true },
  { name: 'destination-port', arg: true, invert: true },
  { name: 'dport', arg: true, invert: true },
] as const;

/** libxt_tcp's flags, in the order it prints them (tcp_flag_names, ALL and NONE aside). */
export const TCP_FLAG_NAMES = ['FIN', 'SYN', 'RST', 'PSH', 'ACK', 'URG'] as const;
const ALL_FLAGS = 0x3f;

/** parse_tcp_flag(): comma-separated names, case-insensitive; empty pieces are skipped. */
function parseTcpFlagList(text: string): number {
  let bits = 0;
  for (const piece of text.split(',')) {
    if (piece === '') continue;
    const upper = piece.toUpperCase();
    if (upper === 'ALL') bits |= ALL_FLAGS;
    else if (upper === 'NONE') continue;
    else {
      const i = TCP_FLAG_NAMES.indexOf(upper as (typeof TCP_FLAG_NAMES)[number]);
      if (i < 0) throw XtError.param(`Unknown TCP flag \`${piece}'`);
      bits |= 1 << i;
    }
  }
  return bits;
}

/** The names of `bits` as libxt_tcp prints them (`NONE` for none). */
export function tcpFlagNames(bits: number): string {
  const names = TCP_FLAG_NAMES.filter((_, i) => (bits & (1 << i)) !== 0);
  return names.length === 0 ? 'NONE' : names.join(',');
}

/**
 * tcp's own options beyond the ports: `--syn` and `--tcp-flags MASK COMP` (one of them), and
 * `--tcp-option N`, which the lab's segments (they carry no TCP options) cannot model: it gets
 * the lab's note.
 */
const TCP_FLAG_OPTIONS = [
  { name: 'syn', arg: false, invert: true, multi: true },
  { name: 'tcp-flags', arg: true, invert: true, multi: true },
  { name: 'tcp-option', arg: true, invert: true },
] as const;

type PortsState = { sport?: PortRange; dport?: PortRange; flags?: TcpFlagsMatch };

/** `--tcp-flags` (its two words joined by a space, rule-parse.ts) or `--syn`. */
function parseFlagsOption(s: PortsState, option: string, arg: string, invert: boolean): void {
  // tcp_parse(): one flags option per match, whichever it is (the message has two spaces).
  if (s.flags !== undefined) throw XtError.param("Only one of `--syn' or `--tcp-flags'  allowed");
  if (option === 'syn') {
    s.flags = { mask: 0x17, cmp: 0x02, invert };
    return;
  }
  const space = arg.indexOf(' ');
  const mask = parseTcpFlagList(arg.slice(0, space));
  const cmp = parseTcpFlagList(arg.slice(space + 1));
  s.flags = { mask, cmp, invert };
}

/** tcp, udp or sctp: `--sport`/`--dport` (and their long synonyms); tcp's flags. */
export function portsMatch(name: 'tcp' | 'udp' | 'sctp'): ExtParser<PortsMatch> {
  return makeExt({
    name,
    options: name === 'tcp' ? [...PORT_OPTIONS, ...TCP_FLAG_OPTIONS] : PORT_OPTIONS,
    init: () => ({}) as PortsState,
    parse(s, option, arg, invert) {
      if (option === 'tcp-option') throw notModelled('iptables.match-option', { name, option });
      if (option === 'syn' || option === 'tcp-flags') {
        parseFlagsOption(s, option, arg, invert);
        return;
      }
      const range = parseRange(arg, name, invert);
      const isSrc = option === 'sport' || option === 'source-port';
      if ((isSrc ? s.sport : s.dport) !== undefined) {
        throw XtError.param(
          `${name}: "--${isSrc ? 'source-port' : 'destination-port'}" option may only be specified once`,
        );
      }
      if (isSrc) s.sport = range;
      else s.dport = range;
    },
    finish(s): PortsMatch {
      return {
        name,
        ...(s.sport !== undefined ? { sport: s.sport } : {}),
        ...(s.dport !== undefined ? { dport: s.dport } : {}),
        // A zero mask compares nothing: iptables-nft writes no flags expression.
        ...(s.flags !== undefined && (s.flags.mask !== 0 || s.flags.invert)
          ? { flags: s.flags }
          : {}),
      };
    },
  });
}

/** True when a port range is the whole 0:65535 and not inverted (nothing to match). */
export function rangeIsAll(r: PortRange | undefined): boolean {
  return r === undefined || (r.min === 0 && r.max === 0xffff && !r.invert);
}

const MULTIPORT_PROTOS: Readonly<Record<number, string>> = {
  6: 'tcp',
  17: 'udp',
  136: 'udplite',
  132: 'sctp',
  33: 'dccp',
};

/** check_proto() of libxt_multiport. */
function multiportProto(ctx: ParseCtx): string {
  if (ctx.protoInvert)
    throw XtError.param('multiport only works with TCP, UDP, UDPLITE, SCTP and DCCP');
  const name = MULTIPORT_PROTOS[ctx.proto];
  if (name === undefined) {
    throw XtError.param("multiport needs `-p tcp', `-p udp', `-p udplite', `-p sctp' or `-p dccp'");
  }
  return name;
}

const MP_ALL = ['source-ports', 'sports', 'destination-ports', 'dports', 'ports'];

export function multiportMatch(): ExtParser<MultiportMatch> {
  return makeExt({
    name: 'multiport',
    options: MP_ALL.map((n) => ({ name: n, arg: true, invert: true, excl: MP_ALL })),
    init: () => ({
      dir: 'ports' as MultiportMatch['dir'],
      ports: [] as { min: number; max: number }[],
      invert: false,
    }),
    parse(s, option, arg, invert, ctx) {
      const proto = multiportProto(ctx);
      s.dir = option.startsWith('s') ? 'sports' : option.startsWith('d') ? 'dports' : 'ports';
      s.invert = invert;
      // parse_multi_ports_v1(): up to XT_MULTI_PORTS (15) slots; a range takes two.
      let slots = 0;
      for (const part of arg.split(',')) {
        const colon = part.indexOf(':');
        if (colon < 0) {
          const p = parsePort(part, proto);
          s.ports.push({ min: p, max: p });
          slots += 1;
        } else {
          const min = parsePort(part.slice(0, colon), proto);
          const max = parsePort(part.slice(colon + 1), proto);
          if (max < min) throw XtError.param('invalid portrange specified');
          s.ports.push({ min, max });
          slots += 2;
        }
        if (slots > 15) throw XtError.param('too many ports specified');
      }
    },
    finish(s, seen) {
      if (seen.size === 0) throw XtError.param('multiport expection an option');
      return { name: 'multiport', dir: s.dir, ports: s.ports, invert: s.invert };
    },
  });
}

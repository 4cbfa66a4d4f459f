/**
 * libxt_NAT's targets: DNAT, SNAT, MASQUERADE and REDIRECT, with its parse of addresses and
 * ports and its error texts (iptables 1.8.9, checked against the real tool).
 */
import { XtError } from './errors';
import { makeExt, strtoui, type ExtParser, type ParseCtx } from './ext';
import { parsePort } from './match-ports';
import { ipIsValid } from '../model/ip';
import type { NatRange, Target } from './types';

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
export function natTarget(kind: 'DNAT' | 'SNAT' | 'MASQUERADE' | 'REDIRECT'): ExtParser<Target> {
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

/**
 * The iprange match (`-m iprange [!] --src-range A[-B] [!] --dst-range A[-B]`): libxt_iprange.c
 * (revision 1) for the parse and the texts, xt_iprange.c for what matches. A reversed range
 * is taken, with the warning the real tool prints (parse-warnings.ts).
 */
import { XtError } from './errors';
import { makeExt, type ExtParser } from './ext';
import { warnAtParse } from './parse-warnings';
import { ipToInt } from '../model/ip';
import { xtNumericToIpaddr } from './xt-addr';
import type { IpRange, IprangeMatch } from './types';

/**
 * iprange_parse_range(): `A` (the range A-A) or `A-B`, split at the first `-`, each address
 * read by xtables_numeric_to_ipaddr() (`10.1` is 10.1.0.0, xt-addr.ts). A reversed range is
 * taken, with a warning naming the addresses as typed, as the option is read (so in the order
 * the options were given).
 */
function parseRange(arg: string, option: string, invert: boolean): IpRange {
  const dash = arg.indexOf('-');
  const typedLo = dash < 0 ? arg : arg.slice(0, dash);
  const typedHi = dash < 0 ? typedLo : arg.slice(dash + 1);
  const [lo, hi] = [typedLo, typedHi].map((typed) => {
    const addr = xtNumericToIpaddr(typed);
    if (addr === undefined)
      throw XtError.param(`iprange: Bad value for "--${option}" option: "${typed}"`);
    return addr;
  }) as [string, string];
  if (ipToInt(lo) >>> 0 > ipToInt(hi) >>> 0)
    warnAtParse(`xt_iprange: range ${typedLo}-${typedHi} is reversed and will never match\n`);
  return { min: lo, max: hi, invert };
}

export function iprangeMatch(): ExtParser<IprangeMatch> {
  type S = { src?: IpRange; dst?: IpRange };
  return makeExt({
    name: 'iprange',
    options: [
      { name: 'src-range', arg: true, invert: true },
      { name: 'dst-range', arg: true, invert: true },
    ],
    init: (): S => ({}),
    parse(s, option, arg, invert) {
      if (option === 'src-range') s.src = parseRange(arg, option, invert);
      else s.dst = parseRange(arg, option, invert);
    },
    finish(s) {
      if (s.src === undefined && s.dst === undefined)
        throw XtError.param("iprange match: You must specify `--src-range' or `--dst-range'");
      return { name: 'iprange', ...s };
    },
  });
}

function rangeText(r: IpRange): string {
  return `${r.min}-${r.max}`;
}

/** iprange_mt4_save(). */
export function saveIprange(m: IprangeMatch): string {
  let t = '';
  if (m.src) t += `${m.src.invert ? ' !' : ''} --src-range ${rangeText(m.src)}`;
  if (m.dst) t += `${m.dst.invert ? ' !' : ''} --dst-range ${rangeText(m.dst)}`;
  return t;
}

/** iprange_mt4_print(): `source IP range [! ]A-B destination IP range [! ]A-B`. */
export function printIprange(m: IprangeMatch): string {
  let t = '';
  if (m.src) t += ` source IP range ${m.src.invert ? '! ' : ''}${rangeText(m.src)}`;
  if (m.dst) t += ` destination IP range ${m.dst.invert ? '! ' : ''}${rangeText(m.dst)}`;
  return t;
}

/** iprange_mt4(): each given side within its range (as unsigned numbers), or not when inverted. */
export function iprangeMatches(m: IprangeMatch, src: string, dst: string): boolean {
  const within = (r: IpRange, addr: string): boolean => {
    const a = ipToInt(addr) >>> 0;
    return (a >= ipToInt(r.min) >>> 0 && a <= ipToInt(r.max) >>> 0) !== r.invert;
  };
  return (m.src === undefined || within(m.src, src)) && (m.dst === undefined || within(m.dst, dst));
}

/**
 * Argument parsers shared by the command line and restore: addresses (`-s`/`-d`) and
 * counters (`-c`, `[p:b]`).
 */
import { XtError } from './errors';
import { maskAddr } from './format';
import { ipIsValid, ipToInt } from '../model/ip';
import type { AddrSpec, Counters } from './types';

/** A dotted netmask → prefix length, or undefined when not contiguous. */
function maskToPrefix(mask: string): number | undefined {
  const m = ipToInt(mask);
  for (let p = 0; p <= 32; p++) {
    if ((p === 0 ? 0 : (0xffffffff << (32 - p)) >>> 0) === m) return p;
  }
  return undefined;
}

/**
 * `-s`/`-d` argument: `a.b.c.d[/len|/mask]`. The address is stored with its host bits
 * cleared, as xtables_ipparse_multiple() does (`-s 10.1.2.3/8` saves as `10.0.0.0/8`).
 * The lab resolves no host names and takes one address (no comma lists).
 */
export function parseRuleAddr(text: string, invert: boolean): AddrSpec {
  const slash = text.indexOf('/');
  const addr = slash < 0 ? text : text.slice(0, slash);
  let prefix = 32;
  if (slash >= 0) {
    const m = text.slice(slash + 1);
    if (/^\d+$/.test(m) && Number(m) <= 32) prefix = Number(m);
    else if (ipIsValid(m) && maskToPrefix(m) !== undefined) prefix = maskToPrefix(m) ?? 32;
    else throw XtError.param(`invalid mask \`${m}' specified`);
  }
  if (!ipIsValid(addr)) throw XtError.param(`host/network \`${addr}' not found`);
  return { addr: maskAddr(addr, prefix), prefix, invert };
}

/** sscanf("%llu") of both counters, with do_parse()'s messages. */
export function parseCounters(packets: string, bytes: string | undefined): Counters {
  if (bytes === undefined) throw XtError.param('-c requires packet and byte counter');
  const num = (s: string): number | undefined => {
    const m = /^\s*\+?(\d+)/.exec(s);
    return m?.[1] === undefined ? undefined : Number(m[1]);
  };
  const p = num(packets);
  if (p === undefined) throw XtError.param('-c packet counter not numeric');
  const b = num(bytes);
  if (b === undefined) throw XtError.param('-c byte counter not numeric');
  return { packets: p, bytes: b };
}

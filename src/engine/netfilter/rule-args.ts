/**
 * Argument parsers shared by the command line and restore: addresses (`-s`/`-d`) and
 * counters (`-c`, `[p:b]`).
 */
import { notModelled, XtError } from './errors';
import { maskAddr } from './format';
import { xtHostNetwork, xtParseIpmask } from './xt-addr';
import type { AddrSpec, Counters } from './types';

/**
 * `-s`/`-d` argument as xtables_ipparse_multiple() reads it: a comma list, each item (leading
 * blanks skipped) `ADDRESS[/MASK]` split at its last `/`, the mask read first; a mask of 0
 * takes any address as 0.0.0.0. Each address is stored with its host bits cleared
 * (`-s 10.1.2.3/8` saves as `10.0.0.0/8`). Names and numbers are read as xt-addr.ts says.
 */
export function parseRuleAddrs(text: string, invert: boolean): AddrSpec[] {
  const out: AddrSpec[] = [];
  for (const raw of text.split(',')) {
    const item = raw.replace(/^[ \t\n\v\f\r]+/, '');
    // char buf[256]
    if (item.length > 255) throw XtError.param('Hostname too long');
    const slash = item.lastIndexOf('/');
    const mask = slash < 0 ? { prefix: 32 } : xtParseIpmask(item.slice(slash + 1));
    if ('dotted' in mask) throw notModelled('iptables.netmask', { mask: mask.dotted });
    const name = mask.prefix === 0 ? '0.0.0.0' : slash < 0 ? item : item.slice(0, slash);
    const addr = xtHostNetwork(name);
    out.push({ addr: maskAddr(addr, mask.prefix), prefix: mask.prefix, invert });
  }
  return out;
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

/**
 * The limit match (`-m limit [--limit RATE[/second|/minute|/hour|/day]] [--limit-burst N]`):
 * libxt_limit.c of iptables 1.8.9 for the parse and the texts. iptables-nft does not keep it
 * as an x_tables match: it writes a native nf_tables `limit` expression (nft.c add_nft_limit:
 * a rate per unit, the burst) and reads it back into the same numbers. So a packet meets
 * nft_limit.c's token bucket, kept in nanoseconds, not xt_limit's credits in jiffies.
 */
import { XtError } from './errors';
import { makeExt, parseUint, type ExtParser } from './ext';
import type { LimitMatch } from './types';

/** XT_LIMIT_SCALE: `avg` is the time between packets in 1/10000 s. */
const SCALE = 10000;
/** libxt_limit's rates[], largest first (print_rate()); nft's unit names beside them. */
const RATES: readonly (readonly [xt: string, nft: string, mult: number])[] = [
  ['day', 'day', SCALE * 24 * 60 * 60],
  ['hour', 'hour', SCALE * 60 * 60],
  ['min', 'minute', SCALE * 60],
  ['sec', 'second', SCALE],
];
/** XT_LIMIT_BURST; also nf_tables' NFT_LIMIT_PKT_BURST_DEFAULT for a burst of 0. */
const DEFAULT_BURST = 5;

/** C's atoi() as an unsigned 32-bit value: blanks, a sign, the leading digits (0 for none). */
function atoiU32(text: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?)(\d*)/.exec(text);
  const digits = m?.[2] ?? '';
  if (digits === '') return 0;
  const n = Number(digits.slice(0, 12)) % 2 ** 32;
  return (m?.[1] === '-' ? -n : n) >>> 0;
}

/** parse_rate(): the time between packets, in 1/10000 s; undefined for a bad rate. */
function parseRate(arg: string): number | undefined {
  const slash = arg.indexOf('/');
  let mult = 1;
  if (slash >= 0) {
    const unit = arg.slice(slash + 1).toLowerCase();
    if (unit === '') return undefined;
    const hit = [
      ['second', 1],
      ['minute', 60],
      ['hour', 60 * 60],
      ['day', 24 * 60 * 60],
    ].find(([name]) => (name as string).startsWith(unit));
    if (hit === undefined) return undefined;
    mult = hit[1] as number;
  }
  const r = atoiU32(arg);
  if (r === 0) return undefined;
  const avg = Math.floor((SCALE * mult) / r);
  if (avg === 0) throw XtError.param(`Rate too fast "${arg}"`);
  return avg;
}

export function limitMatch(): ExtParser<LimitMatch> {
  return makeExt({
    name: 'limit',
    options: [
      { name: 'limit', arg: true },
      { name: 'limit-burst', arg: true },
    ],
    // The defaults: 3/hour, burst 5.
    init: () => ({ avg: (SCALE * 60 * 60) / 3, burst: DEFAULT_BURST }),
    parse(s, option, arg) {
      if (option === 'limit-burst') {
        s.burst = parseUint('limit', option, arg, 0, 10000);
        return;
      }
      const avg = parseRate(arg);
      if (avg === undefined) throw XtError.param(`bad rate "${arg}"'`);
      s.avg = avg;
    },
    // The kernel takes a burst of 0 as 5, and iptables-nft reads back what it took.
    finish: (s) => ({ name: 'limit', avg: s.avg, burst: s.burst === 0 ? DEFAULT_BURST : s.burst }),
  });
}

/** The rates[] entry print_rate() and add_nft_limit() pick for `avg`. */
function unitOf(avg: number): (typeof RATES)[number] {
  let i = 1;
  for (; i < RATES.length; i++) {
    const mult = RATES[i]![2];
    if (avg > mult || Math.floor(mult / avg) < mult % avg) break;
  }
  return RATES[i - 1]!;
}

/** limit_save(): ` --limit N/UNIT`, and the burst when it is not 5. */
export function saveLimit(m: LimitMatch): string {
  const [name, , mult] = unitOf(m.avg);
  const burst = m.burst !== DEFAULT_BURST ? ` --limit-burst ${m.burst}` : '';
  return ` --limit ${Math.floor(mult / m.avg)}/${name}${burst}`;
}

/** limit_print(): ` limit: avg N/UNIT burst B`. */
export function printLimit(m: LimitMatch): string {
  const [name, , mult] = unitOf(m.avg);
  return ` limit: avg ${Math.floor(mult / m.avg)}/${name} burst ${m.burst}`;
}

/** The rate and unit (in seconds) iptables-nft writes into the `limit` expression. */
function nftRate(m: LimitMatch): { rate: number; unitSeconds: number; name: string } {
  const [, name, mult] = unitOf(m.avg);
  return { rate: Math.floor(mult / m.avg), unitSeconds: mult / SCALE, name };
}

/** How `nft list` prints the expression: `limit rate 5/second [burst 7 packets]`. */
export function nftLimitText(m: LimitMatch): string {
  const { rate, name } = nftRate(m);
  const burst = m.burst !== DEFAULT_BURST ? ` burst ${m.burst} packets` : '';
  return `limit rate ${rate}/${name}${burst}`;
}

/** One rule's bucket: tokens and the time they were last counted, in ns. */
export interface LimitBucket {
  tokens: number;
  last: number;
}

/**
 * nft_limit_eval() for packets: a packet costs unit/rate ns of tokens; tokens grow by the time
 * passed, up to cost × burst (where a new rule starts: a bucket made at the first packet is
 * the same, as the tokens are capped). Matches when the packet's cost was there.
 */
export function limitAllows(
  m: LimitMatch,
  bucket: LimitBucket | undefined,
  nowNs: number,
): {
  readonly hit: boolean;
  readonly bucket: LimitBucket;
} {
  const { rate, unitSeconds } = nftRate(m);
  const cost = Math.floor((unitSeconds * 1e9) / rate);
  const max = cost * m.burst;
  const b = bucket ?? { tokens: max, last: nowNs };
  const tokens = Math.min(max, b.tokens + nowNs - b.last);
  b.last = nowNs;
  const hit = tokens - cost >= 0;
  b.tokens = hit ? tokens - cost : tokens;
  return { hit, bucket: b };
}

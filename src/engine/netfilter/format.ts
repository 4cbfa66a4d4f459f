/**
 * Text helpers that reproduce the printf formats iptables 1.8.9 uses.
 */
import { ipFromInt, ipToInt, prefixMask } from '../model/ip';
import { civilFromUnixMs, MONTH_NAMES, WEEKDAY_NAMES } from '../model/civil-time';

/** printf("%-Ns") */
export function left(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** printf("%Ns") */
export function right(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

/** printf("0x%x") of an unsigned 32-bit value. */
export function hex(value: number): string {
  return `0x${(value >>> 0).toString(16)}`;
}

/**
 * xtables_print_num(): exact counts in `%8llu `, or with -v but without -x the "human"
 * form: up to 99999 as `%5llu `, then K/M/G/T, each step dividing by 1000 with rounding
 * ((n + 500) / 1000) and printed `%4llu<unit> `.
 */
export function printNum(value: number, human: boolean): string {
  if (!human) return right(String(value), 8) + ' ';
  if (value <= 99999) return right(String(value), 5) + ' ';
  let n = value;
  for (const unit of ['K', 'M', 'G']) {
    n = Math.floor((n + 500) / 1000);
    if (n <= 9999) return right(String(n), 4) + unit + ' ';
  }
  n = Math.floor((n + 500) / 1000);
  return right(String(n), 4) + 'T ';
}

const probabilityTexts = new Map<number, string>();

/** The value printed with `%.11f` of P / 2^31, rounded exactly like glibc (half to even). */
export function probabilityText(threshold: number): string {
  let text = probabilityTexts.get(threshold);
  if (text === undefined) {
    text = formatProbability(threshold);
    // Rulesets repeat few values (kube-proxy: 1/n); keep the memo small all the same.
    if (probabilityTexts.size < 4096) probabilityTexts.set(threshold, text);
  }
  return text;
}

function formatProbability(threshold: number): string {
  const scale = 10n ** 11n;
  const num = BigInt(threshold) * scale;
  const den = 2n ** 31n;
  let q = num / den;
  const rem = num % den;
  if (rem * 2n > den || (rem * 2n === den && q % 2n === 1n)) q += 1n;
  const int = q / scale;
  const frac = (q % scale).toString().padStart(11, '0');
  return `${int}.${frac}`;
}

/**
 * libxt_statistic stores `--probability p` as lround(0x80000000 * p): the kernel compares a
 * 31-bit random number against it, so p is rounded to a multiple of 2^-31.
 */
export function probabilityThreshold(p: number): number {
  return Math.round(p * 0x80000000);
}

/**
 * xtables_save_string(): bare when the value is non-empty and only [A-Za-z0-9_-]; otherwise
 * double-quoted with `"`, `\` and `'` backslash-escaped. Returns the text with its leading space.
 */
export function saveString(value: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(value)) return ` ${value}`;
  return ` "${value.replace(/["\\']/g, (c) => `\\${c}`)}"`;
}

/** ctime(3) in UTC without the newline: `Wed Dec  2 14:23:45 2026`. */
export function ctimeUtc(epochSeconds: number): string {
  const t = civilFromUnixMs(Math.floor(epochSeconds) * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  const time = `${two(t.hour)}:${two(t.minute)}:${two(t.second)}`;
  const day = right(String(t.day), 2);
  return `${WEEKDAY_NAMES[t.weekday]} ${MONTH_NAMES[t.month - 1]} ${day} ${time} ${t.year}`;
}

/** The host part with its prefix cleared: iptables stores addr & mask. */
export function maskAddr(addr: string, prefix: number): string {
  return ipFromInt((ipToInt(addr) & prefixMask(prefix)) >>> 0);
}

/**
 * Name lookups `iptables -L` does without -n (gethostbyaddr, then getnetbyaddr): the lab
 * node's /etc/hosts and /etc/networks (Debian defaults). Everything else prints numerically.
 */
const HOSTS: Readonly<Record<string, string>> = { '127.0.0.1': 'localhost' };
const NETWORKS: Readonly<Record<string, string>> = {
  '0.0.0.0': 'default',
  '127.0.0.0': 'loopback',
  '169.254.0.0': 'link-local',
};

/** xtables_ipaddr_to_anyname(). */
export function addrToName(addr: string): string {
  return HOSTS[addr] ?? NETWORKS[addr] ?? addr;
}

/** xtables_ipmask_to_numeric(): "" for /32, "/N" otherwise. */
export function maskSuffix(prefix: number): string {
  return prefix === 32 ? '' : `/${prefix}`;
}

/** Takes a command's stdout piece by piece as it is made (CommandContext.stdoutStream). */
export type TextSink = (chunk: string) => void;

/**
 * Output of up to hundreds of thousands of lines (a node's whole ruleset): the pieces are
 * joined in chunks, so they die young instead of all surviving until one final join.
 *
 * With a sink, each chunk goes to it as soon as it is joined and text() returns '': the whole
 * output never exists at once. Its chunks are kept smaller, under V8's limit for an object in
 * the young generation (128 KB), so they are made and die there, in memory already in use:
 * a 10,000-Service `iptables-save` is 33 MB of text, and on a machine where touching fresh
 * memory is slow, holding it whole (chunks, their join, the bytes written) was some 6% of a
 * whole CLI run.
 */
export class TextBuilder {
  private readonly chunks: string[] = [];
  private parts: string[] = [];
  private readonly sink: TextSink | undefined;
  private readonly partsPerChunk: number;

  constructor(sink?: TextSink) {
    this.sink = sink;
    this.partsPerChunk = sink === undefined ? 4096 : 1024;
  }

  add(text: string): void {
    this.parts.push(text);
    if (this.parts.length >= this.partsPerChunk) this.flush();
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    const chunk = this.parts.join('');
    this.parts = [];
    if (this.sink !== undefined) this.sink(chunk);
    else this.chunks.push(chunk);
  }

  text(): string {
    this.flush();
    return this.chunks.join('');
  }
}

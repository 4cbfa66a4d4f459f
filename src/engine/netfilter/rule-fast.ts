/**
 * A fast path for the rule lines kube-proxy writes by the hundred thousand (`-A KUBE-SEP-X -s
 * 10.244.1.5/32 -j KUBE-MARK-MASQ`, `-A KUBE-SVC-X -m comment --comment "…" -m statistic
 * --mode random --probability 0.1 -j KUBE-SEP-Y`, `… -j DNAT --to-destination IP:PORT`): it
 * reads a small vocabulary of options straight from the line, without the general tokenizer
 * and option machinery (rule-parse.ts), and builds exactly the ParsedArgs parseArgs() builds
 * (same values, same key order).
 *
 * It only accepts lines it is sure parseArgs() accepts: anything outside the vocabulary, any
 * repetition, inversion or combination whose meaning depends on the general rules (option
 * abbreviations, implicit protocol matches loaded twice, errors) returns undefined and the
 * line goes the general way. rule-fast.test.ts checks both agree on every line it takes.
 */
import { ipFromInt, ipToInt } from '../model/ip';
import { probabilityThreshold } from './format';
import { MAXNAMELEN } from './cli-options';
import type { ParsedArgs } from './rule-parse';
import type { AddrSpec, Match, NatRange, PortRange, Rule, Target } from './types';

const SPACE = 0x20;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const TAB = 0x09;

/** Target names parseArgs() hands to a target extension (targetParser()); others are jumps. */
const TARGET_NAMES = new Set([
  'ACCEPT',
  'DROP',
  'RETURN',
  'REJECT',
  'DNAT',
  'SNAT',
  'MASQUERADE',
  'MARK',
  'CONNMARK',
  'LOG',
]);

const PROTOCOLS: Readonly<Record<string, number>> = { tcp: 6, udp: 17, sctp: 132 };

/** The value of one canonical octet (what ipIsValid() accepts: no leading zero), else -1. */
function octet(s: string, from: number, to: number): number {
  const n = to - from;
  if (n < 1 || n > 3) return -1;
  let v = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  if (n > 1 && s.charCodeAt(from) === 0x30) return -1;
  return v <= 255 ? v : -1;
}

/** A canonical dotted quad → its value, or -1. */
function quad(s: string, from: number, to: number): number {
  let v = 0;
  let start = from;
  for (let k = 0; k < 4; k++) {
    let end = start;
    while (end < to && s.charCodeAt(end) !== 0x2e) end++;
    if (k < 3 !== end < to) return -1;
    const o = octet(s, start, end);
    if (o < 0) return -1;
    v = v * 256 + o;
    start = end + 1;
  }
  return v;
}

/** `-s`/`-d` as parseRuleAddr(): `a.b.c.d[/len]` (a netmask form goes the general way). */
function addr(text: string, invert: boolean): AddrSpec | undefined {
  const slash = text.indexOf('/');
  const end = slash < 0 ? text.length : slash;
  const v = quad(text, 0, end);
  if (v < 0) return undefined;
  let prefix = 32;
  if (slash >= 0) {
    const p = octet(text, slash + 1, text.length);
    if (p < 0 || p > 32) return undefined;
    prefix = p;
  }
  const a = text.slice(0, end);
  if (prefix === 32) return { addr: a, prefix, invert };
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const masked = (v & mask) >>> 0;
  return { addr: masked === ipToInt(a) ? a : ipFromInt(masked), prefix, invert };
}

/** A decimal port as strtoui() reads it (no leading zero, which would be octal), or -1. */
function port(text: string): number {
  if (text.length < 1 || text.length > 5) return -1;
  if (text.length > 1 && text.charCodeAt(0) === 0x30) return -1;
  let v = 0;
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v <= 65535 ? v : -1;
}

/** The words of a line as tokenizeRestoreLine() splits it, when quoting is simple; else undefined. */
function words(line: string): string[] | undefined {
  const out: string[] = [];
  const n = line.length;
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c === SPACE || c === NEWLINE) {
      i++;
      continue;
    }
    if (c === QUOTE) {
      const close = line.indexOf('"', i + 1);
      if (close < 0) return undefined;
      const word = line.slice(i + 1, close);
      if (word.indexOf('\\') >= 0) return undefined;
      const after = close + 1 < n ? line.charCodeAt(close + 1) : SPACE;
      if (after !== SPACE && after !== NEWLINE) return undefined;
      out.push(word);
      i = close + 1;
      continue;
    }
    const start = i;
    while (i < n) {
      const d = line.charCodeAt(i);
      if (d === SPACE || d === NEWLINE) break;
      if (d === QUOTE || d === TAB || d === BACKSLASH) return undefined;
      i++;
    }
    out.push(line.slice(start, i));
  }
  return out;
}

const PROBABILITY = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The parse of a restore rule line (without a `[p:b]` prefix), or undefined: parse it generally. */
export function fastRuleLine(table: string, line: string): ParsedArgs | undefined {
  const w = words(line);
  if (w === undefined || w.length < 2 || w[0] !== '-A') return undefined;
  const chain = w[1] as string;
  if (chain === '' || chain.length >= MAXNAMELEN || chain.startsWith('-')) return undefined;
  let src: AddrSpec | undefined;
  let dst: AddrSpec | undefined;
  let proto = 0;
  const matches: Match[] = [];
  let comment = -1;
  let ports = -1;
  let portsName: 'tcp' | 'udp' | 'sctp' | undefined;
  let sport: PortRange | undefined;
  let dport: PortRange | undefined;
  let statistic = -1;
  let probability = -1;
  let mode = false;
  let target: Target | undefined;
  let dnat: Partial<NatRange> | undefined;
  let invert = false;
  for (let i = 2; i < w.length; i++) {
    const t = w[i] as string;
    const arg = w[i + 1];
    if (t === '!') {
      if (invert) return undefined;
      invert = true;
      continue;
    }
    if (arg === undefined) return undefined;
    i++;
    if (t === '-s' || t === '-d') {
      if ((t === '-s' ? src : dst) !== undefined) return undefined;
      const a = addr(arg, invert);
      if (a === undefined) return undefined;
      if (t === '-s') src = a;
      else dst = a;
      invert = false;
      continue;
    }
    if (invert) return undefined;
    switch (t) {
      case '-p': {
        const p = PROTOCOLS[arg];
        if (proto !== 0 || p === undefined) return undefined;
        proto = p;
        break;
      }
      case '-m':
        if (arg === 'comment' && comment < 0) {
          comment = matches.length;
          matches.push({ name: 'comment', comment: '' });
        } else if (arg === 'statistic' && statistic < 0) {
          statistic = matches.length;
          matches.push({ name: 'statistic', mode: 'random', probability: 0, every: 0, packet: 0, invert: false }); // prettier-ignore
        } else if ((arg === 'tcp' || arg === 'udp' || arg === 'sctp') && ports < 0) {
          ports = matches.length;
          portsName = arg;
          matches.push({ name: arg });
        } else return undefined;
        break;
      case '--comment':
        if (comment < 0 || matches[comment]?.name !== 'comment' || arg.length > 255)
          return undefined;
        if ((matches[comment] as { comment: string }).comment !== '' || arg === '')
          return undefined;
        matches[comment] = { name: 'comment', comment: arg };
        break;
      case '--sport':
      case '--dport': {
        // A ports match loaded by -m, or (load_proto()) the one `-p` names, loaded here.
        if (ports < 0) {
          const name = proto === 6 ? 'tcp' : proto === 17 ? 'udp' : proto === 132 ? 'sctp' : '';
          if (name === '') return undefined;
          ports = matches.length;
          portsName = name;
          matches.push({ name });
        }
        const p = port(arg);
        if (p < 0) return undefined;
        const range = { min: p, max: p, invert: false };
        if (t === '--sport') {
          if (sport !== undefined) return undefined;
          sport = range;
        } else {
          if (dport !== undefined) return undefined;
          dport = range;
        }
        break;
      }
      case '--mode':
        if (statistic < 0 || mode || arg !== 'random') return undefined;
        mode = true;
        break;
      case '--probability': {
        if (statistic < 0 || probability >= 0 || !PROBABILITY.test(arg)) return undefined;
        const p = Number(arg);
        if (!(p >= 0 && p <= 1)) return undefined;
        probability = probabilityThreshold(p);
        break;
      }
      case '-j':
        if (target !== undefined || arg === '' || arg.length >= MAXNAMELEN) return undefined;
        if (!TARGET_NAMES.has(arg)) target = { kind: 'jump', chain: arg, goto: false };
        else if (arg === 'ACCEPT' || arg === 'RETURN' || (arg === 'DROP' && table !== 'nat'))
          target = { kind: arg };
        else if (arg === 'REJECT') target = { kind: 'REJECT', with: 'icmp-port-unreachable' };
        else if (arg === 'DNAT') {
          target = { kind: 'DNAT', range: { random: false, randomFully: false, persistent: false } }; // prettier-ignore
          dnat = {};
        } else return undefined;
        break;
      case '--to-destination': {
        if (dnat === undefined || dnat.minAddr !== undefined) return undefined;
        const colon = arg.indexOf(':');
        if (colon <= 0 || arg.indexOf(':', colon + 1) >= 0 || proto === 0) return undefined;
        const ip = arg.slice(0, colon);
        const p = port(arg.slice(colon + 1));
        if (p < 0 || ip.indexOf('-') >= 0 || quad(ip, 0, ip.length) < 0) return undefined;
        dnat = { minPort: p, maxPort: p, minAddr: ip, maxAddr: ip };
        break;
      }
      default:
        return undefined;
    }
  }
  if (invert) return undefined;
  if (comment >= 0 && (matches[comment] as { comment: string }).comment === '') return undefined;
  if (statistic >= 0) {
    if (!mode || probability < 0) return undefined;
    matches[statistic] = {
      name: 'statistic',
      mode: 'random',
      probability,
      every: 0,
      packet: 0,
      invert: false,
    };
  }
  if (ports >= 0 && portsName !== undefined) {
    // nft.c add_nft_tcp/udp(): ports need the matching `-p` (finishParse()).
    const hasPorts = sport !== undefined || dport !== undefined;
    if (hasPorts && portsName !== 'sctp' && proto !== PROTOCOLS[portsName]) return undefined;
    matches[ports] = {
      name: portsName,
      ...(sport !== undefined ? { sport } : {}),
      ...(dport !== undefined ? { dport } : {}),
    };
  }
  if (dnat !== undefined) {
    if (dnat.minAddr === undefined) return undefined;
    target = {
      kind: 'DNAT',
      range: {
        minPort: dnat.minPort as number,
        maxPort: dnat.maxPort as number,
        minAddr: dnat.minAddr,
        maxAddr: dnat.minAddr,
        random: false,
        randomFully: false,
        persistent: false,
      },
    };
  }
  // Built field by field in finishParse()'s order.
  const rule: { -readonly [K in keyof Rule]?: Rule[K] } = {};
  if (src !== undefined) rule.src = src;
  if (dst !== undefined) rule.dst = dst;
  if (proto !== 0) rule.protocol = { num: proto, invert: false };
  rule.matches = matches;
  rule.target = target ?? { kind: 'none' };
  rule.counters = { packets: 0, bytes: 0 };
  return {
    cmd: 'A',
    zeroToo: false,
    chain,
    rulenum: 0,
    newName: undefined,
    policy: undefined,
    table,
    numeric: false,
    verbose: false,
    exact: false,
    lineNumbers: false,
    rule: rule as Rule,
    counters: undefined,
  };
}

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
import { probabilityThreshold } from './format';
import { MAXNAMELEN } from './cli-options';
import { addr, is, port, quad, words, WORDS } from './rule-fast-lex';
import { isUnmodelledTarget } from './not-modelled';
import { sharedName } from './parse-cache';
import type { ParsedArgs } from './rule-parse';
import {
  appendParse,
  BARE_PORTS,
  dnatTo,
  jump,
  NO_MATCHES,
  PORTS_PROTOCOL,
  randomMatch,
} from './rule-build';
import type { AddrSpec, Match, PortRange, Target } from './types';

/** Target names parseArgs() hands to a target extension (targetParser()); others are jumps. */
const TARGET_NAMES = new Set([
  'ACCEPT',
  'DROP',
  'RETURN',
  'REJECT',
  'DNAT',
  'SNAT',
  'MASQUERADE',
  'REDIRECT',
  'NOTRACK',
  'CT',
  'MARK',
  'CONNMARK',
  'LOG',
  'TRACE',
]);

/** Placeholders while the line is read (never part of a result). */
const NO_COMMENT: Match = { name: 'comment', comment: '' };
const DNAT_PENDING: Target = { kind: 'none' };
const NO_TARGET: Target = { kind: 'none' };
const SIMPLE_TARGETS: Readonly<Record<string, Target>> = {
  ACCEPT: { kind: 'ACCEPT' },
  RETURN: { kind: 'RETURN' },
  DROP: { kind: 'DROP' },
  REJECT: { kind: 'REJECT', with: 'icmp-port-unreachable' },
};
const PROBABILITY = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The parse of a restore rule line (without a `[p:b]` prefix), or undefined: parse it generally. */
export function fastRuleLine(table: string, line: string): ParsedArgs | undefined {
  const w = WORDS;
  if (!words(line, w) || w.length < 4 || !is(line, w[0]!, w[1]!, '-A')) return undefined;
  const name = line.slice(w[2], w[3]);
  if (name === '' || name.length >= MAXNAMELEN || name.startsWith('-')) return undefined;
  const chain = sharedName(name);
  let src: AddrSpec | undefined;
  let dst: AddrSpec | undefined;
  let proto = 0;
  let matches: Match[] | undefined;
  let comment = -1;
  let ports = -1;
  let portsName: 'tcp' | 'udp' | 'sctp' | undefined;
  let sport: PortRange | undefined;
  let dport: PortRange | undefined;
  let statistic = -1;
  let probability = -1;
  let mode = false;
  let target: Target | undefined;
  let dnat = false;
  let dnatAddr: string | undefined;
  let dnatPort = 0;
  let invert = false;
  for (let k = 4; k < w.length; k += 2) {
    const ts = w[k]!;
    const te = w[k + 1]!;
    if (te - ts === 1 && line.charCodeAt(ts) === 0x21) {
      if (invert) return undefined;
      invert = true;
      continue;
    }
    if (k + 3 >= w.length) return undefined;
    k += 2;
    const as = w[k]!;
    const ae = w[k + 1]!;
    // The letter of a short option (-s -d -p -m -j), else 0.
    const t2 = te - ts === 2 && line.charCodeAt(ts) === 0x2d ? line.charCodeAt(ts + 1) : 0;
    if (t2 === 0x73 || t2 === 0x64) {
      if ((t2 === 0x73 ? src : dst) !== undefined) return undefined;
      const a = addr(line.slice(as, ae), invert);
      if (a === undefined) return undefined;
      if (t2 === 0x73) src = a;
      else dst = a;
      invert = false;
      continue;
    }
    if (invert) return undefined;
    if (t2 === 0x70) {
      if (proto !== 0) return undefined;
      proto = is(line, as, ae, 'tcp') ? 6 : is(line, as, ae, 'udp') ? 17 : is(line, as, ae, 'sctp') ? 132 : 0; // prettier-ignore
      if (proto === 0) return undefined;
    } else if (t2 === 0x6d) {
      matches ??= [];
      if (comment < 0 && is(line, as, ae, 'comment')) {
        comment = matches.length;
        matches.push(NO_COMMENT);
      } else if (statistic < 0 && is(line, as, ae, 'statistic')) {
        statistic = matches.length;
        matches.push(NO_COMMENT);
      } else if (ports < 0) {
        portsName = is(line, as, ae, 'tcp') ? 'tcp' : is(line, as, ae, 'udp') ? 'udp' : is(line, as, ae, 'sctp') ? 'sctp' : undefined; // prettier-ignore
        if (portsName === undefined) return undefined;
        ports = matches.length;
        matches.push(NO_COMMENT);
      } else return undefined;
    } else if (t2 === 0x6a) {
      if (target !== undefined || ae === as || ae - as >= MAXNAMELEN) return undefined;
      const name = line.slice(as, ae);
      // A real target the lab does not model: the general parse says so.
      if (isUnmodelledTarget(name)) return undefined;
      if (!TARGET_NAMES.has(name)) target = jump(name);
      else if (name === 'DNAT') {
        target = DNAT_PENDING;
        dnat = true;
      } else if (name !== 'DROP' || table !== 'nat') {
        target = SIMPLE_TARGETS[name];
        if (target === undefined) return undefined;
      } else return undefined;
    } else if (is(line, ts, te, '--comment')) {
      const m = matches;
      if (m === undefined || comment < 0 || m[comment] !== NO_COMMENT) return undefined;
      if (ae === as || ae - as > 255) return undefined;
      m[comment] = { name: 'comment', comment: line.slice(as, ae) };
    } else if (is(line, ts, te, '--dport') || is(line, ts, te, '--sport')) {
      // A ports match loaded by -m, or (load_proto()) the one `-p` names, loaded here.
      if (ports < 0) {
        portsName = proto === 6 ? 'tcp' : proto === 17 ? 'udp' : proto === 132 ? 'sctp' : undefined; // prettier-ignore
        if (portsName === undefined) return undefined;
        matches ??= [];
        ports = matches.length;
        matches.push(NO_COMMENT);
      }
      const p = port(line, as, ae);
      if (p < 0) return undefined;
      const range = { min: p, max: p, invert: false };
      if (line.charCodeAt(ts + 2) === 0x73) {
        if (sport !== undefined) return undefined;
        sport = range;
      } else {
        if (dport !== undefined) return undefined;
        dport = range;
      }
    } else if (is(line, ts, te, '--mode')) {
      if (statistic < 0 || mode || !is(line, as, ae, 'random')) return undefined;
      mode = true;
    } else if (is(line, ts, te, '--probability')) {
      const arg = line.slice(as, ae);
      if (statistic < 0 || probability >= 0 || !PROBABILITY.test(arg)) return undefined;
      const p = Number(arg);
      if (!(p >= 0 && p <= 1)) return undefined;
      probability = probabilityThreshold(p);
    } else if (is(line, ts, te, '--to-destination')) {
      // parse_to() of `IP:PORT` (the port needs -p before it; ranges go the general way).
      if (!dnat || dnatAddr !== undefined || proto === 0) return undefined;
      const colon = line.indexOf(':', as);
      if (colon <= as || colon >= ae) return undefined;
      const second = line.indexOf(':', colon + 1);
      if (second >= 0 && second < ae) return undefined;
      const dash = line.indexOf('-', as);
      if (dash >= 0 && dash < ae) return undefined;
      dnatPort = port(line, colon + 1, ae);
      if (dnatPort < 0 || quad(line, as, colon) < 0) return undefined;
      dnatAddr = line.slice(as, colon);
    } else return undefined;
  }
  if (invert) return undefined;
  if (comment >= 0 && matches?.[comment] === NO_COMMENT) return undefined;
  if (statistic >= 0 && matches !== undefined) {
    if (!mode || probability < 0) return undefined;
    matches[statistic] = randomMatch(probability);
  }
  if (ports >= 0 && portsName !== undefined && matches !== undefined) {
    if (sport === undefined && dport === undefined) matches[ports] = BARE_PORTS[portsName];
    else {
      // nft.c add_nft_tcp/udp(): ports need the matching `-p` (finishParse()).
      if (portsName !== 'sctp' && proto !== PORTS_PROTOCOL[portsName]) return undefined;
      matches[ports] = {
        name: portsName,
        ...(sport !== undefined ? { sport } : {}),
        ...(dport !== undefined ? { dport } : {}),
      };
    }
  }
  if (dnat) {
    if (dnatAddr === undefined) return undefined;
    target = dnatTo(dnatAddr, dnatPort);
  }
  return appendParse(table, chain, src, dst, proto, matches ?? NO_MATCHES, target ?? NO_TARGET);
}

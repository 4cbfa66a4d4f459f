/**
 * The parses of kube-proxy's most frequent restore lines, built as the lines are written:
 * per endpoint, its KUBE-SEP chain's declaration, hairpin masquerade and DNAT rules and the
 * service chain's jump to it; per service port, the declarations of its chains and its cluster
 * IP's KUBE-SERVICES jump and masquerade rule (all but a few dozen lines of a large sync). The
 * node's iptables-restore takes them rather than reading those lines again (netfilter
 * restore-pieces.ts PrebuiltLines): parsing them again was about a sixth of a one-shot CLI run
 * (1,000 Services × 10 endpoints).
 *
 * Each builder gives exactly what the restore's parse of the line gives (rule-fast.ts: same
 * values, same key order; parts shared between parses as parses share them), and undefined
 * for any input it is not sure of (then the line is read as usual): names and comments are
 * checked to be the plain words the fast path reads the way they were meant.
 * prebuilt-rules.test.ts compares every line of generated clusters with its parse.
 */
import { probabilityThreshold } from '../../netfilter/format';
import { MAXNAMELEN } from '../../netfilter/cli-options';
import { sharedName } from '../../netfilter/parse-cache';
import {
  appendParse,
  BARE_PORTS,
  commentMatch,
  dnatTo,
  jump,
  NO_MATCHES,
  PORTS_PROTOCOL,
  randomMatch,
  type PortsMatchName,
} from '../../netfilter/rule-build';
import { addr, port, quad } from '../../netfilter/rule-fast-lex';
import type { ParsedArgs } from '../../netfilter/rule-parse';
import type { AddrSpec, Match } from '../../netfilter/types';

const TABLE = 'nat';
/** The longest comment the comment match takes (XT_MAX_COMMENT_LEN - 1). */
const MAX_COMMENT = 255;

/**
 * A kube-proxy chain name (`KUBE-` and upper-case letters, digits, dashes) short enough for
 * a chain: read as one word, never taken for an option or a target extension's name.
 */
export function isKubeChainName(name: string): boolean {
  if (name.length >= MAXNAMELEN || !name.startsWith('KUBE-')) return false;
  for (let i = 5; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok = (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
    if (!ok) return false;
  }
  return true;
}

/**
 * Whether `text` reads back as itself from the line: written bare (`quoted` false) it has no
 * blank, quote or backslash; written inside `"…"` no quote, backslash or line end.
 */
function isPlainComment(text: string, quoted: boolean): boolean {
  if (text.length === 0 || text.length > MAX_COMMENT) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x0a) return false;
    if (!quoted && (c === 0x20 || c === 0x09)) return false;
  }
  return true;
}

/** `-m comment --comment TEXT` as the list of matches it starts, or undefined: not sure. */
function commentFirst(comment: string, quoted: boolean): Match[] | undefined {
  return isPlainComment(comment, quoted) ? [commentMatch(comment)] : undefined;
}

/**
 * Match lists a large cluster's lines have by the thousand (no comments there), shared like
 * the other parts of parses (never changed; rule-build.ts): `-m tcp` (udp, sctp) alone…
 */
const BARE_ONLY: Readonly<Record<PortsMatchName, readonly Match[]>> = {
  tcp: [BARE_PORTS.tcp],
  udp: [BARE_PORTS.udp],
  sctp: [BARE_PORTS.sctp],
};

/** …and `-m statistic --mode random --probability P` alone, by threshold. */
const randomOnlyLists = new Map<number, readonly Match[]>();
function randomOnly(threshold: number): readonly Match[] {
  let m = randomOnlyLists.get(threshold);
  if (m === undefined) randomOnlyLists.set(threshold, (m = [randomMatch(threshold)]));
  return m;
}

/** The user chain `:CHAIN - [0:0]` declares, as the restore reads it (a shared name). */
export function declaredChain(chain: string): string | undefined {
  return isKubeChainName(chain) ? sharedName(chain) : undefined;
}

/** `-A SEP [-m comment --comment S] -s IP -j KUBE-MARK-MASQ` (S written bare). */
export function hairpinParse(
  sep: string,
  comment: string | undefined,
  ip: string,
  masq: string,
): ParsedArgs | undefined {
  if (!isKubeChainName(sep) || !isKubeChainName(masq)) return undefined;
  if (ip.indexOf('/') >= 0 || quad(ip, 0, ip.length) < 0) return undefined;
  const matches = comment === undefined ? NO_MATCHES : commentFirst(comment, false);
  if (matches === undefined) return undefined;
  const src = { addr: ip, prefix: 32, invert: false };
  return appendParse(TABLE, sharedName(sep), src, undefined, 0, matches, jump(masq));
}

/** `-A SEP [-m comment --comment S] -m P -p P -j DNAT --to-destination IP:PORT`. */
export function endpointDnatParse(
  sep: string,
  comment: string | undefined,
  protocol: string,
  endpoint: string,
): ParsedArgs | undefined {
  if (!isKubeChainName(sep)) return undefined;
  if (protocol !== 'tcp' && protocol !== 'udp' && protocol !== 'sctp') return undefined;
  const colon = endpoint.indexOf(':');
  if (colon <= 0 || endpoint.indexOf(':', colon + 1) >= 0 || endpoint.indexOf('-') >= 0)
    return undefined;
  const toPort = port(endpoint, colon + 1, endpoint.length);
  if (toPort < 0 || quad(endpoint, 0, colon) < 0) return undefined;
  const ports = BARE_PORTS[protocol as PortsMatchName];
  let matches: readonly Match[] = BARE_ONLY[protocol as PortsMatchName];
  if (comment !== undefined) {
    const m = commentFirst(comment, false);
    if (m === undefined) return undefined;
    m.push(ports);
    matches = m;
  }
  const proto = PORTS_PROTOCOL[protocol as PortsMatchName];
  const target = dnatTo(endpoint.slice(0, colon), toPort);
  return appendParse(TABLE, sharedName(sep), undefined, undefined, proto, matches, target);
}

/** What a rule matching a service port's cluster IP is written from. */
export interface ClusterIPRule {
  readonly chain: string;
  /** Written inside quotes. */
  readonly comment: string;
  /** `-m P -p P`. */
  readonly protocol: string;
  readonly clusterIP: string;
  readonly port: number;
  /** The local detector's `! -s CIDR`, or [] (none: masqueradeAll, or KUBE-SERVICES). */
  readonly notLocal: readonly string[];
  /** The chain jumped to. */
  readonly target: string;
}

/**
 * `-A CHAIN -m comment --comment "S cluster IP" -m P -p P -d IP --dport PORT [! -s CIDR]
 * -j TARGET`: KUBE-SERVICES' jump to the service chain, and the service chain's masquerade
 * rule (an interface detector's `! -i …` is left to the restore).
 */
export function clusterIPParse(m: ClusterIPRule): ParsedArgs | undefined {
  const { chain, comment, protocol, clusterIP, notLocal } = m;
  if (!isKubeChainName(chain) || !isKubeChainName(m.target)) return undefined;
  if (protocol !== 'tcp' && protocol !== 'udp' && protocol !== 'sctp') return undefined;
  if (clusterIP.indexOf('/') >= 0 || quad(clusterIP, 0, clusterIP.length) < 0) return undefined;
  if (!Number.isInteger(m.port) || m.port < 0 || m.port > 65535) return undefined;
  let src: AddrSpec | undefined;
  if (notLocal.length > 0) {
    src = notLocalSource(notLocal);
    if (src === undefined) return undefined;
  }
  const matches = commentFirst(comment, true);
  if (matches === undefined) return undefined;
  const dport = { min: m.port, max: m.port, invert: false };
  matches.push({ name: protocol, dport });
  const dst = { addr: clusterIP, prefix: 32, invert: false };
  const proto = PORTS_PROTOCOL[protocol];
  return appendParse(TABLE, sharedName(chain), src, dst, proto, matches, jump(m.target));
}

/** The last detector read, and its source (one detector per proxier: read once). */
let lastNotLocal: readonly string[] | undefined;
let lastSource: AddrSpec | undefined;

/** `! -s CIDR` as the fast path reads it (an inverted source), or undefined: not sure. */
function notLocalSource(notLocal: readonly string[]): AddrSpec | undefined {
  if (notLocal === lastNotLocal) return lastSource;
  const cidr = notLocal[2];
  const ok = notLocal.length === 3 && notLocal[0] === '!' && notLocal[1] === '-s';
  lastSource = ok && cidr !== undefined && plainWord(cidr) ? addr(cidr, true) : undefined;
  lastNotLocal = notLocal;
  return lastSource;
}

/** A word the fast path reads as it is: no blank, quote, backslash or line end. */
function plainWord(word: string): boolean {
  return word.length > 0 && !/[\s"\\]/.test(word);
}

/** Thresholds of the probabilities written (computeProbability() gives a few texts). */
const thresholds = new Map<string, number>();
const PROBABILITY = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `--probability TEXT` as the statistic match stores it, or -1: not sure. */
function threshold(text: string): number {
  let t = thresholds.get(text);
  if (t === undefined) {
    const p = Number(text);
    t = PROBABILITY.test(text) && p >= 0 && p <= 1 ? probabilityThreshold(p) : -1;
    thresholds.set(text, t);
  }
  return t;
}

/**
 * `-A CHAIN [-m comment --comment "TEXT"] [-m statistic --mode random --probability P]
 * -j SEP` (TEXT written inside quotes; `probability` undefined: no statistic match).
 */
export function ladderParse(
  chain: string,
  comment: string | undefined,
  probability: string | undefined,
  sep: string,
): ParsedArgs | undefined {
  if (!isKubeChainName(chain) || !isKubeChainName(sep)) return undefined;
  const t = probability === undefined ? -1 : threshold(probability);
  if (probability !== undefined && t < 0) return undefined;
  let matches: readonly Match[];
  if (comment === undefined) matches = t < 0 ? NO_MATCHES : randomOnly(t);
  else {
    const m = commentFirst(comment, true);
    if (m === undefined) return undefined;
    if (t >= 0) m.push(randomMatch(t));
    matches = m;
  }
  return appendParse(TABLE, sharedName(chain), undefined, undefined, 0, matches, jump(sep));
}

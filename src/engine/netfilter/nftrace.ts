/**
 * nf_tables tracing of iptables-nft's tables, as `xtables-monitor --trace` (iptables 1.8.9)
 * prints it. `-j TRACE` is `meta nftrace set 1`: it sets skb->nf_trace, and from that rule on
 * every base chain the packet meets on this host sends trace events (nf_tables_trace.c):
 *
 * - one per rule whose expressions all matched, with the verdict it gave: CONTINUE for a rule
 *   that goes on (TRACE itself, MARK, LOG, a rule without target), JUMP:CHAIN, GOTO:CHAIN,
 *   ACCEPT (DNAT, SNAT and MASQUERADE return NF_ACCEPT), DROP (REJECT drops after answering);
 *   a RETURN rule's verdict is NFT_RETURN, which xtables-monitor's print_verdict() has no name
 *   for: it prints `0xfffffffb`;
 * - one for the base chain's policy when the walk reaches it;
 * - none for a rule that did not match, nor for falling off the end of a user chain.
 *
 * The first event of each base chain carries the packet (NFTA_TRACE_NETWORK_HEADER…), which
 * xtables-monitor prints as a `PACKET:` line before it. All this was checked against
 * kernel 6.18 and xtables-monitor 1.8.9 in network namespaces (tests/kernel/nftrace.test.ts).
 *
 * The lab's simplification, which `xtables-monitor` states: the IP ID and the DF bit are not
 * modelled (ID=0, no DF). The trace id is a hash of the lab's seed, the host and the packet
 * (the kernel's is a siphash of the skb under a key drawn at boot).
 */
import { ruleSpec } from './rule-render';
import { traceTargetsMade } from './trace-targets';
import type { Packet, TraceStep } from './walk';
import type { NetfilterState, Table, TableName } from './types';

/** NFPROTO_IPV4: the family number both line kinds start with. */
const FAMILY = 2;

/** What the log of one network namespace keeps: the newest lines, this many. */
export const TRACE_LOG_LINES = 20_000;

/**
 * One line of the log. A rule event's line differs with `xtables-monitor -c`, which prints the
 * rule with the counters it had when the monitor asked for it (at once, as the event came).
 */
interface LogLine {
  readonly plain: string;
  readonly counted: string;
}

const logs = new WeakMap<NetfilterState, LogLine[]>();

/** The trace lines of `nf`'s namespace so far: what a monitor started at boot has printed. */
export function traceLines(nf: NetfilterState, counters: boolean): string {
  let out = '';
  for (const l of logs.get(nf) ?? []) out += counters ? l.counted : l.plain;
  return out;
}

function append(nf: NetfilterState, lines: readonly LogLine[]): void {
  let log = logs.get(nf);
  if (log === undefined) logs.set(nf, (log = []));
  for (const l of lines) log.push(l);
  if (log.length > TRACE_LOG_LINES + (TRACE_LOG_LINES >> 2))
    log.splice(0, log.length - TRACE_LOG_LINES);
}

const tracing = new WeakMap<Table, boolean>();

/** Whether the table has a TRACE rule (a commit puts a new Table in place, so this is cached). */
export function tableHasTrace(t: Table): boolean {
  if (!traceTargetsMade()) return false;
  let yes = tracing.get(t);
  if (yes === undefined) {
    yes = t.chains.some((c) => c.rules.some((r) => r.target.kind === 'TRACE'));
    tracing.set(t, yes);
  }
  return yes;
}

/** The verdict of a traced step, as print_verdict() names it (undefined: no event). */
function verdictOf(step: TraceStep): string | undefined {
  const o = step.outcome;
  switch (o.kind) {
    case 'continue':
    case 'mark':
    case 'log':
      return 'CONTINUE';
    case 'jump':
      return `JUMP:${o.chain}`;
    case 'goto':
      return `GOTO:${o.chain}`;
    case 'return':
      // A RETURN rule: NFT_RETURN (-5) printed as `0x%x`. The end of a user chain: no event.
      return step.type === 'rule' ? '0xfffffffb' : undefined;
    case 'verdict':
      return o.verdict === 'ACCEPT' ? 'ACCEPT' : 'DROP';
    case 'nat':
      return 'ACCEPT';
    case 'policy':
      return o.verdict;
    case 'nomatch':
    case 'abort':
      return undefined;
  }
}

/** TCP flags in the order trace_print_packet() prints them. */
const TCP_FLAGS = [
  ['syn', 'SYN'],
  ['ack', 'ACK'],
  ['fin', 'FIN'],
  ['rst', 'RST'],
  ['psh', 'PSH'],
  ['urg', 'URG'],
] as const;

/** The Ethernet header of the frame the packet came in (none for a packet the host made). */
export interface FrameMacs {
  readonly src: string;
  readonly dst: string;
}

/** ether_ntoa(): each byte in hex without leading zeros (`42:29:c:85:1f:f`). */
function etherNtoa(mac: string): string {
  return mac
    .split(':')
    .map((b) => parseInt(b, 16).toString(16))
    .join(':');
}

/**
 * The header as trace_print_packet() dumps it without a device type: `%02x` of each byte as a
 * (signed) char, so bytes from 0x80 up print as `ffffff9e`; destination, source, 0x0800.
 */
function rawHeader(ll: FrameMacs): string {
  const bytes = [...ll.dst.split(':'), ...ll.src.split(':'), '08', '00'].map((b) =>
    parseInt(b, 16),
  );
  return bytes.map((b) => (b >= 0x80 ? 'ffffff' : '') + b.toString(16).padStart(2, '0')).join('');
}

/** trace_print_packet(): the `PACKET:` line of a base chain's first event (without `\n`). */
export function packetLine(id: string, p: Packet, mark: number, ll?: FrameMacs): string {
  let t = `PACKET: ${FAMILY} ${id} `;
  // NFTA_TRACE_IIF / OIF: the hook's devices (no input device at OUTPUT, nor at a bridged
  // packet's POSTROUTING; a routed one's is ip_output()'s indev).
  if (p.inIface !== undefined) t += `IN=${p.inIface} `;
  if (p.outIface !== undefined) t += `OUT=${p.outIface} `;
  // The link-layer header, when the skb has one: decoded when the input device is Ethernet
  // (NFTA_TRACE_IIFTYPE), else dumped with type 0.
  if (ll !== undefined && p.inIface !== undefined)
    t += `MACSRC=${etherNtoa(ll.src)} MACDST=${etherNtoa(ll.dst)} MACPROTO=0800 `;
  else if (ll !== undefined) t += `LL=0x0 ${rawHeader(ll)} `;
  // `ID=%d` is followed by the IP flags, each with its own space: none here (see above).
  t += `SRC=${p.src} DST=${p.dst} LEN=${p.length} TOS=0x0 TTL=${p.ttl ?? 64} ID=0 `;
  if (p.protocol === 'tcp' || p.protocol === 'udp' || p.protocol === 'sctp') {
    t += `SPORT=${p.sport ?? 0} DPORT=${p.dport ?? 0} `;
    if (p.protocol === 'tcp')
      for (const [k, name] of TCP_FLAGS) if (p.tcpFlags?.[k]) t += `${name} `;
  }
  if (mark !== 0) t += `MARK=0x${(mark >>> 0).toString(16)} `;
  return t;
}

/**
 * Logs the trace events of one walk of the base chain `base` of `table`, from step `from` on
 * (the first step once the packet was marked: 0 when it came marked), the packet line before
 * the first. A base chain iptables-nft has not created in nf_tables has no hook: no event.
 */
export function logChainTrace(
  nf: NetfilterState,
  table: TableName,
  base: string,
  id: string,
  packet: Packet,
  steps: readonly TraceStep[],
  from: number,
  ll?: FrameMacs,
): void {
  const t = nf.tables[table];
  if (t?.nft?.chains[base] === undefined) return;
  const lines: LogLine[] = [];
  for (let i = from; i < steps.length; i++) {
    const step = steps[i]!;
    const verdict = step.matched ? verdictOf(step) : undefined;
    if (verdict === undefined) continue;
    if (lines.length === 0) {
      const p = `${packetLine(id, packet, step.mark, ll)}\n`;
      lines.push({ plain: p, counted: p });
    }
    const head = ` TRACE: ${FAMILY} ${id} ${step.table}:${step.chain}`;
    if (step.type === 'policy') {
      const line = `${head}:policy:${verdict} \n`;
      lines.push({ plain: line, counted: line });
      continue;
    }
    const rule = t.chains.find((c) => c.name === step.chain)?.rules[step.ruleNum - 1];
    if (rule === undefined) continue;
    // print_verdict()'s trailing space, then rule_cb()'s `-4 -t TABLE ` and the saved rule.
    const at = `${head}:rule:0x${(rule.nftHandle ?? 0).toString(16)}:${verdict}  -4 -t ${table} `;
    const spec = `-A ${step.chain}${ruleSpec(rule)}\n`;
    const { packets, bytes } = rule.counters;
    lines.push({ plain: at + spec, counted: `${at}[${packets}:${bytes}] ${spec}` });
  }
  if (lines.length > 0) append(nf, lines);
}

/**
 * Text views of entries and events: /proc/net/nf_conntrack (ct_seq_show() in
 * nf_conntrack_standalone.c) and the lines conntrack-tools 1.4.7 prints through
 * libnetfilter_conntrack's __snprintf_conntrack_default() (`-L`, `-D`, `-E`).
 */
import {
  IPS,
  PROTO_NUMBER,
  type CtCounters,
  type CtEntry,
  type CtEvent,
  type CtTable,
  type CtTuple,
} from './model';
import { remainingSeconds } from './table';

/** `-o extended` (NFCT_OF_SHOW_LAYER3) and `-o id` (NFCT_OF_ID). */
export interface LineOptions {
  readonly extended?: boolean;
  readonly id?: boolean;
}

const L3 = 'ipv4     2 ';

/** "%-8s %u " of the layer-4 protocol: `tcp      6 `. */
function l4Text(t: CtTuple): string {
  return `${t.proto.padEnd(8)} ${PROTO_NUMBER[t.proto]} `;
}

/** print_tuple(): addresses, then ports or ICMP type/code/id, each followed by a space. */
export function tupleText(t: CtTuple): string {
  const l4 =
    t.proto === 'icmp'
      ? `type=${t.type} code=${t.code} id=${t.id} `
      : `sport=${t.sport} dport=${t.dport} `;
  return `src=${t.src} dst=${t.dst} ${l4}`;
}

function countersText(c: CtCounters): string {
  return `packets=${c.packets} bytes=${c.bytes} `;
}

interface Body {
  readonly orig: CtTuple;
  readonly reply: CtTuple;
  readonly status: number;
  readonly counters?: readonly [CtCounters, CtCounters] | undefined;
}

/** The common middle: tuples, accounting, [UNREPLIED] and [ASSURED]. */
function bodyText(b: Body): string {
  let s = tupleText(b.orig);
  if (b.counters) s += countersText(b.counters[0]);
  if (!(b.status & IPS.SEEN_REPLY)) s += '[UNREPLIED] ';
  s += tupleText(b.reply);
  if (b.counters) s += countersText(b.counters[1]);
  if (b.status & IPS.ASSURED) s += '[ASSURED] ';
  return s;
}

function timeoutAndState(entry: CtEntry, nowMs: number): string {
  return `${remainingSeconds(entry, nowMs)} ${entry.tcp ? `${entry.tcp.state} ` : ''}`;
}

/** One line of /proc/net/nf_conntrack (with its newline); the reader's reference makes use=2. */
export function procLine(entry: CtEntry, nowMs: number, acct: boolean): string {
  const body = bodyText({ ...entry, counters: acct ? entry.counters : undefined });
  return `${L3}${l4Text(entry.orig)}${timeoutAndState(entry, nowMs)}${body}mark=${entry.mark} zone=${entry.zone} use=2\n`;
}

/** One line of `conntrack -L` / `-D` (without newline): no zone for zone 0, use=1. */
export function listLine(entry: CtEntry, nowMs: number, acct: boolean, opts: LineOptions): string {
  const body = bodyText({ ...entry, counters: acct ? entry.counters : undefined });
  const line =
    (opts.extended ? L3 : '') +
    l4Text(entry.orig) +
    timeoutAndState(entry, nowMs) +
    body +
    `mark=${entry.mark} use=1 ` +
    (opts.id ? `id=${entry.id} ` : '');
  return line.trimEnd();
}

const EVENT_LABEL: Readonly<Record<CtEvent['type'], string>> = {
  NEW: '[NEW]',
  UPDATE: '[UPDATE]',
  DESTROY: '[DESTROY]',
};

/** One line of `conntrack -E`: "%9s " event label, the message's attributes, [USERSPACE]. */
export function eventLine(e: CtEvent, opts: LineOptions): string {
  const line =
    `${EVENT_LABEL[e.type].padStart(9)} ` +
    (opts.extended ? L3 : '') +
    l4Text(e.orig) +
    (e.timeoutS !== undefined ? `${e.timeoutS} ` : '') +
    (e.state !== undefined ? `${e.state} ` : '') +
    bodyText(e) +
    (e.mark !== undefined ? `mark=${e.mark} ` : '') +
    (opts.id ? `id=${e.id} ` : '');
  const user = e.portid !== undefined ? ` [USERSPACE] portid=${e.portid}` : '';
  return line.trimEnd() + user;
}

/** The whole of /proc/net/nf_conntrack: confirmed entries, in creation order. */
export function procNfConntrackText(table: CtTable, nowMs: number): string {
  let out = '';
  for (const entry of Object.values(table.entries)) {
    if (entry.status & IPS.CONFIRMED) out += procLine(entry, nowMs, table.config.acct);
  }
  return out;
}

/** The IPS_* names set in a status word, in bit order (for the UI and traces). */
export function statusNames(status: number): string[] {
  return Object.entries(IPS)
    .filter(([, bit]) => (status & bit) !== 0)
    .map(([name]) => name);
}

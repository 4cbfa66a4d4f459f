/**
 * `conntrack` (conntrack-tools 1.4.7) over the simulated table: do_command_ct() for -L, -D,
 * -F, -C, -S, -E, -V, -h, with nfct_filter()'s matching (filter_nat, filter_mark, filter_network,
 * nfct_cmp) and the exit_error() texts. Listings are in creation order (the kernel dumps in
 * hash-bucket order, which depends on a boot-time random seed).
 *
 * Lab conventions: expired entries are collected before every command (the kernel's dump
 * skips and evicts them too); `-E` prints the events recorded since `eventsSince` and returns
 * as if interrupted, with the footer the tool prints on SIGINT.
 */
import { ipToInt, prefixMask } from '../model/ip';
import { stdioAround, type StdioWrite } from '../model/stdio';
import {
  IPS,
  PROTO_NUMBER,
  type CtEvent,
  type CtTable,
  type CtTuple,
  type TcpState,
} from './model';
import { OtherError, ParamError } from './cli-options';
import { parseConntrackArgs, type Parsed } from './cli-parse';
import type { AddrFilter, Template } from './cli-values';
import { ctDelete } from './core';
import { eventLine, listLine, procNfConntrackText } from './format';
import { PROTO_HELP, USAGE } from './help';
import { conntrackStatsText, expectStatsText } from './stats';
import { ctExpire } from './table';
import { l4Dst, l4Src } from './tuple';
import { labNote } from '../model/lab-notes';

export interface ToolOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /** The writes in order, where `2>&1` depends on it (model/stdio.ts). */
  readonly writes?: readonly StdioWrite[];
}

export interface ConntrackCommandOptions {
  /** `-E` prints events whose `seq` is greater than this (default 0: all kept events). */
  readonly eventsSince?: number;
  /** `-E` prints events recorded at or after this virtual time (ms). */
  readonly eventsSinceMs?: number;
}

const PREFIX = 'conntrack v1.4.7 (conntrack-tools): ';
const TRY = "Try `conntrack -h' or 'conntrack --help' for more information.\n";

/** The attributes a message (dump entry or event) carried, as nfct_filter() sees them. */
interface View {
  readonly orig: CtTuple;
  readonly reply: CtTuple;
  readonly status: number;
  readonly mark?: number | undefined;
  readonly state?: TcpState | undefined;
}

function addrMatch(ip: string, f: AddrFilter): boolean {
  if (f.v6) return false;
  const mask = prefixMask(f.prefix);
  return (ipToInt(ip) & mask) >>> 0 === (ipToInt(f.addr) & mask) >>> 0;
}

/** filter_nat() with libnetfilter_conntrack's NFCT_GOPT_IS_{SNAT,SPAT,DNAT,DPAT}. */
function natMatch(v: View, t: Template): boolean {
  const sDone = (v.status & IPS.SRC_NAT_DONE) !== 0;
  const dDone = (v.status & IPS.DST_NAT_DONE) !== 0;
  const side = (
    f: Template['srcNat'],
    isNat: boolean,
    isPat: boolean,
    ip: string,
    port: number,
  ): boolean => {
    if (f === undefined) return false;
    let has = false;
    if (f.addr !== undefined) has = isNat && f.addr.addr === ip;
    if (f.port !== undefined) {
      const ret = isPat && f.port === port;
      if (f.addr !== undefined && has && !ret) has = false;
      if (f.addr === undefined && ret) has = true;
    }
    if (f.addr === undefined && f.port === undefined) has = isNat || isPat;
    return has;
  };
  const s = side(
    t.srcNat,
    sDone && v.reply.dst !== v.orig.src,
    sDone && l4Dst(v.reply) !== l4Src(v.orig),
    v.reply.dst,
    l4Dst(v.reply),
  );
  const d = side(
    t.dstNat,
    dDone && v.reply.src !== v.orig.dst,
    dDone && l4Src(v.reply) !== l4Dst(v.orig),
    v.reply.src,
    l4Src(v.reply),
  );
  if (t.anyNat) return s || d;
  if (t.srcNat && t.dstNat) return s && d;
  if (t.srcNat) return s;
  if (t.dstNat) return d;
  return true;
}

/** nfct_filter(): NAT, mark, networks, then nfct_cmp() of every attribute the template set. */
function matches(v: View, t: Template): boolean {
  if (t.family === 'ipv6' || !natMatch(v, t)) return false;
  if (t.mark && (v.mark === undefined || (v.mark & t.mark.mask) >>> 0 !== t.mark.value))
    return false;
  const checks: [AddrFilter | undefined, string][] = [
    [t.origSrc, v.orig.src],
    [t.origDst, v.orig.dst],
    [t.replySrc, v.reply.src],
    [t.replyDst, v.reply.dst],
  ];
  if (checks.some(([f, ip]) => f !== undefined && !addrMatch(ip, f))) return false;
  const eq = (want: number | undefined, have: number): boolean =>
    want === undefined || want === have;
  return (
    eq(t.proto, PROTO_NUMBER[v.orig.proto]) &&
    eq(t.sport, l4Src(v.orig)) &&
    eq(t.dport, l4Dst(v.orig)) &&
    eq(t.replySport, l4Src(v.reply)) &&
    eq(t.replyDport, l4Dst(v.reply)) &&
    eq(t.icmpType, l4Dst(v.orig) >> 8) &&
    eq(t.icmpCode, l4Dst(v.orig) & 0xff) &&
    eq(t.icmpId, l4Src(v.orig)) &&
    (t.tcpState === undefined || v.state === t.tcpState)
  );
}

function out(stdout: string, stderr: string, exitCode = 0): ToolOutput {
  return { stdout, stderr, exitCode };
}

/**
 * The entries (printf, stdout) between the warnings of the parse and the summary (fprintf to
 * stderr, last): `conntrack -L 2>&1 | head` shows the summary first, as stdio buffers stdout
 * into a pipe (model/stdio.ts).
 */
function listed(warn: string, lines: string, summary: string, exitCode = 0): ToolOutput {
  const writes = stdioAround(warn, lines, summary);
  return { stdout: lines, stderr: warn + summary, exitCode, writes };
}

function run(table: CtTable, p: Parsed, nowMs: number, opts: ConntrackCommandOptions): ToolOutput {
  const lineOpts = { extended: p.extended, id: p.id };
  const warn = p.warnings.map((w) => `${w}\n`).join('');
  const acct = table.config.acct;
  const entries = Object.values(table.entries);
  const confirmed = (): typeof entries => entries.filter((e) => e.status & IPS.CONFIRMED);
  switch (p.command) {
    case 'CT_LIST':
    case 'CT_UNCONFIRMED':
    case 'CT_DYING': {
      const pool =
        p.command === 'CT_LIST'
          ? confirmed()
          : p.command === 'CT_DYING'
            ? []
            : entries.filter((e) => !(e.status & IPS.CONFIRMED));
      const lines = pool
        .filter((e) => matches({ ...e, state: e.tcp?.state }, p.tmpl))
        .map((e) => `${listLine(e, nowMs, acct, lineOpts)}\n`);
      return listed(
        warn,
        lines.join(''),
        `${PREFIX}${lines.length} flow entries have been shown.\n`,
      );
    }
    case 'CT_DELETE': {
      const portid = table.nextPortid++;
      let text = '';
      let n = 0;
      for (const e of confirmed()) {
        if (!matches({ ...e, state: e.tcp?.state }, p.tmpl)) continue;
        text += `${listLine(e, nowMs, acct, lineOpts)}\n`;
        ctDelete(table, e, nowMs, portid);
        n++;
      }
      return listed(warn, text, `${PREFIX}${n} flow entries have been deleted.\n`, n === 0 ? 1 : 0);
    }
    case 'CT_FLUSH': {
      const portid = table.nextPortid++;
      for (const e of confirmed()) ctDelete(table, e, nowMs, portid);
      return out('', `${warn}${PREFIX}connection tracking table has been emptied.\n`);
    }
    case 'EXP_FLUSH':
      return out('', `${warn}${PREFIX}expectation table has been emptied.\n`);
    case 'EXP_LIST':
      return out('', `${warn}${PREFIX}0 expectations have been shown.\n`);
    case 'CT_COUNT':
      return out(`${table.count}\n`, warn);
    case 'EXP_COUNT':
      return out('0\n', warn);
    case 'CT_STATS':
      return out(conntrackStatsText(table.stats), warn + labNote('conntrack.stats-cpu'));
    case 'EXP_STATS':
      return out(expectStatsText(), warn);
    case 'CT_EVENT': {
      const since = opts.eventsSince ?? 0;
      const sinceMs = opts.eventsSinceMs ?? -Infinity;
      const bit: Record<CtEvent['type'], number> = { NEW: 1, UPDATE: 2, DESTROY: 4 };
      const lines = table.events
        .filter(
          (e) =>
            e.seq > since &&
            e.atMs >= sinceMs &&
            (p.eventMask & bit[e.type]) !== 0 &&
            matches(e, p.tmpl),
        )
        .map((e) => `${eventLine(e, lineOpts)}\n`);
      return listed(
        warn,
        lines.join(''),
        `${PREFIX}${lines.length} flow events have been shown.\n`,
      );
    }
    case 'CT_VERSION':
      return out('conntrack v1.4.7 (conntrack-tools)\n', warn);
    case 'CT_HELP':
    case 'NONE': {
      const help = p.helpProto !== undefined ? PROTO_HELP[p.helpProto] : undefined;
      const extra = help ?? (p.helpProto !== undefined ? `Proto \`${p.helpProto}' help:\n` : '');
      return out(USAGE + extra, warn);
    }
  }
}

/**
 * Runs `conntrack ARGS…` against the table at virtual time `nowMs` and returns what the tool
 * prints. Mutates the table for -D and -F (and collects expired entries first).
 */
export function conntrackCommand(
  table: CtTable,
  argv: readonly string[],
  nowMs: number,
  opts: ConntrackCommandOptions = {},
): ToolOutput {
  let parsed: Parsed;
  try {
    parsed = parseConntrackArgs(argv);
  } catch (e) {
    if (e instanceof ParamError) return out('', `${PREFIX}${e.message}\n${TRY}`, 2);
    if (e instanceof OtherError) return out('', `${PREFIX}${e.message}\n`, 1);
    throw e;
  }
  if (parsed.unmodelled.length > 0) {
    return out('', labNote('conntrack.option', { options: parsed.unmodelled.join(', ') }), 2);
  }
  ctExpire(table, nowMs);
  return run(table, parsed, nowMs, opts);
}

/** `cat /proc/net/nf_conntrack` (expired entries are collected first, as ct_seq_show does). */
export function procNfConntrack(table: CtTable, nowMs: number): string {
  ctExpire(table, nowMs);
  return procNfConntrackText(table, nowMs);
}

/**
 * The lines of an iptables-restore section (restore.ts): a chain line's command, and a rule
 * line's parse (cached by its text, see parse-cache.ts).
 */
import { XtError } from './errors';
import { policySet, type Work } from './ops';
import { detach, type LineCache, type LineEntry } from './parse-cache';
import { PROG, type Queued } from './restore-commit';
import { fastRuleLine } from './rule-fast';
import { parseWarningsMark } from './parse-warnings';
import { parseArgs, assertValidChainName, type ParsedArgs } from './rule-parse';
import { isBuiltinChain } from './tables';
import { tokenizeRestoreLine } from './tokenize';
import type { Counters, TableName } from './types';
import type { IpsetLookup, NetnsObjects } from './match-misc';

/** A `*table` section being read: its queued commands and their lines (see commitSection()). */
export interface Section {
  readonly name: TableName;
  readonly queue: Queued[];
  readonly lines: number[];
  readonly cache: LineCache;
  /** The cache entry of the previous line when that was a rule line. */
  prev: LineEntry | undefined;
  /** RestoreOptions.objects. */
  readonly objects?: NetnsObjects | undefined;
}

/** The words of `text` from `from` on, split at spaces and tabs (`split(/[ \t]+/)` minus empties). */
function blankSeparated(text: string, from: number): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = from; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x20;
    if (c === 0x20 || c === 0x09) {
      if (start >= 0) words.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  return words;
}

export function chainLine(
  table: TableName,
  buffer: string,
  line: number,
  withCounters: boolean,
): Queued {
  const [name, policy, ctrs] = blankSeparated(buffer, 1);
  // The name lives on in the table: do not let it pin the whole restore input.
  const chain = name === undefined ? undefined : detach(name);
  if (chain === undefined) throw XtError.param(`${PROG}: line ${line} chain name invalid`);
  assertValidChainName(chain);
  if (policy === undefined) throw XtError.param(`${PROG}: line ${line} policy invalid`);
  if (isBuiltinChain(table, chain)) {
    let counters: Counters = { packets: 0, bytes: 0 };
    if (withCounters) {
      const m = /^\[(\d+):(\d+)\]$/.exec(ctrs ?? '');
      if (m === null) throw XtError.param(`invalid policy counters for chain '${chain}'`);
      counters = { packets: Number(m[1]), bytes: Number(m[2]) };
    }
    return (work: Work): void => policySet(work, chain, policy, counters);
  }
  return chain;
}

/**
 * Queues a rule line, parsed once per distinct text (a cached parse is shared and never
 * changed). A parse the cache did not take is the line's alone: its line number is queued
 * negated, and the rule goes into the table as it is (see commit()). `prebuilt`: the parse
 * the line's writer built for it (restore-pieces.ts PrebuiltLines), used rather than reading
 * the line; it is the line's alone until the cache takes it.
 */
export function queueRule(
  section: Section,
  raw: string,
  line: number,
  withCounters: boolean,
  prebuilt?: ParsedArgs,
): void {
  const ipsets = section.objects?.ipsets;
  if (ipsets !== undefined && prebuilt === undefined && raw.includes('set')) {
    // A `-m set` line is read against the sets there are now (libxt_set looks its set up):
    // such a parse is never taken from the cache nor put in it.
    section.prev = undefined;
    section.queue.push(ruleLine(section.name, detach(raw), line, withCounters, ipsets));
    section.lines.push(-line);
    return;
  }
  let e = section.cache.get(raw, section.prev);
  if (e === undefined) {
    // The parse keeps parts of the line: cut from `text`, they do not pin the whole input. A
    // prebuilt parse keeps none, and its line is a piece of the writer's text, which the
    // writer keeps anyway: the line is noted as it is, not copied.
    const text = prebuilt === undefined ? detach(raw) : raw;
    const warned = parseWarningsMark();
    const parsed = prebuilt ?? ruleLine(section.name, text, line, withCounters);
    // A line that warns is parsed again every time, to warn again (parse-warnings.ts).
    if (parseWarningsMark() !== warned || !section.cache.admit(text)) {
      section.prev = undefined;
      section.queue.push(parsed);
      section.lines.push(-line);
      return;
    }
    // A cached line lives on: its own copy.
    e = section.cache.set(text === raw ? detach(raw) : text, parsed, section.prev);
  }
  section.prev = e;
  section.queue.push(e.parsed);
  section.lines.push(line);
}

/**
 * The cache entry of a rule line of a text the writer keeps (`section.prev` is the entry of
 * the line before it), parsed and cached if need be. Such a line is cached at first sight:
 * the writer keeps the text to send its lines again (the doorkeeper of LineCache is for lines
 * a first sync sends once). `prebuilt`: the parse the line's writer built (see queueRule()).
 */
export function keptRuleEntry(
  section: Section,
  raw: string,
  line: number,
  withCounters: boolean,
  prebuilt?: ParsedArgs,
): LineEntry {
  const e = section.cache.get(raw, section.prev);
  if (e !== undefined) return e;
  // As queueRule() does: the parse takes parts of a detached copy of the line.
  const text = detach(raw);
  const parsed = prebuilt ?? ruleLine(section.name, text, line, withCounters);
  return section.cache.set(text, parsed, section.prev);
}

/** A restore rule line's parse (`[p:b]` prefix, then the fast path or the general parser). */
export function ruleLine(
  table: TableName,
  buffer: string,
  line: number,
  withCounters: boolean,
  ipsets?: IpsetLookup,
): ParsedArgs {
  let rest = buffer;
  let counters: Counters | undefined;
  // tokenize_rule_counters(): a leading "[pkts:bytes]".
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) throw XtError.param(`Bad line ${line}: need ]`);
    const [p = '', b] = rest.slice(1, close).split(':');
    if (b === undefined) throw XtError.param(`Bad line ${line}: need :`);
    if (withCounters) counters = { packets: Number(p) || 0, bytes: Number(b) || 0 };
    rest = rest.slice(close + 1);
  }
  if (counters === undefined) {
    const fast = fastRuleLine(table, rest);
    if (fast !== undefined) return fast;
  }
  const argv = tokenizeRestoreLine(rest);
  if (counters !== undefined)
    argv.unshift('--set-counters', String(counters.packets), String(counters.bytes));
  return parseArgs(argv, { restore: true, table, ipsets });
}

/**
 * `iptables-restore` as iptables-nft-restore 1.8.9 behaves (xtables-restore.c):
 *
 * - Lines are read one by one; a parse error stops at once with "Error occurred at line: N"
 *   (exit 2). Only column-0 `#` lines are comments; blank lines are skipped.
 * - `*table` opens a section. Without --noflush the table is deleted first (all user chains
 *   go, policies return to ACCEPT; a section that writes nothing leaves no table behind).
 * - `:CHAIN POLICY [p:b]` sets a built-in chain's policy and counters (0:0 unless --counters);
 *   for a user chain it creates it, or flushes it if it exists (also with --noflush).
 * - Commands are queued and run at COMMIT, each section as one atomic nf_tables batch (the
 *   commit is per table: earlier sections stay committed when a later one fails). Errors:
 *   a jump to a missing chain names the COMMIT line ("Error occurred at line", exit 2); the
 *   nft layer's refusals "iptables-restore: line N failed: …." (exit 1); the kernel's
 *   "…: \nline N: OP failed (…): …" (exit 4).
 * - End of input inside a section: "COMMIT expected at line N+1" (exit 1).
 */
import { asXtError, renderError, XtError } from './errors';
import { policySet, type Work } from './ops';
import { commitSection, PROG, type Queued } from './restore-commit';
import { detach, lineCache, type LineCache, type LineEntry } from './parse-cache';
import {
  joinPieces,
  piecesAreLines,
  type RestorePiece,
  type RestorePieces,
  type TextRange,
} from './restore-pieces';
import { MIN_BLOCK, RestoreBlock } from './restore-block';
import { fastRuleLine } from './rule-fast';
import { parseArgs, assertValidChainName, type ParsedArgs } from './rule-parse';
import { isBuiltinChain, isTableName } from './tables';
import { tokenizeRestoreLine } from './tokenize';
import type { Counters, NetfilterState, TableName } from './types';
import type { ToolOutput } from './views';

export interface RestoreOptions {
  /** --noflush: keep what the tables hold. */
  readonly noflush?: boolean;
  /** --counters: take `[p:b]` of rules and chains. */
  readonly counters?: boolean;
}

interface Section {
  readonly name: TableName;
  readonly queue: Queued[];
  readonly lines: number[];
  readonly cache: LineCache;
  /** The cache entry of the previous line when that was a rule line. */
  prev: LineEntry | undefined;
}

/** Where a restore stands while it reads its input. */
interface Reader {
  readonly withCounters: boolean;
  readonly state: NetfilterState;
  readonly opts: RestoreOptions;
  section: Section | undefined;
  lineNo: number;
  /** The cache entry of the line just read, when it was a rule line that has one. */
  entry: LineEntry | undefined;
}

/**
 * Applies restore input to `state` (mutated in place, section by section). The input may come
 * as the pieces it is joined from (restore-pieces.ts): the result is the same as for the join.
 */
export function iptablesRestore(
  state: NetfilterState,
  input: string | RestorePieces,
  opts: RestoreOptions = {},
): ToolOutput {
  const r: Reader = {
    withCounters: opts.counters ?? false,
    state,
    opts,
    section: undefined,
    lineNo: 0,
    entry: undefined,
  };
  try {
    let out: ToolOutput | undefined;
    if (typeof input === 'string') out = readText(r, input, 0, input.length);
    else if (piecesAreLines(input.pieces)) out = readPieces(r, input.pieces);
    else {
      const text = joinPieces(input.pieces);
      out = readText(r, text, 0, text.length);
    }
    if (out !== undefined) return out;
  } catch (e) {
    const err = asXtError(e);
    return { stdout: '', stderr: renderError(err, PROG, r.lineNo), exitCode: err.exitCode };
  }
  if (r.section !== undefined) {
    return {
      stdout: '',
      stderr: `${PROG}: COMMIT expected at line ${r.lineNo + 1}\n`,
      exitCode: 1,
    };
  }
  return { stdout: '', stderr: '', exitCode: 0 };
}

/** Reads the lines of text[from, to) (fgets(): a line keeps its newline, if it has one). */
function readText(r: Reader, text: string, from: number, to: number): ToolOutput | undefined {
  for (let at = from; at < to;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 || nl >= to ? to : nl + 1;
    const raw = text.slice(at, end);
    at = end;
    const section = r.section;
    // readLine()'s first case, inline: nearly every line of a full sync is a rule line.
    if (section !== undefined && raw.charCodeAt(0) === 0x2d) {
      queueRule(section, raw, ++r.lineNo, r.withCounters);
      continue;
    }
    const out = readLine(r, raw);
    if (out !== undefined) return out;
  }
  return undefined;
}

function readPieces(r: Reader, pieces: readonly RestorePiece[]): ToolOutput | undefined {
  for (const p of pieces) {
    const out = typeof p === 'string' ? readText(r, p, 0, p.length) : readRange(r, p);
    if (out !== undefined) return out;
  }
  return undefined;
}

/**
 * A range of a text the writer keeps: a line whose parse the text's memo holds is queued as
 * readLine() would queue it (a rule line, in a section of the memo's cache); the others are
 * read, and the parse they get is noted for next time.
 */
function readRange(r: Reader, range: TextRange): ToolOutput | undefined {
  const { text, start, end } = range;
  const cache = r.section?.cache;
  const memo = cache?.memos.of(text);
  const first = memo?.lineAt(start) ?? -1;
  const stop = memo?.lineAt(end) ?? -1;
  if (memo === undefined || first < 0 || stop < 0) return readText(r, text, start, end);
  const { starts, entries } = memo;
  for (let i = first; i < stop; i++) {
    const section = r.section;
    const e = entries[i];
    if (e !== undefined && section !== undefined && section.cache === cache) {
      // A run of lines with parses (rule lines only: it stays in this section).
      let j = i + 1;
      while (j < stop && entries[j] !== undefined) j++;
      if (j - i >= MIN_BLOCK) {
        section.queue.push(new RestoreBlock(memo, i, j));
        section.lines.push(r.lineNo + 1);
        r.lineNo += j - i;
        section.prev = entries[j - 1];
        i = j - 1;
        continue;
      }
      r.lineNo++;
      section.queue.push(e.parsed);
      section.lines.push(r.lineNo);
      section.prev = e;
      continue;
    }
    const out = readLine(r, text.slice(starts[i], starts[i + 1]));
    if (out !== undefined) return out;
    if (r.entry !== undefined && r.section?.cache === cache) entries[i] = r.entry;
  }
  return undefined;
}

/** One line, `\n`-terminated unless it ends the input. */
function readLine(r: Reader, raw: string): ToolOutput | undefined {
  r.lineNo++;
  r.entry = undefined;
  const { lineNo, withCounters } = r;
  const section = r.section;
  const first = raw[0];
  if (first === '\n' || first === '#') return undefined;
  if (first === '-' && section !== undefined) {
    queueRule(section, raw, lineNo, withCounters);
    r.entry = section.prev;
    return undefined;
  }
  const buffer = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
  if (section !== undefined && buffer === 'COMMIT') {
    const err = commitSection(r.state, section, r.opts.noflush === true, lineNo);
    if (err !== undefined) return err;
    r.section = undefined;
  } else if (first === '*' && section === undefined) {
    const name = buffer.slice(1).split(/[ \t]/)[0] ?? '';
    if (name === '') throw XtError.param(`${PROG}: line ${lineNo} table name invalid`);
    if (!isTableName(name))
      throw XtError.param(`${PROG}: line ${lineNo} table name '${name}' invalid`);
    const cache = lineCache(name, withCounters);
    cache.beginRestore();
    r.section = { name, queue: [], lines: [], cache, prev: undefined };
  } else if (first === ':' && section !== undefined) {
    section.queue.push(chainLine(section.name, buffer, lineNo, withCounters));
    section.lines.push(lineNo);
    section.prev = undefined;
  } else if (section !== undefined) {
    queueRule(section, raw, lineNo, withCounters);
    r.entry = section.prev;
  } else {
    return { stdout: '', stderr: `${PROG}: line ${lineNo} failed\n`, exitCode: 1 };
  }
  return undefined;
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

function chainLine(table: TableName, buffer: string, line: number, withCounters: boolean): Queued {
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
 * negated, and the rule goes into the table as it is (see commit()).
 */
function queueRule(section: Section, raw: string, line: number, withCounters: boolean): void {
  let e = section.cache.get(raw, section.prev);
  if (e === undefined) {
    // The parse keeps parts of the line: cut from `text`, they do not pin the whole input.
    const text = detach(raw);
    const parsed = ruleLine(section.name, text, line, withCounters);
    if (!section.cache.admit(text)) {
      section.prev = undefined;
      section.queue.push(parsed);
      section.lines.push(-line);
      return;
    }
    e = section.cache.set(text, parsed, section.prev);
  }
  section.prev = e;
  section.queue.push(e.parsed);
  section.lines.push(line);
}

function ruleLine(
  table: TableName,
  buffer: string,
  line: number,
  withCounters: boolean,
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
  return parseArgs(argv, { restore: true, table });
}

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
import { commitSection, PROG } from './restore-commit';
import { takeParseWarnings } from './parse-warnings';
import { lineCache, type LineEntry } from './parse-cache';
import {
  joinPieces,
  piecesAreLines,
  PrebuiltLines,
  type RestorePiece,
  type RestorePieces,
  type TextMemo,
  type TextRange,
} from './restore-pieces';
import { RestoreBlock } from './restore-block';
import { chainLine, keptRuleEntry, queueRule, type Section } from './restore-lines';
import { isBuiltinChain, isTableName } from './tables';
import type { NetfilterState } from './types';
import type { ToolOutput } from './views';
import type { NetnsObjects } from './match-misc';

export interface RestoreOptions {
  /** --noflush: keep what the tables hold. */
  readonly noflush?: boolean;
  /** --counters: take `[p:b]` of rules and chains. */
  readonly counters?: boolean;
  /**
   * --test: every line is read (and its errors reported) but no section is committed: what
   * only the commit finds (a jump to a missing chain, the kernel's refusals) goes unreported.
   */
  readonly test?: boolean;
  /**
   * --verbose: each committed section's flush (`Flushing chain` for each built-in chain of
   * its table, then each user chain it had, by name, and `Deleting chain` for those) and each
   * rule added, as `iptables -v` prints it. Seen on the kernel: with --noflush (or --test)
   * nothing at all is printed.
   */
  readonly verbose?: boolean;
  /** --table=TABLE: only that table's sections; the lines of the others are skipped unread. */
  readonly table?: string;
  /** The network namespace's ip sets and nfacct objects, which lines must name (NetnsObjects). */
  readonly objects?: NetnsObjects;
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
  /** In a section of a table --table leaves out: its lines up to COMMIT are skipped. */
  skipping: boolean;
  /** What --verbose printed so far (standard output). */
  readonly log: string[];
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
  takeParseWarnings();
  const log: string[] = [];
  let out = restoreInput(state, input, opts, log);
  if (log.length > 0) out = { ...out, stdout: log.join('') + out.stdout };
  const warned = takeParseWarnings();
  return warned === '' ? out : { ...out, stderr: warned + out.stderr };
}

function restoreInput(
  state: NetfilterState,
  input: string | RestorePieces,
  opts: RestoreOptions,
  log: string[],
): ToolOutput {
  const r: Reader = {
    withCounters: opts.counters ?? false,
    state,
    opts,
    section: undefined,
    lineNo: 0,
    entry: undefined,
    skipping: false,
    log,
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
    const out =
      typeof p === 'string'
        ? readText(r, p, 0, p.length)
        : p instanceof PrebuiltLines
          ? readPrebuilt(r, p)
          : readRange(r, p);
    if (out !== undefined) return out;
  }
  return undefined;
}

/**
 * Lines whose writer built their parses (restore-pieces.ts): read as readText() reads them,
 * except that a rule line takes its parse when that was built for the section's table (the
 * line cache sees the line all the same), and a user chain's line its name.
 */
function readPrebuilt(r: Reader, lines: PrebuiltLines): ToolOutput | undefined {
  const text = lines.text;
  const parses = lines.take();
  if (parses === undefined) return readText(r, text, 0, text.length);
  // A first restore only notes the rule lines it reads (parse-cache.ts): all of them at once.
  const noting = r.section;
  const noted = noting !== undefined && noting.cache.noteRuleLines(text, parses.length);
  for (let at = 0, i = 0; at < text.length; i++) {
    const start = at;
    const nl = text.indexOf('\n', at);
    at = nl < 0 ? text.length : nl + 1;
    const section = r.section;
    const parse = parses[i];
    const first = text.charCodeAt(start);
    if (section !== undefined && first === 0x2d) {
      const own = typeof parse === 'object' && parse.table === section.name ? parse : undefined;
      if (own !== undefined && noted && section === noting) {
        // What queueRule() queues for a line the cache only notes: the parse, as the line's own.
        // (The cache is not asked for the line: a parse it held would equal this one.)
        section.queue.push(own);
        section.lines.push(-++r.lineNo);
        section.prev = undefined;
        continue;
      }
      queueRule(section, text.slice(start, at), ++r.lineNo, r.withCounters, own);
      continue;
    }
    if (section !== undefined && typeof parse === 'string' && first === 0x3a) {
      if (!isBuiltinChain(section.name, parse)) {
        // What chainLine() queues for it (a user chain's declaration).
        section.queue.push(parse);
        section.lines.push(++r.lineNo);
        section.prev = undefined;
        continue;
      }
    }
    const out = readLine(r, text.slice(start, at));
    if (out !== undefined) return out;
  }
  return undefined;
}

/**
 * A range of a text the writer keeps. Runs of rule lines of the section are queued as blocks
 * (restore-block.ts), each line with the parse the text's memo holds for it or, if none yet,
 * the one it gets now (then noted); the other lines are read one by one, and the parse a line
 * gets is noted for next time.
 */
function readRange(r: Reader, range: TextRange): ToolOutput | undefined {
  const { text, start, end } = range;
  const cache = r.section?.cache;
  const memo = cache?.memos.of(text);
  const first = memo?.lineAt(start) ?? -1;
  const stop = memo?.lineAt(end) ?? -1;
  if (memo === undefined || first < 0 || stop < 0) return readText(r, text, start, end);
  const { starts, entries } = memo;
  for (let i = first; i < stop;) {
    const section = r.section;
    if (section !== undefined && section.cache === cache) {
      const j = queueRun(r, section, memo, range, i, stop);
      if (j > i) {
        i = j;
        continue;
      }
    }
    const out = readLine(r, text.slice(starts[i], starts[i + 1]));
    if (out !== undefined) return out;
    if (r.entry !== undefined && r.section?.cache === cache) entries[i] = r.entry;
    i++;
  }
  return undefined;
}

/**
 * Queues the rule lines of `memo` from line `from` on, up to `stop` or the first line that is
 * not a rule line, as one block: each line with its parse from the memo, or parsed (through
 * the cache) and noted now. It is what queueing them one by one would queue. The end of what
 * was queued; `from` when nothing was.
 */
function queueRun(
  r: Reader,
  section: Section,
  memo: TextMemo,
  range: TextRange,
  from: number,
  stop: number,
): number {
  const { starts, entries } = memo;
  const { text, parses } = range;
  const base = r.lineNo;
  let j = from;
  for (; j < stop; j++) {
    if (entries[j] !== undefined) continue;
    // A rule line as readLine() tells it: a section's line starting with `-`.
    if (text.charCodeAt(starts[j] as number) !== 0x2d) break;
    // Its number, should the parse fail; the cache guesses it follows the line before.
    r.lineNo = base + 1 + (j - from);
    if (j > from) section.prev = entries[j - 1];
    const raw = text.slice(starts[j], starts[j + 1]);
    const parse = parses?.[j];
    const own = typeof parse === 'object' && parse.table === section.name ? parse : undefined;
    entries[j] = keptRuleEntry(section, raw, r.lineNo, r.withCounters, own);
  }
  r.lineNo = base + (j - from);
  if (j > from) {
    section.queue.push(new RestoreBlock(memo, from, j));
    section.lines.push(base + 1);
    section.prev = entries[j - 1];
  }
  return j;
}

/** One line, `\n`-terminated unless it ends the input. */
function readLine(r: Reader, raw: string): ToolOutput | undefined {
  r.lineNo++;
  r.entry = undefined;
  const { lineNo, withCounters } = r;
  const section = r.section;
  const first = raw[0];
  if (r.skipping) {
    if (raw === 'COMMIT\n' || raw === 'COMMIT') r.skipping = false;
    return undefined;
  }
  if (first === '\n' || first === '#') return undefined;
  if (first === '-' && section !== undefined) {
    queueRule(section, raw, lineNo, withCounters);
    r.entry = section.prev;
    return undefined;
  }
  const buffer = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
  if (section !== undefined && buffer === 'COMMIT') {
    const { noflush = false, test = false, verbose = false } = r.opts;
    // --test drops the section (nft_abort()) where a restore commits it.
    const print = verbose && !noflush ? (line: string) => void r.log.push(line) : undefined;
    const err = test ? undefined : commitSection(r.state, section, noflush, lineNo, print);
    if (err !== undefined) return err;
    r.section = undefined;
  } else if (first === '*' && section === undefined) {
    const name = buffer.slice(1).split(/[ \t]/)[0] ?? '';
    if (name === '') throw XtError.param(`${PROG}: line ${lineNo} table name invalid`);
    if (r.opts.table !== undefined && name !== r.opts.table) {
      r.skipping = true;
      return undefined;
    }
    if (!isTableName(name))
      throw XtError.param(`${PROG}: line ${lineNo} table name '${name}' invalid`);
    const cache = lineCache(name, withCounters);
    cache.beginRestore();
    r.section = { name, queue: [], lines: [], cache, prev: undefined, objects: r.opts.objects };
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

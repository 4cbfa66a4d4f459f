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
import { executeCommand } from './execute';
import { chainRestore, policySet, type Work } from './ops';
import { parseArgs, assertValidChainName, type ParsedArgs } from './rule-parse';
import { cloneTable } from './state';
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

const PROG = 'iptables-restore';

interface Queued {
  readonly line: number;
  readonly run: (work: Work) => void;
}

interface Section {
  readonly name: TableName;
  readonly queue: Queued[];
}

/** Applies restore input to `state` (mutated in place, section by section). */
export function iptablesRestore(
  state: NetfilterState,
  input: string,
  opts: RestoreOptions = {},
): ToolOutput {
  // fgets(): every line keeps its newline except an unterminated last one.
  const lines = input.split('\n').map((l) => `${l}\n`);
  const last = lines.pop();
  if (last !== undefined && last !== '\n') lines.push(last.slice(0, -1));
  let section: Section | undefined;
  let lineNo = 0;
  const fail = (e: XtError, line: number): ToolOutput => ({
    stdout: '',
    stderr: renderError(e, PROG, line),
    exitCode: e.exitCode,
  });
  try {
    for (const raw of lines) {
      lineNo++;
      const buffer = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
      if (raw.startsWith('\n') || raw.startsWith('#')) continue;
      if (section !== undefined && buffer === 'COMMIT') {
        const err = commit(state, section, opts, lineNo);
        if (err !== undefined) return err;
        section = undefined;
      } else if (buffer.startsWith('*') && section === undefined) {
        const name = buffer.slice(1).split(/[ \t]/)[0] ?? '';
        if (name === '') throw XtError.param(`${PROG}: line ${lineNo} table name invalid`);
        if (!isTableName(name))
          throw XtError.param(`${PROG}: line ${lineNo} table name '${name}' invalid`);
        section = { name, queue: [] };
      } else if (buffer.startsWith(':') && section !== undefined) {
        section.queue.push(chainLine(section.name, buffer, lineNo, opts.counters ?? false));
      } else if (section !== undefined) {
        const p = ruleLine(section.name, raw, lineNo, opts.counters ?? false);
        section.queue.push({ line: lineNo, run: (work) => executeCommand(work, p) });
      } else {
        return { stdout: '', stderr: `${PROG}: line ${lineNo} failed\n`, exitCode: 1 };
      }
    }
  } catch (e) {
    return fail(asXtError(e), lineNo);
  }
  if (section !== undefined) {
    return { stdout: '', stderr: `${PROG}: COMMIT expected at line ${lineNo + 1}\n`, exitCode: 1 };
  }
  return { stdout: '', stderr: '', exitCode: 0 };
}

function chainLine(table: TableName, buffer: string, line: number, withCounters: boolean): Queued {
  const words = buffer
    .slice(1)
    .split(/[ \t]+/)
    .filter((w) => w !== '');
  const [chain, policy, ctrs] = words;
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
    return { line, run: (work) => policySet(work, chain, policy, counters) };
  }
  return { line, run: (work) => chainRestore(work, chain) };
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
  const argv = tokenizeRestoreLine(rest);
  if (counters !== undefined)
    argv.unshift('--set-counters', String(counters.packets), String(counters.bytes));
  return parseArgs(argv, { restore: true, table });
}

/** Runs a section's queue on a working copy and swaps it in when nothing failed. */
function commit(
  state: NetfilterState,
  section: Section,
  opts: RestoreOptions,
  commitLine: number,
): ToolOutput | undefined {
  const existing = state.tables[section.name];
  const kernel: XtError[] = [];
  const work: Work = {
    name: section.name,
    table: opts.noflush && existing !== undefined ? cloneTable(existing) : undefined,
    kernel: (e) => kernel.push(e),
  };
  for (const q of section.queue) {
    const before = kernel.length;
    try {
      q.run(work);
    } catch (e) {
      const err = asXtError(e);
      const line = err.kind === 'errno' ? q.line : commitLine;
      return { stdout: '', stderr: renderError(err, PROG, line), exitCode: err.exitCode };
    }
    for (const k of kernel.slice(before)) k.line = q.line;
  }
  const first = kernel[0];
  if (first !== undefined)
    return { stdout: '', stderr: renderError(first, PROG, first.line), exitCode: first.exitCode };
  if (work.table === undefined) delete state.tables[section.name];
  else state.tables[section.name] = work.table;
  return undefined;
}

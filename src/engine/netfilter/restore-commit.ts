/**
 * The COMMIT of an iptables-restore section (restore.ts): the queued commands run, in order,
 * as one nf_tables batch on a copy-on-write draft of the table, which replaces the table when
 * nothing failed. Errors name the line of the command (errno) or of COMMIT (the rest).
 */
import { TableDraft } from './draft';
import { asXtError, renderError, type XtError } from './errors';
import { executeCommand } from './execute';
import { chainRestore, type Work } from './ops';
import {
  Appended,
  appendMark,
  blockLine,
  recordAfter,
  recordedRun,
  refillMark,
  RestoreBlock,
} from './restore-block';
import type { ParsedArgs } from './rule-parse';
import { withTableHandle } from './state';
import { BUILTIN_CHAINS } from './tables';
import type { Counters, NetfilterState, TableName } from './types';
import type { ToolOutput } from './views';
import type { NetnsObjects } from './match-misc';

/**
 * A command of the section: a rule line (its cached parse), a user chain line (the chain's
 * name) or a built-in chain's policy line (`run`). Kept in two flat arrays (what each line
 * does, and its line number) rather than an object per line: a restore of 10,000 Services
 * queues some 400,000 of them.
 */
export type Queued = ParsedArgs | string | ((work: Work) => void) | RestoreBlock;

export const PROG = 'iptables-restore';

/** What a section queued: a command per entry and its line (negated: a parse of its own). */
export interface QueuedSection {
  readonly name: TableName;
  readonly queue: readonly Queued[];
  readonly lines: readonly number[];
  /** RestoreOptions.objects: the nfacct objects are looked up as the rules are committed. */
  readonly objects?: NetnsObjects | undefined;
}

/**
 * A parse no cache holds goes into the table as it is, with counters of its own (a parse's
 * counters may be one shared 0:0 object): no copy of the rule (ownRule()) for each of the
 * first sync's lines.
 */
function withOwnCounters(p: ParsedArgs): ParsedArgs {
  const r = p.rule as { counters: Counters } | undefined;
  if (r !== undefined) r.counters = { packets: r.counters.packets, bytes: r.counters.bytes };
  return p;
}

/** Runs a section's queue on a copy-on-write draft and swaps it in when nothing failed. */
export function commitSection(
  state: NetfilterState,
  section: QueuedSection,
  noflush: boolean,
  commitLine: number,
  verbose?: (line: string) => void,
): ToolOutput | undefined {
  const kernel: XtError[] = [];
  const work: Work = {
    name: section.name,
    table: new TableDraft(section.name, noflush ? state.tables[section.name] : undefined),
    kernel: (e) => kernel.push(e),
    ...(verbose !== undefined ? { verbose } : {}),
    ...(section.objects?.nfacct !== undefined ? { nfacct: section.objects.nfacct } : {}),
  };
  if (verbose !== undefined && !noflush) printTableFlush(state, section.name, verbose);
  const { queue, lines } = section;
  const run = (q: Exclude<Queued, RestoreBlock>, at: number): ToolOutput | undefined => {
    const before = kernel.length;
    const line = at < 0 ? -at : at;
    try {
      if (typeof q === 'string') chainRestore(work, q);
      else if (typeof q === 'function') q(work);
      else if (at > 0) executeCommand(work, q, true);
      else executeCommand(work, withOwnCounters(q), false);
    } catch (e) {
      const err = asXtError(e);
      const at = err.kind === 'errno' ? line : commitLine;
      return { stdout: '', stderr: renderError(err, PROG, at), exitCode: err.exitCode };
    }
    for (let i = before; i < kernel.length; i++) {
      const k = kernel[i];
      if (k !== undefined) k.line = line;
    }
    return undefined;
  };
  const appended = new Appended();
  for (let n = 0; n < queue.length; n++) {
    const q = queue[n] as Queued;
    const line = lines[n] as number;
    if (!(q instanceof RestoreBlock)) {
      const out = run(q, line);
      if (out !== undefined) return out;
      continue;
    }
    // The lines a record vouches for keep their old rules at once; the others run one by one.
    const mark = refillMark(work.table, q);
    const grows = mark === undefined ? appendMark(work.table, q) : undefined;
    const known = recordedRun(mark, q);
    if (mark !== undefined && known > 0) work.table.keepRefilled(mark.chain, known);
    for (let i = q.first + known; i < q.stop; i++) {
      const out = run(blockLine(q.memo, i), line + (i - q.first));
      if (out !== undefined) return out;
    }
    recordAfter(work.table, q, mark);
    appended.after(work.table, q, grows);
  }
  const first = kernel[0];
  if (first !== undefined)
    return { stdout: '', stderr: renderError(first, PROG, first.line), exitCode: first.exitCode };
  const table = work.table.commit();
  if (table === undefined) delete state.tables[section.name];
  else state.tables[section.name] = withTableHandle(state, table);
  appended.record();
  return undefined;
}

/**
 * What `iptables-restore --verbose` prints for the flush of a section's table (seen on the
 * kernel): every built-in chain of the table, whether or not it exists yet, then the user
 * chains the table had, by name; then each of those deleted.
 */
function printTableFlush(
  state: NetfilterState,
  name: TableName,
  print: (line: string) => void,
): void {
  const users = (state.tables[name]?.chains ?? [])
    .filter((c) => !c.builtin)
    .map((c) => c.name)
    .sort();
  for (const c of [...BUILTIN_CHAINS[name], ...users]) print(`Flushing chain \`${c}'\n`);
  for (const c of users) print(`Deleting chain \`${c}'\n`);
}

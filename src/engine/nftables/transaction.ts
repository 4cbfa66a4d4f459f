/**
 * `nft -f -` of the transaction text kube-proxy writes through knftables: one command per line
 * (`add|flush|delete table|chain|rule|set|map|element …`), applied atomically — any error
 * leaves the ruleset as it was (nf_tables_abort). Error texts follow nft 1.0.6: the location
 * `FILE:LINE:COL-COL: Error: …`, the offending line and a caret marker under the object name.
 */
import { CommandError, draftState, ENOENT, KERNEL_ENOENT, ownChain, ownSet } from './draft';
import { chainCommand, elementCommand, readSpec, ruleCommand, setCommand } from './objects';
import { tokenize, unquote } from './rule-text';
import { tableKey, type NftState } from './types';

export interface NftRunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** The first `n` space-separated words of a line and the offset after them. */
function words(line: string, n: number): { words: string[]; rest: number } {
  const out: string[] = [];
  let i = 0;
  while (out.length < n && i < line.length) {
    while (line[i] === ' ') i++;
    let j = line.indexOf(' ', i);
    if (j < 0) j = line.length;
    out.push(line.slice(i, j));
    i = j;
  }
  return { words: out, rest: i };
}

/** Applies one command to `state` (a draft). */
function applyCommand(state: NftState, line: string, nowMs: number): void {
  const head = words(line, 5);
  const [verb, object, family = '', tableName = ''] = head.words;
  // Rules are parsed by parseRule; only other commands need their tail as tokens.
  const tokens =
    object === 'rule' ? head.words : [...head.words, ...tokenize(line.slice(head.rest))];
  if (family !== 'ip') throw new CommandError('syntax error', family);
  const key = tableKey(family, tableName);
  if (object === 'table') {
    if (verb === 'add') {
      const spec = readSpec(tokens.slice(4));
      const comment = spec.get('comment');
      const existing = state.tables.get(key);
      if (existing === undefined) {
        state.tables.set(key, {
          family: 'ip',
          name: tableName,
          handle: ++state.lastTableHandle,
          ...(comment !== undefined ? { comment: unquote(comment[0] ?? '') } : {}),
          chains: new Map(),
          sets: new Map(),
          lastHandle: 0,
        });
      } else if (comment !== undefined) existing.comment = unquote(comment[0] ?? '');
      return;
    }
    if (verb === 'delete' || verb === 'destroy') {
      if (!state.tables.delete(key) && verb === 'delete')
        throw new CommandError(KERNEL_ENOENT, tableName);
      return;
    }
    if (verb === 'flush') {
      const t = state.tables.get(key);
      if (t === undefined) throw new CommandError(KERNEL_ENOENT, tableName);
      for (const c of t.chains.values()) ownChain(t, c).rules = [];
      for (const s of t.sets.values()) ownSet(t, s).elements = new Map();
      return;
    }
  }
  const table = state.tables.get(key);
  if (table === undefined) throw new CommandError(ENOENT, tableName);
  const name = tokens[4] ?? '';
  const rest = tokens.slice(5);
  switch (object) {
    case 'chain':
      return chainCommand(table, verb ?? '', name, rest);
    case 'rule':
      return ruleCommand(table, verb ?? '', name, line);
    case 'set':
    case 'map':
      return setCommand(table, verb ?? '', object, name, rest);
    case 'element':
      return elementCommand(table, verb ?? '', name, rest, nowMs);
  }
  throw new CommandError('syntax error', object);
}

/** `nft -f FILE`: the whole text or nothing. */
export function nftApply(
  state: NftState,
  text: string,
  opts: { nowMs: number; file?: string },
): NftRunResult {
  const file = opts.file ?? '/dev/stdin';
  const draft = draftState(state);
  // Tables iptables-nft made in the same namespace took handles too.
  draft.lastTableHandle = Math.max(draft.lastTableHandle, state.netns?.lastTableHandle ?? 0);
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    try {
      applyCommand(draft, line, opts.nowMs);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      const col = e.word !== undefined ? line.indexOf(e.word) : -1;
      const loc =
        col < 0
          ? `${file}:${n + 1}:1-${line.length}`
          : `${file}:${n + 1}:${col + 1}-${col + (e.word ?? '').length}`;
      const marker =
        col < 0 ? '^'.repeat(line.length) : ' '.repeat(col) + '^'.repeat((e.word ?? '').length);
      return {
        stdout: '',
        stderr: `${loc}: Error: ${e.message}\n${line}\n${marker}\n`,
        exitCode: 1,
      };
    }
  }
  state.tables = draft.tables;
  state.lastTableHandle = draft.lastTableHandle;
  if (state.netns !== undefined) state.netns.lastTableHandle = draft.lastTableHandle;
  return { stdout: '', stderr: '', exitCode: 0 };
}

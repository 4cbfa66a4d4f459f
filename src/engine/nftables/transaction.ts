/**
 * `nft -f -` of the transaction text kube-proxy writes through knftables: one command per line
 * (`add|flush|delete table|chain|rule|set|map|element …`), applied atomically — any error
 * leaves the ruleset as it was (nf_tables_abort). Error texts follow nft 1.0.6: the location
 * `FILE:LINE:COL-COL: Error: …`, the offending line and a caret marker under the object name.
 */
import { anonymousSets, parseRule, RuleSyntaxError, tokenize, unquote } from './rule-text';
import {
  tableKey,
  type NftChain,
  type NftChainType,
  type NftDataType,
  type NftElement,
  type NftHook,
  type NftSet,
  type NftState,
  type NftTable,
  type NftVerdict,
} from './types';

export interface NftRunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

class CommandError extends Error {
  constructor(
    message: string,
    readonly word?: string,
  ) {
    super(message);
  }
}

const ENOENT = 'No such file or directory';
// Errors the kernel returns (not nft's own cache lookups) are reported as "Could not process rule".
const KERNEL_ENOENT = 'Could not process rule: No such file or directory';
const EEXIST = 'Could not process rule: File exists';
const EBUSY = 'Could not process rule: Device or resource busy';

// Copy-on-write drafts: a transaction copies the table's chain and set maps (cheap), and a
// chain or set only when a command changes it, so a partial sync of a 10,000-Service table
// does not copy every rule.
let owned = new WeakSet<object>();

function draftTable(t: NftTable): NftTable {
  const d = { ...t, chains: new Map(t.chains), sets: new Map(t.sets) };
  owned.add(d);
  return d;
}

function draftState(s: NftState): NftState {
  const tables = new Map<string, NftTable>();
  for (const [k, t] of s.tables) tables.set(k, draftTable(t));
  return { tables, lastTableHandle: s.lastTableHandle };
}

function ownChain(table: NftTable, chain: NftChain): NftChain {
  if (owned.has(chain)) return chain;
  const c = { ...chain, rules: [...chain.rules] };
  owned.add(c);
  table.chains.set(c.name, c);
  return c;
}

function ownSet(table: NftTable, set: NftSet): NftSet {
  if (owned.has(set)) return set;
  const c = { ...set, elements: new Map(set.elements) };
  owned.add(c);
  table.sets.set(c.name, c);
  return c;
}

/** `{ type filter hook prerouting priority -110 ; comment "…" ; }` → its clauses. */
function readSpec(tokens: readonly string[]): Map<string, string[]> {
  const spec = new Map<string, string[]>();
  if (tokens[0] !== '{') return spec;
  let current: string[] = [];
  for (const tok of tokens.slice(1)) {
    if (tok === ';' || tok === '}') {
      if (current.length > 0) spec.set(current[0]!, current.slice(1));
      current = [];
      continue;
    }
    current.push(tok);
  }
  return spec;
}

function readElements(tokens: readonly string[]): NftElement[] {
  // `{ K . K [comment "C"] [: VERDICT] , … }`
  const out: NftElement[] = [];
  let key: string[] = [];
  let comment: string | undefined;
  let verdict: NftVerdict | undefined;
  let i = tokens[0] === '{' ? 1 : 0;
  const flush = () => {
    if (key.length === 0) return;
    out.push({
      key,
      ...(verdict !== undefined ? { verdict } : {}),
      ...(comment !== undefined ? { comment } : {}),
    });
    key = [];
    comment = undefined;
    verdict = undefined;
  };
  for (; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok === '}' || tok === ',') {
      flush();
      continue;
    }
    if (tok === '.') continue;
    if (tok === 'comment') {
      comment = unquote(tokens[++i] ?? '');
      continue;
    }
    if (tok === ':') {
      const v = tokens[++i] ?? '';
      verdict =
        v === 'jump' || v === 'goto'
          ? { kind: v, chain: tokens[++i] ?? '' }
          : { kind: v as 'accept' | 'drop' | 'return' | 'continue' };
      continue;
    }
    key.push(tok);
  }
  flush();
  return out;
}

function elementKey(key: readonly string[]): string {
  return key.join(' . ');
}

/** Applies one command to `state`. */
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

function chainCommand(table: NftTable, verb: string, name: string, rest: string[]): void {
  const chain = table.chains.get(name);
  if (verb === 'add') {
    const spec = readSpec(rest);
    const type = spec.get('type');
    const comment = spec.get('comment');
    if (chain !== undefined) return; // NLM_F_EXCL is not set by `add`: an existing chain stays
    table.chains.set(name, {
      name,
      handle: ++table.lastHandle,
      ...(type !== undefined
        ? {
            base: {
              type: type[0] as NftChainType,
              hook: type[2] as NftHook,
              priority: Number(type[4]),
              policy: 'accept',
            },
          }
        : {}),
      ...(comment !== undefined ? { comment: unquote(comment[0] ?? '') } : {}),
      rules: [],
    });
    return;
  }
  // nft leaves a chain it does not know to the kernel: "Could not process rule".
  if (chain === undefined) throw new CommandError(KERNEL_ENOENT, name);
  if (verb === 'flush') {
    ownChain(table, chain).rules = [];
    return;
  }
  if (verb === 'delete') {
    // nf_tables_delchain deletes the chain's own rules; a chain still jumped to is busy.
    if (chainReferenced(table, name)) throw new CommandError(EBUSY, name);
    table.chains.delete(name);
    return;
  }
  throw new CommandError('syntax error', verb);
}

/** A chain still jumped to by a rule or a map element cannot be deleted (EBUSY). */
function chainReferenced(table: NftTable, name: string): boolean {
  const hit = (v: NftVerdict | undefined) =>
    v !== undefined && (v.kind === 'jump' || v.kind === 'goto') && v.chain === name;
  for (const c of table.chains.values())
    for (const r of c.rules)
      for (const s of r.stmts) {
        if (s.k === 'verdict' && hit(s.verdict)) return true;
        if (s.k === 'numgen-vmap' && s.entries.some((e) => hit(e.verdict))) return true;
      }
  for (const s of table.sets.values())
    for (const e of s.elements.values()) if (hit(e.verdict)) return true;
  return false;
}

function checkReferences(table: NftTable, stmts: ReturnType<typeof parseRule>['stmts']): void {
  const chain = (v: NftVerdict) => {
    if ((v.kind === 'jump' || v.kind === 'goto') && !table.chains.has(v.chain))
      throw new CommandError(KERNEL_ENOENT, v.chain);
  };
  for (const s of stmts) {
    if (
      (s.k === 'lookup' || s.k === 'update' || s.k === 'vmap') &&
      !table.sets.has(s.k === 'vmap' ? s.map : s.set)
    )
      throw new CommandError(ENOENT, `@${s.k === 'vmap' ? s.map : s.set}`);
    if (s.k === 'verdict') chain(s.verdict);
    if (s.k === 'numgen-vmap') s.entries.forEach((e) => chain(e.verdict));
  }
}

function ruleCommand(table: NftTable, verb: string, chainName: string, line: string): void {
  if (verb !== 'add') throw new CommandError('syntax error', verb);
  const found = table.chains.get(chainName);
  if (found === undefined) throw new CommandError(KERNEL_ENOENT, chainName);
  const chain = ownChain(table, found);
  // The rule text is everything after `add rule ip TABLE CHAIN `.
  const at =
    line.indexOf(chainName, line.indexOf(table.name) + table.name.length) + chainName.length;
  let parsed;
  try {
    parsed = parseRule(line.slice(at));
  } catch (e) {
    if (e instanceof RuleSyntaxError) throw new CommandError('syntax error', e.message);
    throw e;
  }
  checkReferences(table, parsed.stmts);
  table.lastHandle += anonymousSets(parsed.stmts);
  chain.rules.push({
    handle: ++table.lastHandle,
    stmts: parsed.stmts,
    ...(parsed.comment !== undefined ? { comment: parsed.comment } : {}),
  });
}

/** `10800s`, `3h`, `1d2h` → ms. */
function parseDuration(text: string): number {
  let ms = 0;
  for (const m of text.matchAll(/(\d+)(ms|d|h|m|s)/g)) {
    const n = Number(m[1]);
    ms += n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms'];
  }
  return ms;
}

function setCommand(
  table: NftTable,
  verb: string,
  kind: 'set' | 'map',
  name: string,
  rest: string[],
): void {
  const set = table.sets.get(name);
  if (verb === 'add') {
    if (set !== undefined) return;
    const spec = readSpec(rest);
    const type = spec.get('type') ?? [];
    const colon = type.indexOf(':');
    const keyType = (colon < 0 ? type : type.slice(0, colon)).filter(
      (t) => t !== '.',
    ) as NftDataType[];
    const flags = spec.get('flags')?.join('').split(',') ?? [];
    const timeout = spec.get('timeout');
    const comment = spec.get('comment');
    table.sets.set(name, {
      name,
      handle: ++table.lastHandle,
      kind,
      keyType,
      flags,
      ...(timeout !== undefined ? { timeoutMs: parseDuration(timeout[0] ?? '') } : {}),
      ...(comment !== undefined ? { comment: unquote(comment[0] ?? '') } : {}),
      elements: new Map(),
    });
    return;
  }
  // flush is checked against nft's cache, delete by the kernel.
  if (set === undefined || set.kind !== kind)
    throw new CommandError(verb === 'delete' ? KERNEL_ENOENT : ENOENT, name);
  if (verb === 'flush') ownSet(table, set).elements = new Map();
  else if (verb === 'delete') {
    if (setReferenced(table, name)) throw new CommandError(EBUSY, name);
    table.sets.delete(name);
  } else throw new CommandError('syntax error', verb);
}

function setReferenced(table: NftTable, name: string): boolean {
  for (const c of table.chains.values())
    for (const r of c.rules)
      for (const s of r.stmts)
        if ((s.k === 'lookup' || s.k === 'update') && s.set === name) return true;
        else if (s.k === 'vmap' && s.map === name) return true;
  return false;
}

function elementCommand(
  table: NftTable,
  verb: string,
  name: string,
  rest: string[],
  nowMs: number,
): void {
  const found = table.sets.get(name);
  if (found === undefined) throw new CommandError(ENOENT, name);
  const set = ownSet(table, found);
  for (const e of readElements(rest)) {
    const k = elementKey(e.key);
    if (verb === 'add') {
      if (e.verdict?.kind === 'jump' || e.verdict?.kind === 'goto') {
        if (!table.chains.has(e.verdict.chain)) throw new CommandError(ENOENT, e.verdict.chain);
      }
      const old = set.elements.get(k);
      if (old !== undefined) {
        // An existing key with another value: EEXIST (nft_setelem_insert without NLM_F_EXCL
        // accepts only an identical element).
        if (JSON.stringify(old.verdict) !== JSON.stringify(e.verdict))
          throw new CommandError(EEXIST, k);
        continue;
      }
      set.elements.set(
        k,
        set.timeoutMs !== undefined ? { ...e, expiresAt: nowMs + set.timeoutMs } : e,
      );
    } else if (verb === 'delete') {
      if (!set.elements.delete(k)) throw new CommandError(KERNEL_ENOENT, k);
    } else throw new CommandError('syntax error', verb);
  }
}

/** `nft -f FILE`: the whole text or nothing. */
export function nftApply(
  state: NftState,
  text: string,
  opts: { nowMs: number; file?: string },
): NftRunResult {
  const file = opts.file ?? '/dev/stdin';
  owned = new WeakSet();
  const draft = draftState(state);
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
  return { stdout: '', stderr: '', exitCode: 0 };
}

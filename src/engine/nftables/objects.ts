/**
 * The commands of an `nft -f` transaction on chains, rules, sets, maps and elements, as the
 * kernel (nf_tables_api.c) and nft's own checks treat them: `add` of an existing object is a
 * no-op, a rule's `@set` must exist when nft reads it, `delete chain` takes the chain's rules
 * along but fails while something jumps to it, an element may be re-added only with the same
 * value. Handles come from the table's one counter (anonymous sets take one too).
 */
import { CommandError, EBUSY, EEXIST, ENOENT, KERNEL_ENOENT, ownChain, ownSet } from './draft';
import { anonymousSets, parseRule, RuleSyntaxError, unquote } from './rule-text';
import type { NftChainType, NftDataType, NftElement, NftHook, NftTable, NftVerdict } from './types';

/** `{ type filter hook prerouting priority -110 ; comment "…" ; }` → its clauses. */
export function readSpec(tokens: readonly string[]): Map<string, string[]> {
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

export function chainCommand(table: NftTable, verb: string, name: string, rest: string[]): void {
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

export function ruleCommand(table: NftTable, verb: string, chainName: string, line: string): void {
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

export function setCommand(
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

export function elementCommand(
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

/**
 * The table operations behind `iptables` and `iptables-restore`, with the nf_tables backend's
 * checks in the order nft.c nft_prepare() and the kernel apply them:
 *
 * 1. a jump to a chain that does not exist: "Chain 'X' does not exist" (a parameter problem);
 * 2. the nft layer's errno failures (nft_strerror()): unknown chain, bad index, no such rule;
 * 3. what the kernel refuses when the batch is committed (reported via `kernel`): a chain
 *    still in use or not empty (EBUSY), a target in a table/hook it does not support (EINVAL).
 *
 * Operations mutate `work.table`; a table that does not exist is created only by operations
 * that write to it (nft_xt_builtin_init()), exactly like iptables-nft.
 */
import { EBUSY, EINVAL, ENOENT_MSG, XtError } from './errors';
import { chainReferences, chainsForListing, findChain, freshTable, zeroCounters } from './state';
import { isBuiltinChain } from './tables';
import type { Chain, Counters, Rule, Table, TableName } from './types';

export interface Work {
  readonly name: TableName;
  table: Table | undefined;
  /** Called with each error the kernel would report at commit; the operation still applies. */
  readonly kernel: (e: XtError) => void;
  /** With -v, -F/-Z/-X print "Flushing chain `X'" etc. on stdout. */
  readonly verbose?: (line: string) => void;
}

/** Chains a verbose -F/-Z/-X without a chain name walks: sorted like a listing. */
function verboseWalk(work: Work, chain: string | undefined, what: string, users = false): void {
  if (work.verbose === undefined || work.table === undefined) return;
  const names =
    chain !== undefined
      ? [chain]
      : chainsForListing(work.table)
          .filter((c) => !users || !c.builtin)
          .map((c) => c.name);
  for (const n of names) work.verbose(`${what} chain \`${n}'\n`);
}

function table(work: Work): Table {
  if (work.table === undefined) work.table = freshTable(work.name);
  return work.table;
}

/** The chain for a rule operation; ENOENT when absent (a built-in chain creates the table). */
function ruleChain(work: Work, chain: string, enoentMsg = ENOENT_MSG): Chain {
  const existing = work.table === undefined ? undefined : findChain(work.table, chain);
  if (existing !== undefined) return existing;
  if (isBuiltinChain(work.name, chain)) {
    const c = findChain(table(work), chain);
    if (c !== undefined) return c;
  }
  throw XtError.errno(enoentMsg);
}

/** assert_chain_exists(): a rule's jump target must exist (built-in names always do). */
function assertJumpTarget(work: Work, rule: Rule): void {
  if (rule.target.kind !== 'jump') return;
  const name = rule.target.chain;
  if (isBuiltinChain(work.name, name)) return;
  if (work.table !== undefined && findChain(work.table, name) !== undefined) return;
  throw XtError.param(`Chain '${name}' does not exist`);
}

const NAT_HOOKS: Readonly<Record<string, readonly string[]>> = {
  DNAT: ['PREROUTING', 'OUTPUT'],
  SNAT: ['POSTROUTING', 'INPUT'],
  MASQUERADE: ['POSTROUTING'],
};

/** Kernel checkentry() outcomes the lab models; undefined when the rule is accepted. */
export function kernelRejects(tableName: TableName, chain: string, rule: Rule): string | undefined {
  const builtin = isBuiltinChain(tableName, chain);
  // An inverted 0.0.0.0/0 becomes a zero-length payload compare, which nf_tables refuses.
  if ((rule.src?.invert && rule.src.prefix === 0) || (rule.dst?.invert && rule.dst.prefix === 0))
    return EINVAL;
  const t = rule.target;
  const proto = rule.protocol?.invert ? -1 : (rule.protocol?.num ?? 0);
  if (t.kind === 'DNAT' || t.kind === 'SNAT' || t.kind === 'MASQUERADE') {
    if (tableName !== 'nat') return EINVAL;
    if (builtin && !(NAT_HOOKS[t.kind] ?? []).includes(chain)) return EINVAL;
  }
  if (t.kind === 'REJECT') {
    // ipt_REJECT: filter table, LOCAL_IN/FORWARD/LOCAL_OUT; tcp-reset only for -p tcp.
    if (tableName !== 'filter') return EINVAL;
    if (builtin && !['INPUT', 'FORWARD', 'OUTPUT'].includes(chain)) return EINVAL;
    if (t.with === 'tcp-reset' && proto !== 6) return EINVAL;
  }
  for (const m of rule.matches) {
    // xt_tcpudp/xt_sctp checkentry: the rule must be `-p <that protocol>`.
    if (m.name === 'tcp' && proto !== 6) return EINVAL;
    if (m.name === 'udp' && proto !== 17) return EINVAL;
    if (m.name === 'sctp' && proto !== 132) return EINVAL;
    if (m.name === 'addrtype' && builtin) {
      if (m.limitIfaceIn && !['PREROUTING', 'INPUT', 'FORWARD'].includes(chain)) return EINVAL;
      if (m.limitIfaceOut && !['OUTPUT', 'POSTROUTING', 'FORWARD'].includes(chain)) return EINVAL;
    }
  }
  return undefined;
}

function checkKernel(work: Work, op: string, chain: string, rule: Rule): void {
  const err = kernelRejects(work.name, chain, rule);
  if (err !== undefined) work.kernel(XtError.kernel(op, err, `rule in chain ${chain}`));
}

export function ruleAppend(work: Work, chain: string, rule: Rule): void {
  assertJumpTarget(work, rule);
  const c = ruleChain(work, chain);
  c.rules.push(rule);
  checkKernel(work, 'RULE_APPEND', chain, rule);
}

export function ruleInsert(work: Work, chain: string, rule: Rule, num: number): void {
  assertJumpTarget(work, rule);
  const c = ruleChain(work, chain);
  if (num - 1 > c.rules.length) throw XtError.errno('Index of insertion too big');
  c.rules.splice(num - 1, 0, rule);
  checkKernel(work, 'RULE_INSERT', chain, rule);
}

export function ruleReplace(work: Work, chain: string, rule: Rule, num: number): void {
  assertJumpTarget(work, rule);
  const c = ruleChain(work, chain);
  if (num > c.rules.length) throw XtError.errno('Index of replacement too big');
  c.rules[num - 1] = rule;
  checkKernel(work, 'RULE_REPLACE', chain, rule);
}

/** Rules are equal when everything but the counters is (nft_rule_cmp()). */
export function sameRule(a: Rule, b: Rule): boolean {
  return JSON.stringify({ ...a, counters: null }) === JSON.stringify({ ...b, counters: null });
}

/** -D/-C with a rule: the first equal rule; "Bad rule" when there is none or no chain. */
export function ruleFind(work: Work, chain: string, rule: Rule): { chain: Chain; index: number } {
  assertJumpTarget(work, rule);
  const BAD = 'Bad rule (does a matching rule exist in that chain?)';
  const c = work.table === undefined ? undefined : findChain(work.table, chain);
  const index = c === undefined ? -1 : c.rules.findIndex((r) => sameRule(r, rule));
  if (c === undefined || index < 0) throw XtError.errno(BAD);
  return { chain: c, index };
}

export function ruleDelete(work: Work, chain: string, rule: Rule): void {
  const { chain: c, index } = ruleFind(work, chain, rule);
  c.rules.splice(index, 1);
}

export function ruleDeleteNum(work: Work, chain: string, num: number): void {
  const c = work.table === undefined ? undefined : findChain(work.table, chain);
  if (c === undefined) throw XtError.errno(ENOENT_MSG);
  if (num > c.rules.length) throw XtError.errno('Index of deletion too big');
  c.rules.splice(num - 1, 1);
}

/** -F [chain]: flushing an absent table is a no-op; an absent chain is ENOENT. */
export function chainFlush(work: Work, chain: string | undefined): void {
  if (chain === undefined || findChain(work.table ?? { name: work.name, chains: [] }, chain)) {
    verboseWalk(work, chain, 'Flushing');
  }
  if (chain === undefined) {
    for (const c of work.table?.chains ?? []) c.rules = [];
    return;
  }
  const c = work.table === undefined ? undefined : findChain(work.table, chain);
  if (c === undefined) {
    if (isBuiltinChain(work.name, chain)) return;
    throw XtError.errno(ENOENT_MSG);
  }
  c.rules = [];
}

/** -Z [chain [num]]: a rule number past the end is silently accepted by iptables-nft. */
export function chainZero(work: Work, chain: string | undefined, num = 0): void {
  if (work.table === undefined) {
    if (chain !== undefined && !isBuiltinChain(work.name, chain)) throw XtError.errno(ENOENT_MSG);
    return;
  }
  if (chain !== undefined && findChain(work.table, chain) === undefined) {
    if (isBuiltinChain(work.name, chain)) return;
    throw XtError.errno(ENOENT_MSG);
  }
  if (num === 0) verboseWalk(work, chain, 'Zeroing');
  if (num > 0 && chain !== undefined) {
    const rule = findChain(work.table, chain)?.rules[num - 1];
    if (rule !== undefined) rule.counters.packets = rule.counters.bytes = 0;
    return;
  }
  zeroCounters(work.table, chain);
}

export function chainNew(work: Work, name: string): void {
  if (isBuiltinChain(work.name, name) || (work.table && findChain(work.table, name))) {
    throw XtError.errno('Chain already exists');
  }
  table(work).chains.push({ name, builtin: false, counters: { packets: 0, bytes: 0 }, rules: [] });
}

/** `:NAME - [p:b]` in restore: create the user chain, or flush it when it exists. */
export function chainRestore(work: Work, name: string): void {
  const c = work.table === undefined ? undefined : findChain(work.table, name);
  if (c === undefined) chainNew(work, name);
  else c.rules = [];
}

/**
 * -X [chain]. nf_tables refuses (EBUSY, at commit) to delete a chain that still has rules or
 * is still jumped to, and a built-in chain named explicitly. Without a name every user chain
 * is deleted in creation order, and the first one still in use fails the whole batch.
 */
export function chainDelete(work: Work, name: string | undefined): void {
  const t = work.table;
  if (name !== undefined) {
    const c = t === undefined ? undefined : findChain(t, name);
    if (c === undefined) {
      if (isBuiltinChain(work.name, name))
        work.kernel(XtError.kernel('CHAIN_DEL', EBUSY, `chain ${name}`));
      else throw XtError.errno(ENOENT_MSG);
      return;
    }
    verboseWalk(work, name, 'Deleting');
    deleteOne(work, c);
    return;
  }
  verboseWalk(work, undefined, 'Deleting', true);
  for (const c of (t?.chains ?? []).filter((x) => !x.builtin)) deleteOne(work, c);
}

function deleteOne(work: Work, c: Chain): void {
  const t = table(work);
  if (c.builtin || c.rules.length > 0 || chainReferences(t, c.name) > 0) {
    work.kernel(XtError.kernel('CHAIN_DEL', EBUSY, `chain ${c.name}`));
  }
  if (!c.builtin) t.chains = t.chains.filter((x) => x !== c);
}

export function chainRename(work: Work, from: string, to: string): void {
  const t = work.table;
  const c = t === undefined ? undefined : findChain(t, from);
  if (t === undefined || c === undefined || c.builtin) throw XtError.errno(ENOENT_MSG);
  if (findChain(t, to) !== undefined || isBuiltinChain(work.name, to))
    throw XtError.errno('File exists');
  t.chains = t.chains.map((x) => (x === c ? { ...x, name: to } : x));
  for (const x of t.chains) {
    x.rules = x.rules.map((r) =>
      r.target.kind === 'jump' && r.target.chain === from
        ? { ...r, target: { ...r.target, chain: to } }
        : r,
    );
  }
}

/**
 * -P / `:CHAIN POLICY [p:b]`: only built-in chains; ACCEPT or DROP. Restore always sets the
 * policy counters (to 0:0 without --counters); `iptables -P` leaves them.
 */
export function policySet(work: Work, chain: string, policy: string, counters?: Counters): void {
  if (!isBuiltinChain(work.name, chain)) throw XtError.errno('Bad built-in chain name');
  if (policy !== 'ACCEPT' && policy !== 'DROP') throw XtError.errno('Bad policy name');
  const c = findChain(table(work), chain);
  if (c === undefined) return;
  c.policy = policy;
  if (counters !== undefined) c.counters = { ...counters };
}

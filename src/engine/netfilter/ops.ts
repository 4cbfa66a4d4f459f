/**
 * The table operations behind `iptables` and `iptables-restore`, with the nf_tables backend's
 * checks in the order nft.c nft_prepare() and the kernel apply them:
 *
 * 1. a jump to a chain that does not exist: "Chain 'X' does not exist" (a parameter problem);
 * 2. the nft layer's errno failures (nft_strerror()): unknown chain, bad index, no such rule;
 * 3. what the kernel refuses when the batch is committed (reported via `kernel`): a chain
 *    still in use or not empty (EBUSY), a target in a table/hook it does not support (EINVAL).
 *
 * Operations change `work.table`, a copy-on-write draft of the committed table (a chain is
 * copied when first changed: take it from edit(), never from get()); a table that does not
 * exist is created only by operations that write to it (nft_xt_builtin_init()), exactly
 * like iptables-nft.
 */
import type { TableDraft } from './draft';
import { EBUSY, EINVAL, ENOENT_MSG, XtError } from './errors';
import { isBuiltinChain } from './tables';
import { verboseRule } from './rule-render';
import type { Chain, Counters, Rule, TableName } from './types';

export interface Work {
  readonly name: TableName;
  /** The table being changed (copy-on-write over the committed one). */
  readonly table: TableDraft;
  /** Called with each error the kernel would report at commit; the operation still applies. */
  readonly kernel: (e: XtError) => void;
  /** With -v, -F/-Z/-X print "Flushing chain `X'" etc. on stdout. */
  readonly verbose?: (line: string) => void;
  /** The network namespace's nfacct objects, when a rule's must exist (NetnsObjects.nfacct). */
  readonly nfacct?: (name: string) => boolean;
}

/** Chains a verbose -F/-Z/-X without a chain name walks: sorted like a listing. */
function verboseWalk(work: Work, chain: string | undefined, what: string, users = false): void {
  if (work.verbose === undefined || !work.table.present) return;
  let names = [chain ?? ''];
  if (chain === undefined) {
    const all = work.table.chains();
    names = [
      ...(users ? [] : all.filter((c) => c.builtin).map((c) => c.name)),
      ...all
        .filter((c) => !c.builtin)
        .map((c) => c.name)
        .sort(),
    ];
  }
  for (const n of names) work.verbose(`${what} chain \`${n}'\n`);
}

/** The chain for a rule operation; ENOENT when absent (a built-in chain creates the table). */
function ruleChain(work: Work, chain: string, enoentMsg = ENOENT_MSG): Chain {
  const existing = work.table.edit(chain);
  if (existing !== undefined) {
    if (existing.builtin) work.table.usesBase(chain);
    return existing;
  }
  if (isBuiltinChain(work.name, chain)) {
    work.table.ensure();
    const c = work.table.edit(chain);
    if (c !== undefined) {
      work.table.usesBase(chain);
      return c;
    }
  }
  throw XtError.errno(enoentMsg);
}

/** assert_chain_exists(): a rule's jump target must exist (built-in names always do). */
function assertJumpTarget(work: Work, rule: Rule): void {
  if (rule.target.kind !== 'jump') return;
  const name = rule.target.chain;
  if (isBuiltinChain(work.name, name)) return;
  if (work.table.get(name) !== undefined) return;
  throw XtError.param(`Chain '${name}' does not exist`);
}

const NAT_HOOKS: Readonly<Record<string, readonly string[]>> = {
  DNAT: ['PREROUTING', 'OUTPUT'],
  SNAT: ['POSTROUTING', 'INPUT'],
  MASQUERADE: ['POSTROUTING'],
  REDIRECT: ['PREROUTING', 'OUTPUT'],
};

/** Kernel checkentry() outcomes the lab models; undefined when the rule is accepted. */
export function kernelRejects(tableName: TableName, chain: string, rule: Rule): string | undefined {
  // An inverted 0.0.0.0/0 becomes a zero-length payload compare, which nf_tables refuses.
  if ((rule.src?.invert && rule.src.prefix === 0) || (rule.dst?.invert && rule.dst.prefix === 0))
    return EINVAL;
  const t = rule.target;
  const proto = rule.protocol?.invert ? -1 : (rule.protocol?.num ?? 0);
  if (t.kind === 'DNAT' || t.kind === 'SNAT' || t.kind === 'MASQUERADE' || t.kind === 'REDIRECT') {
    if (tableName !== 'nat') return EINVAL;
    if (isBuiltinChain(tableName, chain) && !(NAT_HOOKS[t.kind] ?? []).includes(chain))
      return EINVAL;
  }
  if (t.kind === 'REJECT') {
    // ipt_REJECT: filter table, LOCAL_IN/FORWARD/LOCAL_OUT; tcp-reset only for -p tcp.
    if (tableName !== 'filter') return EINVAL;
    if (isBuiltinChain(tableName, chain) && !['INPUT', 'FORWARD', 'OUTPUT'].includes(chain))
      return EINVAL;
    if (t.with === 'tcp-reset' && proto !== 6) return EINVAL;
  }
  // xt_CT: the raw table only.
  if ((t.kind === 'NOTRACK' || t.kind === 'CT') && tableName !== 'raw') return EINVAL;
  for (const m of rule.matches) {
    // xt_tcpudp/xt_sctp checkentry: the rule must be `-p <that protocol>`.
    if (m.name === 'tcp' && proto !== 6) return EINVAL;
    if (m.name === 'udp' && proto !== 17) return EINVAL;
    if (m.name === 'sctp' && proto !== 132) return EINVAL;
    // xt_icmp: `.proto = IPPROTO_ICMP`, so only under `-p icmp`.
    if (m.name === 'icmp' && proto !== 1) return EINVAL;
    if (m.name === 'addrtype' && isBuiltinChain(tableName, chain)) {
      if (m.limitIfaceIn && !['PREROUTING', 'INPUT', 'FORWARD'].includes(chain)) return EINVAL;
      if (m.limitIfaceOut && !['OUTPUT', 'POSTROUTING', 'FORWARD'].includes(chain)) return EINVAL;
    }
  }
  return undefined;
}

function checkKernel(work: Work, op: string, chain: string, rule: Rule): void {
  const err =
    nfacctRejects(work, rule) ?? jumpRejects(work, rule) ?? kernelRejects(work.name, chain, rule);
  if (err !== undefined) work.kernel(XtError.kernel(op, err, `rule in chain ${chain}`));
}

/**
 * `-m nfacct --nfacct-name X` without an object X: xt_nfacct's checkentry
 * (nfnl_acct_find_get() finds none) fails with ENOENT. Seen on the kernel: `RULE_APPEND failed
 * (No such file or directory)`.
 */
function nfacctRejects(work: Work, rule: Rule): string | undefined {
  const exists = work.nfacct;
  if (exists === undefined) return undefined;
  for (const m of rule.matches) {
    if (m.name === 'nfacct' && !exists(m.objectName)) return 'No such file or directory';
  }
  return undefined;
}

/**
 * A jump or goto to a built-in chain (nf_tables_api.c nft_verdict_init()): nf_tables looks the
 * chain up, and refuses a base chain (EOPNOTSUPP); iptables-nft creates a base chain only once
 * a rule or a policy needs it, so one not created yet is not found at all (ENOENT). Seen on the
 * kernel: `-A FORWARD -j INPUT` in a fresh table is ENOENT, `-A FORWARD -j FORWARD` EOPNOTSUPP.
 */
function jumpRejects(work: Work, rule: Rule): string | undefined {
  const t = rule.target;
  if (t.kind !== 'jump' || !isBuiltinChain(work.name, t.chain)) return undefined;
  return work.table.nftHasChain(t.chain) ? 'Operation not supported' : 'No such file or directory';
}

/** -A; `own` gives the rule that goes into the table (see executeCommand). */
export function ruleAppend(
  work: Work,
  chain: string,
  rule: Rule,
  own: (r: Rule) => Rule = (r) => r,
): void {
  // A chain rewritten with the rules it had (kube-proxy's KUBE-SERVICES on every sync): a
  // rule parsed like the one that was there passed these checks already, and when the
  // counters agree too, that very rule can stay.
  if (work.table.refill(chain, rule)) return void work.verbose?.(verboseRule(rule));
  const c = work.table.edit(chain);
  const old = c === undefined ? undefined : work.table.repeatsBase(c, c.rules.length, rule);
  if (c !== undefined && old !== undefined) {
    const same =
      old.counters.packets === rule.counters.packets && old.counters.bytes === rule.counters.bytes;
    work.table.appendRule(c, same ? old : own(rule));
    return void work.verbose?.(verboseRule(rule));
  }
  const r = own(rule);
  assertJumpTarget(work, r);
  // `-v` prints the rule as it is queued, before the kernel says whether the chain exists.
  work.verbose?.(verboseRule(r));
  work.table.appendRule(ruleChain(work, chain), r);
  checkKernel(work, 'RULE_APPEND', chain, r);
}

export function ruleInsert(work: Work, chain: string, rule: Rule, num: number): void {
  assertJumpTarget(work, rule);
  const c = ruleChain(work, chain);
  if (num - 1 > c.rules.length) throw XtError.errno('Index of insertion too big');
  work.verbose?.(verboseRule(rule));
  work.table.insertRule(c, num - 1, rule);
  checkKernel(work, 'RULE_INSERT', chain, rule);
}

export function ruleReplace(work: Work, chain: string, rule: Rule, num: number): void {
  assertJumpTarget(work, rule);
  const c = ruleChain(work, chain);
  if (num > c.rules.length) throw XtError.errno('Index of replacement too big');
  work.verbose?.(verboseRule(rule));
  work.table.replaceRule(c, num - 1, rule);
  checkKernel(work, 'RULE_REPLACE', chain, rule);
}

/** Rules are equal when everything but the counters is (nft_rule_cmp()). */
export function sameRule(a: Rule, b: Rule): boolean {
  // The nf_tables handle is not part of the rule either (undefined: JSON leaves it out).
  const plain = (r: Rule): unknown => ({ ...r, counters: null, nftHandle: undefined });
  return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
}

/** -D/-C with a rule: the index of the first equal rule; "Bad rule" when there is none or no chain. */
export function ruleFind(work: Work, chain: string, rule: Rule): number {
  assertJumpTarget(work, rule);
  const BAD = 'Bad rule (does a matching rule exist in that chain?)';
  const c = work.table.get(chain);
  const index = c === undefined ? -1 : c.rules.findIndex((r) => sameRule(r, rule));
  if (c === undefined || index < 0) throw XtError.errno(BAD);
  // nft_rule_check() / nft_rule_delete() print the rule they found.
  work.verbose?.(verboseRule(c.rules[index] as Rule));
  return index;
}

export function ruleDelete(work: Work, chain: string, rule: Rule): void {
  const index = ruleFind(work, chain, rule);
  const c = work.table.edit(chain);
  if (c !== undefined) work.table.deleteRule(c, index);
}

export function ruleDeleteNum(work: Work, chain: string, num: number): void {
  const c = work.table.get(chain);
  if (c === undefined) throw XtError.errno(ENOENT_MSG);
  if (num > c.rules.length) throw XtError.errno('Index of deletion too big');
  const own = work.table.edit(chain);
  if (own !== undefined) work.table.deleteRule(own, num - 1);
}

/** -F [chain]: flushing an absent table is a no-op; an absent chain is ENOENT. */
export function chainFlush(work: Work, chain: string | undefined): void {
  if (chain === undefined || work.table.get(chain)) verboseWalk(work, chain, 'Flushing');
  if (chain === undefined) {
    for (const c of work.table.chains()) if (c.rules.length > 0) work.table.edit(c.name, true);
    return;
  }
  if (work.table.edit(chain, true) !== undefined) {
    // Flushing a base chain nf_tables does not have yet creates it (seen on the kernel).
    if (isBuiltinChain(work.name, chain)) work.table.usesBase(chain);
    return;
  }
  if (isBuiltinChain(work.name, chain)) return;
  throw XtError.errno(ENOENT_MSG);
}

function zeroChain(work: Work, name: string): void {
  const c = work.table.edit(name);
  if (c === undefined) return;
  c.counters = { packets: 0, bytes: 0 };
  c.rules = c.rules.map((r) => ({ ...r, counters: { packets: 0, bytes: 0 } }));
}

/**
 * -Z [chain [num]]: a rule number past the end is silently accepted by iptables-nft. A base
 * chain nf_tables does not have yet cannot be zeroed by name, but `-L CHAIN -Z` can.
 */
export function chainZero(work: Work, chain: string | undefined, num = 0, listed = false): void {
  if (chain !== undefined && isBuiltinChain(work.name, chain) && !work.table.nftHasChain(chain)) {
    // With -L the listing zeroes it, and that creates it (seen on the kernel).
    if (listed) work.table.usesBase(chain);
    else throw XtError.errno(num > 0 ? 'Bad rule (does a matching rule exist in that chain?)' : ENOENT_MSG); // prettier-ignore
  }
  if (!work.table.present) {
    if (chain !== undefined && !isBuiltinChain(work.name, chain)) throw XtError.errno(ENOENT_MSG);
    return;
  }
  if (chain !== undefined && work.table.get(chain) === undefined) {
    if (isBuiltinChain(work.name, chain)) return;
    throw XtError.errno(ENOENT_MSG);
  }
  if (num === 0) verboseWalk(work, chain, 'Zeroing');
  if (num > 0 && chain !== undefined) {
    const c = work.table.get(chain);
    const rule = c?.rules[num - 1];
    const own = rule === undefined ? undefined : work.table.edit(chain);
    if (rule !== undefined && own !== undefined)
      own.rules[num - 1] = { ...rule, counters: { packets: 0, bytes: 0 } };
    return;
  }
  if (chain !== undefined) zeroChain(work, chain);
  else for (const c of work.table.chains()) zeroChain(work, c.name);
}

export function chainNew(work: Work, name: string): void {
  if (isBuiltinChain(work.name, name) || work.table.get(name)) {
    throw XtError.errno('Chain already exists');
  }
  work.table.createUser(name);
}

/** `:NAME - [p:b]` in restore: create the user chain, or flush it when it exists. */
export function chainRestore(work: Work, name: string): void {
  if (!work.table.declare(name)) chainNew(work, name);
}

/**
 * -X [chain]. nf_tables refuses (EBUSY, at commit) to delete a chain that still has rules or
 * is still jumped to, and a built-in chain named explicitly. Without a name every user chain
 * is deleted in creation order, and the first one still in use fails the whole batch.
 */
export function chainDelete(work: Work, name: string | undefined): void {
  if (name !== undefined) {
    const c = work.table.get(name);
    if (c === undefined || c.builtin) {
      if (isBuiltinChain(work.name, name)) deleteBase(work, name, c);
      else throw XtError.errno(ENOENT_MSG);
      return;
    }
    verboseWalk(work, name, 'Deleting');
    deleteOne(work, c);
    return;
  }
  verboseWalk(work, undefined, 'Deleting', true);
  for (const c of work.table.chains().filter((x) => !x.builtin)) deleteOne(work, c);
}

/**
 * -X of a built-in chain, as iptables-nft 1.8.9 does it (seen on the kernel): a base chain
 * nf_tables does not have is not found; one whose policy is not ACCEPT is "not empty"; one
 * with rules the kernel refuses to delete (EBUSY); an empty one is deleted from nf_tables.
 */
function deleteBase(work: Work, name: string, c: Chain | undefined): void {
  if (c === undefined || !work.table.nftHasChain(name)) throw XtError.errno(ENOENT_MSG);
  if ((c.policy ?? 'ACCEPT') !== 'ACCEPT') throw XtError.errno('Directory not empty');
  if (c.rules.length > 0) work.kernel(XtError.kernel('CHAIN_DEL', EBUSY, `chain ${name}`));
  else work.table.dropBase(name);
}

function deleteOne(work: Work, c: Chain): void {
  if (c.builtin || c.rules.length > 0 || work.table.references(c.name) > 0) {
    work.kernel(XtError.kernel('CHAIN_DEL', EBUSY, `chain ${c.name}`));
  }
  if (!c.builtin) work.table.remove(c.name);
}

export function chainRename(work: Work, from: string, to: string): void {
  const t = work.table;
  const c = t.get(from);
  if (c === undefined || c.builtin) throw XtError.errno(ENOENT_MSG);
  if (t.get(to) !== undefined || isBuiltinChain(work.name, to)) throw XtError.errno('File exists');
  t.rename(from, to);
  for (const x of t.chains()) {
    if (!x.rules.some((r) => r.target.kind === 'jump' && r.target.chain === from)) continue;
    const own = t.edit(x.name);
    own?.rules.forEach((r, i) => {
      if (r.target.kind === 'jump' && r.target.chain === from)
        t.replaceRule(own, i, { ...r, target: { ...r.target, chain: to } }, true);
    });
  }
}

/**
 * -P / `:CHAIN POLICY [p:b]`: only built-in chains; ACCEPT or DROP. Either sets the policy
 * counters (restore: to [p:b] with --counters; else, and for `iptables -P`, to 0:0) and from
 * then on the chain counts what its policy decides (seen on the kernel).
 */
export function policySet(work: Work, chain: string, policy: string, counters?: Counters): void {
  if (!isBuiltinChain(work.name, chain)) throw XtError.errno('Bad built-in chain name');
  if (policy !== 'ACCEPT' && policy !== 'DROP') throw XtError.errno('Bad policy name');
  work.table.ensure();
  const c = work.table.edit(chain);
  if (c === undefined) return;
  work.table.usesBase(chain);
  c.policy = policy;
  c.counters = counters !== undefined ? { ...counters } : { packets: 0, bytes: 0 };
  c.countsPolicy = true;
}

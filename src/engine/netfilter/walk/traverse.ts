/**
 * One table at one hook, as ip_tables.c ipt_do_table() walks it (nf_tables' nft_do_chain() has
 * the same semantics for iptables-nft rulesets):
 *
 * - Start at the hook's built-in chain; rules in order. A rule whose conditions all match has
 *   its counters bumped (packets + skb->len) before its target runs — jumps included.
 * - A jump pushes the return point; a goto does not. RETURN (a RETURN rule, or falling off the
 *   end of a user chain) pops it; with nothing to pop the built-in chain's policy decides, and
 *   the policy counters count that packet.
 * - ACCEPT/DROP/REJECT end the table. DNAT/SNAT/MASQUERADE set up the NAT mapping and return
 *   NF_ACCEPT, so the nat table ends there too. MARK/CONNMARK/LOG and target-less rules continue.
 * - The jump stack holds 16 entries (NFT_JUMP_STACK_SIZE); deeper, the packet is dropped.
 *
 * Every packet of a bulk run walks some table, so the walk allocates little: its state is kept
 * from one walk to the next (walk-state.ts), steps and their outcomes are built only when
 * recorded, arrays only when used.
 */
import { describeMismatch } from './mismatch';
import type { Chain, NetfilterState, Table, TableName } from '../types';
import { builtinChain, jumpTarget } from './chain-index';
import { logLine } from './log';
import { ruleMismatch } from './matches';
import { DEP, rememberWalk, ruleDeps, type MemoOutcome } from './memo';
import { natRequest } from './nat';
import { candidateRules, MIN_RULES, nextCandidate } from './rule-index';
import { emptyWalk } from './traverse-empty';
import type {
  Hook,
  Packet,
  StepOutcome,
  TraverseOptions,
  TraverseResult,
  WalkContext,
} from './types';
import { giveBack, takeWalk, type Walk } from './walk-state';

export { emptyWalk, traverseEmpty, type EmptyWalk } from './traverse-empty';

/** NFT_JUMP_STACK_SIZE. */
export const JUMP_STACK_SIZE = 16;
/** Rule evaluations after which a walk is taken to be looping (the kernel refuses loops). */
const EVALUATION_BUDGET = 1_000_000;

const NOMATCH: StepOutcome = Object.freeze({ kind: 'nomatch' });
const CONTINUE: StepOutcome = Object.freeze({ kind: 'continue' });
const RETURN: StepOutcome = Object.freeze({ kind: 'return' });

/**
 * Walks `packet` through `table` at `hook`, bumping rule and policy counters in `state`.
 * A table that does not exist, or has no chain for the hook, accepts without steps.
 */
export function traverseTable(
  state: NetfilterState,
  table: TableName,
  hook: Hook,
  packet: Packet,
  ctx: WalkContext,
  opts: TraverseOptions = {},
): TraverseResult {
  const quick = emptyWalk(state, table, hook, packet.length, packet.mark, opts);
  if (quick !== undefined)
    return { verdict: quick.verdict, packet, logs: [], steps: [...quick.steps] };
  return traverseRules(state, table, hook, packet, ctx, opts);
}

/**
 * traverseTable of a table whose hook has rules (emptyWalk said undefined: the datapath asks
 * it first, before it builds a Packet, and need not have it asked again).
 */
export function traverseRules(
  state: NetfilterState,
  table: TableName,
  hook: Hook,
  packet: Packet,
  ctx: WalkContext,
  opts: TraverseOptions = {},
): TraverseResult {
  const w = takeWalk();
  try {
    return traverseWith(w, state, table, hook, packet, ctx, opts);
  } finally {
    giveBack(w);
  }
}

/** traverseRules on the given Walk state (walk-state.test.ts gives it a new one each time). */
export function traverseWith(
  w: Walk,
  state: NetfilterState,
  table: TableName,
  hook: Hook,
  packet: Packet,
  ctx: WalkContext,
  opts: TraverseOptions,
): TraverseResult {
  const record = opts.steps ?? 'all';
  const t = state.tables[table]!;
  // Only a walk that records no step can be replayed (a replay has no steps to show).
  const memo = opts.memo === true && record === 'none';
  w.reset(table, hook, builtinChain(t, hook)!, packet, ctx, record, memo);
  w.tableHandle = t.nft?.handle ?? 0;
  const r = walkRules(w, t, record !== 'all');
  if (memo && (w.deps & DEP.IMPURE) === 0) {
    const outcome: Mutable<MemoOutcome> = { verdict: r.verdict } as MemoOutcome;
    if (r.nat !== undefined) outcome.nat = r.nat;
    if (r.reject !== undefined) outcome.reject = r.reject;
    outcome.steps = r.steps;
    rememberWalk(t, hook, packet, ctx.conntrack, w.deps, w.counted, w.policyChain, outcome);
  }
  return r;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The rules from the walk's position on. `skipping`: rules that cannot match are skipped (the
 * trace does not show them; rule-index.ts).
 */
function walkRules(w: Walk, t: Table, skipping: boolean): TraverseResult {
  const mctx = w.mctx;
  const tracked = mctx.conntrack.state !== 'INVALID' && mctx.conntrack.state !== 'UNTRACKED';
  const rec = w.recording;
  const key = w.ruleKey;
  let indexedChain: Chain | undefined;
  let candidates: readonly number[] | undefined;

  for (let evaluations = 0; ; evaluations++) {
    if (evaluations > EVALUATION_BUDGET) {
      w.deps |= DEP.IMPURE;
      w.step('rule', w.i + 1, undefined, true, { kind: 'abort', reason: 'rule loop' });
      return w.finish('DROP');
    }
    const chain = w.chain;
    if (skipping) {
      if (indexedChain !== chain) {
        indexedChain = chain;
        // A short chain has no index (candidateRules says so): not asked, no lookup.
        candidates =
          chain.rules.length < MIN_RULES ? undefined : candidateRules(chain.rules, w.pkt.dst);
      }
      if (candidates !== undefined) {
        w.i = nextCandidate(candidates, w.i, chain.rules.length);
        // Which rules are skipped depends on the destination.
        w.deps |= DEP.DST;
      }
    }
    const i = w.i;
    const rule = chain.rules[i];
    if (rule === undefined) {
      // The chain's tail: an implicit RETURN in a user chain, the policy in a built-in one.
      if (chain.builtin) return w.policy();
      w.step('return', chain.rules.length + 1, undefined, true, RETURN);
      const done = w.doReturn();
      if (done !== undefined) return done;
      continue;
    }
    const num = i + 1;
    const failed = ruleMismatch(rule, w.pkt, mctx, key);
    if (w.memo) {
      w.deps |= ruleDeps(rule, failed);
      if (failed < 0) w.counted.push(rule);
    }
    if (failed >= 0) {
      if (rec && !w.matchedOnly)
        w.step('rule', num, rule, false, NOMATCH, describeMismatch(rule, failed, w.pkt, mctx));
      w.i = i + 1;
      continue;
    }
    rule.counters.packets += 1;
    rule.counters.bytes += w.pkt.length;
    const target = rule.target;
    switch (target.kind) {
      case 'none':
        w.step('rule', num, rule, true, CONTINUE);
        w.i = i + 1;
        break;
      case 'jump': {
        const next = jumpTarget(t, target);
        const kind = target.goto ? 'goto' : 'jump';
        if (!target.goto && w.depth >= JUMP_STACK_SIZE) {
          w.deps |= DEP.IMPURE;
          w.step('rule', num, rule, true, { kind: 'abort', reason: 'jump stack full' });
          return w.finish('DROP');
        }
        if (rec) w.step('rule', num, rule, true, { kind, chain: target.chain });
        if (!target.goto) w.push(chain, i + 1);
        // A jump to a chain that is gone (the kernel never lets that happen) returns at once.
        w.chain = next ?? { name: target.chain, builtin: false, counters: zero(), rules: [] };
        w.i = 0;
        break;
      }
      case 'RETURN': {
        w.step('rule', num, rule, true, RETURN);
        const done = w.doReturn();
        if (done !== undefined) return done;
        break;
      }
      case 'ACCEPT':
      case 'DROP':
        if (rec) w.step('rule', num, rule, true, { kind: 'verdict', verdict: target.kind });
        return w.finish(target.kind);
      case 'REJECT':
        // ipt_REJECT sends the ICMP error / TCP reset, then drops the packet.
        if (rec) w.step('rule', num, rule, true, { kind: 'verdict', verdict: 'REJECT' });
        return w.finish('REJECT', undefined, { with: target.with });
      case 'DNAT':
      case 'SNAT':
      case 'MASQUERADE':
      case 'REDIRECT': {
        const nat = natRequest(target.kind, target.range);
        if (rec) w.step('rule', num, rule, true, { kind: 'nat', nat });
        return w.finish('ACCEPT', nat);
      }
      case 'MARK':
        // xt_MARK revision 2 (mark_tg): new = (old & ~mask) ^ value.
        w.pkt = { ...w.pkt, mark: ((w.pkt.mark & ~target.mask) ^ target.value) >>> 0 };
        if (rec) w.step('rule', num, rule, true, { kind: 'mark', mark: w.pkt.mark });
        w.i = i + 1;
        break;
      case 'CONNMARK': {
        // connmark_tg_shift(): nothing without a conntrack.
        if (tracked) {
          const ct = w.ctmark ?? mctx.conntrack.mark ?? 0;
          if (target.mode === 'set') w.ctmark = ((ct & ~target.ctmask) ^ target.ctmark) >>> 0;
          else if (target.mode === 'save')
            w.ctmark = ((ct & ~target.ctmask) ^ (w.pkt.mark & target.nfmask)) >>> 0;
          else {
            const mark = ((w.pkt.mark & ~target.nfmask) ^ (ct & target.ctmask)) >>> 0;
            w.pkt = { ...w.pkt, mark };
          }
        }
        const ctmark = w.ctmark;
        if (rec)
          w.step(
            'rule',
            num,
            rule,
            true,
            ctmark !== undefined
              ? { kind: 'mark', mark: w.pkt.mark, ctmark }
              : { kind: 'mark', mark: w.pkt.mark },
          );
        w.i = i + 1;
        break;
      }
      case 'NOTRACK':
      case 'CT':
        // xt_ct_target(): the packet gets the untracked conntrack (unless it has one already:
        // the datapath checks), and the rule continues.
        if (target.kind === 'NOTRACK' || target.notrack) w.notrack = true;
        w.step('rule', num, rule, true, CONTINUE);
        w.i = i + 1;
        break;
      case 'TRACE':
        // `meta nftrace set 1`: the packet's later steps are traced. A side effect beyond the
        // verdict, so this walk is never replayed from the memo (walk-replay.ts).
        w.traced = true;
        w.deps |= DEP.IMPURE;
        w.step('rule', num, rule, true, CONTINUE);
        w.i = i + 1;
        break;
      case 'LOG': {
        const line = logLine(target.prefix, w.pkt);
        (w.logs ??= []).push(line);
        w.step('rule', num, rule, true, { kind: 'log', line });
        w.i = i + 1;
        break;
      }
    }
  }
}

function zero(): { packets: number; bytes: number } {
  return { packets: 0, bytes: 0 };
}

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
 */
import { ruleSpec } from '../rule-render';
import { isBuiltinChain } from '../tables';
import type { Chain, NetfilterState, Rule, TableName, Target } from '../types';
import { chainByName } from './chain-index';
import { logLine } from './log';
import { ruleMatches } from './matches';
import { natRequest } from './nat';
import { candidateRules, nextCandidate } from './rule-index';
import type {
  Hook,
  MatchContext,
  NatRequest,
  Packet,
  StepOutcome,
  TraceStep,
  TraverseOptions,
  TraverseResult,
  Verdict,
  WalkContext,
} from './types';

/** NFT_JUMP_STACK_SIZE. */
export const JUMP_STACK_SIZE = 16;
/** Rule evaluations after which a walk is taken to be looping (the kernel refuses loops). */
const EVALUATION_BUDGET = 1_000_000;

interface Frame {
  readonly chain: Chain;
  readonly next: number;
}

/** Ends a traversal: the verdict and what the terminal step adds to the result. */
interface End {
  readonly verdict: Verdict;
  readonly nat?: NatRequest;
  readonly reject?: TraverseResult['reject'];
}

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
  const quick = traverseEmpty(state, table, hook, packet, opts);
  if (quick !== undefined) return quick;
  const t = state.tables[table]!;
  const base = chainByName(t, hook)!;
  const mctx: MatchContext = { ...ctx, table, hook };
  const record = opts.steps ?? 'all';
  const steps: TraceStep[] = [];
  const logs: string[] = [];
  const tracked = ctx.conntrack.state !== 'INVALID' && ctx.conntrack.state !== 'UNTRACKED';
  let ctmark: number | undefined;
  let pkt = packet;
  const stack: Frame[] = [];
  let chain = base;
  let i = 0;
  // Rules that cannot match are skipped when the trace does not show them (rule-index.ts).
  const skipping = record !== 'all';
  let indexedChain: Chain | undefined;
  let candidates: readonly number[] | undefined;
  /** statistic's per-rule state key, for the rule at `i` (only asked for while evaluating it). */
  const key = (): string => nthKey(table, chain, chain.rules[i]!);

  const step = (
    type: TraceStep['type'],
    num: number,
    rule: Rule | undefined,
    matched: boolean,
    outcome: StepOutcome,
  ): void => {
    if (record === 'none' || (record === 'matched' && !matched)) return;
    steps.push({
      table,
      chain: chain.name,
      ruleNum: num,
      type,
      trace: `${table}:${chain.name}:${type}:${num}`,
      text: rule === undefined ? '' : `-A ${chain.name}${ruleSpec(rule)}`,
      matched,
      outcome,
      mark: pkt.mark,
      depth: stack.length,
    });
  };
  const finish = (end: End): TraverseResult => ({
    verdict: end.verdict,
    packet: pkt,
    ...(end.nat !== undefined ? { nat: end.nat } : {}),
    ...(end.reject !== undefined ? { reject: end.reject } : {}),
    ...(ctmark !== undefined ? { ctmark } : {}),
    logs,
    steps,
  });
  const policy = (): TraverseResult => {
    chain = base;
    const verdict = base.policy ?? 'ACCEPT';
    base.counters.packets += 1;
    base.counters.bytes += pkt.length;
    step('policy', base.rules.length + 1, undefined, true, { kind: 'policy', verdict });
    return finish({ verdict });
  };
  /** RETURN: back to the rule after the last jump, or the policy when there is none. */
  const doReturn = (): TraverseResult | undefined => {
    const frame = stack.pop();
    if (frame === undefined) return policy();
    chain = frame.chain;
    i = frame.next;
    return undefined;
  };

  for (let evaluations = 0; ; evaluations++) {
    if (evaluations > EVALUATION_BUDGET) {
      step('rule', i + 1, undefined, true, { kind: 'abort', reason: 'rule loop' });
      return finish({ verdict: 'DROP' });
    }
    if (skipping) {
      if (indexedChain !== chain) {
        indexedChain = chain;
        candidates = candidateRules(chain.rules, pkt.dst);
      }
      if (candidates !== undefined) i = nextCandidate(candidates, i, chain.rules.length);
    }
    const rule = chain.rules[i];
    if (rule === undefined) {
      // The chain's tail: an implicit RETURN in a user chain, the policy in a built-in one.
      if (chain.builtin) return policy();
      step('return', chain.rules.length + 1, undefined, true, { kind: 'return' });
      const done = doReturn();
      if (done !== undefined) return done;
      continue;
    }
    const num = i + 1;
    if (!ruleMatches(rule, pkt, mctx, key)) {
      step('rule', num, rule, false, { kind: 'nomatch' });
      i++;
      continue;
    }
    rule.counters.packets += 1;
    rule.counters.bytes += pkt.length;
    const target: Target = rule.target;
    switch (target.kind) {
      case 'none':
        step('rule', num, rule, true, { kind: 'continue' });
        i++;
        break;
      case 'jump': {
        const next = chainByName(t, target.chain);
        const kind = target.goto ? 'goto' : 'jump';
        if (!target.goto && stack.length >= JUMP_STACK_SIZE) {
          step('rule', num, rule, true, { kind: 'abort', reason: 'jump stack full' });
          return finish({ verdict: 'DROP' });
        }
        step('rule', num, rule, true, { kind, chain: target.chain });
        if (!target.goto) stack.push({ chain, next: i + 1 });
        // A jump to a chain that is gone (the kernel never lets that happen) returns at once.
        chain = next ?? { name: target.chain, builtin: false, counters: zero(), rules: [] };
        i = 0;
        break;
      }
      case 'RETURN': {
        step('rule', num, rule, true, { kind: 'return' });
        const done = doReturn();
        if (done !== undefined) return done;
        break;
      }
      case 'ACCEPT':
      case 'DROP':
        step('rule', num, rule, true, { kind: 'verdict', verdict: target.kind });
        return finish({ verdict: target.kind });
      case 'REJECT':
        // ipt_REJECT sends the ICMP error / TCP reset, then drops the packet.
        step('rule', num, rule, true, { kind: 'verdict', verdict: 'REJECT' });
        return finish({ verdict: 'REJECT', reject: { with: target.with } });
      case 'DNAT':
      case 'SNAT':
      case 'MASQUERADE': {
        const nat = natRequest(target.kind, target.range);
        step('rule', num, rule, true, { kind: 'nat', nat });
        return finish({ verdict: 'ACCEPT', nat });
      }
      case 'MARK':
        // xt_MARK revision 2 (mark_tg): new = (old & ~mask) ^ value.
        pkt = { ...pkt, mark: ((pkt.mark & ~target.mask) ^ target.value) >>> 0 };
        step('rule', num, rule, true, { kind: 'mark', mark: pkt.mark });
        i++;
        break;
      case 'CONNMARK': {
        // connmark_tg_shift(): nothing without a conntrack.
        if (tracked) {
          const ct = ctmark ?? ctx.conntrack.mark ?? 0;
          if (target.mode === 'set') ctmark = ((ct & ~target.ctmask) ^ target.ctmark) >>> 0;
          else if (target.mode === 'save')
            ctmark = ((ct & ~target.ctmask) ^ (pkt.mark & target.nfmask)) >>> 0;
          else {
            const mark = ((pkt.mark & ~target.nfmask) ^ (ct & target.ctmask)) >>> 0;
            pkt = { ...pkt, mark };
          }
        }
        const out: StepOutcome =
          ctmark !== undefined
            ? { kind: 'mark', mark: pkt.mark, ctmark }
            : { kind: 'mark', mark: pkt.mark };
        step('rule', num, rule, true, out);
        i++;
        break;
      }
      case 'LOG': {
        const line = logLine(target.prefix, pkt);
        logs.push(line);
        step('rule', num, rule, true, { kind: 'log', line });
        i++;
        break;
      }
    }
  }
}

/**
 * The walk of a table whose hook has no rules to evaluate: no table or base chain (accept), or
 * an empty base chain (its policy decides and counts the packet). undefined when there are
 * rules. Most hooks of a node are like this, and the datapath asks first so that it builds the
 * match context only for the walks that need one.
 */
export function traverseEmpty(
  state: NetfilterState,
  table: TableName,
  hook: Hook,
  packet: Packet,
  opts: TraverseOptions = {},
): TraverseResult | undefined {
  const t = state.tables[table];
  const base = t !== undefined && isBuiltinChain(table, hook) ? chainByName(t, hook) : undefined;
  if (t === undefined || base === undefined) {
    return { verdict: 'ACCEPT', packet, logs: [], steps: [] };
  }
  if (base.rules.length > 0) return undefined;
  const verdict = base.policy ?? 'ACCEPT';
  base.counters.packets += 1;
  base.counters.bytes += packet.length;
  const steps: TraceStep[] = [];
  if ((opts.steps ?? 'all') !== 'none') {
    // The same step traverseTable's policy() records.
    steps.push({
      table,
      chain: base.name,
      ruleNum: 1,
      type: 'policy',
      trace: `${table}:${base.name}:policy:1`,
      text: '',
      matched: true,
      outcome: { kind: 'policy', verdict },
      mark: packet.mark,
      depth: 0,
    });
  }
  return { verdict, packet, logs: [], steps };
}

function zero(): { packets: number; bytes: number } {
  return { packets: 0, bytes: 0 };
}

/**
 * The identity of a rule's xt_statistic_priv: table, chain and rule text, plus the ordinal among
 * identical rules of the chain. The kernel allocates it when the rule is added, so it survives
 * rules being inserted elsewhere; re-adding an identical rule keeps (rather than resets) it here.
 */
function nthKey(table: TableName, chain: Chain, rule: Rule): string {
  const spec = ruleSpec(rule);
  let ordinal = 0;
  for (const r of chain.rules) {
    if (r === rule) break;
    if (r.matches.some((m) => m.name === 'statistic') && ruleSpec(r) === spec) ordinal++;
  }
  return `${table}:${chain.name}:${ordinal}:${spec}`;
}

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
 * Every packet of a bulk run walks some table, so the walk allocates little: one state object,
 * steps and their outcomes only when recorded, arrays only when used.
 */
import { ruleSpec } from '../rule-render';
import type { Chain, NetfilterState, Rule, TableName } from '../types';
import { builtinChain, chainByName } from './chain-index';
import { logLine } from './log';
import { ruleMatches } from './matches';
import { natRequest } from './nat';
import { candidateRules, nextCandidate } from './rule-index';
import { emptyWalk } from './traverse-empty';
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

export { emptyWalk, traverseEmpty, type EmptyWalk } from './traverse-empty';

/** NFT_JUMP_STACK_SIZE. */
export const JUMP_STACK_SIZE = 16;
/** Rule evaluations after which a walk is taken to be looping (the kernel refuses loops). */
const EVALUATION_BUDGET = 1_000_000;

interface Frame {
  readonly chain: Chain;
  readonly next: number;
}

const NONE: readonly never[] = Object.freeze([]);
const NOMATCH: StepOutcome = Object.freeze({ kind: 'nomatch' });
const CONTINUE: StepOutcome = Object.freeze({ kind: 'continue' });
const RETURN: StepOutcome = Object.freeze({ kind: 'return' });

/** One traversal's state: where it is, the packet as targets changed it, what it recorded. */
class Walk {
  pkt: Packet;
  chain: Chain;
  i = 0;
  ctmark: number | undefined;
  stack: Frame[] | undefined;
  steps: TraceStep[] | undefined;
  logs: string[] | undefined;
  /** Whether any step is recorded; `matchedOnly`: only matched ones. */
  readonly recording: boolean;
  readonly matchedOnly: boolean;

  constructor(
    readonly table: TableName,
    readonly base: Chain,
    packet: Packet,
    record: NonNullable<TraverseOptions['steps']>,
  ) {
    this.pkt = packet;
    this.chain = base;
    this.recording = record !== 'none';
    this.matchedOnly = record === 'matched';
  }

  get depth(): number {
    return this.stack?.length ?? 0;
  }

  step(
    type: TraceStep['type'],
    num: number,
    rule: Rule | undefined,
    matched: boolean,
    outcome: StepOutcome,
  ): void {
    if (!this.recording || (this.matchedOnly && !matched)) return;
    const { table, chain } = this;
    (this.steps ??= []).push({
      table,
      chain: chain.name,
      ruleNum: num,
      type,
      trace: `${table}:${chain.name}:${type}:${num}`,
      text: rule === undefined ? '' : `-A ${chain.name}${ruleSpec(rule)}`,
      matched,
      outcome,
      mark: this.pkt.mark,
      depth: this.depth,
    });
  }

  finish(verdict: Verdict, nat?: NatRequest, reject?: TraverseResult['reject']): TraverseResult {
    // Field by field, in the order conditional spreads would give.
    const r: { -readonly [K in keyof TraverseResult]: TraverseResult[K] } = {
      verdict,
      packet: this.pkt,
    } as TraverseResult;
    if (nat !== undefined) r.nat = nat;
    if (reject !== undefined) r.reject = reject;
    if (this.ctmark !== undefined) r.ctmark = this.ctmark;
    r.logs = this.logs ?? NONE;
    r.steps = this.steps ?? NONE;
    return r;
  }

  policy(): TraverseResult {
    const base = this.base;
    this.chain = base;
    const verdict = base.policy ?? 'ACCEPT';
    base.counters.packets += 1;
    base.counters.bytes += this.pkt.length;
    if (this.recording)
      this.step('policy', base.rules.length + 1, undefined, true, { kind: 'policy', verdict });
    return this.finish(verdict);
  }

  /** RETURN: back to the rule after the last jump, or the policy when there is none. */
  doReturn(): TraverseResult | undefined {
    const frame = this.stack?.pop();
    if (frame === undefined) return this.policy();
    this.chain = frame.chain;
    this.i = frame.next;
    return undefined;
  }
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
  const record = opts.steps ?? 'all';
  const t = state.tables[table]!;
  const w = new Walk(table, builtinChain(t, hook)!, packet, record);
  const mctx = matchContext(ctx, table, hook);
  const tracked = ctx.conntrack.state !== 'INVALID' && ctx.conntrack.state !== 'UNTRACKED';
  const rec = w.recording;
  // Rules that cannot match are skipped when the trace does not show them (rule-index.ts).
  const skipping = record !== 'all';
  let indexedChain: Chain | undefined;
  let candidates: readonly number[] | undefined;
  /** statistic's per-rule state key, for the rule at `i` (only asked for while evaluating it). */
  const key = (): string => nthKey(table, w.chain, w.chain.rules[w.i]!);

  for (let evaluations = 0; ; evaluations++) {
    if (evaluations > EVALUATION_BUDGET) {
      w.step('rule', w.i + 1, undefined, true, { kind: 'abort', reason: 'rule loop' });
      return w.finish('DROP');
    }
    const chain = w.chain;
    if (skipping) {
      if (indexedChain !== chain) {
        indexedChain = chain;
        candidates = candidateRules(chain.rules, w.pkt.dst);
      }
      if (candidates !== undefined) w.i = nextCandidate(candidates, w.i, chain.rules.length);
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
    if (!ruleMatches(rule, w.pkt, mctx, key)) {
      w.step('rule', num, rule, false, NOMATCH);
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
        const next = chainByName(t, target.chain);
        const kind = target.goto ? 'goto' : 'jump';
        if (!target.goto && w.depth >= JUMP_STACK_SIZE) {
          w.step('rule', num, rule, true, { kind: 'abort', reason: 'jump stack full' });
          return w.finish('DROP');
        }
        if (rec) w.step('rule', num, rule, true, { kind, chain: target.chain });
        if (!target.goto) (w.stack ??= []).push({ chain, next: i + 1 });
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
      case 'MASQUERADE': {
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
          const ct = w.ctmark ?? ctx.conntrack.mark ?? 0;
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

/**
 * The context the matches see: the walk's, at this table and hook. Copied field by field:
 * an object spread of the caller's context takes V8's slow path, at every walk.
 */
function matchContext(ctx: WalkContext, table: TableName, hook: Hook): MatchContext {
  const m = {
    conntrack: ctx.conntrack,
    isLocalAddress: ctx.isLocalAddress,
    rng: ctx.rng,
    now: ctx.now,
    store: ctx.store,
    table,
    hook,
  } as { -readonly [K in keyof MatchContext]: MatchContext[K] };
  if (ctx.addrType !== undefined) m.addrType = ctx.addrType;
  if (ctx.ipsetTest !== undefined) m.ipsetTest = ctx.ipsetTest;
  if (ctx.ipvs !== undefined) m.ipvs = ctx.ipvs;
  return m;
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

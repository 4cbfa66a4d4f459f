/**
 * One traversal's state (traverse.ts): where it is, the packet as targets changed it, what it
 * recorded, and the context its matches see. Every packet of a bulk run walks some table with
 * rules (filter FORWARD at each node), and what a walk allocated — this state, its match
 * context, its jump frames, a closure for statistic's key — cost more than its few rules. So a
 * spent Walk is kept and reset for the next traversal. A walk never starts another one, but if
 * one did (re-entered while a Walk is out), it would simply get a new Walk: `take` hands out the
 * spare only when there is one. Nothing of a Walk leaves it but fresh arrays (steps, logs) and
 * the packet, which a reset drops rather than clears.
 */
import { keeper } from './matches';
import type { Mismatch } from './mismatch';
import { ruleSpec } from '../rule-render';
import type { Chain, Rule, TableName } from '../types';
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

const NONE: readonly never[] = Object.freeze([]);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** MatchContext with every field present (absent callbacks as undefined). */
type PooledContext = { -readonly [K in keyof MatchContext]-?: MatchContext[K] | undefined };

export class Walk {
  table: TableName = 'filter';
  base: Chain = EMPTY_CHAIN;
  pkt: Packet = EMPTY_PACKET;
  chain: Chain = EMPTY_CHAIN;
  i = 0;
  ctmark: number | undefined;
  /** The jump stack: return chain and rule position per frame (`depth` frames in use). */
  private readonly frameChains: Chain[] = [];
  private readonly frameNext: number[] = [];
  depth = 0;
  steps: TraceStep[] | undefined;
  logs: string[] | undefined;
  /** A TRACE target ran in this traversal. */
  traced = false;
  /** A NOTRACK / CT --notrack rule matched. */
  notrack = false;
  /** Whether any step is recorded; `matchedOnly`: only matched ones. */
  recording = false;
  matchedOnly = false;
  /**
   * Whether the walk is to be remembered (memo.ts): then `deps` collects what its conditions
   * read (DEP bits), `counted` the rules whose counters it bumped, `policyChain` the built-in
   * chain whose policy counted it.
   */
  memo = false;
  deps = 0;
  readonly counted: Rule[] = [];
  policyChain: Chain | undefined;
  /** What the matches see: the caller's WalkContext at this table and hook (set by reset). */
  get mctx(): MatchContext {
    return this.m as MatchContext;
  }

  private readonly m: PooledContext = {
    conntrack: undefined,
    isLocalAddress: undefined,
    rng: undefined,
    now: 0,
    store: undefined,
    table: 'filter',
    hook: 'PREROUTING',
    addrType: undefined,
    ipsetTest: undefined,
    ipvs: undefined,
  };
  /** nf_tables' handle of the table being walked (0: none yet). */
  tableHandle = 0;
  /** The per-rule state key (statistic nth, limit) of the rule being evaluated (asked only then). */
  readonly ruleKey = (): string =>
    ruleStateKey(this.table, this.tableHandle, this.chain, this.chain.rules[this.i]!);

  /** Starts a traversal of `table` at `hook` from its built-in chain `base`. */
  reset(
    table: TableName,
    hook: Hook,
    base: Chain,
    packet: Packet,
    ctx: WalkContext,
    record: NonNullable<TraverseOptions['steps']>,
    memo = false,
  ): void {
    this.table = table;
    this.base = base;
    this.pkt = packet;
    this.chain = base;
    this.i = 0;
    this.ctmark = undefined;
    this.depth = 0;
    this.steps = undefined;
    this.logs = undefined;
    this.traced = false;
    this.notrack = false;
    this.recording = record !== 'none';
    this.matchedOnly = record === 'matched';
    this.memo = memo;
    this.deps = 0;
    this.counted.length = 0;
    this.policyChain = undefined;
    // Every field set, absent ones to undefined: the matches test them with `!== undefined`.
    const m = this.m;
    m.conntrack = ctx.conntrack;
    m.isLocalAddress = ctx.isLocalAddress;
    m.rng = ctx.rng;
    m.now = ctx.now;
    m.store = ctx.store;
    m.table = table;
    m.hook = hook;
    m.addrType = ctx.addrType;
    m.ipsetTest = ctx.ipsetTest;
    m.ipvs = ctx.ipvs;
  }

  /** Drops what the last traversal left (so a kept Walk holds no packet or context). */
  release(): void {
    this.pkt = EMPTY_PACKET;
    this.base = EMPTY_CHAIN;
    this.chain = EMPTY_CHAIN;
    this.steps = undefined;
    this.logs = undefined;
    this.counted.length = 0;
    this.policyChain = undefined;
    // The frames keep their chains (at most JUMP_STACK_SIZE): shortening the arrays costs more.
    const m = this.m;
    m.conntrack = undefined;
    m.isLocalAddress = undefined;
    m.rng = undefined;
    m.store = undefined;
    m.addrType = undefined;
    m.ipsetTest = undefined;
    m.ipvs = undefined;
  }

  push(chain: Chain, next: number): void {
    this.frameChains[this.depth] = chain;
    this.frameNext[this.depth] = next;
    this.depth++;
  }

  step(
    type: TraceStep['type'],
    num: number,
    rule: Rule | undefined,
    matched: boolean,
    outcome: StepOutcome,
    mismatch?: Mismatch,
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
      ...(mismatch !== undefined ? { mismatch } : {}),
    });
  }

  finish(verdict: Verdict, nat?: NatRequest, reject?: TraverseResult['reject']): TraverseResult {
    // Field by field, in the order conditional spreads would give.
    const r: Mutable<TraverseResult> = { verdict, packet: this.pkt } as TraverseResult;
    if (nat !== undefined) r.nat = nat;
    if (reject !== undefined) r.reject = reject;
    if (this.ctmark !== undefined) r.ctmark = this.ctmark;
    r.logs = this.logs ?? NONE;
    r.steps = this.steps ?? NONE;
    if (this.traced) r.nftrace = true;
    if (this.notrack) r.notrack = true;
    return r;
  }

  policy(): TraverseResult {
    const base = this.base;
    this.chain = base;
    const verdict = base.policy ?? 'ACCEPT';
    // Only a chain whose policy was set has counters (Chain.countsPolicy).
    if (base.countsPolicy === true) {
      base.counters.packets += 1;
      base.counters.bytes += this.pkt.length;
      if (this.memo) this.policyChain = base;
    }
    if (this.recording)
      this.step('policy', base.rules.length + 1, undefined, true, { kind: 'policy', verdict });
    return this.finish(verdict);
  }

  /** RETURN: back to the rule after the last jump, or the policy when there is none. */
  doReturn(): TraverseResult | undefined {
    if (this.depth === 0) return this.policy();
    this.depth--;
    this.chain = this.frameChains[this.depth]!;
    this.i = this.frameNext[this.depth]!;
    return undefined;
  }
}

let spare: Walk | undefined;

/** A Walk to use: the spare one, or a new one when it is out. */
export function takeWalk(): Walk {
  const w = spare ?? new Walk();
  spare = undefined;
  return w;
}

/** Gives a Walk back once its traversal is finished. */
export function giveBack(w: Walk): void {
  w.release();
  spare = w;
}

const EMPTY_CHAIN: Chain = Object.freeze({
  name: '',
  builtin: false,
  counters: { packets: 0, bytes: 0 },
  rules: [],
}) as Chain;
const EMPTY_PACKET = Object.freeze({ src: '', dst: '', protocol: 'all' }) as unknown as Packet;

/**
 * The identity of a rule's own state in the kernel (xt_statistic's nth counter, nft_limit's
 * bucket): allocated when the rule is added and freed with it, so it survives rules inserted
 * elsewhere, and a rule deleted and added again (or written again by a restore that flushed its
 * chain) starts afresh. nf_tables gives each added rule a new handle (nft-view/ids.ts) within
 * its table, and a table created anew (restore without --noflush) a new handle: the two name the
 * instance. A rule that has no handle (a table no commit made) is named by its text and its
 * ordinal among identical rules of the chain instead.
 */
function ruleStateKey(table: TableName, tableHandle: number, chain: Chain, rule: Rule): string {
  if (rule.nftHandle !== undefined) return `${table}/${tableHandle}/${rule.nftHandle}`;
  return textKey(table, chain, rule);
}

function textKey(table: TableName, chain: Chain, rule: Rule): string {
  const spec = ruleSpec(rule);
  let ordinal = 0;
  for (const r of chain.rules) {
    if (r === rule) break;
    if (r.matches.some(keeper) && ruleSpec(r) === spec) ordinal++;
  }
  return `${table}:${chain.name}:${ordinal}:${spec}`;
}

/**
 * Builds the trace steps (protocol/trace.ts) of one datapath run and the capture records,
 * numbering steps, stamping virtual time and the packet's flow.
 */
import type { Explanation, Hook, Place, TableName, TraceStep } from '../../protocol/trace';
import { listLine } from '../conntrack';
import type { StepOutcome, TraceStep as WalkStep } from '../netfilter';
import type { HostRef } from '../routing';
import type { World } from '../sim/world';
import { hostLabel, type Skb } from './packet';
import { datapathState, type DatapathState } from './state';

type Body<T> = T extends unknown ? Omit<T, 'seq' | 't' | 'packetId' | 'flowId'> : never;
export type StepBody = Body<TraceStep>;

/** Which iptables rule steps a run records: every evaluated rule, the matched ones, or none. */
export type RuleSteps = 'all' | 'matched' | 'none';

/**
 * How much of a run the trace keeps: rule steps as RuleSteps says (with every other step), or
 * `off`: no step at all (bulk runs of thousands of connections that nobody animates). The
 * packets go through exactly the same path either way: counters, conntrack, NAT, random draws
 * and the capture log (tcpdump) are the same.
 */
export type TraceDetail = RuleSteps | 'off';

export function why(id: string, params?: Record<string, string | number>): Explanation {
  return params === undefined ? { id } : { id, params };
}

export function place(host: HostRef, iface?: string): Place {
  return iface === undefined ? { host: hostLabel(host) } : { host: hostLabel(host), iface };
}

/** Why a rule step went as it did: a skipped rule names the condition that failed (mismatch.ts). */
function ruleWhy(s: WalkStep): Explanation {
  if (s.matched) return why('datapath.rule.matched', { trace: s.trace });
  const m = s.mismatch;
  if (m === undefined) return why('datapath.rule.skipped', { trace: s.trace });
  return why(`datapath.rule.skipped.${m.kind}`, {
    trace: s.trace,
    condition: m.condition,
    value: m.value,
  });
}

const NAT_TARGETS = {
  dnat: 'DNAT',
  snat: 'SNAT',
  masquerade: 'MASQUERADE',
  redirect: 'REDIRECT',
} as const;

/** A walk step's outcome as the trace spells it: a jump target, RETURN, a verdict, continue. */
function outcomeText(o: StepOutcome): string {
  switch (o.kind) {
    case 'jump':
    case 'goto':
      return o.chain;
    case 'return':
      return 'RETURN';
    case 'verdict':
      return o.verdict;
    case 'nat':
      return NAT_TARGETS[o.nat.kind];
    case 'policy':
      return o.verdict;
    case 'abort':
      return 'DROP';
    default:
      return 'continue';
  }
}

export class Recorder {
  readonly steps: TraceStep[] = [];
  private seq: number;

  /** Whether steps are recorded at all (callers skip building a step's body when not). */
  readonly on: boolean;

  /**
   * The World's datapath state, looked up at the first capture: a run captures every packet on
   * every interface it crosses (650,000 captures in a 10,000-connection load run, whose
   * Recorder lives as long as the World), a WeakMap lookup each.
   */
  private datapath: DatapathState | undefined;

  constructor(
    readonly world: World,
    firstSeq: number,
    readonly ruleSteps: RuleSteps,
    on = true,
  ) {
    this.seq = firstSeq;
    this.on = on;
  }

  /** Appends a step for `skb` (its packet id, and its conntrack entry id as the flow). */
  add(skb: Skb, body: StepBody): void {
    if (!this.on) return;
    const flowId = skb.ct?.entry.id;
    this.steps.push({
      seq: this.seq++,
      t: this.world.clock.now(),
      packetId: skb.id,
      ...(flowId !== undefined ? { flowId } : {}),
      ...body,
    } as TraceStep);
  }

  /** The steps of one table traversal, as rule/policy steps. */
  walk(skb: Skb, at: Place, hook: Hook, steps: readonly WalkStep[]): void {
    if (this.ruleSteps === 'none' || !this.on) return;
    for (const s of steps) {
      if (this.ruleSteps === 'matched' && !s.matched) continue;
      const table: TableName = s.table;
      if (s.type === 'policy' && s.outcome.kind === 'policy') {
        this.add(skb, {
          kind: 'policy',
          at,
          why: why('datapath.policy', { trace: s.trace }),
          hook,
          table,
          chain: s.chain,
          policy: s.outcome.verdict,
        });
        continue;
      }
      this.add(skb, {
        kind: 'rule',
        at,
        why: ruleWhy(s),
        hook,
        table,
        chain: s.chain,
        ruleNum: s.ruleNum,
        rule: s.text,
        matched: s.matched,
        outcome: outcomeText(s.outcome),
      });
    }
  }

  /** A conntrack step: the entry as `conntrack -L` prints it now. */
  conntrack(
    skb: Skb,
    at: Place,
    event: 'new' | 'confirmed' | 'update' | 'destroy' | 'hit',
    explanation: Explanation,
  ): void {
    if (!this.on) return;
    const ct = skb.ct;
    const now = this.world.clock.now();
    this.add(skb, {
      kind: 'conntrack',
      at,
      why: explanation,
      event,
      entry: ct === undefined ? '' : listLine(ct.entry, now, false, {}),
      ctstate:
        ct !== undefined ? ct.state : skb.ctInvalid === 'untracked' ? 'UNTRACKED' : 'INVALID',
    });
  }

  verdict(
    skb: Skb,
    at: Place,
    verdict: 'ACCEPT' | 'DROP' | 'REJECT' | 'DELIVERED' | 'LOST',
    explanation: Explanation,
  ): void {
    this.add(skb, { kind: 'verdict', at, why: explanation, verdict });
  }

  /**
   * The packet as tcpdump on `iface` of `host` sees it now, in the frame it last crossed a link
   * in, or in `nexthop`'s frame: a packet captured on its way out before transmit() frames it
   * (dev_queue_xmit_nit() runs after the neighbour layer filled the Ethernet header). On lo the
   * frame is lo's own, both ways (all-zero MACs).
   */
  capture(skb: Skb, host: HostRef, iface: string, dir: 'in' | 'out', nexthop?: string): void {
    const s = (this.datapath ??= datapathState(this.world));
    const t = this.world.clock.now();
    const label = hostLabel(host);
    if (nexthop !== undefined || iface === 'lo')
      s.capture.push(s.nextCaptureSeq++, t, label, iface, dir, skb.id, skb.header, host, iface, nexthop ?? ''); // prettier-ignore
    else
      s.capture.push(s.nextCaptureSeq++, t, label, iface, dir, skb.id, skb.header, skb.llFrom, skb.llFromIf, skb.llTo); // prettier-ignore
  }
}

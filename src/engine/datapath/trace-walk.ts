/**
 * The table walk of a packet that `-j TRACE` marked (skb->nf_trace), or may mark: a walk like
 * any other, whose matched steps also become nf_tables trace events in the node's log, for
 * `xtables-monitor --trace` (netfilter/nftrace.ts). Only tables with a TRACE rule, and packets
 * already marked, come here: every other walk keeps its fast paths.
 */
import type { Hook, TableName } from '../../protocol/trace';
import {
  logChainTrace,
  tableHasTrace,
  traverseTable,
  type NetfilterState,
  type TraverseResult,
} from '../netfilter';
import { walkPacketOf, type HookDevices, type Skb } from './packet';
import type { Ctx } from './types';
import { walkContext } from './walk-context';
import { frameMacs } from './link-header';
import { fnv1a } from './arp';
import type { NodeCtx } from './hooks';

/** Whether `table` of the node has a TRACE rule (which may mark the packet walking it). */
export function tracesIn(nf: NetfilterState, table: TableName): boolean {
  const t = nf.tables[table];
  return t !== undefined && tableHasTrace(t);
}

/** Matched steps at least: the events need them, whatever the trace view keeps. */
const MATCHED = { steps: 'matched' } as const;
const ALL = { steps: 'all' } as const;

/**
 * The packet's trace id on this node: one per packet and host, as the kernel's is per skb, from
 * the lab's seed (no draw of the World's random source, so no other seeded draw moves).
 */
function traceId(ctx: Ctx, node: NodeCtx, skb: Skb): string {
  return fnv1a(`${ctx.world.cluster.lab.seed}/${node.name}/${skb.id}`)
    .toString(16)
    .padStart(8, '0');
}

/** Walks `table` at `hook`, logging the trace events of a marked packet; marks it on TRACE. */
export function tracedWalk(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  table: TableName,
  devs: HookDevices,
): TraverseResult {
  const marked = skb.nftrace === true;
  const packet = walkPacketOf(skb, devs);
  const opts = ctx.rec.ruleSteps === 'all' ? ALL : MATCHED;
  const r = traverseTable(node.nf, table, hook, packet, walkContext(ctx, node, skb), opts);
  if (!marked && r.nftrace !== true) return r;
  // Unmarked until its TRACE rule: the events start with that rule's.
  const from = marked
    ? 0
    : r.steps.findIndex((s) => {
        if (!s.matched || s.type !== 'rule') return false;
        const chain = node.nf.tables[table]?.chains.find((c) => c.name === s.chain);
        return chain?.rules[s.ruleNum - 1]?.target.kind === 'TRACE';
      });
  const id = traceId(ctx, node, skb);
  const ll = frameMacs(ctx.world.cluster, skb);
  logChainTrace(node.nf, table, hook, id, packet, r.steps, Math.max(0, from), ll);
  skb.nftrace = true;
  return r;
}

/**
 * A node's netfilter hooks as the packet path calls them (nf_hook_slow over the hook's entries
 * in priority order): the iptables tables through the netfilter walk, conntrack lookup at
 * PREROUTING/OUTPUT (nf_conntrack_in, priority -200) and confirmation at the end of
 * POSTROUTING/INPUT (nf_conntrack_confirm, INT_MAX). NAT hooks are in nat.ts.
 */
import type { Explanation, Hook, TableName } from '../../protocol/trace';
import { ctConfirm, ctDrop, ctLookupOrCreate, ctSetMark } from '../conntrack';
import {
  emptyWalk,
  traverseRules,
  type NetfilterState,
  type RejectWith,
  type TraverseResult,
} from '../netfilter';
import type { NftState } from '../nftables';
import type { HostNetwork, HostRef } from '../routing';
import { kernelNet } from './net';
import { ctLookupView } from './ct-view';
import { withField } from './header-copy';
import { walkPacketOf, type HookDevices, type Skb } from './packet';
import { place, why } from './recorder';
import { nodeDatapath, type NodeDatapath } from './state';
import type { Ctx, DropReason, Outcome, RejectedAt } from './types';
import { walkContext } from './walk-context';
import { replayTable } from './walk-replay';
import { tracedWalk, tracesIn } from './trace-walk';
import type { NodeKernel } from '../sim/node-kernel';
import type { World } from '../sim/world';

/** Where a hook's steps are placed: the input device up to FORWARD, the output device after. */
export function hookIface(hook: Hook, devs: HookDevices): string | undefined {
  return hook === 'OUTPUT' || hook === 'POSTROUTING' ? devs.outIface : devs.inIface;
}

/** One node as the datapath uses it. */
export interface NodeCtx {
  readonly name: string;
  readonly ref: HostRef;
  readonly net: HostNetwork;
  readonly nf: NetfilterState;
  /** kube-proxy's nf_tables state (nftables mode). */
  readonly nft?: NftState;
  readonly dp: NodeDatapath;
  /**
   * The node's kernel (its sysctls, ipvs state): the NodeCtx is kept per kernel object, so this
   * is what world.kernel(name) answers while the NodeCtx is current, without its Map lookup.
   */
  readonly kernel: NodeKernel;
}

/** What a NodeCtx was built from: it is reused while these are the same objects. */
interface NodeCtxSource {
  readonly world: World;
  readonly cluster: World['cluster'];
  readonly dummy: NodeKernel['kubeIpvs0'];
  readonly nft: NftState | undefined;
  readonly node: NodeCtx;
}

/** Per kernel: every packet entering a node asks for its NodeCtx. */
const nodeCtxs = new WeakMap<NodeKernel, NodeCtxSource>();

export function nodeCtx(ctx: Ctx, name: string): NodeCtx | undefined {
  const world = ctx.world;
  const kernel = world.kernel(name);
  if (kernel === undefined) return undefined;
  const nft = kernel.nftables?.state;
  const c = nodeCtxs.get(kernel);
  if (
    c !== undefined &&
    c.world === world &&
    c.cluster === world.cluster &&
    c.dummy === kernel.kubeIpvs0 &&
    c.nft === nft
  )
    return c.node;
  const ref: HostRef = { kind: 'node', name };
  const net = kernelNet(world, ref);
  if (net === undefined) return undefined;
  const node: NodeCtx = {
    name,
    ref,
    net,
    nf: kernel.netfilter,
    ...(nft !== undefined ? { nft } : {}),
    dp: nodeDatapath(world, name),
    kernel,
  };
  nodeCtxs.set(kernel, { world, cluster: world.cluster, dummy: kernel.kubeIpvs0, nft, node });
  return node;
}

/** What a hook decided: go on, drop, or REJECT (ipt_REJECT sends an answer, then drops). */
export type Fate =
  | { readonly kind: 'accept' }
  | { readonly kind: 'drop'; readonly reason: DropReason; readonly why: Explanation }
  | { readonly kind: 'reject'; readonly with: RejectWith };

export const ACCEPT: Fate = { kind: 'accept' };

/** skb.ctInvalid of a packet the raw table left without a conntrack (NOTRACK). */
export const UNTRACKED = 'untracked';

/** The place of a step that is not recorded (the trace is off). */
const NOWHERE = { host: '' };

/** The step that opens a hook: which tables run there, in priority order. */
export function enterHook(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  tables: readonly TableName[],
  iface: string | undefined,
): void {
  if (!ctx.rec.on) return;
  ctx.rec.add(skb, {
    kind: 'hook',
    at: place(node.ref, iface),
    why: why('datapath.hook', { hook, host: node.name }),
    hook,
    tables,
  });
}

/**
 * ipt_do_table() of one table at one hook: records the rule steps, applies MARK (skb->mark)
 * and CONNMARK (ct->mark) to the packet and its connection.
 */
export function walkTable(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  table: TableName,
  devs: HookDevices,
): TableWalk {
  // A packet marked by -j TRACE, or a table that may mark it: the walk xtables-monitor sees.
  if (skb.nftrace === true || tracesIn(node.nf, table)) {
    const r = tracedWalk(ctx, node, skb, hook, table, devs);
    const keep = ctx.rec.ruleSteps !== 'none' && r.steps.length > 0;
    if (keep) ctx.rec.walk(skb, place(node.ref, hookIface(hook, devs)), hook, r.steps);
    return afterWalk(ctx, node, skb, r);
  }
  // Rule steps the trace will not keep are not built (their rule text costs).
  const opts = STEPS[ctx.rec.ruleSteps];
  // Most hooks of a node have no rule: their policy decides before a Packet is built.
  const h = skb.header;
  const empty = emptyWalk(node.nf, table, hook, h.length, h.mark, opts);
  if (empty !== undefined) {
    if (empty.steps.length > 0)
      ctx.rec.walk(skb, place(node.ref, hookIface(hook, devs)), hook, empty.steps);
    return empty;
  }
  // No step kept: the walk may have been done before with what it reads (walk-replay.ts).
  if (opts === STEPS.none) {
    const replayed = replayTable(node, skb, hook, table, devs);
    if (replayed !== undefined) return replayed;
  }
  const packet = walkPacketOf(skb, devs);
  const r = traverseRules(node.nf, table, hook, packet, walkContext(ctx, node, skb), opts);
  if (r.steps.length > 0) ctx.rec.walk(skb, place(node.ref, hookIface(hook, devs)), hook, r.steps);
  return afterWalk(ctx, node, skb, r);
}

/**
 * What a table walk leaves on the packet: skb->mark, ct->mark after CONNMARK, and the
 * untracked conntrack after NOTRACK (xt_ct_target: only on a packet without one yet).
 */
function afterWalk(ctx: Ctx, node: NodeCtx, skb: Skb, r: TraverseResult): TableWalk {
  if (r.packet.mark !== skb.header.mark) skb.header = withField(skb.header, 'mark', r.packet.mark);
  if (r.notrack === true && skb.ct === undefined) skb.ctInvalid = UNTRACKED;
  if (r.ctmark !== undefined && skb.ct !== undefined) {
    ctSetMark(node.dp.conntrack, skb.ct.entry, r.ctmark, ctx.world.clock.now());
  }
  return r;
}

/** What a table walk decided (the datapath reads no more of a TraverseResult). */
export type TableWalk = Pick<TraverseResult, 'verdict' | 'nat' | 'reject' | 'steps'>;

/** The walk's options per trace detail, made once (walkTable runs at every hook of a packet). */
const STEPS = {
  all: { steps: 'all' },
  matched: { steps: 'matched' },
  none: { steps: 'none', memo: true },
} as const;

/** The fate of a non-nat table's verdict. */
export function tableFate(r: TableWalk, table: TableName, hook: Hook): Fate {
  if (r.verdict === 'ACCEPT') return ACCEPT;
  if (r.verdict === 'REJECT' && r.reject !== undefined)
    return { kind: 'reject', with: r.reject.with };
  return {
    kind: 'drop',
    reason: 'netfilter',
    why: why('datapath.drop.netfilter', { table, hook }),
  };
}

/** Walks `tables` in order; the first that does not accept decides. */
export function walkTables(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  tables: readonly TableName[],
  devs: HookDevices,
): Fate {
  for (const table of tables) {
    const fate = tableFate(walkTable(ctx, node, skb, hook, table, devs), table, hook);
    if (fate.kind !== 'accept') return fate;
  }
  return ACCEPT;
}

/**
 * nf_conntrack_in() at PREROUTING or OUTPUT: looks the packet up or allocates an unconfirmed
 * entry. A packet already carrying a conntrack (looped back through lo, or a REJECT answer
 * attached with nf_ct_attach) is not looked up again.
 */
export function conntrackIn(ctx: Ctx, node: NodeCtx, skb: Skb, iface: string | undefined): void {
  if (skb.ct !== undefined) return;
  // nf_conntrack_in(): a packet the raw table marked untracked is not looked up.
  if (skb.ctInvalid === UNTRACKED) {
    if (ctx.rec.on)
      ctx.rec.conntrack(skb, place(node.ref, iface), 'hit', why('datapath.ct.untracked'));
    return;
  }
  const r = ctLookupOrCreate(node.dp.conntrack, ctLookupView(skb), ctx.world.clock.now());
  const at = ctx.rec.on ? place(node.ref, iface) : NOWHERE;
  if (r.kind !== 'tracked') {
    skb.ctInvalid = r.kind === 'invalid' ? r.reason : 'untracked';
    ctx.rec.conntrack(skb, at, 'hit', why('datapath.ct.invalid', { reason: skb.ctInvalid }));
    return;
  }
  skb.ct = { entry: r.entry, dir: r.dir, state: r.ctstate };
  if (!ctx.rec.on) return;
  if (r.created) ctx.rec.conntrack(skb, at, 'new', why('datapath.ct.new'));
  else ctx.rec.conntrack(skb, at, 'hit', why('datapath.ct.hit', { dir: r.dir }));
  if (r.killed) ctx.rec.conntrack(skb, at, 'destroy', why('datapath.ct.killed'));
}

/**
 * nf_conntrack_confirm() at the end of POSTROUTING or INPUT: an unconfirmed entry whose
 * packet is in the original direction goes into the hash ([NEW]). Answers attached by REJECT
 * travel in the other direction and confirm nothing (__nf_conntrack_confirm).
 */
export function confirm(ctx: Ctx, node: NodeCtx, skb: Skb, iface: string | undefined): Fate {
  const ct = skb.ct;
  if (ct === undefined || ct.dir !== 'ORIGINAL') return ACCEPT;
  const r = ctConfirm(node.dp.conntrack, ct.entry, ctx.world.clock.now());
  if (!r.ok) {
    return {
      kind: 'drop',
      reason: 'conntrack',
      why: why('datapath.ct.clash', { reason: r.reason }),
    };
  }
  if (r.inserted && ctx.rec.on)
    ctx.rec.conntrack(skb, place(node.ref, iface), 'confirmed', why('datapath.ct.confirmed'));
  return ACCEPT;
}

/**
 * The packet dies on this node: its unconfirmed conntrack entry dies with it, never listed
 * by `conntrack -L` (the retransmission of a dropped SYN walks the nat rules again).
 */
export function releaseConntrack(ctx: Ctx, node: NodeCtx, skb: Skb, iface?: string): void {
  const ct = skb.ct;
  if (ct !== undefined && ctDrop(node.dp.conntrack, ct.entry)) {
    ctx.rec.conntrack(skb, place(node.ref, iface), 'destroy', why('datapath.ct.unconfirmed-freed'));
  }
}

/** The packet leaves the node's network namespace (wire or veth): skb_scrub_packet(). */
export function leaveNamespace(skb: Skb): void {
  skb.ct = undefined;
  skb.ctInvalid = undefined;
  skb.physIn = undefined;
  skb.localOrigin = undefined;
  // skb_scrub_packet() → nf_reset_trace(): tracing ends where the namespace does.
  skb.nftrace = undefined;
  if (skb.header.mark !== 0) skb.header = withField(skb.header, 'mark', 0);
}

/** The packet ends here, dropped: a verdict step and the outcome. */
export function dropped(
  ctx: Ctx,
  host: HostRef,
  skb: Skb,
  iface: string | undefined,
  reason: DropReason,
  explanation: Explanation,
  verdict: 'DROP' | 'LOST' = 'DROP',
): Outcome {
  ctx.rec.verdict(skb, place(host, iface), verdict, explanation);
  return { kind: 'dropped', host, reason, why: explanation };
}

/** A hook did not accept: DROP frees the unconfirmed conntrack entry; REJECT answers first. */
export function settle(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  fate: Exclude<Fate, { kind: 'accept' }>,
  iface: string | undefined,
  rejected: RejectedAt,
): Outcome {
  if (fate.kind === 'reject') return ctx.stack.reject(ctx, node.name, skb, fate.with, rejected);
  releaseConntrack(ctx, node, skb, iface);
  return dropped(ctx, node.ref, skb, iface, fate.reason, fate.why);
}

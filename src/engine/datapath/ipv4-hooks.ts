/**
 * The IPv4 hooks a node's packets pass most (nf_hook_slow over each hook's entries in priority
 * order): PREROUTING, FORWARD and POSTROUTING, as ip_rcv, ip_forward, ip_output and
 * br_netfilter call them.
 */
import type { Hook, TableName } from '../../protocol/trace';
import { confirm, conntrackIn, enterHook, walkTables, type Fate, type NodeCtx } from './hooks';
import { ipvsReply } from './ipvs';
import { natHook } from './nat';
import { nftFilter } from './nft-hooks';
import type { HookDevices, Skb } from './packet';
import type { Ctx } from './types';

// The tables of each hook, in priority order (constants: every packet passes the hooks).
const PRE_TABLES: readonly TableName[] = ['raw', 'mangle', 'nat'];
const POST_TABLES: readonly TableName[] = ['mangle', 'nat'];
const FORWARD_TABLES: readonly TableName[] = ['mangle', 'filter', 'security'];
const RAW: readonly TableName[] = ['raw'];
const MANGLE: readonly TableName[] = ['mangle'];
const MANGLE_FILTER: readonly TableName[] = ['mangle', 'filter'];
const SECURITY: readonly TableName[] = ['security'];

/** PREROUTING: raw, conntrack (-200), mangle, nat (DNAT / de-masquerade). */
export function prerouting(ctx: Ctx, node: NodeCtx, skb: Skb, devs: HookDevices): Fate {
  const hook: Hook = 'PREROUTING';
  enterHook(ctx, node, skb, hook, PRE_TABLES, devs.inIface);
  // Each step runs only when the ones before accepted (nf_hook_slow).
  let fate = walkTables(ctx, node, skb, hook, RAW, devs);
  if (fate.kind !== 'accept') return fate;
  conntrackIn(ctx, node, skb, devs.inIface);
  fate = walkTables(ctx, node, skb, hook, MANGLE, devs);
  if (fate.kind !== 'accept') return fate;
  fate = nftFilter(ctx, node, skb, hook, devs, -150, -100);
  if (fate.kind !== 'accept') return fate;
  return natHook(ctx, node, skb, hook, devs);
}

/** POSTROUTING: mangle, nat (SNAT/MASQUERADE / un-DNAT), conntrack confirm. */
export function postrouting(ctx: Ctx, node: NodeCtx, skb: Skb, devs: HookDevices): Fate {
  const hook: Hook = 'POSTROUTING';
  enterHook(ctx, node, skb, hook, POST_TABLES, devs.outIface);
  let fate = walkTables(ctx, node, skb, hook, MANGLE, devs);
  if (fate.kind !== 'accept') return fate;
  fate = natHook(ctx, node, skb, hook, devs);
  if (fate.kind !== 'accept') return fate;
  return confirm(ctx, node, skb, devs.outIface);
}

/**
 * FORWARD: mangle, filter, security (no nat table at FORWARD), then IPVS's ip_vs_reply4
 * (priority 100): a real server's answer gets the virtual server as its source — routed or,
 * through br_netfilter, bridged.
 */
export function forwardHook(ctx: Ctx, node: NodeCtx, skb: Skb, devs: HookDevices): Fate {
  enterHook(ctx, node, skb, 'FORWARD', FORWARD_TABLES, devs.inIface);
  let fate = walkTables(ctx, node, skb, 'FORWARD', MANGLE_FILTER, devs);
  if (fate.kind !== 'accept') return fate;
  fate = nftFilter(ctx, node, skb, 'FORWARD', devs, -150, 50);
  if (fate.kind !== 'accept') return fate;
  fate = walkTables(ctx, node, skb, 'FORWARD', SECURITY, devs);
  if (fate.kind !== 'accept') return fate;
  ipvsReply(ctx, node, skb, 'FORWARD', devs.inIface);
  return fate;
}

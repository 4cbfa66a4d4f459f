/**
 * The packet walk's rule evaluation: one iptables table at one hook, as the kernel evaluates it
 * (ip_tables.c ipt_do_table() and the xt_* match/target modules).
 *
 * ```ts
 * const store = createWalkStore();
 * const r = traverseTable(netfilter, 'nat', 'PREROUTING', packet, {
 *   conntrack: { state: 'NEW' },
 *   isLocalAddress: (ip) => nodeIPs.includes(ip),
 *   rng,
 *   now: clock.now(),
 *   store,
 * });
 * // r.verdict, r.nat (the DNAT to set up), r.packet.mark, r.steps (TRACE-like)
 * ```
 *
 * The walk changes the node's state in place: rule and policy counters, and the `WalkStore`
 * (xt_recent lists, nth counters, nfacct objects).
 */
export type {
  ConntrackInfo,
  CtStateName,
  Hook,
  IpvsInfo,
  L4Protocol,
  MatchContext,
  NatRequest,
  Packet,
  RecentEntry,
  RecentList,
  StepOutcome,
  TcpFlags,
  TraceStep,
  TraverseOptions,
  TraverseResult,
  Verdict,
  WalkContext,
  WalkStore,
} from './types';
/** Walk a packet through one table at one hook; see the module comment of traverse.ts. */
export {
  emptyWalk,
  traverseEmpty,
  traverseRules,
  traverseTable,
  JUMP_STACK_SIZE,
} from './traverse';
/** Replaying remembered walks (established flows through the same rules): see memo.ts. */
export { replayWalk, type MemoOutcome } from './memo';
/** Whether a rule (or one of its match extensions) matches, without running its target. */
export { ruleMatches, evalMatch } from './matches';
/** The route type the addrtype match uses when the caller gives no `addrType` lookup. */
export { defaultAddrType } from './match-ext';
/** The ip_packet_match() part alone, and `-i`/`-o` name comparison with `+` wildcards. */
export { ipHeaderMatches, ifaceNameMatches, PROTOCOL_NUMBERS } from './match-ip';
export { RECENT_LIST_MAX } from './match-stateful';
/** Kernel log lines: the LOG target's packet dump and legacy TRACE lines. */
export { packetDump, logLine, traceLine } from './log';
export { createWalkStore, TABLES_AT_HOOK } from './store';

/**
 * Connection tracking of one node (network namespace), as the Linux kernel does it
 * (nf_conntrack_core.c, nf_conntrack_proto_{tcp,udp,icmp}.c, nf_nat_core.c), with the views
 * conntrack-tools 1.4.7 and /proc/net/nf_conntrack print.
 *
 * How the per-hook datapath uses it, per packet:
 * 1. PREROUTING / OUTPUT (conntrack priority -200): {@link ctLookupOrCreate} gives the ctstate
 *    for `-m conntrack` ({@link ctMatchInfo}) and the entry; a packet without an entry gets an
 *    unconfirmed one (ctstate NEW), invisible to `conntrack -L`.
 * 2. At each nat hook: if the ctstate is NEW or RELATED and {@link natNeeded}, walk the nat
 *    chain; a DNAT/SNAT/MASQUERADE rule calls {@link natSetup} with its range, no match calls it
 *    with `null` (the null binding). Then {@link natPacket} rewrites the packet (every packet,
 *    both directions, from the stored binding).
 * 3. End of POSTROUTING / INPUT: {@link ctConfirm} (hash insert, [NEW] event). A packet dropped
 *    before that: {@link ctDrop}. A packet already carrying a conntrack (loopback: OUTPUT then
 *    PREROUTING) is not looked up again.
 * Call {@link ctExpire} as virtual time advances (or rely on lookups and commands to collect).
 *
 * All state is plain JSON-safe data; time is the virtual ms clock; randomness (NAT ports) comes
 * from the injected Rng.
 */
export type {
  CtConfig,
  CtCounters,
  CtDir,
  CtEntry,
  CtEvent,
  CtTable,
  CtTimeouts,
  CtTuple,
  IcmpTuple,
  L4Proto,
  PortTuple,
  TcpState,
  TcpTrack,
} from './model';
export {
  IPS,
  KERNEL_DEFAULT_TIMEOUTS,
  PROTO_NUMBER,
  TCP_STATES,
  createConntrackTable,
  kernelDefaultConfig,
  kubeProxyConfig,
} from './model';
export type { CtPacket, InnerHeader, TcpFlags } from './tuple';
export { invertTuple, mustInvert, tupleKey, tupleOf } from './tuple';
export type { ConfirmResult, CtResult, CtStateName } from './core';
export { ctConfirm, ctDelete, ctDrop, ctLookupOrCreate, ctSetMark } from './core';
export type { CtMatchInfo } from './match-info';
export { ctMatchInfo } from './match-info';
export {
  ctExpire,
  findTuple as ctFind,
  getEntry,
  peekTuple as ctPeek,
  remainingSeconds,
} from './table';
export type {
  NatChange,
  NatHook,
  NatManip,
  NatPacketResult,
  NatRange,
  NatSetupResult,
} from './nat';
export { hookManip, natApplies, natNeeded, natPacket, natSetup } from './nat';
export type { LineOptions } from './format';
export { eventLine, listLine, procLine, statusNames } from './format';
export type { ConntrackCommandOptions, ToolOutput } from './cli';
export { conntrackCommand, procNfConntrack } from './cli';

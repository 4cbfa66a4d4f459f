/**
 * The datapath's public result types and the context one run threads through the hosts.
 */
import type { Explanation, PacketHeader } from '../../protocol/trace';
import type { RejectWith } from '../netfilter';
import type { HostRef } from '../routing';
import type { World } from '../sim/world';
import type { Skb } from './packet';
import type { Recorder } from './recorder';

/** Why a packet was dropped, as a code (the step's Explanation says it in words). */
export type DropReason =
  /** A DROP rule or policy (or a walk that gave up). */
  | 'netfilter'
  /** br_forward() should_deliver(): out port = in port without the port's hairpin flag. */
  | 'hairpin'
  /** ip_route_input() refused the source address (fib_validate_source: martian source). */
  | 'martian'
  /** A host that does not forward (pods, external clients) got a packet for another address. */
  | 'not-local'
  | 'no-route'
  /** The next hop does not answer ARP. */
  | 'neighbour'
  /** Sent to the LAN's router, which is outside the lab. */
  | 'left-lab'
  /** ip_forward(): TTL reached 0. */
  | 'ttl'
  /** Conntrack refused it (insert clash) or NAT could not be set up (MASQUERADE without address). */
  | 'conntrack'
  | 'nat'
  /** The run took more hops than any real path has. */
  | 'loop';

/** Where a packet's journey ended. */
export type Outcome =
  /** Handed to the host's socket layer (TCP/UDP/ICMP receive), with the header as received. */
  | {
      readonly kind: 'delivered';
      readonly host: HostRef;
      readonly iface: string;
      readonly packet: PacketHeader;
      /** The trace's packet id: its DELIVERED step is the one of this packet. */
      readonly packetId: number;
    }
  | {
      readonly kind: 'dropped';
      readonly host: HostRef;
      readonly reason: DropReason;
      readonly why: Explanation;
    }
  /**
   * A REJECT rule dropped it and the node's kernel answered (ICMP error or TCP reset): `reply`
   * as the node generated it, `then` where that reply ended.
   */
  | {
      readonly kind: 'answered';
      readonly by: HostRef;
      readonly reply: PacketHeader;
      readonly then: Outcome;
    };

/** The L2 destination of a frame entering a bridge: the bridge itself (gateway MAC) or a port. */
export type BridgeDst =
  { readonly kind: 'host' } | { readonly kind: 'port'; readonly port: string };

/** The functions the hosts call on each other (one run's protocol stack). */
export interface Stack {
  /** dev_queue_xmit() on `oif` of `from`, towards the neighbour answering for `nexthop`. */
  transmit(ctx: Ctx, from: HostRef, oif: string, skb: Skb, nexthop: string): Outcome;
  /** ip_rcv() on a node; `prerouted` when br_netfilter already ran PREROUTING for it. */
  nodeReceive(ctx: Ctx, node: string, iface: string, skb: Skb, prerouted: boolean): Outcome;
  /** ip_local_out() on a node: a locally generated packet. */
  nodeOutput(ctx: Ctx, node: string, skb: Skb): Outcome;
  /** br_handle_frame() on a node's cni0 for a frame from port `inPort`. */
  bridgeInput(ctx: Ctx, node: string, inPort: string, skb: Skb, dst: BridgeDst): Outcome;
  /** A pod's or external client's IP receive. */
  hostReceive(ctx: Ctx, host: HostRef, iface: string, skb: Skb): Outcome;
  /** ipt_REJECT on a node: the original is dropped, the kernel answers. */
  reject(ctx: Ctx, node: string, skb: Skb, how: RejectWith, rejected: RejectedAt): Outcome;
}

/** Where a REJECT happened: the packet's route was local (RTCF_LOCAL) or not, its input device. */
export interface RejectedAt {
  readonly local: boolean;
  readonly inIface?: string | undefined;
}

export interface Ctx {
  readonly world: World;
  readonly rec: Recorder;
  readonly stack: Stack;
  /** Host-to-host transitions so far (a guard against loops). */
  hops: number;
  /** Allocates the trace packet id of a packet the kernel generates (REJECT answers). */
  newPacketId(): number;
}

/** More transitions than any path in the lab takes: the run is cut as a loop. */
export const MAX_HOPS = 64;

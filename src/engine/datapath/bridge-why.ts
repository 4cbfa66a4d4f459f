/**
 * Why cni0 forwards a frame from one port to another as it does: whether br_netfilter hands
 * it to iptables and conntrack (net.bridge.bridge-nf-call-iptables, br_nf_pre_routing) and,
 * when it does not, what that costs — the lab's key experiment: the reply of a Service
 * connection between two pods of one node is switched at layer 2 with its source unrestored.
 */
import type { Explanation } from '../../protocol/trace';
import { ctPeek, tupleOf } from '../conntrack';
import { ctLookupView } from './ct-view';
import type { NodeCtx } from './hooks';
import type { Skb } from './packet';
import { why } from './recorder';
import type { Ctx } from './types';

/** The explanation of the bridge step of a frame from `inPort` to another port. */
export function bridgeToPortWhy(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  inPort: string,
  callIptables: boolean,
): Explanation {
  // With the sysctl at 1 br_nf_pre_routing() runs the IPv4 PREROUTING hook on the frame here.
  if (callIptables) return why('datapath.bridge.to-port', { port: inPort });
  const dnated = dnatedReplyOf(ctx, node, skb);
  if (dnated === undefined) return why('datapath.bridge.to-port.no-netfilter', { port: inPort });
  const h = skb.header;
  return why('datapath.bridge.to-port.no-undnat', {
    port: inPort,
    node: node.name,
    service: dnated,
    src: `${h.src}:${h.sport ?? 0}`,
  });
}

/**
 * `addr:port` the client connected to, when the frame is the reply direction of a DNATed
 * connection in the node's conntrack table: what nf_nat would have restored as the source had
 * conntrack seen the frame. Read without touching the table (the kernel does not look it up).
 */
function dnatedReplyOf(ctx: Ctx, node: NodeCtx, skb: Skb): string | undefined {
  const tuple = tupleOf(ctLookupView(skb));
  if (tuple === undefined || tuple.proto === 'icmp') return undefined;
  const hit = ctPeek(node.dp.conntrack, tuple, ctx.world.clock.now());
  if (hit === undefined || hit.dir !== 'REPLY') return undefined;
  const { orig, reply } = hit.entry;
  if (orig.proto === 'icmp' || reply.proto === 'icmp') return undefined;
  if (orig.dst === reply.src && orig.dport === reply.sport) return undefined;
  return `${orig.dst}:${orig.dport}`;
}

/**
 * br_flood() (net/bridge/br_forward.c): a unicast frame whose destination MAC cni0's fdb does
 * not know goes out of every port (BR_FLOOD is on by default), in port-list order, each copy a
 * clone (deliver_clone). should_deliver() skips the ingress port unless it has the hairpin flag;
 * a frame cni0 itself sends (br_dev_xmit) has no ingress port. A bridged IPv4 frame that went
 * through br_nf_pre_routing runs FORWARD and POSTROUTING once per copy (__br_forward →
 * br_nf_forward_ip, br_nf_post_routing; PHYSOUT is the copy's port).
 *
 * The pod whose MAC it is takes its copy; every other pod's eth0 sees one (tcpdump is
 * promiscuous) and drops it (PACKET_OTHERHOST).
 */
import { podMac } from './bridge-fdb';
import { dropped, nodeCtx, settle } from './hooks';
import { forwardHook, postrouting } from './ipv4-hooks';
import { deliverToOtherHost, deliverToPort } from './link';
import { bridgePorts } from './bridge-ports';
import type { Skb } from './packet';
import { place, why } from './recorder';
import { portHairpin } from './state';
import type { Ctx, Outcome } from './types';

/** Floods `skb` (for `mac`) on `nodeName`'s cni0; `inPort`: the port it came in on, if any. */
export function flood(
  ctx: Ctx,
  nodeName: string,
  skb: Skb,
  mac: string,
  inPort: string | undefined,
): Outcome {
  const node = nodeCtx(ctx, nodeName);
  const nodeRef = { kind: 'node' as const, name: nodeName };
  if (node === undefined)
    return dropped(ctx, nodeRef, skb, 'cni0', 'no-route', why('datapath.drop.no-host'));
  const targets = bridgePorts(ctx.world.cluster, nodeName).filter(
    (bp) => bp.port !== inPort || portHairpin(ctx.world, node.dp, bp.port),
  );
  if (ctx.rec.on)
    ctx.rec.add(skb, {
      kind: 'bridge',
      at: place(nodeRef, 'cni0'),
      why: why('datapath.bridge.flood', { ports: targets.length }),
      bridge: 'cni0',
      inPort: inPort ?? 'cni0',
      callIptables: inPort !== undefined && skb.physIn !== undefined,
    });
  let owner: Outcome | undefined;
  let last: Outcome | undefined;
  targets.forEach((bp, i) => {
    const copy = i === targets.length - 1 ? skb : { ...skb };
    if (inPort !== undefined && copy.physIn !== undefined) {
      const devs = { inIface: 'cni0', outIface: 'cni0', physIn: copy.physIn, physOut: bp.port };
      const fwd = forwardHook(ctx, node, copy, devs);
      if (fwd.kind !== 'accept') {
        last = settle(ctx, node, copy, fwd, 'cni0', { local: false, inIface: 'cni0' });
        return;
      }
      const post = postrouting(ctx, node, copy, {
        outIface: 'cni0',
        physIn: copy.physIn,
        physOut: bp.port,
      });
      if (post.kind !== 'accept') {
        last = settle(ctx, node, copy, post, 'cni0', { local: false });
        return;
      }
    }
    if (podMac(bp.pod) === mac) owner = deliverToPort(ctx, nodeName, bp.port, copy, bp.ref);
    else last = deliverToOtherHost(ctx, nodeName, bp.port, copy, bp.ref);
  });
  return (
    owner ?? last ?? dropped(ctx, nodeRef, skb, 'cni0', 'neighbour', why('datapath.drop.otherhost'))
  );
}

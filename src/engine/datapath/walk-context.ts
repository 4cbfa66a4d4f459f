/**
 * What the netfilter walk asks the node about (WalkContext): its addresses, ipsets and IPVS
 * connections, its walk store, the clock and the RNG, and the packet's conntrack. The node's
 * callbacks are made once per NodeCtx (a node's walk asks for them at every table with rules).
 */
import type { WalkContext } from '../netfilter';
import { testTuple } from '../ipset';
import type { World } from '../sim/world';
import type { NodeCtx } from './hooks';
import { addrTypeOf, isLocalAddress } from './net';
import { walkConntrackOf, type Skb } from './packet';
import type { Ctx } from './types';

type NodeCallbacks = Required<
  Pick<WalkContext, 'isLocalAddress' | 'addrType' | 'ipsetTest' | 'ipvs'>
> & { readonly context: Mutable<WalkContext> };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const callbacks = new WeakMap<NodeCtx, NodeCallbacks>();

function nodeCallbacks(world: World, node: NodeCtx): NodeCallbacks {
  const f: Omit<NodeCallbacks, 'context'> = {
    isLocalAddress: (ip) => isLocalAddress(node.net, ip),
    addrType: (ip, iface) => addrTypeOf(node.net, ip, iface),
    ipsetTest: (name, dims, packet) => {
      const set = world.kernel(node.name)?.ipsets.sets.find((x) => x.name === name);
      if (set === undefined) return false;
      const side = (i: number): 'src' | 'dst' | undefined => dims[i];
      const ipOf = (d: 'src' | 'dst' | undefined) =>
        d === 'src' ? packet.src : d === 'dst' ? packet.dst : undefined;
      const portOf = (d: 'src' | 'dst' | undefined) =>
        d === 'src' ? packet.sport : d === 'dst' ? packet.dport : undefined;
      if (set.type === 'bitmap:port') {
        const port = portOf(side(0));
        return port !== undefined && testTuple(set, { port });
      }
      const tuple: { ip?: string; proto?: string; port?: number; ip2?: string } = {};
      const ip = ipOf(side(0));
      if (ip !== undefined) tuple.ip = ip;
      const port = portOf(side(1));
      if (port !== undefined) tuple.port = port;
      tuple.proto = packet.protocol;
      const ip2 = ipOf(side(2));
      if (ip2 !== undefined) tuple.ip2 = ip2;
      return testTuple(set, tuple);
    },
    ipvs: (packet) => {
      // xt_ipvs: the packet's IPVS connection (skb->ipvs_property) as the request path left it.
      const ipvs = world.kernel(node.name)?.ipvs;
      const conn = ipvs?.conns.find(
        (c) =>
          !c.template &&
          c.daddr === packet.dst &&
          c.dport === packet.dport &&
          c.caddr === packet.src &&
          c.cport === packet.sport,
      );
      if (conn === undefined) return undefined;
      const method =
        conn.dest?.fwd === 'Route' ? 'GATE' : conn.dest?.fwd === 'Tunnel' ? 'IPIP' : 'MASQ';
      return { vaddr: conn.vaddr, vport: conn.vport, method };
    },
  };
  // The fields in the order the context always had.
  const context: Mutable<WalkContext> = {
    conntrack: { state: 'INVALID' },
    isLocalAddress: f.isLocalAddress,
    addrType: f.addrType,
    rng: world.rng,
    now: 0,
    store: node.dp.walkStore,
    ipsetTest: f.ipsetTest,
    ipvs: f.ipvs,
  };
  return { ...f, context };
}

/** The walk's view of `node` for `skb` now. */
export function walkContext(ctx: Ctx, node: NodeCtx, skb: Skb): WalkContext {
  let f = callbacks.get(node);
  if (f === undefined) callbacks.set(node, (f = nodeCallbacks(ctx.world, node)));
  // One object per node, refilled for each walk: traverseRules copies the fields it needs when
  // it starts (walk-state.ts) and keeps no reference to this one, so a walk started while
  // another runs (none is) could not change what the first one sees. The conntrack view is
  // new each time: the walk keeps that one.
  const w = f.context;
  w.conntrack = walkConntrackOf(skb);
  w.rng = ctx.world.rng;
  w.now = ctx.world.clock.now();
  w.store = node.dp.walkStore;
  return w;
}

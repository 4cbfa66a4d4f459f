/**
 * The NAT hooks (nf_nat_proto.c nf_nat_ipv4_fn → nf_nat_core.c nf_nat_inet_fn): DST manip at
 * PREROUTING and OUTPUT, SRC manip at POSTROUTING and INPUT. The nat table is walked only for
 * a connection's first packet (ctstate NEW or RELATED while the manip is not initialised);
 * a chain that sets up nothing leaves a null binding. Every packet is then rewritten from the
 * binding (nf_nat_packet), replies inverted. MASQUERADE takes the output device's address
 * (nf_nat_masquerade_ipv4: inet_select_addr(out, nexthop, RT_SCOPE_UNIVERSE)), REDIRECT the
 * input device's or 127.0.0.1 (nf_nat_redirect_ipv4); ICMP errors
 * about a connection are translated inside and out (nf_nat_icmp_reply_translation), which the
 * conntrack module leaves to its caller.
 */
import type { EmbeddedHeader, Hook, PacketHeader } from '../../protocol/trace';
import {
  IPS,
  hookManip,
  natApplies,
  natNeeded,
  natSetup,
  mustInvert,
  type CtDir,
  type CtEntry,
  type CtTuple,
  type NatRange,
} from '../conntrack';
import type { NatRequest } from '../netfilter';
import { ACCEPT, hookIface, walkTable, type Fate, type NodeCtx } from './hooks';
import { nftNatLookup } from './nft-hooks';
import { firstAddress, primaryAddress } from './net';
import { withAddresses } from './header-copy';
import type { HookDevices, Skb } from './packet';
import { place, why } from './recorder';
import type { Ctx } from './types';

/** The conntrack range a DNAT/SNAT/MASQUERADE target asks for; undefined = no address. */
function rangeOf(
  node: NodeCtx,
  nat: NatRequest,
  skb: Skb,
  hook: Hook,
  devs: HookDevices,
): NatRange | undefined {
  const r = nat.range;
  const outIface = devs.outIface;
  let addr: string | undefined;
  if (nat.kind === 'masquerade') {
    // MASQUERADE: the outgoing interface's primary address ("<dev> ate my IP address" if none).
    addr = outIface === undefined ? undefined : primaryAddress(node.net, outIface);
  } else if (nat.kind === 'redirect') {
    // nf_nat_redirect_ipv4(): the loopback address for what this node sends, else the first
    // address of the device the packet came in on (dropped when it has none).
    if (hook === 'OUTPUT') addr = '127.0.0.1';
    else addr = devs.inIface === undefined ? undefined : firstAddress(node.net, devs.inIface);
  } else {
    addr = r.minAddr ?? (nat.kind === 'dnat' ? skb.header.dst : skb.header.src);
  }
  if (addr === undefined) return undefined;
  return {
    addr,
    ...(r.minPort !== undefined ? { port: r.minPort, portMax: r.maxPort ?? r.minPort } : {}),
    ...(r.random ? { random: true } : {}),
    ...(r.randomFully ? { randomFully: true } : {}),
  };
}

/**
 * nf_nat_inet_fn() at `hook`: the nat table for a first packet, then the rewrite. Records the
 * rule steps and a `nat` step when the header changed.
 */
export function natHook(ctx: Ctx, node: NodeCtx, skb: Skb, hook: Hook, devs: HookDevices): Fate {
  const ct = skb.ct;
  const manip = hookManip(hook);
  if (ct === undefined || manip === undefined) return ACCEPT; // no conntrack, no NAT
  if (ct.state === 'RELATED' && skb.header.proto === 'icmp' && skb.header.inner !== undefined) {
    icmpReplyTranslation(ctx, skb, ct.entry, ct.dir, hook, place(node.ref, hookIface(hook, devs)));
    return ACCEPT;
  }
  if ((ct.state === 'NEW' || ct.state === 'RELATED') && natNeeded(ct.entry, manip)) {
    const r = walkTable(ctx, node, skb, hook, 'nat', devs);
    if (r.verdict !== 'ACCEPT') {
      return {
        kind: 'drop',
        reason: 'netfilter',
        why: why('datapath.drop.netfilter', { table: 'nat', hook }),
      };
    }
    let range: NatRange | null = null;
    let request = r.nat;
    if (request === undefined) {
      // kube-proxy's nat chains (nftables mode) are the next NAT lookup functions.
      const n = nftNatLookup(ctx, node, skb, hook, devs);
      if (n?.drop === true) {
        return {
          kind: 'drop',
          reason: 'netfilter',
          why: why('datapath.drop.netfilter', { table: 'nat', hook }),
        };
      }
      request = n?.nat;
    }
    if (request !== undefined) {
      const wanted = rangeOf(node, request, skb, hook, devs);
      if (wanted === undefined) {
        const redirect = request.kind === 'redirect';
        return {
          kind: 'drop',
          reason: 'nat',
          why: redirect
            ? why('datapath.drop.redirect-no-address', { iface: devs.inIface ?? '' })
            : why('datapath.drop.masquerade-no-address', { iface: devs.outIface ?? '' }),
        };
      }
      range = wanted;
    }
    const setup = natSetup(
      node.dp.conntrack,
      ct.entry,
      manip,
      range,
      ctx.world.rng,
      ctx.world.clock.now(),
    );
    if (setup.kind === 'drop') {
      return {
        kind: 'drop',
        reason: 'nat',
        why: why('datapath.drop.nat', { reason: setup.reason }),
      };
    }
  }
  // Most packets have no binding to apply at this hook: no conntrack packet is built for them.
  if (!natApplies(ct.entry, ct.dir, hook)) return ACCEPT;
  const before = skb.header;
  const after = natRewrite(ct.entry, ct.dir, manip, before);
  if (after === undefined) return ACCEPT;
  skb.header = after;
  if (!ctx.rec.on) return ACCEPT;
  const kind = ct.dir === 'ORIGINAL' ? manip : manip === 'dnat' ? 'unsnat' : 'undnat';
  ctx.rec.add(skb, {
    kind: 'nat',
    at: place(node.ref, hookIface(hook, devs)),
    why: why(`datapath.nat.${kind}`, { hook }),
    hook,
    manip: kind,
    before,
    after: skb.header,
  });
  return ACCEPT;
}

/**
 * nf_nat_packet() → nf_nat_manip_pkt() on the header: conntrack's natPacket() of the packet's
 * conntrack view, then withAddresses() of what it rewrote — without building either packet
 * (every packet of a NATed connection passes here at one hook or two). The target is the
 * inverse of the other direction's tuple: a SRC manip takes its source address and port (ICMP:
 * its id), a DST manip its destination; a field is rewritten only when the packet has it and
 * it differs. undefined: nothing changes (nat-rewrite.test.ts compares it with natPacket).
 */
export function natRewrite(
  entry: CtEntry,
  dir: CtDir,
  manip: 'snat' | 'dnat',
  h: PacketHeader,
): PacketHeader | undefined {
  const other = dir === 'ORIGINAL' ? entry.reply : entry.orig;
  // mustInvert(other): the inverse swaps addresses and ports; an ICMP tuple keeps its id.
  const src = manip === 'snat' ? other.dst : h.src;
  const dst = manip === 'dnat' ? other.src : h.dst;
  let changed = src !== h.src || dst !== h.dst;
  let sport = h.sport;
  let dport = h.dport;
  let icmpId = h.icmp?.id;
  // An ICMP error's ports and id are in its quoted header (nf_nat_icmp_reply_translation).
  if (h.inner === undefined) {
    if (other.proto === 'icmp') {
      const inv = mustInvert(other);
      const id = inv.proto === 'icmp' ? inv.id : undefined;
      if (icmpId !== undefined && icmpId !== id) {
        icmpId = id;
        changed = true;
      }
    } else if (manip === 'snat') {
      if (sport !== undefined && sport !== other.dport) {
        sport = other.dport;
        changed = true;
      }
    } else if (dport !== undefined && dport !== other.sport) {
      dport = other.sport;
      changed = true;
    }
  }
  return changed ? withAddresses(h, { src, dst, sport, dport, icmpId }) : undefined;
}

/** nf_nat_ipv4_manip_pkt() on the quoted header: SRC manip sets the source side from `t`. */
function manipInner(h: EmbeddedHeader, t: CtTuple, manip: 'snat' | 'dnat'): EmbeddedHeader {
  if (manip === 'snat') {
    if (t.proto === 'icmp')
      return h.icmp ? { ...h, src: t.src, icmp: { ...h.icmp, id: t.id } } : { ...h, src: t.src };
    return h.sport !== undefined ? { ...h, src: t.src, sport: t.sport } : { ...h, src: t.src };
  }
  if (t.proto === 'icmp') return { ...h, dst: t.dst };
  return h.dport !== undefined ? { ...h, dst: t.dst, dport: t.dport } : { ...h, dst: t.dst };
}

/**
 * nf_nat_icmp_reply_translation(): an ICMP error related to a NATed connection gets its quoted
 * header manipulated the other way round (from the other direction's tuple) and its outer
 * header made to look like a reply to it — when the connection has the NAT this hook undoes
 * (status bit inverted for the reply direction, as nf_nat_packet does).
 */
function icmpReplyTranslation(
  ctx: Ctx,
  skb: Skb,
  entry: CtEntry,
  dir: CtDir,
  hook: Hook,
  at: ReturnType<typeof place>,
): void {
  const manip = hookManip(hook);
  const inner = skb.header.inner;
  if (manip === undefined || inner === undefined) return;
  let bit = manip === 'snat' ? IPS.SRC_NAT : IPS.DST_NAT;
  if (dir === 'REPLY') bit = bit === IPS.SRC_NAT ? IPS.DST_NAT : IPS.SRC_NAT;
  if ((entry.status & bit) === 0) return;
  const other = dir === 'ORIGINAL' ? entry.reply : entry.orig;
  const before: PacketHeader = skb.header;
  const newInner = manipInner(inner, other, manip === 'snat' ? 'dnat' : 'snat');
  // The outer header becomes the inverse of the other direction's tuple on this manip's side.
  const outer =
    manip === 'snat' ? { src: other.dst, dst: before.dst } : { src: before.src, dst: other.src };
  skb.header = { ...before, ...outer, inner: newInner };
  const kind = dir === 'ORIGINAL' ? manip : manip === 'dnat' ? 'unsnat' : 'undnat';
  ctx.rec.add(skb, {
    kind: 'nat',
    at,
    why: why('datapath.nat.icmp', { hook }),
    hook,
    manip: kind,
    before,
    after: skb.header,
  });
}

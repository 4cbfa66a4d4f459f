/**
 * kube-proxy's nftables base chains at the node's hooks (nftables mode). Each base chain is a
 * hook entry of its own, run in priority order among iptables-nft's tables: at PREROUTING and
 * OUTPUT `filter-*-pre-dnat` (-110) runs after mangle (-150) and before NAT (-100); the
 * filter chains at priority 0 run after iptables' filter table; `nat-*` chains are NAT lookup
 * functions that nf_nat_inet_fn() calls in priority order until one sets up a binding.
 *
 * Where the lab assumes: for equal priorities the kernel runs entries in registration order
 * (nf_hook_entries_grow inserts a new entry after those of the same priority); kubelet's
 * iptables tables exist before kube-proxy's table is created, so iptables runs first.
 */
import type { Hook } from '../../protocol/trace';
import type { NatRequest } from '../netfilter';
import {
  baseChainsAt,
  evalBaseChain,
  tableKey,
  type NftCtState,
  type NftHook,
  type NftNat,
  type NftResult,
  type NftTable,
} from '../nftables';
import { ACCEPT, hookIface, type Fate, type NodeCtx } from './hooks';
import { isLocalAddress } from './net';
import { withField } from './header-copy';
import type { HookDevices, Skb } from './packet';
import { place, why } from './recorder';
import type { Ctx } from './types';

const HOOKS: Readonly<Record<Hook, NftHook>> = {
  PREROUTING: 'prerouting',
  INPUT: 'input',
  FORWARD: 'forward',
  OUTPUT: 'output',
  POSTROUTING: 'postrouting',
};

function kubeProxyTable(node: NodeCtx): NftTable | undefined {
  return node.nft?.tables.get(tableKey('ip', 'kube-proxy'));
}

function ctState(skb: Skb): NftCtState {
  if (skb.ct !== undefined) return skb.ct.state.toLowerCase() as NftCtState;
  return skb.ctInvalid === 'untracked' ? 'untracked' : 'invalid';
}

function runChain(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  table: NftTable,
  chainName: string,
  devs: HookDevices,
): NftResult {
  const chain = table.chains.get(chainName)!;
  const h = skb.header;
  const proto = h.proto;
  const r = evalBaseChain(
    table,
    chain,
    {
      src: h.src,
      dst: h.dst,
      proto,
      ...(h.dport !== undefined && proto !== 'icmp' ? { dport: h.dport } : {}),
      mark: h.mark,
      ...(devs.inIface !== undefined ? { iif: devs.inIface } : {}),
      ...(devs.outIface !== undefined ? { oif: devs.outIface } : {}),
      ctstate: ctState(skb),
    },
    {
      isLocalAddress: (ip) => isLocalAddress(node.net, ip),
      rng: ctx.world.rng,
      nowMs: ctx.world.clock.now(),
    },
  );
  const at = place(node.ref, hookIface(hook, devs));
  const mode = ctx.rec.ruleSteps;
  for (const s of r.steps) {
    if (mode === 'none' || (mode === 'matched' && !s.matched)) continue;
    const params = { table: table.name, chain: s.chain, outcome: s.outcome };
    let id = s.matched ? 'datapath.nft.matched' : 'datapath.nft.skipped';
    if (s.mismatch !== undefined) {
      id = `datapath.nft.skipped.${s.mismatch.kind}`;
      Object.assign(params, { condition: s.mismatch.condition, value: s.mismatch.value });
    }
    if (s.lookup !== undefined) {
      Object.assign(params, { key: s.lookup.key, set: s.lookup.set });
      if (s.lookup.set === 'numgen') id = 'datapath.nft.numgen';
      else if (!s.rule.startsWith('update '))
        id = s.lookup.found ? 'datapath.nft.lookup-hit' : 'datapath.nft.lookup-miss';
    }
    ctx.rec.add(skb, {
      kind: 'nft-rule',
      at,
      why: why(id, params),
      hook,
      family: 'ip',
      table: table.name,
      chain: s.chain,
      handle: s.handle,
      rule: s.rule,
      matched: s.matched,
      outcome: s.outcome,
      ...(s.lookup !== undefined ? { lookup: s.lookup } : {}),
    });
  }
  if (r.mark !== skb.header.mark) skb.header = withField(skb.header, 'mark', r.mark);
  return r;
}

/** The kube-proxy filter base chains at `hook` with lo < priority <= hi, in priority order. */
export function nftFilter(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  devs: HookDevices,
  lo: number,
  hi: number,
): Fate {
  const table = kubeProxyTable(node);
  if (table === undefined) return ACCEPT;
  for (const chain of baseChainsAt(table, HOOKS[hook], 'filter')) {
    const prio = chain.base?.priority ?? 0;
    if (prio <= lo || prio > hi) continue;
    const r = runChain(ctx, node, skb, hook, table, chain.name, devs);
    if (r.verdict === 'reject') return { kind: 'reject', with: 'icmp-port-unreachable' };
    if (r.verdict === 'drop') {
      return {
        kind: 'drop',
        reason: 'netfilter',
        why: why('datapath.drop.nft', { table: table.name, chain: chain.name, hook }),
      };
    }
  }
  return ACCEPT;
}

function natRequest(nat: NftNat): NatRequest {
  const common = { random: false, persistent: false };
  if (nat.kind === 'masquerade') {
    return {
      kind: 'masquerade',
      range: { ...common, randomFully: nat.fullyRandom },
      ...common,
      randomFully: nat.fullyRandom,
    };
  }
  return {
    kind: 'dnat',
    range: {
      ...common,
      randomFully: false,
      minAddr: nat.addr,
      maxAddr: nat.addr,
      ...(nat.port !== undefined ? { minPort: nat.port, maxPort: nat.port } : {}),
    },
    ...common,
    randomFully: false,
  };
}

/**
 * The kube-proxy nat base chains at `hook`, as NAT lookup functions (nf_nat_inet_fn): the first
 * that sets up NAT wins; a drop ends the packet. Undefined when none of them set NAT up.
 */
export function nftNatLookup(
  ctx: Ctx,
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  devs: HookDevices,
): { readonly drop: boolean; readonly nat?: NatRequest } | undefined {
  const table = kubeProxyTable(node);
  if (table === undefined) return undefined;
  for (const chain of baseChainsAt(table, HOOKS[hook], 'nat')) {
    const r = runChain(ctx, node, skb, hook, table, chain.name, devs);
    if (r.verdict !== 'accept') return { drop: true };
    if (r.nat !== undefined) return { drop: false, nat: natRequest(r.nat) };
  }
  return undefined;
}

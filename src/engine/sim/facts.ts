/**
 * The running lab as plain, JSON-safe facts: what lesson checks (and anything else that judges
 * the lab's state) read. Nothing here is a tool's output: it is the state the tools print —
 * the cluster, each node's conntrack entries, iptables rules with their counters, sysctls,
 * bridge ports' hairpin flags — plus the trace steps recorded since a given point.
 *
 * Reading facts boots every node (as any command on it would) and collects expired conntrack
 * entries (as `conntrack -L` does); it changes nothing else.
 */
import type { TraceStep } from '../../protocol/trace';
import type { Cluster } from '../model/cluster';
import { IPS, ctExpire, type CtEntry, type CtTuple, type TcpState } from '../conntrack';
import { hairpinFlag, nodeConntrack } from '../datapath';
import { ruleSpec, type NetfilterState, type TableName } from '../netfilter';
import { hostNetwork } from '../routing/topology';
import { traceSince } from './network';
import type { World } from './world';

/** A conntrack tuple with the L4 ports (0 for ICMP). */
export interface TupleFact {
  readonly proto: 'tcp' | 'udp' | 'icmp';
  readonly src: string;
  readonly dst: string;
  readonly sport: number;
  readonly dport: number;
}

/** One confirmed, unexpired conntrack entry, as `conntrack -L` lists it. */
export interface ConntrackFact {
  readonly id: number;
  readonly orig: TupleFact;
  readonly reply: TupleFact;
  /** TCP state (ESTABLISHED, TIME_WAIT…); undefined for UDP and ICMP. */
  readonly tcpState?: TcpState;
  /** A reply was seen (no `[UNREPLIED]`). */
  readonly seenReply: boolean;
  readonly assured: boolean;
  /** The entry's NAT: the destination was rewritten (DNAT) / the source (SNAT, MASQUERADE). */
  readonly dstNat: boolean;
  readonly srcNat: boolean;
}

/** One rule of a chain, as `iptables -S` prints it, with its counters. */
export interface RuleFact {
  readonly chain: string;
  /** 1-based position in the chain. */
  readonly num: number;
  /** `-A CHAIN …` exactly as `iptables -S` prints it. */
  readonly text: string;
  /** The jump/goto target or verdict (`KUBE-SVC-…`, `DNAT`, `ACCEPT`). */
  readonly target: string;
  readonly packets: number;
  readonly bytes: number;
}

export interface BridgePortFact {
  /** The host-side veth (`vethdbb5fd30`). */
  readonly port: string;
  /** The pod behind it (`default/web-1`), when known. */
  readonly pod?: string;
  readonly hairpin: boolean;
}

export interface NodeFacts {
  readonly name: string;
  readonly sysctls: Readonly<Record<string, string>>;
  readonly conntrack: readonly ConntrackFact[];
  /** Rules per table (nat, filter), in chain-listing order. */
  readonly rules: Readonly<Partial<Record<TableName, readonly RuleFact[]>>>;
  /** User chains per table (KUBE-SVC-…, KUBE-SEP-…). */
  readonly chains: Readonly<Partial<Record<TableName, readonly string[]>>>;
  readonly bridgePorts: readonly BridgePortFact[];
}

export interface LabFacts {
  readonly cluster: Cluster;
  /** Virtual time, ms. */
  readonly nowMs: number;
  readonly nodes: Readonly<Record<string, NodeFacts>>;
  /** Trace steps recorded since the cursor asked for (every packet the lab moved since). */
  readonly steps: readonly TraceStep[];
}

function tupleFact(t: CtTuple): TupleFact {
  return t.proto === 'icmp'
    ? { proto: 'icmp', src: t.src, dst: t.dst, sport: 0, dport: 0 }
    : { proto: t.proto, src: t.src, dst: t.dst, sport: t.sport, dport: t.dport };
}

function conntrackFact(e: CtEntry): ConntrackFact {
  return {
    id: e.id,
    orig: tupleFact(e.orig),
    reply: tupleFact(e.reply),
    ...(e.tcp !== undefined ? { tcpState: e.tcp.state } : {}),
    seenReply: (e.status & IPS.SEEN_REPLY) !== 0,
    assured: (e.status & IPS.ASSURED) !== 0,
    dstNat: (e.status & IPS.DST_NAT) !== 0,
    srcNat: (e.status & IPS.SRC_NAT) !== 0,
  };
}

const TABLES: readonly TableName[] = ['nat', 'filter'];

function tableFacts(nf: NetfilterState): Pick<NodeFacts, 'rules' | 'chains'> {
  const rules: Partial<Record<TableName, RuleFact[]>> = {};
  const chains: Partial<Record<TableName, string[]>> = {};
  for (const name of TABLES) {
    const table = nf.tables[name];
    if (table === undefined) continue;
    const list: RuleFact[] = [];
    for (const chain of table.chains) {
      chain.rules.forEach((r, i) => {
        const text = `-A ${chain.name}${ruleSpec(r)}`;
        const target = / -[jg] (\S+)/.exec(text)?.[1] ?? '';
        list.push({
          chain: chain.name,
          num: i + 1,
          text,
          target,
          packets: r.counters.packets,
          bytes: r.counters.bytes,
        });
      });
    }
    rules[name] = list;
    chains[name] = table.chains.filter((c) => !c.builtin).map((c) => c.name);
  }
  return { rules, chains };
}

function nodeFacts(world: World, name: string): NodeFacts | undefined {
  const kernel = world.kernel(name);
  if (kernel === undefined) return undefined;
  const table = nodeConntrack(world, name);
  const now = world.clock.now();
  ctExpire(table, now);
  const conntrack = Object.values(table.entries)
    .filter((e) => (e.status & IPS.CONFIRMED) !== 0)
    .sort((a, b) => a.id - b.id)
    .map(conntrackFact);
  const net = hostNetwork(world.cluster, { kind: 'node', name });
  const podByIfindex = new Map<number, string>();
  for (const pod of world.cluster.pods) {
    if (pod.nodeName !== name || pod.hostNetwork) continue;
    const podNet = hostNetwork(world.cluster, {
      kind: 'pod',
      namespace: pod.meta.namespace,
      name: pod.meta.name,
    });
    const eth0 = podNet?.interfaces.find((i) => i.name === 'eth0');
    if (eth0?.peerIfindex !== undefined) {
      podByIfindex.set(eth0.peerIfindex, `${pod.meta.namespace}/${pod.meta.name}`);
    }
  }
  const bridgePorts = (net?.interfaces ?? [])
    .filter((i) => i.master === 'cni0')
    .map((i) => {
      const pod = podByIfindex.get(i.ifindex);
      return {
        port: i.name,
        ...(pod !== undefined ? { pod } : {}),
        hairpin: hairpinFlag(world, name, i.name),
      };
    });
  return {
    name,
    sysctls: { ...kernel.sysctls },
    conntrack,
    ...tableFacts(kernel.netfilter),
    bridgePorts,
  };
}

/** The lab's state now, with the trace steps recorded since `traceFrom` (a traceCursor value). */
export function labFacts(world: World, traceFrom = 0): LabFacts {
  const nodes: Record<string, NodeFacts> = {};
  for (const node of world.cluster.nodes) {
    const facts = nodeFacts(world, node.meta.name);
    if (facts !== undefined) nodes[node.meta.name] = facts;
  }
  return {
    cluster: world.cluster,
    nowMs: world.clock.now(),
    nodes,
    steps: traceSince(world, traceFrom),
  };
}

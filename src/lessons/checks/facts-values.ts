/**
 * Values a learner reads off the lab and types into a value question (a chain name, a
 * probability, a count), computed from the engine's state the way the tools print them. The
 * `answer` check compares the learner's text with these.
 */
import type { LabFacts, RuleFact } from '../../engine';
import type { CheckParam } from '../types';
import { addressSet, findService, readyEndpoints, resolveRef } from './refs';

export type ValueFn = (facts: LabFacts, params: Readonly<Record<string, CheckParam>>) => string[];

function str(p: CheckParam | undefined, fallback = ''): string {
  return p === undefined ? fallback : String(p);
}

function natRules(facts: LabFacts, node: string): readonly RuleFact[] {
  return facts.nodes[node]?.rules.nat ?? [];
}

/** The `--comment` text of a rule as iptables -S prints it (quotes removed). */
function comment(rule: RuleFact): string {
  const m = /--comment (?:"([^"]*)"|(\S+))/.exec(rule.text);
  return m?.[1] ?? m?.[2] ?? '';
}

/** `ns/name` or `ns/name:port`: the service-port name kube-proxy writes in comments. */
function servicePortName(facts: LabFacts, service: string, port: string): string | undefined {
  const svc = findService(facts, service);
  if (svc === undefined) return undefined;
  const base = `${svc.meta.namespace}/${svc.meta.name}`;
  const p = port !== '' ? svc.ports.find((x) => x.name === port) : svc.ports[0];
  if (p === undefined) return undefined;
  return p.name === '' ? base : `${base}:${p.name}`;
}

/** The KUBE-SVC chain KUBE-SERVICES sends this service port's ClusterIP traffic to. */
export function svcChain(facts: LabFacts, node: string, service: string, port = ''): string {
  const spn = servicePortName(facts, service, port);
  if (spn === undefined) return '';
  const rule = natRules(facts, node).find(
    (r) => r.chain === 'KUBE-SERVICES' && comment(r) === `${spn} cluster IP`,
  );
  return rule?.target ?? '';
}

/** The rules of the service's KUBE-SVC chain that jump to a KUBE-SEP chain, in order. */
export function sepJumps(facts: LabFacts, node: string, service: string, port = ''): RuleFact[] {
  const chain = svcChain(facts, node, service, port);
  if (chain === '') return [];
  return natRules(facts, node).filter((r) => r.chain === chain && r.target.startsWith('KUBE-SEP-'));
}

/** The probability printed on a KUBE-SVC → KUBE-SEP rule ('' for the last, unconditional one). */
export function probabilityOf(rule: RuleFact): string {
  return /--probability (\S+)/.exec(rule.text)?.[1] ?? '';
}

/** The DNAT destination (`ip:port`) of a KUBE-SEP chain. */
export function sepDestination(facts: LabFacts, node: string, sep: string): string {
  const rule = natRules(facts, node).find((r) => r.chain === sep && r.target === 'DNAT');
  return /--to-destination (\S+)/.exec(rule?.text ?? '')?.[1] ?? '';
}

export const VALUES: Readonly<Record<string, ValueFn>> = {
  /** kube-proxy's mode as the kube-proxy ConfigMap shows it. */
  kubeProxyMode: (facts) => [facts.cluster.kubeProxy.mode],
  /** How many KUBE-SVC-… chains the node's nat table has. */
  svcChainCount: (facts, p) => [
    String(
      (facts.nodes[str(p.node, 'node-1')]?.chains.nat ?? []).filter((c) =>
        c.startsWith('KUBE-SVC-'),
      ).length,
    ),
  ],
  /** The KUBE-SVC chain of a service port. */
  svcChain: (facts, p) => [svcChain(facts, str(p.node, 'node-1'), str(p.service), str(p.port))],
  /** How many KUBE-SEP chains the service's KUBE-SVC chain jumps to. */
  sepCount: (facts, p) => [
    String(sepJumps(facts, str(p.node, 'node-1'), str(p.service), str(p.port)).length),
  ],
  /** Every `ip:port` the service's KUBE-SEP chains DNAT to (any one is a right answer). */
  dnatTargets: (facts, p) => {
    const node = str(p.node, 'node-1');
    return sepJumps(facts, node, str(p.service), str(p.port)).map((r) =>
      sepDestination(facts, node, r.target),
    );
  },
  /** The probability on the first KUBE-SVC → KUBE-SEP rule (as iptables prints it). */
  firstProbability: (facts, p) => {
    const first = sepJumps(facts, str(p.node, 'node-1'), str(p.service), str(p.port))[0];
    return first !== undefined ? [probabilityOf(first)] : [];
  },
  /** The ready endpoints' addresses (any one is a right answer). */
  endpointAddress: (facts, p) => readyEndpoints(facts, str(p.service)),
  /**
   * The pkts counter of the KUBE-SERVICES rule for the service port's ClusterIP: how many
   * connections walked the nat rules (once per connection, not per packet).
   */
  clusterIPRulePackets: (facts, p) => {
    const node = str(p.node, 'node-1');
    const spn = servicePortName(facts, str(p.service), str(p.port));
    const rule = natRules(facts, node).find(
      (r) => r.chain === 'KUBE-SERVICES' && comment(r) === `${spn} cluster IP`,
    );
    return rule !== undefined ? [String(rule.packets)] : [];
  },
  /** What a reference stands for (`gw:node-1`, `pod:default/client`…). */
  ref: (facts, p) => resolveRef(facts, str(p.ref)),
  /** How many ready endpoints the Service has. */
  endpointCount: (facts, p) => [String(readyEndpoints(facts, str(p.service)).length)],
  /** How many rules of a chain mention `comment` in their comment (0 when none). */
  ruleCount: (facts, p) => [
    String(
      natRules(facts, str(p.node, 'node-1')).filter(
        (r) => r.chain === str(p.chain, 'KUBE-SERVICES') && comment(r).includes(str(p.comment)),
      ).length,
    ),
  ],
  /** How many conntrack entries of the node go to `dst` (original direction). */
  conntrackCount: (facts, p) => {
    const dst = addressSet(facts, p.dst) ?? new Set<string>();
    const entries = facts.nodes[str(p.node, 'node-1')]?.conntrack ?? [];
    return [String(entries.filter((e) => dst.has(e.orig.dst)).length)];
  },
  /**
   * The reply-tuple destination of the newest entry from `src` to port `dport`: the address
   * the backend answered to, i.e. the source it saw (the node's, after SNAT).
   */
  replyDestination: (facts, p) => {
    const src = addressSet(facts, p.src) ?? new Set<string>();
    const entries = (facts.nodes[str(p.node, 'node-1')]?.conntrack ?? []).filter(
      (e) => src.has(e.orig.src) && (p.dport === undefined || e.orig.dport === Number(p.dport)),
    );
    const latest = entries.pop();
    return latest !== undefined ? [latest.reply.dst] : [];
  },
  /**
   * The reply-tuple source port of the newest entry to `dst` port `dport`: the port that
   * answered (after REDIRECT, the --to-ports one).
   */
  replySport: (facts, p) => {
    const dst = addressSet(facts, p.dst) ?? new Set<string>();
    const latest = (facts.nodes[str(p.node, 'node-1')]?.conntrack ?? [])
      .filter((e) => dst.has(e.orig.dst) && e.orig.dport === Number(p.dport))
      .pop();
    return latest !== undefined ? [String(latest.reply.sport)] : [];
  },
  /** The reply-tuple source of the newest conntrack entry to the address: the backend chosen. */
  replySourceOfLatest: (facts, p) => {
    const entries = facts.nodes[str(p.node, 'node-1')]?.conntrack ?? [];
    const dst = str(p.dst);
    const svc = dst.startsWith('vip:') ? findService(facts, dst.slice(4))?.clusterIP : dst;
    const latest = entries.filter((e) => e.orig.dst === svc).pop();
    return latest !== undefined ? [latest.reply.src] : [];
  },
};

/** How a learner's text is compared: case, quotes and surrounding blanks do not matter; numbers compare as numbers. */
export function sameValue(typed: string, expected: string): boolean {
  const norm = (s: string) =>
    s
      .trim()
      .replace(/^["']|["']$/g, '')
      .trim()
      .toLowerCase();
  const a = norm(typed);
  const b = norm(expected);
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) < 1e-3;
}

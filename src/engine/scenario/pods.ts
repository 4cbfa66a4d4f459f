/**
 * Where pods run and which address they get: the scheduler's and the CNI's work.
 *
 * Scheduling: spec.nodeName pins a pod (as when the scheduler is bypassed). Otherwise the lab
 * picks the node with the fewest pods so far, ties broken by node name — a deterministic stand-
 * in for the default scheduler's spreading (NodeResourcesBalancedAllocation, PodTopologySpread's
 * default constraints). A pod keeps the node it had in `previous`.
 *
 * Addresses: hostNetwork pods share their node's InternalIP. Others get one from the node's
 * podCIDR, as host-local IPAM behind the bridge plugin hands them out: the network address and
 * .1 (cni0, the pods' gateway) are never given, nor the broadcast address. status.podIP is
 * honoured; then a pod keeps its previous address; then the lowest free address is used
 * (host-local continues after the last one it gave; on a fresh node that is the same order).
 */
import type { Pod } from '../model/cluster';
import { cidrContains, cidrNth, cidrParse, cidrSize, ipToInt } from '../model/ip';
import type { Cidr } from '../model/ip';
import type { NodeDraft, PodDraft } from './drafts';
import { keyOf } from './drafts';
import { ObjectReport } from './report';
import type { Diagnostics } from './report';

export interface PlacedPod {
  readonly draft: PodDraft;
  readonly nodeName: string;
  readonly podIP: string;
}

interface Slot {
  readonly draft: PodDraft;
  nodeName: string;
  podIP: string;
  failed: boolean;
}

function report(diags: Diagnostics, d: PodDraft): ObjectReport {
  const kind = d.ownerDeployment ? 'Deployment' : 'Pod';
  const rep = new ObjectReport(diags, d.meta.loc.doc, kind, true);
  rep.name = d.ownerDeployment ?? d.meta.name;
  rep.namespace = d.meta.namespace;
  return rep;
}

export function placePods(
  pods: readonly PodDraft[],
  nodes: readonly NodeDraft[],
  previous: readonly Pod[],
  diags: Diagnostics,
  /** Pods being created now (kubectl apply): existing pods keep their addresses first. */
  isNew: (d: PodDraft) => boolean = () => false,
): PlacedPod[] {
  const byName = new Map(nodes.map((n) => [n.meta.name, n]));
  const cidrs = new Map<string, Cidr>();
  for (const n of nodes) {
    const c = n.podCIDR ? cidrParse(n.podCIDR) : undefined;
    if (c) cidrs.set(n.meta.name, c);
  }
  const used = new Map<number, string>();
  const prevByKey = new Map(previous.map((p) => [keyOf(p.meta), p]));
  const slots: Slot[] = pods.map((draft) => ({ draft, nodeName: '', podIP: '', failed: false }));
  const nodePath = (d: PodDraft): string =>
    d.ownerDeployment ? 'spec.template.spec.nodeName' : 'spec.nodeName';

  // Pass 1: explicit status.podIP (decides the node of an unpinned pod).
  for (const s of [
    ...slots.filter((x) => !isNew(x.draft)),
    ...slots.filter((x) => isNew(x.draft)),
  ]) {
    const d = s.draft;
    const rep = report(diags, d);
    if (d.spec.nodeName && !byName.has(d.spec.nodeName)) {
      rep.field(d.spec.nodeNameLoc.offset, nodePath(d), {
        type: 'notFound',
        value: d.spec.nodeName,
      });
      s.failed = true;
      continue;
    }
    if (!d.podIP || d.spec.hostNetwork) continue;
    const ip = d.podIP;
    const owner = d.spec.nodeName ?? [...cidrs].find(([, c]) => cidrContains(c, ip))?.[0];
    const c = owner ? cidrs.get(owner) : undefined;
    const invalid = (detail: string): void => {
      rep.field(d.podIPLoc.offset, 'status.podIP', { type: 'invalid', value: ip, detail });
      s.failed = true;
    };
    if (!owner || !c) invalid("is not inside any Node's spec.podCIDR");
    else if (!cidrContains(c, ip))
      invalid(
        `is not inside the spec.podCIDR of Node ${JSON.stringify(owner)} (${c.network}/${c.prefix})`,
      );
    else {
      const off = ipToInt(ip) - ipToInt(c.network);
      if (off === 0 || off === cidrSize(c) - 1)
        invalid(`is the network or broadcast address of ${c.network}/${c.prefix}`);
      else if (off === 1)
        invalid(`is the address of the bridge cni0 on Node ${JSON.stringify(owner)}`);
      else if (used.has(ipToInt(ip))) invalid(`is already used by Pod ${used.get(ipToInt(ip))}`);
      else {
        used.set(ipToInt(ip), keyOf(d.meta));
        s.nodeName = owner;
        s.podIP = ip;
      }
    }
  }

  // Pass 2: scheduling, in document order.
  const load = new Map(nodes.map((n) => [n.meta.name, 0]));
  const sortedNames = [...byName.keys()].sort();
  for (const s of slots) {
    if (s.failed) continue;
    const d = s.draft;
    const prevNode = prevByKey.get(keyOf(d.meta))?.nodeName;
    if (!s.nodeName) s.nodeName = d.spec.nodeName ?? '';
    const eligible = (name: string): boolean => d.spec.hostNetwork || cidrs.has(name);
    if (!s.nodeName && prevNode && byName.has(prevNode) && eligible(prevNode))
      s.nodeName = prevNode;
    if (!s.nodeName) {
      let best: string | undefined;
      for (const n of sortedNames) {
        if (eligible(n) && (best === undefined || (load.get(n) ?? 0) < (load.get(best) ?? 0)))
          best = n;
      }
      if (!best) {
        const why =
          nodes.length === 0
            ? 'no nodes available to schedule pods'
            : `0/${nodes.length} nodes are available: ${nodes.length} node(s) had no spec.podCIDR`;
        report(diags, d).warn(d.meta.loc.offset, `Pod ${keyOf(d.meta)} stays Pending: ${why}`);
        continue;
      }
      s.nodeName = best;
    }
    load.set(s.nodeName, (load.get(s.nodeName) ?? 0) + 1);
  }

  // Pass 3: addresses — hostNetwork, then previous ones, then new ones.
  for (const s of slots) {
    const d = s.draft;
    if (s.failed || !s.nodeName || !d.spec.hostNetwork) continue;
    const nodeIP = byName.get(s.nodeName)?.internalIP ?? '';
    if (d.podIP && d.podIP !== nodeIP) {
      report(diags, d).field(d.podIPLoc.offset, 'status.podIP', {
        type: 'invalid',
        value: d.podIP,
        detail: `a hostNetwork pod has its node's address (${nodeIP})`,
      });
      s.failed = true;
    } else s.podIP = nodeIP;
  }
  for (const s of slots) {
    if (s.failed || s.podIP || !s.nodeName || s.draft.spec.hostNetwork) continue;
    const prev = prevByKey.get(keyOf(s.draft.meta));
    const c = cidrs.get(s.nodeName);
    if (!prev?.podIP || !c || prev.nodeName !== s.nodeName || !cidrContains(c, prev.podIP))
      continue;
    const off = ipToInt(prev.podIP) - ipToInt(c.network);
    if (off >= 2 && off <= cidrSize(c) - 2 && !used.has(ipToInt(prev.podIP))) {
      used.set(ipToInt(prev.podIP), keyOf(s.draft.meta));
      s.podIP = prev.podIP;
    }
  }
  // Addresses below a node's last new one are all used (this pass only adds): resume there.
  const resume = new Map<string, number>();
  for (const s of slots) {
    if (s.failed || s.podIP || !s.nodeName || s.draft.spec.hostNetwork) continue;
    const c = cidrs.get(s.nodeName);
    if (!c) {
      report(diags, s.draft).warn(
        s.draft.meta.loc.offset,
        `Pod ${keyOf(s.draft.meta)} gets no address: Node ${JSON.stringify(s.nodeName)} has no spec.podCIDR`,
      );
      continue;
    }
    const base = ipToInt(c.network);
    let ip: string | undefined;
    let off = resume.get(s.nodeName) ?? 2;
    for (; off <= cidrSize(c) - 2; off++) {
      if (!used.has(base + off)) {
        ip = cidrNth(c, off);
        used.set(base + off, keyOf(s.draft.meta));
        break;
      }
    }
    resume.set(s.nodeName, off);
    if (!ip) {
      // host-local's error; the pod stays in ContainerCreating without an address.
      const range = `${cidrNth(c, 2)}-${cidrNth(c, cidrSize(c) - 2)}`;
      report(diags, s.draft).warn(
        s.draft.meta.loc.offset,
        `Pod ${keyOf(s.draft.meta)}: failed to allocate for range 0: no IP addresses available in range set: ${range}`,
      );
      continue;
    }
    s.podIP = ip;
  }
  return slots
    .filter((s) => !s.failed)
    .map((s) => ({ draft: s.draft, nodeName: s.nodeName, podIP: s.podIP }));
}

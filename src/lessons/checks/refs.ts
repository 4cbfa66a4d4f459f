/**
 * References a check's parameters use instead of literal addresses, resolved against the lab
 * as it is now — so a check keeps meaning "an endpoint of this Service" after the learner
 * scales it or a pod is replaced:
 *
 * - `vip:NS/NAME`      the Service's ClusterIP
 * - `eps:NS/NAME`      the addresses of the Service's ready endpoints
 * - `pod:NS/NAME`      a pod's IP
 * - `node:NAME`        a node's InternalIP (eth0)
 * - `gw:NAME`          a node's cni0 address (the first address of its pod CIDR)
 * - `client:NAME`      an external client's address
 * - `pods:`            every pod's address (Terminating pods included, until they leave the API)
 * - `local-eps:NS/NAME@NODE`  the ready endpoints of the Service that run on NODE
 * - anything else      a literal address
 */
import type { LabFacts } from '../../engine';
import type { CheckParam } from '../types';

function splitName(ref: string): { namespace: string; name: string } {
  const [namespace, name] = ref.includes('/') ? ref.split('/', 2) : ['default', ref];
  return { namespace: namespace!, name: name! };
}

export function findService(facts: LabFacts, ref: string) {
  const { namespace, name } = splitName(ref);
  return facts.cluster.services.find((s) => s.meta.namespace === namespace && s.meta.name === name);
}

/** The addresses of the Service's ready endpoints (on `node` only, when given). */
export function readyEndpoints(facts: LabFacts, ref: string, node?: string): string[] {
  const { namespace, name } = splitName(ref);
  const out = new Set<string>();
  for (const slice of facts.cluster.endpointSlices) {
    if (slice.meta.namespace !== namespace || slice.serviceName !== name) continue;
    for (const ep of slice.endpoints) {
      if (!ep.conditions.ready) continue;
      if (node !== undefined && ep.nodeName !== node) continue;
      for (const a of ep.addresses) out.add(a);
    }
  }
  return [...out].sort();
}

function intToIp(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
}

function ipToInt(ip: string): number {
  return ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}

/** Resolves one reference to the addresses it stands for (empty when it names nothing). */
export function resolveRef(facts: LabFacts, ref: string): string[] {
  const colon = ref.indexOf(':');
  const kind = colon > 0 ? ref.slice(0, colon) : '';
  const arg = ref.slice(colon + 1);
  switch (kind) {
    case 'vip': {
      const ip = findService(facts, arg)?.clusterIP;
      return ip !== undefined && ip !== '' && ip !== 'None' ? [ip] : [];
    }
    case 'eps':
      return readyEndpoints(facts, arg);
    case 'local-eps': {
      const [svc, node] = arg.split('@', 2);
      return readyEndpoints(facts, svc!, node);
    }
    case 'pod': {
      const { namespace, name } = splitName(arg);
      const pod = facts.cluster.pods.find(
        (p) => p.meta.namespace === namespace && p.meta.name === name,
      );
      return pod !== undefined ? [pod.podIP] : [];
    }
    case 'node': {
      const node = facts.cluster.nodes.find((n) => n.meta.name === arg);
      return node !== undefined ? [node.internalIP] : [];
    }
    case 'gw': {
      const cidr = facts.cluster.nodes.find((n) => n.meta.name === arg)?.podCIDR;
      if (cidr === undefined) return [];
      return [intToIp(ipToInt(cidr.split('/')[0]!) + 1)];
    }
    case 'pods':
      return facts.cluster.pods.filter((p) => !p.hostNetwork).map((p) => p.podIP);
    case 'client': {
      const c = facts.cluster.lab.externalClients.find((x) => x.name === arg);
      return c !== undefined ? [c.address] : [];
    }
    default:
      return [ref];
  }
}

/** A parameter as a set of addresses (a list of references is their union). */
export function addressSet(facts: LabFacts, p: CheckParam | undefined): Set<string> | undefined {
  if (p === undefined) return undefined;
  const refs = typeof p === 'string' ? [p] : Array.isArray(p) ? (p as string[]) : [String(p)];
  return new Set(refs.flatMap((r) => resolveRef(facts, r)));
}

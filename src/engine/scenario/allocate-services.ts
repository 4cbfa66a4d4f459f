/**
 * Allocation for Services, in three passes so results do not depend on document order more
 * than they must:
 *   1. every explicit spec.clusterIP / nodePort / healthCheckNodePort (plus 10.96.0.1, which
 *      the API server always gives default/kubernetes);
 *   2. values the same Service had before (`previous`: a learner re-applying an edited scenario
 *      keeps the ClusterIPs and NodePorts of Services that still exist);
 *   3. new dynamic values, in document order.
 * NodePorts follow the registry's initNodePorts: ports with the same port number share one
 * NodePort (dns 53/UDP and dns-tcp 53/TCP get the same one).
 */
import type { Service } from '../model/cluster';
import { cidrNth } from '../model/ip';
import type { Cidr } from '../model/ip';
import { ClusterIPAllocator, clusterIPError, NodePortAllocator, nodePortError } from './allocate';
import type { ServiceDraft } from './drafts';
import { keyOf } from './drafts';
import { ObjectReport } from './report';
import type { Diagnostics } from './report';

interface Plan {
  readonly draft: ServiceDraft;
  clusterIP: string;
  nodePorts: number[];
  /** Port numbers still waiting for a dynamic NodePort. */
  pending: Set<number>;
  healthCheckNodePort: number;
  failed: boolean;
}

export interface AllocatedService {
  readonly draft: ServiceDraft;
  readonly clusterIP: string;
  readonly nodePorts: readonly number[];
  readonly healthCheckNodePort: number;
}

function report(diags: Diagnostics, d: ServiceDraft, doc: number): ObjectReport {
  const rep = new ObjectReport(diags, doc, 'Service', true);
  rep.name = d.meta.name;
  rep.namespace = d.meta.namespace;
  return rep;
}

function needsNodePorts(d: ServiceDraft): boolean {
  return d.type === 'NodePort' || (d.type === 'LoadBalancer' && d.allocateLoadBalancerNodePorts);
}

export function allocateServices(
  drafts: readonly ServiceDraft[],
  cidr: Cidr,
  previous: readonly Service[],
  diags: Diagnostics,
  /** Services being created or updated now (kubectl apply): existing ones keep their values first. */
  isNew: (d: ServiceDraft) => boolean = () => false,
): AllocatedService[] {
  const ips = new ClusterIPAllocator(cidr);
  const ports = new NodePortAllocator();
  const kubernetesIP = cidrNth(cidr, 1);
  ips.allocate(kubernetesIP);
  const prevByKey = new Map(previous.map((s) => [keyOf(s.meta), s]));
  const all: Plan[] = drafts.map((draft) => ({
    draft,
    clusterIP: '',
    nodePorts: draft.ports.map(() => 0),
    pending: new Set<number>(),
    healthCheckNodePort: 0,
    failed: false,
  }));
  const plans = [...all.filter((p) => !isNew(p.draft)), ...all.filter((p) => isNew(p.draft))];

  // Pass 1: explicit values.
  for (const p of plans) {
    const d = p.draft;
    const rep = report(diags, d, d.clusterIPLoc.doc);
    const isKubernetes = d.meta.namespace === 'default' && d.meta.name === 'kubernetes';
    if (d.type === 'ExternalName') p.clusterIP = '';
    else if (d.clusterIP === 'None') p.clusterIP = 'None';
    else if (d.clusterIP !== undefined || isKubernetes) {
      const ip = d.clusterIP ?? kubernetesIP;
      const result = isKubernetes && ip === kubernetesIP ? 'ok' : ips.allocate(ip);
      if (result !== 'ok') {
        rep.field(d.clusterIPLoc.offset, 'spec.clusterIPs', {
          type: 'invalid',
          value: [ip],
          detail: clusterIPError(ip, result, ips.range),
        });
        p.failed = true;
        continue;
      }
      p.clusterIP = ip;
    }
    const byPort = new Map<number, number>();
    d.ports.forEach((sp, i) => {
      if (p.failed || (sp.nodePort === 0 && !needsNodePorts(d))) return;
      const shared = byPort.get(sp.port) ?? 0;
      let want = sp.nodePort;
      if (shared === 0) {
        // findRequestedNodePort: the first port with this port number that names a NodePort.
        want = d.ports.find((q) => q.port === sp.port && q.nodePort !== 0)?.nodePort ?? 0;
        if (want === 0) {
          p.pending.add(sp.port);
          return;
        }
      } else if (want === 0 || want === shared) {
        p.nodePorts[i] = shared;
        return;
      }
      const result = ports.allocate(want);
      if (result !== 'ok') {
        rep.field(sp.nodePortLoc.offset, `spec.ports[${i}].nodePort`, {
          type: 'invalid',
          value: want,
          detail: nodePortError(result, ports.range),
        });
        p.failed = true;
        return;
      }
      p.nodePorts[i] = want;
      if (shared === 0) byPort.set(sp.port, want);
    });
    if (!p.failed && d.healthCheckNodePort !== 0) {
      const result = ports.allocate(d.healthCheckNodePort);
      if (result !== 'ok') {
        const err = nodePortError(result, ports.range);
        rep.plain(
          d.healthCheckNodePortLoc.offset,
          `Internal error occurred: failed to allocate requested HealthCheck NodePort ${d.healthCheckNodePort}: ${err}`,
          'spec.healthCheckNodePort',
        );
        p.failed = true;
      } else p.healthCheckNodePort = d.healthCheckNodePort;
    }
    if (p.failed) {
      // The registry rolls back a create that failed half-way.
      p.nodePorts.forEach((np) => np && ports.release(np));
      if (p.clusterIP && p.clusterIP !== 'None' && p.clusterIP !== kubernetesIP)
        ips.release(p.clusterIP);
    }
  }

  // Pass 2: keep what the same Service had before.
  for (const p of plans) {
    if (p.failed) continue;
    const prev = prevByKey.get(keyOf(p.draft.meta));
    if (!prev) continue;
    const d = p.draft;
    if (
      p.clusterIP === '' &&
      d.type !== 'ExternalName' &&
      prev.clusterIP &&
      prev.clusterIP !== 'None'
    ) {
      if (ips.allocate(prev.clusterIP) === 'ok') p.clusterIP = prev.clusterIP;
    }
    for (const portNumber of [...p.pending]) {
      const old = prev.ports.find((q) => q.port === portNumber && q.nodePort !== 0)?.nodePort ?? 0;
      if (old !== 0 && ports.allocate(old) === 'ok') {
        setShared(p, portNumber, old);
        p.pending.delete(portNumber);
      }
    }
    if (
      d.type === 'LoadBalancer' &&
      d.externalTrafficPolicy === 'Local' &&
      p.healthCheckNodePort === 0
    ) {
      if (prev.healthCheckNodePort !== 0 && ports.allocate(prev.healthCheckNodePort) === 'ok') {
        p.healthCheckNodePort = prev.healthCheckNodePort;
      }
    }
  }

  // Pass 3: dynamic values.
  for (const p of plans) {
    if (p.failed) continue;
    const d = p.draft;
    const rep = report(diags, d, d.clusterIPLoc.doc);
    if (p.clusterIP === '' && d.type !== 'ExternalName') {
      const ip = ips.next();
      if (!ip) {
        rep.plain(
          d.meta.loc.offset,
          'Internal error occurred: failed to allocate a serviceIP: range is full',
        );
        p.failed = true;
        continue;
      }
      p.clusterIP = ip;
    }
    for (const portNumber of p.pending) {
      const np = ports.next();
      if (np === undefined) {
        rep.plain(
          d.meta.loc.offset,
          'Internal error occurred: failed to allocate a nodePort: range is full',
        );
        p.failed = true;
        break;
      }
      setShared(p, portNumber, np);
    }
    if (
      !p.failed &&
      d.type === 'LoadBalancer' &&
      d.externalTrafficPolicy === 'Local' &&
      p.healthCheckNodePort === 0
    ) {
      p.healthCheckNodePort = ports.next() ?? 0;
    }
  }
  return all
    .filter((p) => !p.failed)
    .map((p) => ({
      draft: p.draft,
      clusterIP: p.clusterIP,
      nodePorts: p.nodePorts,
      healthCheckNodePort: p.healthCheckNodePort,
    }));
}

function setShared(p: Plan, portNumber: number, nodePort: number): void {
  p.draft.ports.forEach((sp, i) => {
    if (sp.port === portNumber && p.nodePorts[i] === 0 && sp.nodePort === 0)
      p.nodePorts[i] = nodePort;
  });
}

/**
 * Cluster → desired objects, so kubectl apply can re-run allocation and the controllers over
 * what already exists. Allocated values come back as explicit ones: an existing object keeps
 * its ClusterIP, NodePorts, node and pod IP, as in a real cluster where they are stored.
 */
import type { Cluster, ObjectMeta, Pod } from '../model/cluster';
import type { Desired, MetaDraft, PodDraft } from './drafts';
import { emptyDesired, keyOf } from './drafts';
import { NO_LOC } from './report';

function metaDraft(m: ObjectMeta): MetaDraft {
  return {
    name: m.name,
    namespace: m.namespace,
    labels: m.labels,
    annotations: m.annotations,
    ...(m.deletionTimestamp !== undefined ? { deletionTimestamp: m.deletionTimestamp } : {}),
    ...(m.deletionGracePeriodSeconds !== undefined ? { deletionGracePeriodSeconds: m.deletionGracePeriodSeconds } : {}), // prettier-ignore
    loc: NO_LOC,
    nameLoc: NO_LOC,
    ...(m.source ? { keepSource: m.source } : {}),
  };
}

function podDraft(p: Pod): PodDraft {
  return {
    meta: metaDraft(p.meta),
    spec: {
      ...(p.nodeName ? { nodeName: p.nodeName } : {}),
      nodeNameLoc: NO_LOC,
      hostNetwork: p.hostNetwork,
      containers: p.containers,
    },
    ...(p.podIP && !p.hostNetwork ? { podIP: p.podIP } : {}),
    podIPLoc: NO_LOC,
    ready: p.ready,
    terminating: p.terminating,
    ...(p.ownerDeployment !== undefined ? { ownerDeployment: p.ownerDeployment } : {}),
    createdAt: p.meta.createdAt,
  };
}

export function desiredFromCluster(c: Cluster): Desired {
  const d = emptyDesired();
  for (const n of c.nodes) {
    d.nodes.push({
      meta: metaDraft(n.meta),
      podCIDR: n.podCIDR,
      podCIDRLoc: NO_LOC,
      addresses: n.addresses,
      internalIP: n.internalIP,
      ...(n.externalIP ? { externalIP: n.externalIP } : {}),
    });
  }
  const owned = new Map<string, PodDraft[]>();
  for (const p of c.pods) {
    if (p.ownerDeployment === undefined) {
      d.pods.push(podDraft(p));
      d.workloads.push({ kind: 'Pod', key: keyOf(p.meta) });
      continue;
    }
    const key = `${p.meta.namespace}/${p.ownerDeployment}`;
    if (!owned.has(key)) d.workloads.push({ kind: 'Deployment', key });
    owned.set(key, [...(owned.get(key) ?? []), podDraft(p)]);
  }
  for (const dep of c.deployments) {
    const key = keyOf(dep.meta);
    if (!owned.has(key)) d.workloads.push({ kind: 'Deployment', key });
    const pods = owned.get(key) ?? [];
    const first = pods[0];
    const tpl = dep.podTemplate;
    d.deployments.push({
      meta: metaDraft(dep.meta),
      replicas: dep.replicas,
      selector: dep.selector,
      templateLabels: tpl?.labels ?? first?.meta.labels ?? dep.selector,
      templateAnnotations: tpl?.annotations ?? first?.meta.annotations ?? {},
      template: tpl
        ? {
            ...(tpl.nodeName !== undefined ? { nodeName: tpl.nodeName } : {}),
            nodeNameLoc: NO_LOC,
            hostNetwork: tpl.hostNetwork,
            containers: tpl.containers,
          }
        : (first?.spec ?? { nodeNameLoc: NO_LOC, hostNetwork: false, containers: [] }),
      templateHash: dep.templateHash,
      existingPods: pods,
      createdAt: dep.meta.createdAt,
      ...(dep.replicaSetCreatedAt !== undefined
        ? { replicaSetCreatedAt: dep.replicaSetCreatedAt }
        : {}),
      ...(dep.oldReplicaSets !== undefined ? { oldReplicaSets: dep.oldReplicaSets } : {}),
      ...(dep.revision !== undefined ? { revision: dep.revision } : {}),
      ...(dep.revisionHistory !== undefined ? { revisionHistory: dep.revisionHistory } : {}),
    });
  }
  for (const s of c.services) {
    d.services.push({
      meta: metaDraft(s.meta),
      type: s.type,
      ...(s.type !== 'ExternalName' && s.clusterIP ? { clusterIP: s.clusterIP } : {}),
      clusterIPLoc: NO_LOC,
      ports: s.ports.map((p) => ({ ...p, nodePortLoc: NO_LOC })),
      ...(s.selector ? { selector: s.selector } : {}),
      externalIPs: s.externalIPs,
      ...(s.externalName !== undefined ? { externalName: s.externalName } : {}),
      loadBalancerIngress: s.loadBalancerIngress,
      loadBalancerSourceRanges: s.loadBalancerSourceRanges,
      externalTrafficPolicy: s.externalTrafficPolicy,
      internalTrafficPolicy: s.internalTrafficPolicy,
      sessionAffinity: s.sessionAffinity,
      sessionAffinityTimeout: s.sessionAffinityTimeout,
      healthCheckNodePort: s.healthCheckNodePort,
      healthCheckNodePortLoc: NO_LOC,
      allocateLoadBalancerNodePorts:
        s.type === 'LoadBalancer' && s.ports.some((p) => p.nodePort !== 0),
      publishNotReadyAddresses: s.publishNotReadyAddresses === true,
      createdAt: s.meta.createdAt,
    });
  }
  for (const s of c.endpointSlices) {
    if (s.managed) continue;
    d.slices.push({
      meta: metaDraft(s.meta),
      serviceName: s.serviceName,
      addressType: s.addressType,
      endpoints: s.endpoints,
      ports: s.ports,
      createdAt: s.meta.createdAt,
    });
  }
  d.kubeProxy = { config: c.kubeProxy, loc: NO_LOC };
  d.kubelet = {
    hairpinMode: c.kubelet.hairpinMode,
    loc: NO_LOC,
    ...(c.kubelet.source ? { keepSource: c.kubelet.source } : {}),
  };
  const { sysctls, ...settings } = c.lab;
  d.lab = {
    settings,
    sysctls: Object.entries(sysctls).map(([node, values]) => ({
      node,
      loc: NO_LOC,
      values: { ...values },
    })),
    loc: NO_LOC,
  };
  return d;
}

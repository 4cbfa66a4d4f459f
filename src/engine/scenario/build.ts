/**
 * Desired objects → the final Cluster: cross-object checks, allocation, the controllers.
 * Shared by loadScenario (a whole scenario) and applyManifests (a cluster plus manifests).
 */
import type {
  Cluster,
  ClusterNode,
  Deployment,
  EndpointSlice,
  ObjectMeta,
  Pod,
  Service,
  SourceRef,
} from '../model/cluster';
import { cidrParse, ipToInt } from '../model/ip';
import type { LineCounter } from 'yaml';
import { allocateServices } from './allocate-services';
import { deploymentPods } from './controllers';
import { DEFAULT_KUBE_PROXY } from './decode-config';
import { DEFAULT_CLUSTER_AGE_SECONDS, DEFAULT_SERVICE_CIDR, DEFAULT_SYSCTLS } from './decode-lab';
import type { DeploymentDraft, Desired, MetaDraft, NodeDraft, PodDraft } from './drafts';
import { keyOf } from './drafts';
import { controllerSlices } from './endpointslice-controller';
import { uidFor } from './hash';
import { placePods } from './pods';
import { ObjectReport } from './report';
import type { Diagnostics, Loc } from './report';

export interface BuildOptions {
  readonly previous?: Cluster | undefined;
  /** createdAt of objects that did not exist in `previous`. */
  readonly createdAt: number;
  readonly lines?: LineCounter | undefined;
  /**
   * kubectl apply: objects (`Kind/namespace/name`) created or updated by this call. They yield
   * to existing objects in allocation, and take no source position from the applied text.
   */
  readonly applied?: ReadonlySet<string>;
}

export function buildCluster(desired: Desired, diags: Diagnostics, opts: BuildOptions): Cluster {
  const prev = opts.previous;
  const applied = opts.applied;
  const source = (loc: Loc): SourceRef | undefined => {
    if (applied || loc.doc < 0 || loc.offset < 0 || !opts.lines) return undefined;
    const p = opts.lines.linePos(loc.offset);
    return { doc: loc.doc, line: p.line, col: p.col };
  };
  const prevCreated = new Map<string, number>();
  for (const [kind, list] of [
    ['Node', prev?.nodes],
    ['Pod', prev?.pods],
    ['Deployment', prev?.deployments],
    ['Service', prev?.services],
    ['EndpointSlice', prev?.endpointSlices],
  ] as const) {
    for (const o of list ?? []) prevCreated.set(`${kind}/${keyOf(o.meta)}`, o.meta.createdAt);
  }
  const meta = (kind: string, m: MetaDraft, createdAt?: number): ObjectMeta => {
    const src = source(m.loc) ?? m.keepSource;
    return {
      name: m.name,
      namespace: m.namespace,
      labels: m.labels,
      annotations: m.annotations,
      uid: uidFor(kind, m.namespace, m.name),
      createdAt: prevCreated.get(`${kind}/${keyOf(m)}`) ?? createdAt ?? opts.createdAt,
      ...(m.deletionTimestamp !== undefined ? { deletionTimestamp: m.deletionTimestamp } : {}),
      ...(m.deletionGracePeriodSeconds !== undefined ? { deletionGracePeriodSeconds: m.deletionGracePeriodSeconds } : {}), // prettier-ignore
      ...(src ? { source: src } : {}),
    };
  };

  const labDraft = desired.lab;
  const lab = labDraft?.settings ?? {
    serviceCIDR: DEFAULT_SERVICE_CIDR,
    externalClients: [],
    seed: 1,
    clusterAgeSeconds: DEFAULT_CLUSTER_AGE_SECONDS,
  };
  const serviceCIDR = cidrParse(lab.serviceCIDR) ?? cidrParse(DEFAULT_SERVICE_CIDR);

  const nodeDrafts = checkNodes(desired.nodes, diags);
  const nodes: ClusterNode[] = nodeDrafts.map((n) => ({
    meta: meta('Node', n.meta),
    podCIDR: n.podCIDR,
    addresses: n.addresses,
    internalIP: n.internalIP,
    ...(n.externalIP ? { externalIP: n.externalIP } : {}),
  }));
  const nodeNames = new Set(nodes.map((n) => n.meta.name));

  const sysctls: Record<string, Record<string, string>> = {};
  for (const n of nodes) sysctls[n.meta.name] = { ...DEFAULT_SYSCTLS };
  for (const s of labDraft?.sysctls ?? []) {
    const target = sysctls[s.node];
    if (!target) {
      diags.error(s.loc, `Lab.nodes[${s.node}]: Not found: ${JSON.stringify(s.node)}`, {
        object: 'Lab',
        field: `Lab.nodes[${s.node}]`,
      });
      continue;
    }
    Object.assign(target, s.values);
  }

  const isNew = (kind: string) => (d: { meta: MetaDraft }) =>
    applied?.has(`${kind}/${keyOf(d.meta)}`) === true;
  const allocated = serviceCIDR
    ? allocateServices(desired.services, serviceCIDR, prev?.services ?? [], diags, isNew('Service'))
    : [];
  const services: Service[] = allocated.map(
    ({ draft: d, clusterIP, nodePorts, healthCheckNodePort }) => ({
      meta: meta('Service', d.meta, d.createdAt),
      type: d.type,
      clusterIP,
      ports: d.ports.map((p, i) => ({
        name: p.name,
        protocol: p.protocol,
        port: p.port,
        targetPort: p.targetPort,
        nodePort: nodePorts[i] ?? 0,
      })),
      ...(d.selector ? { selector: d.selector } : {}),
      externalIPs: d.externalIPs,
      ...(d.externalName !== undefined ? { externalName: d.externalName } : {}),
      loadBalancerIngress: d.loadBalancerIngress,
      loadBalancerSourceRanges: d.loadBalancerSourceRanges,
      externalTrafficPolicy: d.externalTrafficPolicy,
      internalTrafficPolicy: d.internalTrafficPolicy,
      sessionAffinity: d.sessionAffinity,
      sessionAffinityTimeout: d.sessionAffinityTimeout,
      healthCheckNodePort,
      ...(d.publishNotReadyAddresses ? { publishNotReadyAddresses: true } : {}),
    }),
  );

  // Workloads in document order; a Deployment's pods take its place in the sequence.
  const podsByKey = new Map(desired.pods.map((p) => [keyOf(p.meta), p]));
  const deploymentsByKey = new Map(desired.deployments.map((d) => [keyOf(d.meta), d]));
  const taken = new Set(desired.pods.map((p) => keyOf(p.meta)));
  const podDrafts: PodDraft[] = [];
  const deploymentDrafts: DeploymentDraft[] = [];
  for (const w of desired.workloads) {
    if (w.kind === 'Pod') {
      const p = podsByKey.get(w.key);
      if (p) podDrafts.push(p);
      continue;
    }
    const d = deploymentsByKey.get(w.key);
    if (!d) continue;
    if (d.template.nodeName && !nodeNames.has(d.template.nodeName) && !d.existingPods) {
      const rep = new ObjectReport(diags, d.template.nodeNameLoc.doc, 'Deployment', true);
      rep.name = d.meta.name;
      rep.field(d.template.nodeNameLoc.offset, 'spec.template.spec.nodeName', {
        type: 'notFound',
        value: d.template.nodeName,
      });
      continue;
    }
    deploymentDrafts.push(d);
    podDrafts.push(...deploymentPods(d, taken));
  }
  const placed = placePods(
    podDrafts,
    nodeDrafts,
    prev?.pods ?? [],
    diags,
    (p) =>
      isNew('Pod')(p) ||
      (p.ownerDeployment !== undefined &&
        applied?.has(`Deployment/${p.meta.namespace}/${p.ownerDeployment}`) === true),
  );
  const pods: Pod[] = placed.map(({ draft: d, nodeName, podIP }) => ({
    meta: meta('Pod', d.meta, d.createdAt),
    nodeName,
    containers: d.spec.containers,
    podIP,
    ready: d.ready,
    terminating: d.terminating,
    hostNetwork: d.spec.hostNetwork,
    ...(d.ownerDeployment !== undefined ? { ownerDeployment: d.ownerDeployment } : {}),
  }));
  const deployments: Deployment[] = deploymentDrafts.map((d) => ({
    meta: meta('Deployment', d.meta, d.createdAt),
    replicas: d.replicas,
    selector: d.selector,
    templateHash: d.templateHash,
    ...(d.replicaSetCreatedAt !== undefined ? { replicaSetCreatedAt: d.replicaSetCreatedAt } : {}),
    ...(d.oldReplicaSets !== undefined ? { oldReplicaSets: d.oldReplicaSets } : {}),
    ...(d.revision !== undefined ? { revision: d.revision } : {}),
    ...(d.revisionHistory !== undefined ? { revisionHistory: d.revisionHistory } : {}),
    podTemplate: {
      labels: d.templateLabels,
      annotations: d.templateAnnotations,
      ...(d.template.nodeName !== undefined ? { nodeName: d.template.nodeName } : {}),
      hostNetwork: d.template.hostNetwork,
      containers: d.template.containers,
    },
  }));

  const serviceKeys = new Set(services.map((s) => keyOf(s.meta)));
  const userSlices: EndpointSlice[] = desired.slices.map((s) => {
    if (s.serviceName && !serviceKeys.has(`${s.meta.namespace}/${s.serviceName}`)) {
      diags.warning(
        s.meta.loc,
        `EndpointSlice ${keyOf(s.meta)}: no Service ${JSON.stringify(s.serviceName)} in namespace ${JSON.stringify(s.meta.namespace)}`,
        {
          object: `EndpointSlice ${keyOf(s.meta)}`,
        },
      );
    }
    return {
      meta: meta('EndpointSlice', s.meta, s.createdAt),
      serviceName: s.serviceName,
      addressType: s.addressType,
      endpoints: s.endpoints,
      ports: s.ports,
      managed: false,
    };
  });
  const managed = controllerSlices(services, {
    nodes,
    pods,
    userSliced: new Set(
      desired.slices
        .filter((s) => s.serviceName)
        .map((s) => `${s.meta.namespace}/${s.serviceName}`),
    ),
    previousCreatedAt: new Map(
      (prev?.endpointSlices ?? []).map((s) => [keyOf(s.meta), s.meta.createdAt]),
    ),
    createdAt: opts.createdAt,
    publishNotReady: (svc) => svc.publishNotReadyAddresses === true,
  });

  const kpSource = desired.kubeProxy
    ? (source(desired.kubeProxy.loc) ?? desired.kubeProxy.config.source)
    : undefined;
  const kubeletSource = desired.kubelet
    ? (source(desired.kubelet.loc) ?? desired.kubelet.keepSource)
    : undefined;
  return {
    nodes,
    pods,
    deployments,
    services,
    endpointSlices: [...userSlices, ...managed],
    kubeProxy: {
      ...(desired.kubeProxy?.config ?? DEFAULT_KUBE_PROXY),
      ...(kpSource ? { source: kpSource } : {}),
    },
    kubelet: {
      hairpinMode: desired.kubelet?.hairpinMode ?? 'hairpin-veth',
      ...(kubeletSource ? { source: kubeletSource } : {}),
    },
    lab: { ...lab, sysctls },
  };
}

/** Lab rules the API server does not have: node addresses and pod CIDRs must not overlap. */
function checkNodes(nodes: readonly NodeDraft[], diags: Diagnostics): NodeDraft[] {
  const out: NodeDraft[] = [];
  for (const n of nodes) {
    const rep = new ObjectReport(diags, n.meta.loc.doc, 'Node', true);
    rep.name = n.meta.name;
    const sameIP = out.find((o) => o.internalIP === n.internalIP);
    if (sameIP) {
      rep.plain(
        n.meta.loc.offset,
        `Node ${JSON.stringify(n.meta.name)} has InternalIP ${n.internalIP}, already the address of Node ${JSON.stringify(sameIP.meta.name)}`,
      );
      continue;
    }
    const c = cidrParse(n.podCIDR);
    const overlap =
      c &&
      out.find((o) => {
        const oc = cidrParse(o.podCIDR);
        if (!oc) return false;
        const p = Math.min(c.prefix, oc.prefix);
        const mask = p === 0 ? 0 : (0xffffffff << (32 - p)) >>> 0;
        return (ipToInt(c.network) & mask) >>> 0 === (ipToInt(oc.network) & mask) >>> 0;
      });
    if (overlap) {
      rep.plain(
        n.podCIDRLoc.offset,
        `Node ${JSON.stringify(n.meta.name)}: spec.podCIDR ${n.podCIDR} overlaps the podCIDR ${overlap.podCIDR} of Node ${JSON.stringify(overlap.meta.name)}`,
        'spec.podCIDR',
      );
      continue;
    }
    out.push(n);
  }
  return out;
}

/**
 * The resource types the lab's kubectl knows, with the columns and cells of the API server's
 * table printers (kubernetes pkg/printers/internalversion/printers.go: printService,
 * makePortString, getServiceExternalIP, printPod, printNode, printDeployment,
 * printEndpoints/formatEndpoints, printEndpointSlice/formatDiscoveryPorts/formatDiscoveryEndpoints,
 * printConfigMap) and the
 * names kubectl resolves (plural, singular, short names, `resource.group`).
 */
import type {
  Cluster,
  ClusterNode,
  Deployment,
  EndpointSlice,
  Pod,
  Service,
} from '../../model/cluster';
import { kubeProxyConfigMap } from './configmap';
import {
  endpointsJson,
  endpointsObjects,
  formatEndpoints,
  type EndpointsObject,
} from './endpoints';
import { humanDuration } from './duration';
import { formatLabels } from './format';
import { replicaSetType } from './replicasets';
import type { ApiContext } from './objects';
import { endpointSliceObject, serviceObject } from './objects';
import { LAB_NODE_INFO, nodeObject } from './objects-node';
import { deploymentObject, deploymentPods, podObject } from './objects-workloads';
import type { Json } from './yaml';

export interface Item {
  readonly name: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly createdAt: number;
  /** Cells of the default columns, then of the wide ones (without NAME's namespace). */
  cells(ctx: RowContext): string[];
  object(ctx: ApiContext): Record<string, Json>;
}

export interface RowContext extends ApiContext {
  readonly nowSeconds: number;
  readonly wide: boolean;
}

export interface ResourceType {
  readonly resource: string;
  readonly kind: string;
  readonly group: string;
  readonly aliases: readonly string[];
  readonly namespaced: boolean;
  readonly columns: readonly string[];
  readonly wideColumns: readonly string[];
  list(cluster: Cluster): Item[];
}

const age = (ctx: RowContext, createdAt: number): string =>
  humanDuration(ctx.nowSeconds - createdAt);

function listWithMore(list: string[], count: number, max: number): string {
  if (count > max) return `${list.join(',')} + ${count - max} more...`;
  return list.length === 0 ? '<unset>' : list.join(',');
}

export function serviceExternalIP(svc: Service, wide: boolean): string {
  switch (svc.type) {
    case 'ClusterIP':
    case 'NodePort':
      return svc.externalIPs.length > 0 ? svc.externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      // loadBalancerStatusStringer: a set of ingress IPs (Go set order; the lab keeps spec order),
      // clipped to 16 bytes with "..." unless -o wide.
      let lb = [...new Set(svc.loadBalancerIngress.map((i) => i.ip))].join(',');
      if (!wide && lb.length > 16) lb = `${lb.slice(0, 13)}...`;
      if (svc.externalIPs.length > 0)
        return [...(lb === '' ? [] : lb.split(',')), ...svc.externalIPs].join(',');
      return lb === '' ? '<pending>' : lb;
    }
    case 'ExternalName':
      return svc.externalName ?? '';
  }
}

export const makePortString = (svc: Service): string =>
  svc.ports
    .map((p) =>
      p.nodePort > 0 ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`,
    )
    .join(',');

const serviceItem = (svc: Service): Item => ({
  name: svc.meta.name,
  namespace: svc.meta.namespace,
  labels: svc.meta.labels,
  createdAt: svc.meta.createdAt,
  cells: (ctx) => [
    svc.type,
    svc.type === 'ExternalName' ? '<none>' : svc.clusterIP,
    serviceExternalIP(svc, ctx.wide),
    makePortString(svc) || '<none>',
    age(ctx, svc.meta.createdAt),
    formatLabels(svc.selector),
  ],
  object: (ctx) => serviceObject(ctx, svc),
});

const podItem = (pod: Pod): Item => ({
  name: pod.meta.name,
  namespace: pod.meta.namespace,
  labels: pod.meta.labels,
  createdAt: pod.meta.createdAt,
  cells: (ctx) => [
    `${pod.ready ? pod.containers.length : 0}/${pod.containers.length}`,
    pod.terminating ? 'Terminating' : 'Running',
    '0',
    age(ctx, pod.meta.createdAt),
    pod.podIP || '<none>',
    pod.nodeName || '<none>',
    '<none>',
    '<none>',
  ],
  object: (ctx) => podObject(ctx, pod),
});

const sliceItem = (slice: EndpointSlice): Item => ({
  name: slice.meta.name,
  namespace: slice.meta.namespace,
  labels: slice.meta.labels,
  createdAt: slice.meta.createdAt,
  cells: (ctx) => {
    const ports = slice.ports.slice(0, 3).map((p) => String(p.port));
    const addrs = slice.endpoints.flatMap((e) => e.addresses);
    return [
      slice.addressType,
      listWithMore(ports, slice.ports.length, 3),
      listWithMore(addrs.slice(0, 3), addrs.length, 3),
      age(ctx, slice.meta.createdAt),
    ];
  },
  object: (ctx) => endpointSliceObject(ctx, slice),
});

const endpointsItem = (ep: EndpointsObject): Item => ({
  name: ep.service.meta.name,
  namespace: ep.service.meta.namespace,
  labels: ep.labels,
  createdAt: ep.service.meta.createdAt,
  cells: (ctx) => [formatEndpoints(ep.subsets), age(ctx, ep.service.meta.createdAt)],
  object: (ctx) => endpointsJson(ctx, ep),
});

/** findNodeRoles: node-role.kubernetes.io/<role> labels and kubernetes.io/role (a Go set; sorted here). */
function nodeRoles(n: ClusterNode): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(n.meta.labels)) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length)
      roles.add(k.slice(24));
    else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

const nodeItem = (n: ClusterNode): Item => ({
  name: n.meta.name,
  namespace: '',
  labels: n.meta.labels,
  createdAt: n.meta.createdAt,
  cells: (ctx) => [
    'Ready',
    nodeRoles(n),
    age(ctx, n.meta.createdAt),
    LAB_NODE_INFO.kubeletVersion,
    n.addresses.find((a) => a.type === 'InternalIP')?.address ?? '<none>',
    n.addresses.find((a) => a.type === 'ExternalIP')?.address ?? '<none>',
    LAB_NODE_INFO.osImage,
    LAB_NODE_INFO.kernelVersion,
    LAB_NODE_INFO.containerRuntimeVersion,
  ],
  object: (ctx) => nodeObject(ctx, n),
});

const deploymentItem = (d: Deployment, cluster: Cluster): Item => ({
  name: d.meta.name,
  namespace: d.meta.namespace,
  labels: d.meta.labels,
  createdAt: d.meta.createdAt,
  cells: (ctx) => {
    const pods = deploymentPods({ cluster }, d).filter((p) => !p.terminating);
    const ready = pods.filter((p) => p.ready).length;
    const containers = pods[0]?.containers ?? [];
    return [
      `${ready}/${d.replicas}`,
      String(pods.length),
      String(ready),
      age(ctx, d.meta.createdAt),
      containers.map((c) => c.name).join(','),
      containers.map((c) => c.image).join(','),
      formatLabels(d.selector),
    ];
  },
  object: (ctx) => deploymentObject(ctx, d),
});

const configMapItem = (cluster: Cluster): Item => ({
  name: 'kube-proxy',
  namespace: 'kube-system',
  labels: { app: 'kube-proxy' },
  createdAt: 0,
  cells: (ctx) => ['2', age(ctx, 0)],
  object: (ctx) => kubeProxyConfigMap({ ...ctx, cluster }),
});

export const RESOURCE_TYPES: readonly ResourceType[] = [
  {
    resource: 'pods',
    kind: 'Pod',
    group: '',
    aliases: ['pod', 'po'],
    namespaced: true,
    columns: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
    wideColumns: ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
    list: (c) => c.pods.map(podItem),
  },
  {
    resource: 'services',
    kind: 'Service',
    group: '',
    aliases: ['service', 'svc'],
    namespaced: true,
    columns: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
    wideColumns: ['SELECTOR'],
    list: (c) => c.services.map(serviceItem),
  },
  {
    resource: 'endpoints',
    kind: 'Endpoints',
    group: '',
    aliases: ['ep'],
    namespaced: true,
    columns: ['NAME', 'ENDPOINTS', 'AGE'],
    wideColumns: [],
    list: (c) => endpointsObjects(c).map(endpointsItem),
  },
  {
    resource: 'endpointslices',
    kind: 'EndpointSlice',
    group: 'discovery.k8s.io',
    aliases: ['endpointslice'],
    namespaced: true,
    columns: ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'],
    wideColumns: [],
    list: (c) => c.endpointSlices.map(sliceItem),
  },
  {
    resource: 'nodes',
    kind: 'Node',
    group: '',
    aliases: ['node', 'no'],
    namespaced: false,
    columns: ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
    wideColumns: ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'],
    list: (c) => c.nodes.map(nodeItem),
  },
  {
    resource: 'deployments',
    kind: 'Deployment',
    group: 'apps',
    aliases: ['deployment', 'deploy'],
    namespaced: true,
    columns: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
    wideColumns: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    list: (c) => c.deployments.map((d) => deploymentItem(d, c)),
  },
  {
    resource: 'configmaps',
    kind: 'ConfigMap',
    group: '',
    aliases: ['configmap', 'cm'],
    namespaced: true,
    columns: ['NAME', 'DATA', 'AGE'],
    wideColumns: [],
    list: (c) => [configMapItem(c)],
  },
  replicaSetType,
];

/** Resolves what the user typed (`svc`, `Services`, `deployments.apps`) like kubectl's RESTMapper. */
export function resolveResourceType(typed: string): ResourceType | undefined {
  const t = typed.toLowerCase();
  return RESOURCE_TYPES.find((r) => {
    const names = [r.resource, ...r.aliases, r.kind.toLowerCase()];
    if (names.includes(t)) return true;
    return r.group !== '' && names.some((n) => t === `${n}.${r.group}`);
  });
}

/** `service/web`, `deployment.apps/web`: what -o name prints and apply reports. */
export function kindPrefix(kind: string, group: string): string {
  return group === '' ? kind.toLowerCase() : `${kind.toLowerCase()}.${group}`;
}

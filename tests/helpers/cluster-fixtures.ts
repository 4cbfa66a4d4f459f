/**
 * Hand-built Cluster fixtures for command and routing tests (the scenario loader is developed in
 * parallel; these builders fill every field the way the loader is documented to: defaults applied,
 * allocations done).
 */
import { DEFAULT_KUBE_PROXY } from '../../src/engine/scenario';
import type {
  Cluster,
  ClusterNode,
  Container,
  Deployment,
  Endpoint,
  EndpointPort,
  EndpointSlice,
  KubeProxyConfig,
  ObjectMeta,
  Pod,
  Service,
  ServicePort,
} from '../../src/engine/model/cluster';
import type { ApplyResult, CommandWorld, HostRef } from '../../src/engine/commands/registry';
import { createNetfilter } from '../../src/engine/netfilter';

let uidCounter = 0;

export function meta(name: string, opts: Partial<ObjectMeta> = {}): ObjectMeta {
  uidCounter++;
  const hex = uidCounter.toString(16).padStart(12, '0');
  return {
    name,
    namespace: 'default',
    labels: {},
    annotations: {},
    uid: `0b0c4e9a-1f2d-4c3b-9a8e-${hex}`,
    createdAt: 0,
    ...opts,
  };
}

export function node(
  name: string,
  internalIP: string,
  podCIDR: string,
  opts: Partial<ClusterNode> = {},
): ClusterNode {
  return {
    meta: meta(name, { namespace: '' }),
    podCIDR,
    addresses: [
      { type: 'InternalIP', address: internalIP },
      { type: 'Hostname', address: name },
    ],
    internalIP,
    ...opts,
  };
}

export function container(
  name = 'app',
  image = 'nginx:1.27',
  ports: Container['ports'] = [],
): Container {
  return { name, image, ports };
}

export function pod(name: string, nodeName: string, podIP: string, opts: Partial<Pod> = {}): Pod {
  return {
    meta: meta(name),
    nodeName,
    containers: [container()],
    podIP,
    ready: true,
    terminating: false,
    hostNetwork: false,
    ...opts,
  };
}

export function port(p: Partial<ServicePort> & { port: number }): ServicePort {
  return { name: '', protocol: 'TCP', targetPort: p.port, nodePort: 0, ...p };
}

export function service(
  name: string,
  clusterIP: string,
  ports: ServicePort[],
  opts: Partial<Service> = {},
): Service {
  return {
    meta: meta(name),
    type: 'ClusterIP',
    clusterIP,
    ports,
    selector: { app: name },
    externalIPs: [],
    loadBalancerIngress: [],
    loadBalancerSourceRanges: [],
    externalTrafficPolicy: 'Cluster',
    internalTrafficPolicy: 'Cluster',
    sessionAffinity: 'None',
    sessionAffinityTimeout: 10800,
    healthCheckNodePort: 0,
    ...opts,
  };
}

export function endpoint(
  address: string,
  nodeName: string,
  podName?: string,
  ready = true,
): Endpoint {
  return {
    addresses: [address],
    conditions: { ready, serving: ready, terminating: false },
    nodeName,
    ...(podName === undefined
      ? {}
      : { targetRef: { kind: 'Pod', name: podName, namespace: 'default' } }),
  };
}

export function slice(
  name: string,
  serviceName: string,
  endpoints: Endpoint[],
  ports: EndpointPort[],
  opts: Partial<EndpointSlice> = {},
): EndpointSlice {
  return {
    meta: meta(name, {
      labels: {
        'kubernetes.io/service-name': serviceName,
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
    }),
    serviceName,
    addressType: 'IPv4',
    endpoints,
    ports,
    managed: true,
    ...opts,
  };
}

export function deployment(
  name: string,
  replicas: number,
  opts: Partial<Deployment> = {},
): Deployment {
  return {
    meta: meta(name),
    replicas,
    selector: { app: name },
    templateHash: '5d4f8b7c9d',
    ...opts,
  };
}

/** kube-proxy's defaults, with the scheduler left unset as in a config file that omits it. */
export const defaultKubeProxy: KubeProxyConfig = { ...DEFAULT_KUBE_PROXY, ipvsScheduler: '' };

export function cluster(parts: Partial<Cluster> = {}): Cluster {
  return {
    nodes: [],
    pods: [],
    deployments: [],
    services: [],
    endpointSlices: [],
    kubeProxy: defaultKubeProxy,
    kubelet: { hairpinMode: 'hairpin-veth' },
    lab: {
      serviceCIDR: '10.96.0.0/12',
      sysctls: {},
      externalClients: [],
      seed: 1,
      clusterAgeSeconds: 0,
    },
    ...parts,
  };
}

/** The two-node lab most tests use: node-1/node-2 on 192.168.1.0/24, flannel-style /24 podCIDRs. */
export function twoNodeCluster(): Cluster {
  return cluster({
    nodes: [
      node('node-1', '192.168.1.10', '10.244.0.0/24', {
        meta: meta('node-1', {
          namespace: '',
          labels: { 'node-role.kubernetes.io/control-plane': '' },
        }),
      }),
      node('node-2', '192.168.1.11', '10.244.1.0/24'),
    ],
    lab: {
      serviceCIDR: '10.96.0.0/12',
      sysctls: {},
      externalClients: [{ name: 'laptop', address: '192.168.1.50' }],
      seed: 1,
      clusterAgeSeconds: 0,
    },
  });
}

/** A CommandWorld over a fixed cluster for tests. */
export function testWorld(
  c: Cluster,
  opts: {
    host?: HostRef;
    now?: number;
    files?: Record<string, string>;
    apply?: (text: string) => ApplyResult;
  } = {},
): CommandWorld {
  return {
    cluster: c,
    nowSeconds: () => opts.now ?? 0,
    epochSeconds: 1_735_689_600, // 2025-01-01T00:00:00Z
    host: opts.host ?? { kind: 'node', name: c.nodes[0]?.meta.name ?? 'node-1' },
    readFile: (path) => opts.files?.[path],
    applyManifests: opts.apply ?? (() => ({ applied: [], errors: [] })),
    netfilter: (() => {
      const state = createNetfilter();
      return () => state;
    })(),
    kubeProxy: () => undefined,
    nodeKernel: () => undefined,
    advanceClock: () => undefined,
    runProgram: () => ({ stdout: '', stderr: 'no network in this test world\n', exitCode: 1 }),
    captures: () => [],
    workloads: () => ({
      deletePod: () => undefined,
      scaleDeployment: () => false,
      restartDeployment: () => false,
      rollbackDeployment: () => false,
      deleteService: () => false,
      deleteDeployment: () => false,
      labelPod: () => false,
    }),
    flows: () => ({
      open: () => ({ ok: false, text: 'no network in this test world' }),
      send: () => ({ ok: false, text: 'no network in this test world' }),
      close: () => ({ ok: false, text: 'no network in this test world' }),
      list: () => [],
    }),
  };
}

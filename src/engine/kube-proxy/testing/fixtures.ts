/**
 * Small builders for hand-made Clusters in kube-proxy tests (the scenario loader is not
 * involved). The `upstream*` values mirror the fake proxier in kube-proxy's
 * pkg/proxy/iptables/proxier_test.go: node "test-node" with IP 192.168.0.2, pod CIDR
 * (local detector) 10.0.0.0/8, Services in 172.30.0.0/16, localhost NodePorts on.
 */
import type {
  Cluster,
  Endpoint,
  EndpointPort,
  EndpointSlice,
  KubeProxyConfig,
  ObjectMeta,
  Protocol,
  Service,
  ServicePort,
} from '../../model/cluster';
import { DEFAULT_KUBE_PROXY } from '../../scenario/decode-config';
import type { IptablesProxierOptions } from '../iptables/proxier';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function meta(
  namespace: string,
  name: string,
  labels: Record<string, string> = {},
): ObjectMeta {
  return {
    namespace,
    name,
    labels,
    annotations: {},
    uid: `uid-${namespace}-${name}`,
    createdAt: 0,
  };
}

export function port(
  name: string,
  portNumber: number,
  extra: Partial<Mutable<ServicePort>> = {},
): ServicePort {
  return { name, protocol: 'TCP', port: portNumber, targetPort: portNumber, nodePort: 0, ...extra };
}

/** A ClusterIP Service with one TCP port `p80`; `patch` overrides any field. */
export function service(
  namespace: string,
  name: string,
  clusterIP: string,
  patch: Partial<Mutable<Service>> = {},
): Service {
  return {
    meta: meta(namespace, name),
    type: 'ClusterIP',
    clusterIP,
    ports: [port('p80', 80)],
    selector: { app: name },
    externalIPs: [],
    loadBalancerIngress: [],
    loadBalancerSourceRanges: [],
    externalTrafficPolicy: 'Cluster',
    internalTrafficPolicy: 'Cluster',
    sessionAffinity: 'None',
    sessionAffinityTimeout: 10800,
    healthCheckNodePort: 0,
    ...patch,
  };
}

export interface EndpointSpec {
  readonly node?: string;
  readonly ready?: boolean;
  readonly serving?: boolean;
  readonly terminating?: boolean;
}

export function endpoint(ip: string, spec: EndpointSpec = {}): Endpoint {
  const ready = spec.ready ?? true;
  return {
    addresses: [ip],
    conditions: { ready, serving: spec.serving ?? ready, terminating: spec.terminating ?? false },
    ...(spec.node !== undefined ? { nodeName: spec.node } : {}),
  };
}

export function slicePort(
  name: string,
  portNumber: number,
  protocol: Protocol = 'TCP',
): EndpointPort {
  return { name, port: portNumber, protocol };
}

/** An EndpointSlice `<service>-<suffix>` for the Service. */
export function slice(
  namespace: string,
  serviceName: string,
  endpoints: readonly Endpoint[],
  ports: readonly EndpointPort[] = [slicePort('p80', 80)],
  suffix = '1',
): EndpointSlice {
  return {
    meta: meta(namespace, `${serviceName}-${suffix}`, {
      'kubernetes.io/service-name': serviceName,
    }),
    serviceName,
    addressType: 'IPv4',
    endpoints,
    ports,
    managed: false,
  };
}

export function kubeProxyConfig(patch: Partial<Mutable<KubeProxyConfig>> = {}): KubeProxyConfig {
  // kube-proxy's defaults, with upstream's fake-proxier local detector (pod CIDR 10.0.0.0/8).
  return { ...DEFAULT_KUBE_PROXY, clusterCIDR: '10.0.0.0/8', ...patch };
}

export function cluster(
  services: readonly Service[],
  endpointSlices: readonly EndpointSlice[] = [],
  kubeProxy: KubeProxyConfig = kubeProxyConfig(),
): Cluster {
  return {
    nodes: [],
    pods: [],
    deployments: [],
    services,
    endpointSlices,
    kubeProxy,
    kubelet: { hairpinMode: 'hairpin-veth' },
    lab: {
      serviceCIDR: '172.30.0.0/16',
      sysctls: {},
      externalClients: [],
      seed: 1,
      clusterAgeSeconds: 0,
    },
  };
}

export const TEST_NODE = 'test-node';
/** The fake proxier's eth0 addresses (its lo holds 127.0.0.1, which the proxier implies). */
export const UPSTREAM_NODE_IPS = ['192.168.0.2', '192.168.1.2', '192.168.99.11'];

/** Proxier options matching upstream's NewFakeProxier (plus whatever the test overrides). */
export function upstreamProxierOptions(
  patch: Partial<Mutable<IptablesProxierOptions>> = {},
  config: Partial<Mutable<KubeProxyConfig>> = {},
): IptablesProxierOptions {
  return {
    nodeName: TEST_NODE,
    nodeIPs: UPSTREAM_NODE_IPS,
    podCIDR: '10.0.0.0/24',
    config: kubeProxyConfig(config),
    nfacct: true,
    tcpBeLiberal: false,
    // The fake iptables does not report --random-fully support.
    randomFully: false,
    ...patch,
  };
}

/**
 * The cluster the node-level differential tests program: every Service shape kube-proxy writes
 * differently (ClusterIP, NodePort, eTP Local, LoadBalancer with source ranges, ClientIP
 * affinity with an externalIP, no endpoints, iTP Local), on one node, and the change that
 * makes its next sync partial. Shared by the iptables and nftables modes' tests.
 */
import type { Cluster, ClusterNode } from '../../src/engine/model/cluster';
import {
  cluster as makeCluster,
  endpoint,
  kubeProxyConfig,
  meta,
  port,
  service,
  slice,
  slicePort,
} from '../../src/engine/kube-proxy/testing/fixtures';

const NODE: ClusterNode = {
  meta: meta('', 'node-1'),
  podCIDR: '10.244.0.0/24',
  addresses: [{ type: 'InternalIP', address: '192.168.1.10' }],
  internalIP: '192.168.1.10',
};

/** Every Service shape, with kube-proxy configured by `patch` (cluster CIDR 10.244.0.0/16). */
export function serviceShapes(patch: Parameters<typeof kubeProxyConfig>[0] = {}): Cluster {
  const onNode = { node: 'node-1' };
  const offNode = { node: 'node-2' };
  const base = makeCluster(
    [
      service('default', 'web', '10.96.0.20', { ports: [port('http', 80, { targetPort: 8080 })] }),
      service('default', 'web-np', '10.96.0.21', {
        type: 'NodePort',
        ports: [port('http', 80, { targetPort: 8080, nodePort: 30080 })],
      }),
      service('default', 'local', '10.96.0.22', {
        type: 'NodePort',
        externalTrafficPolicy: 'Local',
        ports: [port('http', 80, { targetPort: 8080, nodePort: 30081 })],
      }),
      service('default', 'lb', '10.96.0.23', {
        type: 'LoadBalancer',
        ports: [port('http', 80, { targetPort: 8080, nodePort: 30082 })],
        loadBalancerIngress: [{ ip: '203.0.113.10' }],
        loadBalancerSourceRanges: ['203.0.113.0/25', '192.168.1.0/24'],
      }),
      service('default', 'sticky', '10.96.0.24', {
        sessionAffinity: 'ClientIP',
        externalIPs: ['192.168.1.200'],
        ports: [port('http', 80, { targetPort: 8080 })],
      }),
      service('default', 'empty', '10.96.0.25', { ports: [port('dns', 53, { protocol: 'UDP' })] }),
      service('default', 'internal-local', '10.96.0.26', {
        internalTrafficPolicy: 'Local',
        ports: [port('http', 80, { targetPort: 8080 })],
      }),
    ],
    [
      slice(
        'default',
        'web',
        [
          endpoint('10.244.0.4', onNode),
          endpoint('10.244.1.3', offNode),
          endpoint('10.244.1.4', offNode),
        ],
        [slicePort('http', 8080)],
      ),
      slice(
        'default',
        'web-np',
        [endpoint('10.244.0.4', onNode), endpoint('10.244.1.3', offNode)],
        [slicePort('http', 8080)],
      ),
      slice('default', 'local', [endpoint('10.244.1.3', offNode)], [slicePort('http', 8080)]),
      slice('default', 'lb', [endpoint('10.244.0.4', onNode)], [slicePort('http', 8080)]),
      slice(
        'default',
        'sticky',
        [endpoint('10.244.0.4', onNode), endpoint('10.244.1.3', offNode)],
        [slicePort('http', 8080)],
      ),
      slice(
        'default',
        'internal-local',
        [endpoint('10.244.1.4', offNode)],
        [slicePort('http', 8080)],
      ),
    ],
    kubeProxyConfig({ clusterCIDR: '10.244.0.0/16', ...patch }),
  );
  return { ...base, nodes: [NODE], lab: { ...base.lab, serviceCIDR: '10.96.0.0/12' } };
}

/** Scale `web` down to one endpoint and delete `sticky`: a partial sync with stale chains. */
export function afterShapeChanges(c: Cluster): Cluster {
  return {
    ...c,
    services: c.services.filter((s) => s.meta.name !== 'sticky'),
    endpointSlices: c.endpointSlices
      .filter((s) => s.serviceName !== 'sticky')
      .map((s) => (s.serviceName === 'web' ? { ...s, endpoints: s.endpoints.slice(0, 1) } : s)),
  };
}

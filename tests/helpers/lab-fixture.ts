/**
 * A small but complete lab cluster for kubectl tests: two nodes, a Deployment with two pods, a
 * NodePort Service with its EndpointSlice, the `kubernetes` Service, kube-dns in kube-system and
 * a LoadBalancer. The clock reads 10 days after cluster creation.
 */
import type { Cluster, Service } from '../../src/engine/model/cluster';
import {
  cluster,
  container,
  defaultKubeProxy,
  deployment,
  endpoint,
  meta,
  node,
  pod,
  port,
  service,
  slice,
} from './cluster-fixtures';

export const DAY = 86400;

/** The `kubernetes` Service has no selector (its EndpointSlice is kept by the API server). */
function withoutSelector(svc: Service): Service {
  return Object.fromEntries(
    Object.entries(svc).filter(([k]) => k !== 'selector'),
  ) as unknown as Service;
}
export const NOW = 10 * DAY;

export function labCluster(): Cluster {
  const webPod = (name: string, nodeName: string, ip: string, createdAt: number, ready = true) =>
    pod(name, nodeName, ip, {
      meta: meta(name, { createdAt, labels: { app: 'web', 'pod-template-hash': '5d4f8b7c9d' } }),
      containers: [container('nginx', 'nginx:1.27', [{ containerPort: 80, protocol: 'TCP' }])],
      ownerDeployment: 'web',
      ready,
    });
  return cluster({
    nodes: [
      node('node-1', '192.168.1.10', '10.244.0.0/24', {
        meta: meta('node-1', {
          namespace: '',
          labels: {
            'kubernetes.io/hostname': 'node-1',
            'node-role.kubernetes.io/control-plane': '',
          },
        }),
      }),
      node('node-2', '192.168.1.11', '10.244.1.0/24', {
        meta: meta('node-2', {
          namespace: '',
          createdAt: 300,
          labels: { 'kubernetes.io/hostname': 'node-2' },
        }),
      }),
    ],
    pods: [
      webPod('web-5d4f8b7c9d-7xk2p', 'node-1', '10.244.0.5', NOW - 3 * 3600 - 120),
      webPod('web-5d4f8b7c9d-q8mzt', 'node-2', '10.244.1.7', NOW - 190, false),
      pod('coredns-7db6d8ff4d-4xq9z', 'node-1', '10.244.0.2', {
        meta: meta('coredns-7db6d8ff4d-4xq9z', {
          namespace: 'kube-system',
          labels: { 'k8s-app': 'kube-dns' },
        }),
        containers: [container('coredns', 'registry.k8s.io/coredns/coredns:v1.11.3')],
      }),
    ],
    deployments: [
      deployment('web', 2, {
        meta: meta('web', { createdAt: NOW - 3 * 3600 - 120, labels: { app: 'web' } }),
      }),
    ],
    services: [
      withoutSelector(
        service('kubernetes', '10.96.0.1', [port({ name: 'https', port: 443, targetPort: 6443 })], {
          meta: meta('kubernetes', { labels: { component: 'apiserver', provider: 'kubernetes' } }),
        }),
      ),
      service(
        'web',
        '10.96.12.34',
        [port({ name: 'http', port: 80, targetPort: 80, nodePort: 30080 })],
        {
          meta: meta('web', { createdAt: NOW - 3 * 3600 - 60, labels: { app: 'web' } }),
          type: 'NodePort',
        },
      ),
      service(
        'web-lb',
        '10.96.200.7',
        [
          port({ port: 80, targetPort: 80, nodePort: 31234 }),
          port({ name: 'https', port: 443, targetPort: 443, nodePort: 31443 }),
        ],
        {
          meta: meta('web-lb', { createdAt: NOW - 2 * DAY - 3600, labels: { app: 'web' } }),
          type: 'LoadBalancer',
          selector: { app: 'web' },
          loadBalancerIngress: [{ ip: '192.168.1.240' }],
        },
      ),
      service(
        'kube-dns',
        '10.96.0.10',
        [
          port({ name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 }),
          port({ name: 'dns-tcp', port: 53, targetPort: 53 }),
          port({ name: 'metrics', port: 9153, targetPort: 9153 }),
        ],
        {
          meta: meta('kube-dns', {
            namespace: 'kube-system',
            labels: {
              'k8s-app': 'kube-dns',
              'kubernetes.io/cluster-service': 'true',
              'kubernetes.io/name': 'CoreDNS',
            },
          }),
          selector: { 'k8s-app': 'kube-dns' },
        },
      ),
    ],
    endpointSlices: [
      slice(
        'kubernetes',
        'kubernetes',
        [endpoint('192.168.1.10', 'node-1')],
        [{ name: 'https', port: 6443, protocol: 'TCP' }],
        {
          meta: meta('kubernetes', { labels: { 'kubernetes.io/service-name': 'kubernetes' } }),
          managed: false,
        },
      ),
      slice(
        'web-x7k2d',
        'web',
        [
          endpoint('10.244.0.5', 'node-1', 'web-5d4f8b7c9d-7xk2p'),
          endpoint('10.244.1.7', 'node-2', 'web-5d4f8b7c9d-q8mzt', false),
        ],
        [{ name: 'http', port: 80, protocol: 'TCP' }],
        {
          meta: meta('web-x7k2d', {
            createdAt: NOW - 3 * 3600 - 60,
            labels: {
              'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
              'kubernetes.io/service-name': 'web',
            },
          }),
        },
      ),
    ],
    kubeProxy: { ...defaultKubeProxy, clusterCIDR: '10.244.0.0/16' },
  });
}

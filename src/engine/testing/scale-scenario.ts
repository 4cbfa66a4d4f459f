/**
 * Generates a large scenario for the scale experiment and the benchmarks: N ClusterIP
 * Services, each with `endpointsPerService` endpoints given as EndpointSlices (no pods, so the
 * YAML stays proportional to what kube-proxy itself watches: Services and EndpointSlices).
 */
export function generateScaleScenario(services: number, endpointsPerService = 10): string {
  const out = twoNodeIptablesLab();
  let endpoint = 0;
  for (let s = 0; s < services; s++) {
    const name = `svc-${s}`;
    // Service IPs from 10.96.0.0/12 starting at offset 100 (room for the usual .1 and .10).
    const offset = 100 + s;
    const clusterIP = `10.${96 + (offset >> 16)}.${(offset >> 8) & 255}.${offset & 255}`;
    out.push(
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      `  name: ${name}`,
      '  namespace: default',
      'spec:',
      `  clusterIP: ${clusterIP}`,
      '  ports:',
      '  - name: http',
      '    port: 80',
      '    targetPort: 8080',
      '---',
      'apiVersion: discovery.k8s.io/v1',
      'kind: EndpointSlice',
      'metadata:',
      `  name: ${name}-abcde`,
      '  namespace: default',
      '  labels:',
      `    kubernetes.io/service-name: ${name}`,
      'addressType: IPv4',
      'ports:',
      '- name: http',
      '  port: 8080',
      '  protocol: TCP',
      'endpoints:',
    );
    for (let e = 0; e < endpointsPerService; e++, endpoint++) {
      // Endpoints spread over 10.244.0.0/16 past the two nodes' /24s, on alternating nodes.
      const host = 512 + endpoint;
      out.push(
        `- addresses: ["10.${244 + (host >> 16)}.${(host >> 8) & 255}.${host & 255}"]`,
        '  conditions: { ready: true }',
        `  nodeName: node-${(endpoint % 2) + 1}`,
      );
    }
  }
  return out.join('\n') + '\n';
}

/**
 * The documents every generated scenario starts with: the lab (service CIDR, seed 1),
 * kube-proxy in iptables mode with cluster CIDR 10.244.0.0/16, and two nodes (node-1
 * 192.168.1.10 with pods in 10.244.0.0/24, node-2 192.168.1.11 with 10.244.1.0/24).
 */
export function twoNodeIptablesLab(): string[] {
  const out: string[] = [
    'apiVersion: kube-proxy-lab/v1alpha1',
    'kind: Lab',
    'serviceCIDR: 10.96.0.0/12',
    'seed: 1',
    '---',
    'apiVersion: kubeproxy.config.k8s.io/v1alpha1',
    'kind: KubeProxyConfiguration',
    'mode: iptables',
    'clusterCIDR: 10.244.0.0/16',
  ];
  for (const [i, ip] of ['192.168.1.10', '192.168.1.11'].entries()) {
    out.push(
      '---',
      'apiVersion: v1',
      'kind: Node',
      'metadata:',
      `  name: node-${i + 1}`,
      'spec:',
      `  podCIDR: 10.244.${i}.0/24`,
      'status:',
      '  addresses:',
      '  - type: InternalIP',
      `    address: ${ip}`,
    );
  }
  return out;
}

import { twoNodeIptablesLab } from './scale-scenario';

/**
 * A scenario for load-distribution runs at scale: two nodes, `pods` web pods (one Deployment,
 * agnhost on 8080), a client pod on node-1, and `services` ClusterIP Services that all select
 * the web pods — so every Service has `pods` endpoints and each new connection is balanced by
 * its Service's probability ladder. Service i has ClusterIP {@link loadServiceIP}(i), port 80.
 */
export function generateLoadScenario(services: number, pods = 10): string {
  const out = twoNodeIptablesLab();
  out.push(
    '---',
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: { name: web, namespace: default }',
    'spec:',
    `  replicas: ${pods}`,
    '  selector: { matchLabels: { app: web } }',
    '  template:',
    '    metadata: { labels: { app: web } }',
    '    spec:',
    '      containers:',
    '      - name: web',
    '        image: registry.k8s.io/e2e-test-images/agnhost:2.53',
    '        ports: [{ name: http, containerPort: 8080 }]',
    '---',
    'apiVersion: v1',
    'kind: Pod',
    'metadata: { name: client, namespace: default }',
    'spec:',
    '  nodeName: node-1',
    '  containers: [{ name: client, image: registry.k8s.io/e2e-test-images/agnhost:2.53 }]',
  );
  for (let s = 0; s < services; s++) {
    out.push(
      '---',
      'apiVersion: v1',
      'kind: Service',
      `metadata: { name: svc-${s}, namespace: default }`,
      'spec:',
      `  clusterIP: ${loadServiceIP(s)}`,
      '  selector: { app: web }',
      '  ports: [{ port: 80, targetPort: http }]',
    );
  }
  return out.join('\n') + '\n';
}

/** The ClusterIP of Service `i` of {@link generateLoadScenario}: 10.96.0.100 onwards. */
export function loadServiceIP(i: number): string {
  const offset = 100 + i;
  return `10.${96 + (offset >> 16)}.${(offset >> 8) & 255}.${offset & 255}`;
}

import { describe, expect, it } from 'vitest';
import { loadScenario } from './index';
import { docs, messages } from './test-fixtures';

/** A Service document; `spec` lines start on line 5. */
function svc(spec: string, name = 'web'): string {
  const body = spec
    .replace(/^\n/, '')
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n');
  return `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n${body}`;
}

describe('Service defaults', () => {
  it('applies the API defaults to a minimal ClusterIP Service', () => {
    const { cluster, diagnostics } = loadScenario(
      svc('selector: {app: web}\nports:\n- port: 80\n'),
    );
    expect(diagnostics).toEqual([]);
    expect(cluster.services).toHaveLength(1);
    const s = cluster.services[0]!;
    expect(s).toMatchObject({
      type: 'ClusterIP',
      clusterIP: '10.96.1.1',
      ports: [{ name: '', protocol: 'TCP', port: 80, targetPort: 80, nodePort: 0 }],
      selector: { app: 'web' },
      externalIPs: [],
      loadBalancerIngress: [],
      loadBalancerSourceRanges: [],
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      sessionAffinity: 'None',
      sessionAffinityTimeout: 10800,
      healthCheckNodePort: 0,
    });
    expect(s.meta).toMatchObject({
      name: 'web',
      namespace: 'default',
      createdAt: 0,
      source: { doc: 0, line: 1, col: 1 },
    });
    expect(s.meta.uid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it.each([
    [
      'ClientIP affinity defaults its timeout',
      'sessionAffinity: ClientIP\nports: [{port: 80}]',
      { sessionAffinity: 'ClientIP', sessionAffinityTimeout: 10800 },
    ],
    [
      'an explicit affinity timeout is kept',
      'sessionAffinity: ClientIP\nsessionAffinityConfig: {clientIP: {timeoutSeconds: 60}}\nports: [{port: 80}]',
      { sessionAffinityTimeout: 60 },
    ],
    ['headless', 'clusterIP: None\nselector: {app: web}', { clusterIP: 'None', ports: [] }],
    [
      'ExternalName has no ClusterIP',
      'type: ExternalName\nexternalName: db.example.com',
      { clusterIP: '', externalName: 'db.example.com' },
    ],
    [
      'a named targetPort stays a name',
      'ports: [{port: 80, targetPort: http}]',
      { ports: [{ name: '', protocol: 'TCP', port: 80, targetPort: 'http', nodePort: 0 }] },
    ],
    [
      'internalTrafficPolicy Local',
      'internalTrafficPolicy: Local\nports: [{port: 80}]',
      { internalTrafficPolicy: 'Local' },
    ],
    [
      'externalIPs make a ClusterIP Service externally accessible',
      'externalIPs: [192.168.1.200]\nexternalTrafficPolicy: Local\nports: [{port: 80}]',
      { externalIPs: ['192.168.1.200'], externalTrafficPolicy: 'Local' },
    ],
    [
      'publishNotReadyAddresses is kept',
      'publishNotReadyAddresses: true\nports: [{port: 80}]',
      { publishNotReadyAddresses: true },
    ],
  ])('%s', (_title, spec, expected) => {
    const { cluster, diagnostics } = loadScenario(svc(spec));
    expect(messages(diagnostics)).toEqual([]);
    expect(cluster.services[0]).toMatchObject(expected);
  });

  it('gives a LoadBalancer NodePorts, a health-check NodePort for Local, and ipMode VIP', () => {
    const { cluster, diagnostics } = loadScenario(
      docs(
        svc(
          'type: LoadBalancer\nexternalTrafficPolicy: Local\nports: [{port: 80}]\nloadBalancerSourceRanges: [203.0.113.0/24]',
        ) + '\nstatus:\n  loadBalancer:\n    ingress: [{ip: 192.168.1.240}]',
        svc(
          'type: LoadBalancer\nallocateLoadBalancerNodePorts: false\nports: [{port: 80}]',
          'no-np',
        ),
      ),
    );
    expect(messages(diagnostics)).toEqual([]);
    expect(cluster.services[0]).toMatchObject({
      ports: [{ nodePort: 30086 }],
      healthCheckNodePort: 30087,
      externalTrafficPolicy: 'Local',
      loadBalancerIngress: [{ ip: '192.168.1.240', ipMode: 'VIP' }],
      loadBalancerSourceRanges: ['203.0.113.0/24'],
    });
    expect(cluster.services[1]).toMatchObject({
      ports: [{ nodePort: 0 }],
      healthCheckNodePort: 0,
      externalTrafficPolicy: 'Cluster',
    });
  });
});

describe('ClusterIP and NodePort allocation', () => {
  it('honours explicit values first, then allocates the lowest free value of the upper band', () => {
    const text = docs(
      svc('type: NodePort\nports: [{port: 80}]', 'first'),
      svc('clusterIP: 10.96.1.1\ntype: NodePort\nports: [{port: 80, nodePort: 30086}]', 'pinned'),
      svc('clusterIP: 10.96.0.10\nports: [{port: 53}]', 'dns'),
    );
    const { cluster, diagnostics } = loadScenario(text);
    expect(diagnostics).toEqual([]);
    const byName = Object.fromEntries(cluster.services.map((s) => [s.meta.name, s]));
    expect(byName['pinned']).toMatchObject({
      clusterIP: '10.96.1.1',
      ports: [{ nodePort: 30086 }],
    });
    expect(byName['first']).toMatchObject({ clusterIP: '10.96.1.2', ports: [{ nodePort: 30087 }] });
    expect(byName['dns']?.clusterIP).toBe('10.96.0.10');
  });

  it('gives default/kubernetes the first address even when not written', () => {
    const text = svc('ports: [{name: https, port: 443, targetPort: 6443}]', 'kubernetes');
    expect(loadScenario(text).cluster.services[0]?.clusterIP).toBe('10.96.0.1');
  });

  it('shares one NodePort between ports with the same number (initNodePorts)', () => {
    const text = svc(
      'type: NodePort\nports:\n- {name: dns, port: 53, protocol: UDP}\n- {name: dns-tcp, port: 53, protocol: TCP}\n- {name: metrics, port: 9153}',
    );
    const ports = loadScenario(text).cluster.services[0]?.ports.map((p) => p.nodePort);
    expect(ports).toEqual([30086, 30086, 30087]);
  });

  it('falls back to the lower band of a small Service CIDR once the upper band is full', () => {
    const lab = 'apiVersion: kube-proxy-lab/v1alpha1\nkind: Lab\nserviceCIDR: 10.100.0.0/28';
    // A /28 has 14 usable addresses and no static band: .1 is default/kubernetes', then .2….
    const services = Array.from({ length: 14 }, (_, i) => svc('ports: [{port: 80}]', `s${i}`));
    const { cluster, diagnostics } = loadScenario(docs(lab, ...services));
    expect(cluster.services.map((s) => s.clusterIP).slice(0, 2)).toEqual([
      '10.100.0.2',
      '10.100.0.3',
    ]);
    expect(cluster.services).toHaveLength(13);
    expect(messages(diagnostics)).toEqual([
      '83:1 Internal error occurred: failed to allocate a serviceIP: range is full',
    ]);
  });

  it('starts dynamic allocation after the static band (/24 → .17)', () => {
    const lab = 'apiVersion: kube-proxy-lab/v1alpha1\nkind: Lab\nserviceCIDR: 10.100.0.0/24';
    expect(loadScenario(docs(lab, svc('ports: [{port: 80}]'))).cluster.services[0]?.clusterIP).toBe(
      '10.100.0.17',
    );
  });

  it('keeps the addresses and ports of Services that still exist (previous)', () => {
    const before = loadScenario(
      docs(
        svc('type: NodePort\nports: [{port: 80}]', 'a'),
        svc('type: NodePort\nports: [{port: 80}]', 'b'),
      ),
    );
    const b = before.cluster.services.find((s) => s.meta.name === 'b');
    expect(b).toMatchObject({ clusterIP: '10.96.1.2', ports: [{ nodePort: 30087 }] });
    const after = loadScenario(
      docs(
        svc('type: NodePort\nports: [{port: 80}]', 'c'),
        svc('type: NodePort\nports: [{port: 80}]', 'b'),
      ),
      {
        previous: before.cluster,
      },
    );
    expect(after.cluster.services.find((s) => s.meta.name === 'b')).toMatchObject({
      clusterIP: '10.96.1.2',
      ports: [{ nodePort: 30087 }],
    });
    expect(after.cluster.services.find((s) => s.meta.name === 'c')).toMatchObject({
      clusterIP: '10.96.1.1',
      ports: [{ nodePort: 30086 }],
    });
  });

  it('is deterministic', () => {
    const text = docs(
      svc('type: NodePort\nports: [{port: 80}]', 'a'),
      svc('type: LoadBalancer\nports: [{port: 80}]', 'b'),
    );
    expect(loadScenario(text)).toEqual(loadScenario(text));
  });
});

import { describe, expect, it } from 'vitest';
import { applyManifests, DEFAULT_SCENARIO, loadScenario } from './index';
import { docs, messages } from './test-fixtures';

const base = loadScenario(DEFAULT_SCENARIO).cluster;
const NOW = 900_000;

function svc(name: string, spec: string): string {
  return `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n${spec}`;
}

describe('applyManifests (kubectl apply -f)', () => {
  it('creates new objects with createdAt = now and re-runs the controllers', () => {
    const text = docs(
      svc(
        'api',
        '  type: NodePort\n  selector: {app: api}\n  ports: [{port: 80, targetPort: 8080}]\n',
      ),
      'apiVersion: v1\nkind: Pod\nmetadata: {name: api-1, labels: {app: api}}\nspec:\n  containers: [{name: c, image: x}]',
    );
    const { cluster, diagnostics, results } = applyManifests(base, text, NOW);
    expect(diagnostics).toEqual([]);
    expect(results).toEqual([
      { kind: 'Service', namespace: 'default', name: 'api', action: 'created' },
      { kind: 'Pod', namespace: 'default', name: 'api-1', action: 'created' },
    ]);
    const api = cluster.services.find((s) => s.meta.name === 'api');
    expect(api).toMatchObject({
      clusterIP: '10.96.1.3',
      ports: [{ nodePort: 30086 }],
      meta: { createdAt: NOW },
    });
    // The least loaded node after the default scenario is node-2 (2 pods against 4).
    expect(cluster.pods.find((p) => p.meta.name === 'api-1')).toMatchObject({
      nodeName: 'node-2',
      podIP: '10.244.1.4',
      meta: { createdAt: NOW },
    });
    const slice = cluster.endpointSlices.find((s) => s.serviceName === 'api');
    expect(slice?.endpoints.map((e) => e.addresses[0])).toEqual(['10.244.1.4']);
    expect(slice?.meta.createdAt).toBe(NOW);
    // Everything else is as it was.
    expect(cluster.services.find((s) => s.meta.name === 'web')).toEqual(
      base.services.find((s) => s.meta.name === 'web'),
    );
    expect(cluster.pods.filter((p) => p.meta.name !== 'api-1')).toEqual(base.pods);
  });

  it('reports unchanged objects and keeps them as they are', () => {
    const web = DEFAULT_SCENARIO.split('\n---\n').find((d) => d.includes('name: web-nodeport'));
    const { cluster, results } = applyManifests(base, web ?? '', NOW);
    expect(results).toEqual([
      { kind: 'Service', namespace: 'default', name: 'web-nodeport', action: 'unchanged' },
    ]);
    expect(cluster).toEqual(base);
  });

  it('keeps allocated values an update leaves out', () => {
    const before = base.services.find((s) => s.meta.name === 'web');
    const { cluster, results } = applyManifests(
      base,
      svc(
        'web',
        '  type: NodePort\n  selector: {app: web}\n  ports: [{port: 80, targetPort: http}]\n',
      ),
      NOW,
    );
    expect(results).toEqual([
      { kind: 'Service', namespace: 'default', name: 'web', action: 'configured' },
    ]);
    const after = cluster.services.find((s) => s.meta.name === 'web');
    expect(after).toMatchObject({
      type: 'NodePort',
      clusterIP: before?.clusterIP,
      ports: [{ nodePort: 30086 }],
      meta: { createdAt: 0 },
    });
    const again = applyManifests(
      cluster,
      svc(
        'web',
        '  type: NodePort\n  selector: {app: web}\n  ports: [{port: 80, targetPort: http}]\n',
      ),
      NOW + 10,
    );
    expect(again.results[0]?.action).toBe('unchanged');
    expect(again.cluster.services.find((s) => s.meta.name === 'web')?.ports[0]?.nodePort).toBe(
      30086,
    );
  });

  it('refuses to change a ClusterIP and keeps the old object', () => {
    const { cluster, diagnostics, results } = applyManifests(
      base,
      svc('web', '  clusterIP: 10.96.0.50\n  ports: [{port: 80}]\n'),
      NOW,
    );
    expect(messages(diagnostics)).toEqual([
      '5:14 The Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.50"]: may not change once set',
    ]);
    expect(results).toEqual([]);
    expect(cluster.services).toEqual(base.services);
  });

  it('keeps the old object when the new one fails allocation', () => {
    const { cluster, diagnostics, results } = applyManifests(
      base,
      svc(
        'web',
        '  type: NodePort\n  selector: {app: web}\n  ports: [{port: 80, nodePort: 30080}]\n',
      ),
      NOW,
    );
    expect(messages(diagnostics)).toEqual([
      '7:32 The Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
    ]);
    expect(results).toEqual([]);
    expect(cluster).toEqual(base);
  });

  it('rolls a Deployment forward: same template keeps pods, scaling adds one', () => {
    const web =
      DEFAULT_SCENARIO.split('\n---\n').find(
        (d) => d.includes('kind: Deployment') && d.includes('name: web'),
      ) ?? '';
    const { cluster, results } = applyManifests(
      base,
      web.replace('replicas: 3', 'replicas: 4'),
      NOW,
    );
    expect(results).toEqual([
      { kind: 'Deployment', namespace: 'default', name: 'web', action: 'configured' },
    ]);
    const before = base.pods.filter((p) => p.ownerDeployment === 'web');
    const after = cluster.pods.filter((p) => p.ownerDeployment === 'web');
    expect(after.slice(0, 3)).toEqual(before);
    expect(after[3]).toMatchObject({
      nodeName: 'node-2',
      podIP: '10.244.1.4',
      meta: { createdAt: NOW },
    });
    expect(cluster.endpointSlices.find((s) => s.serviceName === 'web')?.endpoints).toHaveLength(4);

    const changed = applyManifests(base, web.replace('agnhost:2.53', 'agnhost:2.54'), NOW);
    const pods = changed.cluster.pods.filter((p) => p.ownerDeployment === 'web');
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => !before.some((b) => b.meta.name === p.meta.name))).toBe(true);
    expect(changed.cluster.deployments.find((d) => d.meta.name === 'web')?.templateHash).not.toBe(
      base.deployments.find((d) => d.meta.name === 'web')?.templateHash,
    );
  });

  it('refuses component configs, which are not API resources', () => {
    const { cluster, diagnostics, results } = applyManifests(
      base,
      'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs\n',
      NOW,
    );
    expect(messages(diagnostics)).toEqual([
      '1:1 no matches for kind "KubeProxyConfiguration" in version "kubeproxy.config.k8s.io/v1alpha1"',
    ]);
    expect(results).toEqual([]);
    expect(cluster.kubeProxy).toEqual(base.kubeProxy);
  });

  it('applies the rest of a file around a bad document', () => {
    const text = docs(
      'apiVersion: v1\nkind: Foo\nmetadata: {name: x}',
      svc('extra', '  ports: [{port: 81}]\n'),
    );
    const { results, diagnostics } = applyManifests(base, text, NOW);
    expect(messages(diagnostics)).toEqual(['1:1 no matches for kind "Foo" in version "v1"']);
    expect(results).toEqual([
      { kind: 'Service', namespace: 'default', name: 'extra', action: 'created' },
    ]);
  });
});

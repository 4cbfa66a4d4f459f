import { describe, expect, it } from 'vitest';
import { loadScenario } from './index';
import { docs, messages, TWO_NODES } from './test-fixtures';

const C = '  containers: [{name: c, image: nginx}]\n';

function deployment(
  name: string,
  replicas: number,
  templateSpec = C,
  labels = '{app: web}',
): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: ${labels}}
  template:
    metadata: {labels: ${labels}}
    spec:
${templateSpec.replace(/^ {2}/gm, '      ')}`;
}

describe('Deployment', () => {
  const SAFE = '[bcdfghjklmnpqrstvwxz2456789]';
  it('names pods as a ReplicaSet does and labels them with pod-template-hash', () => {
    const { cluster, diagnostics } = loadScenario(docs(TWO_NODES, deployment('web', 3)));
    expect(diagnostics).toEqual([]);
    const d = cluster.deployments[0]!;
    expect(d).toMatchObject({ replicas: 3, selector: { app: 'web' } });
    // ComputeHash output: decimal FNV-32a digits mapped through the safe alphabet.
    expect(d.templateHash).toMatch(/^[4-9bcdf]{8,10}$/);
    expect(cluster.pods).toHaveLength(3);
    for (const p of cluster.pods) {
      expect(p.meta.name).toMatch(new RegExp(`^web-${d.templateHash}-${SAFE}{5}$`));
      expect(p.meta.labels).toEqual({ app: 'web', 'pod-template-hash': d.templateHash });
      expect(p.ownerDeployment).toBe('web');
    }
    expect(new Set(cluster.pods.map((p) => p.meta.name)).size).toBe(3);
    expect(cluster.pods.map((p) => p.nodeName)).toEqual(['node-1', 'node-2', 'node-1']);
  });

  it('is deterministic, and the hash follows the template only', () => {
    const a = loadScenario(docs(TWO_NODES, deployment('web', 2))).cluster;
    const b = loadScenario(docs(TWO_NODES, deployment('web', 2))).cluster;
    expect(a.pods.map((p) => p.meta.name)).toEqual(b.pods.map((p) => p.meta.name));
    const other = loadScenario(
      docs(TWO_NODES, deployment('web', 2, '  containers: [{name: c, image: nginx:2}]\n')),
    ).cluster;
    expect(other.deployments[0]?.templateHash).not.toBe(a.deployments[0]?.templateHash);
    const scaled = loadScenario(docs(TWO_NODES, deployment('web', 3))).cluster;
    expect(scaled.pods.slice(0, 2).map((p) => p.meta.name)).toEqual(a.pods.map((p) => p.meta.name));
  });

  it('defaults replicas to 1, allows 0, and honours a pinned template', () => {
    const text = docs(
      TWO_NODES,
      deployment('one', 1).replace('  replicas: 1\n', ''),
      deployment('none', 0, C, '{app: none}'),
      deployment('pinned', 3, `  nodeName: node-2\n${C}`, '{app: pinned}'),
    );
    const { cluster, diagnostics } = loadScenario(text);
    expect(diagnostics).toEqual([]);
    expect(cluster.deployments.map((d) => d.replicas)).toEqual([1, 0, 3]);
    expect(cluster.pods.filter((p) => p.ownerDeployment === 'pinned').map((p) => p.podIP)).toEqual([
      '10.244.1.2',
      '10.244.1.3',
      '10.244.1.4',
    ]);
  });

  const P = 'The Deployment "web" is invalid: ';
  it.each<[string, string, string[]]>([
    [
      'a negative replica count',
      deployment('web', -1),
      [`17:13 ${P}spec.replicas: Invalid value: -1: must be greater than or equal to 0`],
    ],
    [
      'more replicas than the lab runs',
      deployment('web', 500),
      [
        `17:13 ${P}spec.replicas: Invalid value: 500: the lab runs at most 200 replicas per Deployment`,
      ],
    ],
    [
      'a selector that does not match the template',
      deployment('web', 1).replace(
        'metadata: {labels: {app: web}}',
        'metadata: {labels: {app: api}}',
      ),
      [
        `20:5 ${P}spec.template.metadata.labels: Invalid value: {"app":"api"}: \`selector\` does not match template \`labels\``,
      ],
    ],
    [
      'no selector',
      deployment('web', 1).replace('  selector: {matchLabels: {app: web}}\n', ''),
      [`16:1 ${P}spec.selector: Required value`],
    ],
    [
      'an empty selector',
      deployment('web', 1).replace('{matchLabels: {app: web}}', '{}'),
      [`18:13 ${P}spec.selector: Invalid value: {}: empty selector is invalid for deployment`],
    ],
    [
      'an unknown template node',
      deployment('web', 2, `  nodeName: node-9\n${C}`),
      [`22:17 ${P}spec.template.spec.nodeName: Not found: "node-9"`],
    ],
  ])('rejects %s', (_t, doc, expected) => {
    const { cluster, diagnostics } = loadScenario(docs(TWO_NODES, doc));
    expect(messages(diagnostics)).toEqual(expected);
    expect(cluster.deployments).toEqual([]);
    expect(cluster.pods).toEqual([]);
  });

  it('accepts matchExpressions selectors', () => {
    const doc = deployment('web', 1).replace(
      '{matchLabels: {app: web}}',
      '{matchExpressions: [{key: app, operator: In, values: [web, api]}]}',
    );
    expect(messages(loadScenario(docs(TWO_NODES, doc)).diagnostics)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { loadScenario } from './index';
import { docs, messages, TWO_NODES } from './test-fixtures';

/** TWO_NODES takes lines 1–11; a document after it starts on line 13. */
function pod(name: string, spec: string, extra = ''): string {
  return `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n${spec}${extra}`;
}
const C = '  containers: [{name: c, image: nginx}]\n';

describe('Node', () => {
  it('reads podCIDR and addresses', () => {
    const text = docs(
      'apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {topology.kubernetes.io/zone: a}}\nspec: {podCIDR: 10.244.0.0/24}\nstatus:\n  addresses:\n  - {type: InternalIP, address: 192.168.1.10}\n  - {type: ExternalIP, address: 203.0.113.10}\n  - {type: Hostname, address: n1}',
    );
    const { cluster, diagnostics } = loadScenario(text);
    expect(diagnostics).toEqual([]);
    expect(cluster.nodes[0]).toMatchObject({
      meta: { name: 'n1', namespace: '', labels: { 'topology.kubernetes.io/zone': 'a' } },
      podCIDR: '10.244.0.0/24',
      internalIP: '192.168.1.10',
      externalIP: '203.0.113.10',
      addresses: [
        { type: 'InternalIP', address: '192.168.1.10' },
        { type: 'ExternalIP', address: '203.0.113.10' },
        { type: 'Hostname', address: 'n1' },
      ],
    });
  });

  it.each<[string, string, string[]]>([
    [
      'no InternalIP',
      'metadata: {name: n1}\nspec: {podCIDR: 10.244.0.0/24}\nstatus: {addresses: []}',
      [
        '5:1 The Node "n1" is invalid: status.addresses: Required value: the lab needs an InternalIP address for every Node',
      ],
    ],
    [
      'a malformed pod CIDR',
      'metadata: {name: n1}\nspec: {podCIDR: 10.244.0.1/24}\nstatus: {addresses: [{type: InternalIP, address: 192.168.1.10}]}',
      [
        '4:17 The Node "n1" is invalid: spec.podCIDRs[0]: Invalid value: "10.244.0.1/24": must not have bits set beyond the prefix length',
      ],
    ],
    [
      'a malformed address',
      'metadata: {name: n1}\nspec: {podCIDR: 10.244.0.0/24}\nstatus: {addresses: [{type: InternalIP, address: 192.168.1.300}]}',
      [
        '5:50 The Node "n1" is invalid: status.addresses[0].address: Invalid value: "192.168.1.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    ],
  ])('rejects %s', (_t, body, expected) => {
    expect(messages(loadScenario(`apiVersion: v1\nkind: Node\n${body}\n`).diagnostics)).toEqual(
      expected,
    );
  });

  it('rejects nodes sharing an address or overlapping pod CIDRs', () => {
    const text = docs(
      TWO_NODES,
      'apiVersion: v1\nkind: Node\nmetadata: {name: node-3}\nspec: {podCIDR: 10.244.2.0/24}\nstatus: {addresses: [{type: InternalIP, address: 192.168.1.10}]}',
      'apiVersion: v1\nkind: Node\nmetadata: {name: node-4}\nspec: {podCIDR: 10.244.0.0/23}\nstatus: {addresses: [{type: InternalIP, address: 192.168.1.14}]}',
    );
    const { cluster, diagnostics } = loadScenario(text);
    expect(messages(diagnostics)).toEqual([
      '13:1 Node "node-3" has InternalIP 192.168.1.10, already the address of Node "node-1"',
      '22:17 Node "node-4": spec.podCIDR 10.244.0.0/23 overlaps the podCIDR 10.244.0.0/24 of Node "node-1"',
    ]);
    expect(cluster.nodes.map((n) => n.meta.name)).toEqual(['node-1', 'node-2']);
  });
});

describe('Pod', () => {
  it('applies defaults and allocates from the node podCIDR after cni0 (.1)', () => {
    const text = docs(
      TWO_NODES,
      pod(
        'p',
        `  nodeName: node-1\n  containers:\n  - name: c\n    image: nginx\n    ports: [{containerPort: 80, name: http}]\n`,
      ),
    );
    const { cluster, diagnostics } = loadScenario(text);
    expect(diagnostics).toEqual([]);
    expect(cluster.pods[0]).toMatchObject({
      meta: { name: 'p', namespace: 'default', labels: {} },
      nodeName: 'node-1',
      podIP: '10.244.0.2',
      ready: true,
      terminating: false,
      hostNetwork: false,
      containers: [
        {
          name: 'c',
          image: 'nginx',
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
        },
      ],
    });
    expect(cluster.pods[0]?.ownerDeployment).toBeUndefined();
  });

  it('spreads unpinned pods over the least loaded node, ties by name', () => {
    const text = docs(TWO_NODES, pod('a', C), pod('b', C), pod('c', C));
    const placed = loadScenario(text).cluster.pods.map(
      (p) => `${p.meta.name} ${p.nodeName} ${p.podIP}`,
    );
    expect(placed).toEqual(['a node-1 10.244.0.2', 'b node-2 10.244.1.2', 'c node-1 10.244.0.3']);
  });

  it('honours status.podIP first (and places an unpinned pod on the node that owns it)', () => {
    const text = docs(
      TWO_NODES,
      pod('x', `  nodeName: node-1\n${C}`),
      pod('w', C, 'status: {podIP: 10.244.0.2}\n'),
      pod('z', C, 'status: {podIP: 10.244.1.9}\n'),
    );
    const placed = loadScenario(text).cluster.pods.map(
      (p) => `${p.meta.name} ${p.nodeName} ${p.podIP}`,
    );
    expect(placed).toEqual(['x node-1 10.244.0.3', 'w node-1 10.244.0.2', 'z node-2 10.244.1.9']);
  });

  it('gives hostNetwork pods their node address', () => {
    const text = docs(TWO_NODES, pod('h', `  nodeName: node-2\n  hostNetwork: true\n${C}`));
    expect(loadScenario(text).cluster.pods[0]).toMatchObject({
      podIP: '192.168.1.11',
      hostNetwork: true,
    });
  });

  it.each([
    [
      'Ready False → not ready',
      'status: {conditions: [{type: Ready, status: "False"}]}\n',
      { ready: false, terminating: false },
    ],
    ['Ready True', 'status: {conditions: [{type: Ready, status: "True"}]}\n', { ready: true }],
    [
      'Ready Unknown → not ready',
      'status: {conditions: [{type: Ready, status: "Unknown"}]}\n',
      { ready: false },
    ],
    [
      'other conditions do not matter',
      'status: {conditions: [{type: PodScheduled, status: "False"}]}\n',
      { ready: true },
    ],
  ])('readiness: %s', (_t, status, expected) => {
    expect(loadScenario(docs(TWO_NODES, pod('p', C, status))).cluster.pods[0]).toMatchObject(
      expected,
    );
  });

  it('marks a pod with deletionTimestamp as terminating', () => {
    const text = docs(
      TWO_NODES,
      `apiVersion: v1\nkind: Pod\nmetadata: {name: p, deletionTimestamp: "2024-01-01T00:00:00Z"}\nspec:\n${C}`,
    );
    expect(loadScenario(text).cluster.pods[0]).toMatchObject({
      terminating: true,
      meta: { deletionTimestamp: '2024-01-01T00:00:00Z' },
    });
  });

  it('keeps the node and address of pods that still exist (previous)', () => {
    const before = loadScenario(
      docs(TWO_NODES, pod('a', `  nodeName: node-1\n${C}`), pod('b', C)),
    ).cluster;
    expect(before.pods.map((p) => p.podIP)).toEqual(['10.244.0.2', '10.244.1.2']);
    const after = loadScenario(docs(TWO_NODES, pod('c', `  nodeName: node-2\n${C}`), pod('b', C)), {
      previous: before,
    }).cluster;
    expect(after.pods.map((p) => `${p.meta.name} ${p.nodeName} ${p.podIP}`)).toEqual([
      'c node-2 10.244.1.3',
      'b node-2 10.244.1.2',
    ]);
  });

  const P = 'The Pod "p" is invalid: ';
  it.each<[string, string, string, string[]]>([
    [
      'an unknown node',
      '  nodeName: node-9\n' + C,
      '',
      [`17:13 ${P}spec.nodeName: Not found: "node-9"`],
    ],
    ['no containers', '  nodeName: node-1\n', '', [`16:1 ${P}spec.containers: Required value`]],
    [
      'a container without image',
      '  containers: [{name: c}]\n',
      '',
      [`17:16 ${P}spec.containers[0].image: Required value`],
    ],
    [
      'a container without name',
      '  containers: [{image: nginx}]\n',
      '',
      [`17:16 ${P}spec.containers[0].name: Required value`],
    ],
    [
      'a port without containerPort',
      '  containers: [{name: c, image: x, ports: [{name: http}]}]\n',
      '',
      [`17:44 ${P}spec.containers[0].ports[0].containerPort: Required value`],
    ],
    [
      'a bad port name',
      '  containers: [{name: c, image: x, ports: [{name: http_1, containerPort: 80}]}]\n',
      '',
      [
        `17:51 ${P}spec.containers[0].ports[0].name: Invalid value: "http_1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
      ],
    ],
    [
      'duplicate port names in a container',
      '  containers:\n  - {name: a, image: x, ports: [{name: http, containerPort: 80}, {name: http, containerPort: 81}]}\n',
      '',
      [`18:73 ${P}spec.containers[0].ports[1].name: Duplicate value: "http"`],
    ],
    [
      'duplicate container names',
      '  containers: [{name: c, image: x}, {name: c, image: nginx}]\n',
      '',
      [`17:44 ${P}spec.containers[1].name: Duplicate value: "c"`],
    ],
    [
      'a podIP outside every podCIDR',
      C,
      'status: {podIP: 10.0.0.5}\n',
      [`18:17 ${P}status.podIP: Invalid value: "10.0.0.5": is not inside any Node's spec.podCIDR`],
    ],
    [
      'a podIP on another node',
      '  nodeName: node-2\n' + C,
      'status: {podIP: 10.244.0.5}\n',
      [
        `19:17 ${P}status.podIP: Invalid value: "10.244.0.5": is not inside the spec.podCIDR of Node "node-2" (10.244.1.0/24)`,
      ],
    ],
    [
      'the bridge address',
      C,
      'status: {podIP: 10.244.0.1}\n',
      [
        `18:17 ${P}status.podIP: Invalid value: "10.244.0.1": is the address of the bridge cni0 on Node "node-1"`,
      ],
    ],
    [
      'a malformed podIP',
      C,
      'status: {podIP: 10.244.0.05}\n',
      [`18:17 ${P}status.podIP: Invalid value: "10.244.0.05": must not have leading 0s`],
    ],
    [
      'an unquoted condition status (YAML 1.1 boolean)',
      C,
      'status: {conditions: [{type: Ready, status: False}]}\n',
      [
        `18:45 ${P}status.conditions[0].status: Invalid value: "boolean": status.conditions[0].status in body must be of type string: "boolean"`,
      ],
    ],
  ])('rejects %s', (_t, spec, extra, expected) => {
    const { cluster, diagnostics } = loadScenario(docs(TWO_NODES, pod('p', spec, extra)));
    expect(messages(diagnostics)).toEqual(expected);
    expect(cluster.pods).toEqual([]);
  });

  it('allows the same port name in two containers (the API checks per container)', () => {
    const spec =
      '  containers:\n  - {name: a, image: x, ports: [{name: http, containerPort: 80}]}\n  - {name: b, image: x, ports: [{name: http, containerPort: 81}]}\n';
    expect(loadScenario(docs(TWO_NODES, pod('p', spec))).diagnostics).toEqual([]);
  });

  it('rejects two pods with the same explicit address', () => {
    const text = docs(
      TWO_NODES,
      pod('a', C, 'status: {podIP: 10.244.0.9}\n'),
      pod('b', C, 'status: {podIP: 10.244.0.9}\n'),
    );
    expect(messages(loadScenario(text).diagnostics)).toEqual([
      '25:17 The Pod "b" is invalid: status.podIP: Invalid value: "10.244.0.9": is already used by Pod default/a',
    ]);
  });

  it('rejects invalid names, namespaces and labels', () => {
    const text = docs(
      TWO_NODES,
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: P1\n  namespace: Team_A\n  labels: {app: "a b"}\nspec:\n${C}`,
    );
    expect(messages(loadScenario(text).diagnostics)).toEqual([
      `16:9 The Pod "P1" is invalid: metadata.name: Invalid value: "P1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `17:14 The Pod "P1" is invalid: metadata.namespace: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      `18:11 The Pod "P1" is invalid: metadata.labels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ]);
  });

  it('warns when a node has no free address left', () => {
    const small =
      'apiVersion: v1\nkind: Node\nmetadata: {name: tiny}\nspec: {podCIDR: 10.244.9.0/30}\nstatus: {addresses: [{type: InternalIP, address: 192.168.1.20}]}';
    const { cluster, diagnostics } = loadScenario(docs(small, pod('a', C), pod('b', C)));
    expect(cluster.pods.map((p) => p.podIP)).toEqual(['10.244.9.2', '']);
    expect(messages(diagnostics, 'warning')).toEqual([
      '13:1 Pod default/b: failed to allocate for range 0: no IP addresses available in range set: 10.244.9.2-10.244.9.2',
    ]);
  });
});

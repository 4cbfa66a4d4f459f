import { describe, expect, it } from 'vitest';
import type { EndpointSlice } from '../model/cluster';
import { loadScenario } from './index';
import { docs, messages, TWO_NODES } from './test-fixtures';

function pod(
  name: string,
  opts: {
    node?: string;
    labels?: string;
    ports?: string;
    extra?: string;
    meta?: string;
    ns?: string;
  } = {},
): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: ${opts.ns ?? 'default'}, labels: ${opts.labels ?? '{app: web}'}${opts.meta ?? ''}}
spec:
  nodeName: ${opts.node ?? 'node-1'}
  containers: [{name: c, image: nginx, ports: ${opts.ports ?? '[{name: http, containerPort: 8080}]'}}]
${opts.extra ?? ''}`;
}

function service(spec: string, name = 'web'): string {
  return `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}, labels: {team: a}}\nspec:\n${spec}`;
}
const WEB = service(
  '  selector: {app: web}\n  ports: [{name: http, port: 80, targetPort: http}]\n',
);

function slicesOf(list: readonly EndpointSlice[], svc = 'web'): EndpointSlice[] {
  return list.filter((s) => s.serviceName === svc);
}

describe('EndpointSlice controller', () => {
  it('derives one slice from the pods the selector matches, in the same namespace', () => {
    const text = docs(
      TWO_NODES,
      WEB,
      pod('a'),
      pod('b', { node: 'node-2' }),
      pod('other', { labels: '{app: api}' }),
      pod('elsewhere', { ns: 'team-b' }),
    );
    const { cluster, diagnostics } = loadScenario(text);
    expect(diagnostics).toEqual([]);
    const slices = slicesOf(cluster.endpointSlices);
    expect(slices).toHaveLength(1);
    const s = slices[0]!;
    expect(s.meta.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(s.meta.labels).toEqual({
      team: 'a',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(s).toMatchObject({
      managed: true,
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    });
    expect(s.endpoints).toEqual([
      {
        addresses: ['10.244.0.2'],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: 'node-1',
        targetRef: { kind: 'Pod', name: 'a', namespace: 'default' },
      },
      {
        addresses: ['10.244.1.2'],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: 'node-2',
        targetRef: { kind: 'Pod', name: 'b', namespace: 'default' },
      },
    ]);
  });

  it.each([
    ['a ready pod', '', '', { ready: true, serving: true, terminating: false }],
    [
      'a pod that is not ready',
      '',
      'status: {conditions: [{type: Ready, status: "False"}]}\n',
      { ready: false, serving: false, terminating: false },
    ],
    [
      'a terminating ready pod',
      ', deletionTimestamp: "2024-01-01T00:00:00Z"',
      '',
      { ready: false, serving: true, terminating: true },
    ],
    [
      'a terminating pod that is not ready',
      ', deletionTimestamp: "2024-01-01T00:00:00Z"',
      'status: {conditions: [{type: Ready, status: "False"}]}\n',
      { ready: false, serving: false, terminating: true },
    ],
  ])('conditions of %s (EndpointSliceTerminatingCondition)', (_t, meta, extra, expected) => {
    const { cluster } = loadScenario(docs(TWO_NODES, WEB, pod('a', { meta, extra })));
    expect(slicesOf(cluster.endpointSlices)[0]?.endpoints[0]?.conditions).toEqual(expected);
  });

  it('marks every endpoint ready with publishNotReadyAddresses', () => {
    const svc = service(
      '  publishNotReadyAddresses: true\n  selector: {app: web}\n  ports: [{name: http, port: 80, targetPort: http}]\n',
    );
    const { cluster } = loadScenario(
      docs(
        TWO_NODES,
        svc,
        pod('a', { extra: 'status: {conditions: [{type: Ready, status: "False"}]}\n' }),
      ),
    );
    expect(slicesOf(cluster.endpointSlices)[0]?.endpoints[0]?.conditions).toEqual({
      ready: true,
      serving: false,
      terminating: false,
    });
  });

  it('resolves named ports per pod and groups pods by their resolved ports', () => {
    const svc = service(
      '  selector: {app: web}\n  ports:\n  - {name: http, port: 80, targetPort: http}\n  - {name: metrics, port: 9100, targetPort: 9100}\n',
    );
    const text = docs(
      TWO_NODES,
      svc,
      pod('a', { ports: '[{name: http, containerPort: 8080}]' }),
      pod('b', { ports: '[{name: http, containerPort: 9090}]' }),
      pod('c', { ports: '[{name: http, containerPort: 8080, protocol: UDP}]' }),
      pod('d', { ports: '[{name: http, containerPort: 8080}]', node: 'node-2' }),
    );
    const slices = slicesOf(loadScenario(text).cluster.endpointSlices);
    const view = slices.map((s) => ({
      ports: s.ports.map((p) => `${p.name}:${p.port}`),
      pods: s.endpoints.map((e) => e.targetRef?.name),
    }));
    expect(view).toEqual([
      { ports: ['http:8080', 'metrics:9100'], pods: ['a', 'd'] },
      { ports: ['http:9090', 'metrics:9100'], pods: ['b'] },
      // c's "http" is UDP: FindPort matches name and protocol, so only metrics resolves.
      { ports: ['metrics:9100'], pods: ['c'] },
    ]);
    expect(new Set(slices.map((s) => s.meta.name)).size).toBe(3);
  });

  it('publishes an empty placeholder slice when nothing matches', () => {
    const { cluster } = loadScenario(docs(TWO_NODES, WEB));
    expect(slicesOf(cluster.endpointSlices)).toMatchObject([
      { endpoints: [], ports: [], managed: true },
    ]);
  });

  it('uses the node address for hostNetwork pods and skips pods without an address', () => {
    const bare =
      'apiVersion: v1\nkind: Node\nmetadata: {name: bare}\nstatus: {addresses: [{type: InternalIP, address: 192.168.1.30}]}';
    const host = `apiVersion: v1\nkind: Pod\nmetadata: {name: h, labels: {app: web}}\nspec:\n  nodeName: node-2\n  hostNetwork: true\n  containers: [{name: c, image: x, ports: [{name: http, containerPort: 8080}]}]`;
    const text = docs(TWO_NODES, bare, WEB, host, pod('noip', { node: 'bare' }));
    const { cluster, diagnostics } = loadScenario(text);
    expect(messages(diagnostics, 'warning')).toEqual([
      '13:1 Node "bare" has no spec.podCIDR: only hostNetwork pods can run on it',
      '33:1 Pod default/noip gets no address: Node "bare" has no spec.podCIDR',
    ]);
    expect(slicesOf(cluster.endpointSlices)[0]?.endpoints.map((e) => e.addresses[0])).toEqual([
      '192.168.1.11',
    ]);
  });

  it('labels slices of headless Services and copies the node zone', () => {
    const zoned = TWO_NODES.replace(
      'metadata: {name: node-1}',
      'metadata: {name: node-1, labels: {topology.kubernetes.io/zone: zone-a}}',
    );
    const svc = service(
      '  clusterIP: None\n  selector: {app: web}\n  ports: [{name: http, port: 80, targetPort: http}]\n',
    );
    const s = slicesOf(loadScenario(docs(zoned, svc, pod('a'))).cluster.endpointSlices)[0];
    expect(s?.meta.labels['service.kubernetes.io/headless']).toBe('');
    expect(s?.endpoints[0]?.zone).toBe('zone-a');
  });

  it('leaves Services without a selector and ExternalName Services alone', () => {
    const text = docs(
      TWO_NODES,
      service('  ports: [{port: 80}]\n', 'manual'),
      service('  type: ExternalName\n  externalName: example.com\n  selector: {app: web}\n', 'ext'),
      pod('a'),
    );
    expect(loadScenario(text).cluster.endpointSlices).toEqual([]);
  });

  it('splits more than 100 endpoints over several slices', () => {
    const big =
      'apiVersion: v1\nkind: Node\nmetadata: {name: big}\nspec: {podCIDR: 10.250.0.0/16}\nstatus: {addresses: [{type: InternalIP, address: 192.168.1.50}]}';
    const dep = `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 150\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: x, ports: [{name: http, containerPort: 8080}]}]`;
    const slices = slicesOf(loadScenario(docs(big, WEB, dep)).cluster.endpointSlices);
    expect(slices.map((s) => s.endpoints.length)).toEqual([100, 50]);
  });
});

describe('EndpointSlices given in the scenario', () => {
  const manual = service('  ports: [{name: https, port: 443, targetPort: 6443}]\n', 'kubernetes');
  it('are used as written, with condition defaults (ready unset = ready, serving = ready)', () => {
    const slice = `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: kubernetes, labels: {kubernetes.io/service-name: kubernetes}}
addressType: IPv4
endpoints:
- addresses: [192.168.1.10]
- addresses: [192.168.1.11]
  conditions: {ready: false}
  nodeName: node-2
  zone: z1
  targetRef: {kind: Node, name: node-2}
ports: [{name: https, port: 6443}]`;
    const { cluster, diagnostics } = loadScenario(docs(manual, slice));
    expect(diagnostics).toEqual([]);
    expect(cluster.endpointSlices).toEqual([
      expect.objectContaining({
        serviceName: 'kubernetes',
        managed: false,
        ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
        endpoints: [
          {
            addresses: ['192.168.1.10'],
            conditions: { ready: true, serving: true, terminating: false },
          },
          {
            addresses: ['192.168.1.11'],
            conditions: { ready: false, serving: false, terminating: false },
            nodeName: 'node-2',
            zone: 'z1',
            targetRef: { kind: 'Node', name: 'node-2', namespace: '' },
          },
        ],
      }),
    ]);
  });

  it('replace the controller for a Service with a selector', () => {
    const slice = `apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: web-manual, labels: {kubernetes.io/service-name: web}}\naddressType: IPv4\nendpoints: [{addresses: [10.244.0.50], conditions: {ready: false, serving: true, terminating: true}}]\nports: [{name: http, port: 8080}]`;
    const slices = slicesOf(
      loadScenario(docs(TWO_NODES, WEB, slice, pod('a'))).cluster.endpointSlices,
    );
    expect(slices.map((s) => [s.meta.name, s.managed])).toEqual([['web-manual', false]]);
  });

  const P = 'The EndpointSlice "s" is invalid: ';
  it.each<[string, string, string[]]>([
    ['no addressType', 'endpoints: []', [`1:1 ${P}addressType: Required value`]],
    [
      'an IPv6 slice',
      'addressType: IPv6',
      [
        `4:14 ${P}addressType: Invalid value: "IPv6": the lab models an IPv4 single-stack cluster: only IPv4 slices are supported`,
      ],
    ],
    [
      'an unknown addressType',
      'addressType: IPv5',
      [`4:14 ${P}addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"`],
    ],
    [
      'an endpoint without addresses',
      'addressType: IPv4\nendpoints: [{nodeName: node-1}]',
      [`5:13 ${P}endpoints[0].addresses: Required value: must contain at least 1 address`],
    ],
    [
      'a bad address',
      'addressType: IPv4\nendpoints: [{addresses: [10.0.0.256]}]',
      [
        `5:26 ${P}endpoints[0].addresses[0]: Invalid value: "10.0.0.256": must be a valid IPv4 address`,
      ],
    ],
    [
      'duplicate port names',
      'addressType: IPv4\nports: [{name: a, port: 1}, {name: a, port: 2}]',
      [`5:36 ${P}ports[1].name: Duplicate value: "a"`],
    ],
    [
      'a port out of range',
      'addressType: IPv4\nports: [{name: a, port: 0}]',
      [`5:25 ${P}ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive`],
    ],
  ])('reject %s', (_t, body, expected) => {
    const text = `apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: s, labels: {kubernetes.io/service-name: x}}\n${body}\n`;
    expect(messages(loadScenario(text).diagnostics)).toEqual(expected);
  });

  it('warn when the Service is missing or the service-name label is absent', () => {
    const a =
      'apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: a, labels: {kubernetes.io/service-name: ghost}}\naddressType: IPv4';
    const b =
      'apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: b}\naddressType: IPv4';
    expect(messages(loadScenario(docs(a, b)).diagnostics, 'warning')).toEqual([
      '1:1 EndpointSlice default/a: no Service "ghost" in namespace "default"',
      '6:1 EndpointSlice has no kubernetes.io/service-name label: kube-proxy ignores it',
    ]);
  });
});

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

const P = 'The Service "web" is invalid: ';

describe('Service validation (API server messages)', () => {
  it.each<[string, string, string[]]>([
    [
      'port out of range',
      'ports:\n- port: 70000',
      [
        `6:11 ${P}spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive`,
        `6:11 ${P}spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive`,
      ],
    ],
    [
      'duplicate port names',
      'ports:\n- {name: http, port: 80}\n- {name: http, port: 81}',
      [`7:12 ${P}spec.ports[1].name: Duplicate value: "http"`],
    ],
    [
      'unnamed port of a multi-port Service',
      'ports:\n- port: 80\n- {name: b, port: 81}',
      [`6:5 ${P}spec.ports[0].name: Required value`],
    ],
    [
      'invalid port name',
      'ports:\n- {name: HTTP, port: 80}',
      [
        `6:12 ${P}spec.ports[0].name: Invalid value: "HTTP": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'nodePort on a ClusterIP Service',
      'ports:\n- port: 80\n  nodePort: 30080',
      [`7:15 ${P}spec.ports[0].nodePort: Forbidden: may not be used when \`type\` is 'ClusterIP'`],
    ],
    [
      'NodePort out of range',
      'type: NodePort\nports:\n- port: 80\n  nodePort: 20080',
      [
        `8:15 ${P}spec.ports[0].nodePort: Invalid value: 20080: provided port is not in the valid range. The range of valid ports is 30000-32767`,
      ],
    ],
    [
      'ClusterIP outside the Service CIDR',
      'clusterIP: 10.1.0.1\nports: [{port: 80}]',
      [
        `5:14 ${P}spec.clusterIPs: Invalid value: ["10.1.0.1"]: failed to allocate IP 10.1.0.1: the provided IP (10.1.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12`,
      ],
    ],
    [
      'malformed ClusterIP',
      'clusterIP: 10.96.0.300\nports: [{port: 80}]',
      [
        `5:14 ${P}spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
      ],
    ],
    [
      'clusterIPs must start with clusterIP',
      'clusterIP: 10.96.0.20\nclusterIPs: [10.96.0.21]\nports: [{port: 80}]',
      [
        `6:3 ${P}spec.clusterIPs: Invalid value: ["10.96.0.21"]: first value must match \`clusterIP\``,
      ],
    ],
    [
      'unknown type',
      'type: Foo\nports: [{port: 80}]',
      [
        `5:9 ${P}spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`,
      ],
    ],
    [
      'unknown protocol',
      'ports: [{port: 80, protocol: ICMP}]',
      [
        `5:32 ${P}spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"`,
      ],
    ],
    [
      'affinity timeout out of range',
      'sessionAffinity: ClientIP\nsessionAffinityConfig: {clientIP: {timeoutSeconds: 90000}}\nports: [{port: 80}]',
      [
        `6:54 ${P}spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 90000: must be greater than 0 and less than 86400`,
      ],
    ],
    [
      'affinity config without ClientIP',
      'sessionAffinityConfig: {clientIP: {timeoutSeconds: 60}}\nports: [{port: 80}]',
      [
        `5:3 ${P}spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None`,
      ],
    ],
    [
      'unknown sessionAffinity',
      'sessionAffinity: Sticky\nports: [{port: 80}]',
      [
        `5:20 ${P}spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"`,
      ],
    ],
    [
      'externalTrafficPolicy on an internal Service',
      'externalTrafficPolicy: Local\nports: [{port: 80}]',
      [
        `5:26 ${P}spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services`,
      ],
    ],
    [
      'unknown externalTrafficPolicy',
      'type: NodePort\nexternalTrafficPolicy: Nearby\nports: [{port: 80}]',
      [
        `6:26 ${P}spec.externalTrafficPolicy: Unsupported value: "Nearby": supported values: "Cluster", "Local"`,
      ],
    ],
    [
      'unknown internalTrafficPolicy',
      'internalTrafficPolicy: Node\nports: [{port: 80}]',
      [
        `5:26 ${P}spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"`,
      ],
    ],
    [
      'healthCheckNodePort without LoadBalancer + Local',
      'type: NodePort\nhealthCheckNodePort: 30500\nports: [{port: 80}]',
      [
        `6:24 ${P}spec.healthCheckNodePort: Invalid value: 30500: may only be set when \`type\` is 'LoadBalancer' and \`externalTrafficPolicy\` is 'Local'`,
      ],
    ],
    [
      'ExternalName without a name',
      'type: ExternalName',
      [`4:1 ${P}spec.externalName: Required value`],
    ],
    [
      'headless NodePort',
      'type: NodePort\nclusterIP: None\nports: [{port: 80}]',
      [
        `6:14 ${P}spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`,
      ],
    ],
    [
      'source ranges on a ClusterIP Service',
      'loadBalancerSourceRanges: [10.0.0.1/8]\nports: [{port: 80}]',
      [
        `5:3 ${P}spec.LoadBalancerSourceRanges: Forbidden: may only be used when \`type\` is 'LoadBalancer'`,
        `5:30 ${P}spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length`,
      ],
    ],
    [
      'special externalIP',
      'externalIPs: [127.0.0.1]\nports: [{port: 80}]',
      [
        `5:17 ${P}spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)`,
      ],
    ],
    [
      'invalid named targetPort',
      'ports: [{port: 80, targetPort: web_port}]',
      [
        `5:34 ${P}spec.ports[0].targetPort: Invalid value: "web_port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
      ],
    ],
    [
      'the same port and protocol twice',
      'ports:\n- {name: a, port: 80}\n- {name: b, port: 80}',
      [
        `7:5 ${P}spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}`,
      ],
    ],
    ['no ports', 'selector: {app: web}', [`4:1 ${P}spec.ports: Required value`]],
    [
      'a string where an integer belongs',
      'ports:\n- port: "80"',
      [
        `6:11 ${P}spec.ports[0].port: Invalid value: "string": spec.ports[0].port in body must be of type integer: "string"`,
      ],
    ],
    [
      'a list where a map belongs',
      'selector: [app]\nports: [{port: 80}]',
      [
        `5:13 ${P}spec.selector: Invalid value: "array": spec.selector in body must be of type object: "array"`,
      ],
    ],
    [
      'RequireDualStack on a single-stack cluster',
      'ipFamilyPolicy: RequireDualStack\nports: [{port: 80}]',
      [
        `5:19 ${P}spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services`,
      ],
    ],
  ])('%s', (_title, spec, expected) => {
    const { cluster, diagnostics } = loadScenario(svc(spec));
    expect(messages(diagnostics)).toEqual(expected);
    expect(
      diagnostics
        .filter((d) => d.severity === 'error')
        .every((d) => d.doc === 0 && d.object === 'Service default/web'),
    ).toBe(true);
    expect(cluster.services).toEqual([]);
  });

  it.each<[string, string, string]>([
    [
      'an invalid name',
      'My_svc',
      `3:18 The Service "My_svc" is invalid: metadata.name: Invalid value: "My_svc": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ],
    [
      'a name starting with a digit',
      '1web',
      `3:18 The Service "1web" is invalid: metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ],
  ])('rejects %s', (_t, name, expected) => {
    expect(messages(loadScenario(svc('ports: [{port: 80}]', name)).diagnostics)).toEqual([
      expected,
    ]);
  });

  it('requires a name, pointing at metadata', () => {
    const text =
      'apiVersion: v1\nkind: Service\nmetadata:\n  labels: {a: b}\nspec:\n  ports: [{port: 80}]\n';
    expect(messages(loadScenario(text).diagnostics)).toEqual([
      '3:1 The Service "" is invalid: metadata.name: Required value: name or generateName is required',
    ]);
  });

  it('reports allocation conflicts between Services', () => {
    const text = docs(
      svc('type: NodePort\nclusterIP: 10.96.0.50\nports: [{port: 80, nodePort: 30080}]', 'a'),
      svc('type: NodePort\nports: [{port: 80, nodePort: 30080}]', 'b'),
      svc('clusterIP: 10.96.0.50\nports: [{port: 80}]', 'c'),
    );
    const { cluster, diagnostics } = loadScenario(text);
    expect(messages(diagnostics)).toEqual([
      '14:32 The Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
      '20:14 The Service "c" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.50"]: failed to allocate IP 10.96.0.50: provided IP is already allocated',
    ]);
    expect(cluster.services.map((s) => s.meta.name)).toEqual(['a']);
  });

  it('refuses a second object with the same name', () => {
    const text = docs(svc('ports: [{port: 80}]'), svc('ports: [{port: 81}]'));
    const { cluster, diagnostics } = loadScenario(text);
    expect(messages(diagnostics)).toEqual(['9:18 services "web" already exists']);
    expect(cluster.services[0]?.ports[0]?.port).toBe(80);
  });

  it('warns about unknown fields, as kubectl strict field validation does', () => {
    const { cluster, diagnostics } = loadScenario(svc('foo: 1\nports: [{port: 80, bar: 2}]'));
    expect(messages(diagnostics, 'warning')).toEqual([
      '5:3 unknown field "spec.foo"',
      '6:22 unknown field "spec.ports[0].bar"',
    ]);
    expect(cluster.services).toHaveLength(1);
  });
});

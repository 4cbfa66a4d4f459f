import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_PROXY, loadScenario } from './index';
import { docs, messages, TWO_NODES } from './test-fixtures';

const KP = 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n';
const LAB = 'apiVersion: kube-proxy-lab/v1alpha1\nkind: Lab\n';

describe('KubeProxyConfiguration', () => {
  it('defaults to iptables mode when absent', () => {
    const { cluster } = loadScenario('');
    expect(cluster.kubeProxy).toEqual(DEFAULT_KUBE_PROXY);
    expect(DEFAULT_KUBE_PROXY).toMatchObject({
      mode: 'iptables',
      masqueradeBit: 14,
      localhostNodePorts: true,
      syncPeriodSeconds: 30,
      minSyncPeriodSeconds: 1,
      ipvsScheduler: 'rr',
      detectLocalMode: 'ClusterCIDR',
    });
  });

  it.each([
    [
      'blank mode means iptables',
      'mode: ""\nclusterCIDR: 10.244.0.0/16',
      { mode: 'iptables', clusterCIDR: '10.244.0.0/16' },
    ],
    [
      'iptables options',
      'mode: iptables\nclusterCIDR: 10.244.0.0/16\niptables: {masqueradeAll: true, masqueradeBit: 15, localhostNodePorts: false, syncPeriod: 1m30s, minSyncPeriod: 500ms}',
      {
        masqueradeAll: true,
        masqueradeBit: 15,
        localhostNodePorts: false,
        syncPeriodSeconds: 90,
        minSyncPeriodSeconds: 0.5,
      },
    ],
    [
      'ipvs options (their own sync periods; blank scheduler = rr)',
      'mode: ipvs\nclusterCIDR: 10.244.0.0/16\nipvs: {scheduler: "", strictARP: true, syncPeriod: 10s, tcpTimeout: 900s, tcpFinTimeout: 2m, udpTimeout: 0s}',
      {
        mode: 'ipvs',
        ipvsScheduler: 'rr',
        ipvsStrictARP: true,
        syncPeriodSeconds: 10,
        minSyncPeriodSeconds: 0,
        ipvsTcpTimeout: 900,
        ipvsTcpFinTimeout: 120,
        ipvsUdpTimeout: 0,
      },
    ],
    [
      'nftables reads its own masquerade settings',
      'mode: nftables\nclusterCIDR: 10.244.0.0/16\nnftables: {masqueradeBit: 12, masqueradeAll: true}',
      { mode: 'nftables', masqueradeBit: 12, masqueradeAll: true },
    ],
    [
      'local detection by bridge',
      'detectLocalMode: BridgeInterface\ndetectLocal: {bridgeInterface: cni0}',
      { detectLocalMode: 'BridgeInterface', bridgeInterface: 'cni0' },
    ],
    [
      'nodePortAddresses',
      'clusterCIDR: 10.244.0.0/16\nnodePortAddresses: [192.168.1.0/24]',
      { nodePortAddresses: ['192.168.1.0/24'] },
    ],
  ])('%s', (_t, body, expected) => {
    const { cluster, diagnostics } = loadScenario(KP + body);
    expect(messages(diagnostics)).toEqual([]);
    expect(cluster.kubeProxy).toMatchObject({ ...expected, source: { doc: 0, line: 1, col: 1 } });
  });

  const K = 'KubeProxyConfiguration';
  it.each<[string, string, string[]]>([
    [
      'an unknown mode',
      'mode: userspace',
      [
        `3:7 ${K}.Mode.ProxyMode: Invalid value: "userspace": must be iptables, ipvs, nftables or blank (blank means the best-available proxy [currently iptables])`,
      ],
    ],
    [
      'a masquerade bit out of range',
      'iptables: {masqueradeBit: 32}',
      [
        `3:27 ${K}.KubeProxyIPTablesConfiguration.MasqueradeBit: Invalid value: 32: must be within the range [0, 31]`,
      ],
    ],
    [
      'a zero sync period',
      'iptables: {syncPeriod: 0s}',
      [`3:24 ${K}.SyncPeriod: Invalid value: "0s": must be greater than 0`],
    ],
    [
      'minSyncPeriod above syncPeriod',
      'iptables: {syncPeriod: 10s, minSyncPeriod: 1m}',
      [
        `3:24 ${K}.SyncPeriod: Invalid value: "1m0s": must be greater than or equal to ${K}.MinSyncPeriod`,
      ],
    ],
    [
      'a malformed duration',
      'iptables: {syncPeriod: 5 seconds}',
      [
        `3:24 ${K}.iptables.syncPeriod: Invalid value: "5 seconds": time: invalid duration "5 seconds"`,
      ],
    ],
    [
      'a negative IPVS timeout',
      'mode: ipvs\nipvs: {tcpTimeout: -1s}',
      [
        `4:20 ${K}.KubeProxyIPVSConfiguration.TCPTimeout: Invalid value: "-1s": must be greater than or equal to 0`,
      ],
    ],
    [
      'an unknown detectLocalMode',
      'detectLocalMode: PodCIDR',
      [
        `3:18 ${K}.DetectLocalMode: Unsupported value: "PodCIDR": supported values: "ClusterCIDR", "NodeCIDR", "BridgeInterface", "InterfaceNamePrefix", ""`,
      ],
    ],
    [
      'BridgeInterface without a bridge',
      'detectLocalMode: BridgeInterface',
      [`1:1 ${K}.DetectLocalConfiguration.InterfaceName: Invalid value: "": must not be empty`],
    ],
    [
      'a malformed clusterCIDR',
      'clusterCIDR: 10.244.0.0/33',
      [
        `3:14 ${K}.DetectLocalConfiguration.ClusterCIDRs[0]: Invalid value: "10.244.0.0/33": must be a valid CIDR block (e.g. 10.100.0.0/16 or fde4:8dba:82e1::/48)`,
      ],
    ],
    [
      'primary mixed with CIDRs',
      'clusterCIDR: 10.244.0.0/16\nnodePortAddresses: [10.0.0.0/8, primary]',
      [
        `4:33 ${K}.NodePortAddresses[1]: Invalid value: "primary": can't use both 'primary' and CIDRs`,
      ],
    ],
    [
      'an unknown IPVS scheduler',
      'mode: ipvs\nipvs: {scheduler: fastest}',
      [
        `4:19 ${K}.KubeProxyIPVSConfiguration.Scheduler: Unsupported value: "fastest": supported values: "dh", "lblc", "lblcr", "lc", "mh", "nq", "rr", "sed", "sh", "wlc", "wrr"`,
      ],
    ],
    [
      'a string where a boolean belongs',
      'iptables: {masqueradeAll: "yes"}',
      [
        `3:27 ${K}.iptables.masqueradeAll: Invalid value: "string": ${K}.iptables.masqueradeAll in body must be of type boolean: "string"`,
      ],
    ],
  ])('rejects %s', (_t, body, expected) => {
    const { cluster, diagnostics } = loadScenario(KP + body + '\n');
    expect(messages(diagnostics)).toEqual(expected);
    expect(cluster.kubeProxy).toEqual(DEFAULT_KUBE_PROXY);
  });

  it('warns when ClusterCIDR detection has no CIDR, and about unknown fields', () => {
    expect(messages(loadScenario(KP + 'mode: iptables\nfoo: 1\n').diagnostics, 'warning')).toEqual([
      '1:1 Detect-local-mode set to ClusterCIDR, but no cluster CIDR specified for primary IP family',
      '4:1 unknown field "KubeProxyConfiguration.foo"',
    ]);
  });

  it('takes the first of two documents', () => {
    const { cluster, diagnostics } = loadScenario(
      docs(
        KP + 'mode: ipvs\nclusterCIDR: 10.0.0.0/8',
        KP + 'mode: nftables\nclusterCIDR: 10.0.0.0/8',
      ),
    );
    expect(cluster.kubeProxy.mode).toBe('ipvs');
    expect(messages(diagnostics)).toEqual([
      '6:1 a scenario holds one KubeProxyConfiguration document: the one in document 1 is used',
    ]);
  });
});

describe('KubeletConfiguration', () => {
  const KL = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
  it('runs hairpin-veth unless told otherwise', () => {
    expect(loadScenario('').cluster.kubelet).toEqual({ hairpinMode: 'hairpin-veth' });
    expect(loadScenario(KL + 'hairpinMode: promiscuous-bridge\n').cluster.kubelet).toMatchObject({
      hairpinMode: 'promiscuous-bridge',
    });
    expect(loadScenario(KL + 'hairpinMode: none\ncgroupDriver: systemd\n').diagnostics).toEqual([]);
  });

  it('refuses an unknown hairpin mode as kubelet does', () => {
    expect(messages(loadScenario(KL + 'hairpinMode: hairpin\n').diagnostics)).toEqual([
      '3:14 Invalid hairpin mode: unknown value: "hairpin"',
    ]);
  });
});

describe('Lab', () => {
  it('has defaults', () => {
    expect(loadScenario(TWO_NODES).cluster.lab).toEqual({
      serviceCIDR: '10.96.0.0/12',
      externalClients: [],
      seed: 1,
      clusterAgeSeconds: 864000,
      sysctls: {
        'node-1': { 'net.bridge.bridge-nf-call-iptables': '1', 'net.ipv4.ip_forward': '1' },
        'node-2': { 'net.bridge.bridge-nf-call-iptables': '1', 'net.ipv4.ip_forward': '1' },
      },
    });
  });

  it('takes a cluster age up to the end of the lab clock (9999-12-31T23:59:59Z)', () => {
    const { cluster, diagnostics } = loadScenario(docs(`${LAB}clusterAge: 251629862399`, TWO_NODES)); // prettier-ignore
    expect(diagnostics).toEqual([]);
    expect(cluster.lab.clusterAgeSeconds).toBe(251629862399);
  });

  it('reads settings, sysctl overrides and external clients', () => {
    const lab = `${LAB}serviceCIDR: 10.100.0.0/16\nseed: 42\nclusterAge: 1d12h\nnodes:\n  node-2:\n    sysctls:\n      net.bridge.bridge-nf-call-iptables: "0"\n      net.ipv4.conf.all.route_localnet: 1\nexternalClients:\n- {name: laptop, address: 192.168.1.100}`;
    const { cluster, diagnostics } = loadScenario(docs(lab, TWO_NODES));
    expect(diagnostics).toEqual([]);
    expect(cluster.lab).toMatchObject({
      serviceCIDR: '10.100.0.0/16',
      seed: 42,
      clusterAgeSeconds: 129600,
      externalClients: [{ name: 'laptop', address: '192.168.1.100' }],
      sysctls: {
        'node-1': { 'net.bridge.bridge-nf-call-iptables': '1' },
        'node-2': {
          'net.bridge.bridge-nf-call-iptables': '0',
          'net.ipv4.conf.all.route_localnet': '1',
          'net.ipv4.ip_forward': '1',
        },
      },
    });
  });

  it.each<[string, string, string[]]>([
    [
      'a malformed Service CIDR',
      'serviceCIDR: 10.96.0.0/33',
      [
        '3:14 Lab.serviceCIDR: Invalid value: "10.96.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    ],
    [
      'a Service CIDR too large for the API server',
      'serviceCIDR: 10.0.0.0/8',
      [
        '3:14 Lab.serviceCIDR: Invalid value: "10.0.0.0/8": specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12',
      ],
    ],
    [
      'a bad cluster age',
      'clusterAge: ten days',
      [
        '3:13 Lab.clusterAge: Invalid value: "ten days": must be a duration such as "10d", "36h" or "90m", or a number of seconds',
      ],
    ],
    [
      // 2026-03-02T08:00:00Z + 251,629,862,399 s = 9999-12-31T23:59:59Z, where the lab's clock ends.
      'a cluster older than the lab clock can hold',
      'clusterAge: 2912383d',
      [
        `3:13 Lab.clusterAge: Invalid value: "2912383d": must be at most 251629862399 seconds: the lab's clock starts at 2026-03-02T08:00:00Z plus the cluster's age, and ends at 9999-12-31T23:59:59Z`,
      ],
    ],
    [
      'a negative seed',
      'seed: -1',
      ['3:7 Lab.seed: Invalid value: -1: must be between 0 and 4294967295, inclusive'],
    ],
    [
      'duplicate and malformed external clients',
      'externalClients:\n- {name: a, address: 1.2.3.4}\n- {name: a, address: 1.2.3}',
      [
        '5:10 Lab.externalClients[1].name: Duplicate value: "a"',
        '5:22 Lab.externalClients[1].address: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    ],
  ])('rejects %s', (_t, body, expected) => {
    const { cluster, diagnostics } = loadScenario(LAB + body + '\n');
    expect(messages(diagnostics)).toEqual(expected);
    expect(cluster.lab.serviceCIDR).toBe('10.96.0.0/12');
  });

  it('reports sysctls for a node that does not exist', () => {
    const lab = `${LAB}nodes:\n  node-9:\n    sysctls: {net.ipv4.ip_forward: "0"}`;
    expect(messages(loadScenario(docs(lab, TWO_NODES)).diagnostics)).toEqual([
      '4:3 Lab.nodes[node-9]: Not found: "node-9"',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { cluster, meta, node, pod } from '../../../tests/helpers/cluster-fixtures';
import {
  formatIpv6,
  hostNetwork,
  hostVethName,
  linkLocalFromMac,
  podNetnsName,
  randomLocalMac,
  sortRoutes,
} from './topology';

const lab = cluster({
  nodes: [
    node('node-1', '192.168.1.10', '10.244.0.0/24'),
    node('node-2', '192.168.1.11', '10.244.1.0/24'),
    node('far', '10.0.5.4', '10.244.9.0/24'),
  ],
  pods: [
    pod('web-1', 'node-1', '10.244.0.2'),
    pod('web-2', 'node-1', '10.244.0.3'),
    pod('kp', 'node-1', '192.168.1.10', {
      hostNetwork: true,
      meta: meta('kp', { namespace: 'kube-system' }),
    }),
  ],
});

describe('topology', () => {
  it('names veths like the CNI bridge plugin and netns like containerd, deterministically', () => {
    const p = lab.pods[0]!;
    expect(hostVethName(p)).toMatch(/^veth[0-9a-f]{8}$/);
    expect(podNetnsName(p)).toMatch(
      /^cni-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(hostVethName(p)).toBe(hostVethName({ meta: { ...p.meta } }));
    expect(hostVethName(p)).not.toBe(hostVethName(lab.pods[1]!));
  });

  it('makes locally administered unicast MACs and EUI-64 link-locals (RFC 4291 appendix A)', () => {
    const mac = randomLocalMac('x');
    expect(parseInt(mac.slice(0, 2), 16) & 0x03).toBe(0x02);
    expect(linkLocalFromMac('52:54:00:12:34:56')).toBe('fe80::5054:ff:fe12:3456');
    expect(linkLocalFromMac('02:00:00:00:00:01')).toBe('fe80::ff:fe00:1');
    expect(formatIpv6([0, 0, 0, 0, 0, 0, 0, 1])).toBe('::1');
    expect(formatIpv6([0xfe80, 0, 0, 0, 0, 0xff, 0xfe00, 0])).toBe('fe80::ff:fe00:0');
  });

  it('gives a node lo, eth0, cni0 and one veth per pod, in ifindex order', () => {
    const net = hostNetwork(lab, { kind: 'node', name: 'node-1' })!;
    expect(
      net.interfaces.map((i) => [i.ifindex, i.name, i.master ?? '', i.peerIfindex ?? 0]),
    ).toEqual([
      [1, 'lo', '', 0],
      [2, 'eth0', '', 0],
      [3, 'cni0', '', 0],
      [4, hostVethName(lab.pods[0]!), 'cni0', 2],
      [5, hostVethName(lab.pods[1]!), 'cni0', 2],
    ]);
    expect(net.routes).toEqual([
      { dst: 'default', via: '192.168.1.1', dev: 'eth0' },
      { dst: '10.244.0.0/24', dev: 'cni0', kernel: { src: '10.244.0.1' } },
      { dst: '10.244.1.0/24', via: '192.168.1.11', dev: 'eth0' },
      { dst: '192.168.1.0/24', dev: 'eth0', kernel: { src: '192.168.1.10' } },
    ]);
  });

  it('gives a pod created later the next ifindex, wherever the cluster lists it', () => {
    const later = pod('web-0', 'node-1', '10.244.0.9', { meta: meta('web-0', { createdAt: 60 }) });
    const grown = { ...lab, pods: [later, ...lab.pods] };
    const veths = hostNetwork(grown, { kind: 'node', name: 'node-1' })!
      .interfaces.filter((i) => i.type === 'veth')
      .map((i) => `${i.ifindex} ${i.name}`);
    expect(veths).toEqual(
      ['web-1', 'web-2', 'web-0'].map(
        (name, k) => `${4 + k} ${hostVethName(grown.pods.find((p) => p.meta.name === name)!)}`,
      ),
    );
  });

  it('gives a pod lo and eth0@ifN with its /24 and a default route via cni0', () => {
    const net = hostNetwork(lab, { kind: 'pod', namespace: 'default', name: 'web-2' })!;
    const eth0 = net.interfaces[1]!;
    expect([eth0.name, eth0.peerIfindex, eth0.linkNetns, eth0.addresses[0]]).toEqual([
      'eth0',
      5,
      { nsid: 0 },
      {
        family: 'inet',
        address: '10.244.0.3',
        prefix: 24,
        broadcast: '10.244.0.255',
        scope: 'global',
      },
    ]);
    expect(net.routes.map((r) => r.dst + (r.via ? ` via ${r.via}` : ''))).toEqual([
      'default via 10.244.0.1',
      '10.244.0.0/24',
    ]);
  });

  it("lets hostNetwork pods share their node's view", () => {
    const podNet = hostNetwork(lab, { kind: 'pod', namespace: 'kube-system', name: 'kp' })!;
    const nodeNet = hostNetwork(lab, { kind: 'node', name: 'node-1' })!;
    expect(podNet.interfaces).toEqual(nodeNet.interfaces);
    expect(podNet.routes).toEqual(nodeNet.routes);
  });

  it('gives a node without pods a cni0 without carrier', () => {
    const net = hostNetwork(lab, { kind: 'node', name: 'node-2' })!;
    const cni0 = net.interfaces.find((i) => i.name === 'cni0')!;
    expect([cni0.carrier, cni0.addresses.map((a) => a.family)]).toEqual([false, ['inet']]);
  });

  it('routes to other podCIDRs only over the same LAN (host-gw)', () => {
    const net = hostNetwork(lab, { kind: 'node', name: 'far' })!;
    expect(net.routes.filter((r) => r.via !== undefined && r.dst !== 'default')).toEqual([]);
  });

  it('sorts routes as the kernel dumps them: by address, longer prefixes first', () => {
    const dsts = sortRoutes(
      ['10.244.0.0/16', '192.168.1.0/24', 'default', '10.244.0.0/24', '10.0.0.0/8'].map((dst) => ({
        dst,
        dev: 'eth0',
      })),
    ).map((r) => r.dst);
    expect(dsts).toEqual([
      'default',
      '10.0.0.0/8',
      '10.244.0.0/24',
      '10.244.0.0/16',
      '192.168.1.0/24',
    ]);
  });
});

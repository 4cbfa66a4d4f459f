/**
 * What net.ts remembers or computes without strings answers as the plain lookup would:
 * fibLookup and martianSource per network (for any address, on every host of the lab, asked
 * once or again), the LAN neighbour found by comparing /24s as integers, the bridge ports kept
 * per pod, the pods found by name, address and port through the per-Cluster index.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostVethName, lanOf, type HostRef } from '../routing';
import {
  fibLookup,
  fibLookupUncached,
  hostNet,
  lanHostByIp,
  martianSource,
  martianSourceUncached,
} from './net';
import { effectiveHost, bridgeOwner, podByIp, podByPort, portOfPod } from './bridge-ports';
import { labWorld } from './test-fixtures';

describe('fibLookup cache', () => {
  it('answers as the uncached lookup (and martianSource as its own), first time and again', () => {
    const world = labWorld();
    const hosts: HostRef[] = [
      { kind: 'node', name: 'node-1' },
      { kind: 'node', name: 'node-2' },
      ...world.cluster.pods.map((p): HostRef => ({
        kind: 'pod',
        namespace: p.meta.namespace,
        name: p.meta.name,
      })),
    ];
    const nets = hosts.map((h) => hostNet(world.cluster, h)).filter((n) => n !== undefined);
    expect(nets.length).toBeGreaterThan(2);
    // Addresses near the lab's: its subnets, the service range, loopback, and anything else.
    const octet = fc.integer({ min: 0, max: 255 });
    const near = fc.constantFrom('10.244.0.', '10.244.1.', '10.96.0.', '192.168.1.', '127.0.0.');
    const ip = fc.oneof(
      fc.tuple(near, octet).map(([p, o]) => `${p}${o}`),
      fc.tuple(octet, octet, octet, octet).map((o) => o.join('.')),
    );
    fc.assert(
      fc.property(fc.nat(nets.length - 1), ip, (i, dst) => {
        const net = nets[i]!;
        const fresh = fibLookupUncached(net, dst);
        expect(fibLookup(net, dst)).toEqual(fresh);
        expect(fibLookup(net, dst)).toEqual(fresh);
        const martian = martianSourceUncached(net, dst);
        expect(martianSource(net, dst)).toBe(martian);
        expect(martianSource(net, dst)).toBe(martian);
      }),
      { numRuns: 500 },
    );
  });

  it('LAN neighbours and bridge ports: as found from dotted networks and veth names', () => {
    const world = labWorld();
    const cluster = world.cluster;
    const octet = fc.integer({ min: 0, max: 255 });
    const lanIp = fc.oneof(
      fc
        .tuple(fc.constantFrom('192.168.1.', '192.168.2.', '10.244.0.'), octet)
        .map(([p, o]) => p + o),
      fc.constantFrom(...cluster.nodes.map((n) => n.internalIP)),
    );
    fc.assert(
      fc.property(lanIp, lanIp, (from, ip) => {
        const sameLan = lanOf(from).network === lanOf(ip).network;
        const node = cluster.nodes.find((n) => n.internalIP === ip);
        const client = cluster.lab.externalClients.find((c) => c.address === ip);
        const want = !sameLan
          ? undefined
          : node !== undefined
            ? { kind: 'node', name: node.meta.name }
            : client === undefined
              ? undefined
              : { kind: 'external', name: client.name };
        expect(lanHostByIp(cluster, from, ip)).toEqual(want);
      }),
      { numRuns: 300 },
    );
    for (const node of cluster.nodes)
      for (const pod of cluster.pods) {
        if (pod.nodeName !== node.meta.name || pod.hostNetwork || pod.podIP === '') continue;
        const want = {
          pod,
          ref: { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name },
          port: hostVethName(pod),
        };
        expect(podByIp(cluster, node.meta.name, pod.podIP)).toEqual(want);
        expect(podByPort(cluster, node.meta.name, want.port)).toEqual(want);
        expect(podByPort(cluster, node.meta.name, want.port)).toEqual(want);
      }
  });

  it('pods by name, address and port: as the scans of the pod list find them', () => {
    const world = labWorld();
    const cluster = world.cluster;
    const pods = cluster.pods;
    const hasVeth = (p: (typeof pods)[number], node: string) =>
      p.nodeName === node && !p.hostNetwork && p.podIP !== '';
    const nodes = [...cluster.nodes.map((n) => n.meta.name), 'node-9'];
    const ips = [...pods.map((p) => p.podIP), '10.244.0.250', ''];
    const portNames = [...pods.map((p) => hostVethName(p)), 'veth0000'];
    const names = [
      ...pods.map((p) => [p.meta.namespace, p.meta.name] as const),
      ['x', 'y'] as const,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...nodes),
        fc.constantFrom(...ips),
        fc.constantFrom(...portNames),
        fc.constantFrom(...names),
        (node, ip, port, [namespace, name]) => {
          const byIp = pods.find((p) => hasVeth(p, node) && p.podIP === ip);
          expect(podByIp(cluster, node, ip)?.pod).toBe(byIp);
          const byPort = pods.find((p) => hasVeth(p, node) && hostVethName(p) === port);
          expect(podByPort(cluster, node, port)?.pod).toBe(byPort);
          const named = pods.find((p) => p.meta.namespace === namespace && p.meta.name === name);
          const ref: HostRef = { kind: 'pod', namespace, name };
          const wantPort =
            named !== undefined && !named.hostNetwork && named.podIP !== '' ? named : undefined;
          expect(portOfPod(cluster, ref)?.pod).toBe(wantPort);
          const wantHost =
            named === undefined
              ? undefined
              : named.hostNetwork
                ? { kind: 'node', name: named.nodeName }
                : ref;
          expect(effectiveHost(cluster, ref)).toEqual(wantHost);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a pod ref asked again, of a Cluster without that pod or with it moved, is found anew', () => {
    const cluster = labWorld().cluster;
    const pod = cluster.pods.find((p) => !p.hostNetwork && p.podIP !== '')!;
    const ref: HostRef = { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name };
    expect(portOfPod(cluster, ref)?.pod).toBe(pod);
    const without = { ...cluster, pods: cluster.pods.filter((p) => p !== pod) };
    expect(portOfPod(without, ref)).toBeUndefined();
    expect(effectiveHost(without, ref)).toBeUndefined();
    const hostNetwork = { ...pod, hostNetwork: true };
    const moved = { ...cluster, pods: cluster.pods.map((p) => (p === pod ? hostNetwork : p)) };
    expect(portOfPod(moved, ref)).toBeUndefined();
    expect(effectiveHost(moved, ref)).toEqual({ kind: 'node', name: pod.nodeName });
    expect(portOfPod(cluster, ref)?.pod).toBe(pod);
    expect(effectiveHost(cluster, ref)).toBe(ref);
  });

  it("a pod ref's network follows the Cluster it is asked of", () => {
    const cluster = labWorld().cluster;
    const pod = cluster.pods.find((p) => !p.hostNetwork && p.podIP !== '')!;
    const ref: HostRef = { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name };
    const eth0 = (c: typeof cluster) =>
      hostNet(c, ref)?.interfaces.find((i) => i.name === 'eth0')?.addresses[0]?.address;
    expect(eth0(cluster)).toBe(pod.podIP);
    // The same ref (kept by the datapath) of a Cluster where the pod got another address.
    const readdressed = { ...pod, podIP: '10.244.0.250' };
    const other = { ...cluster, pods: cluster.pods.map((p) => (p === pod ? readdressed : p)) };
    expect(eth0(other)).toBe('10.244.0.250');
    expect(eth0(cluster)).toBe(pod.podIP);
  });

  it("who answers ARP on a bridge follows the Cluster: cni0's address and the pods", () => {
    const cluster = labWorld().cluster;
    const pod = cluster.pods.find((p) => !p.hostNetwork && p.podIP !== '')!;
    const node = cluster.nodes.find((n) => n.meta.name === pod.nodeName)!;
    const gw = (c: typeof cluster) =>
      hostNet(c, { kind: 'node', name: node.meta.name })
        ?.interfaces.find((i) => i.name === 'cni0')
        ?.addresses.find((a) => a.family === 'inet')?.address;
    const cni0 = gw(cluster)!;
    expect(bridgeOwner(cluster, node.meta.name, cni0)).toBe('cni0');
    expect(bridgeOwner(cluster, node.meta.name, pod.podIP)).toEqual(
      podByIp(cluster, node.meta.name, pod.podIP),
    );
    // The node's podCIDR changed (a new Cluster object): cni0 holds another address.
    const renumbered = { ...node, podCIDR: '10.250.0.0/24' };
    const other = {
      ...cluster,
      nodes: cluster.nodes.map((n) => (n === node ? renumbered : n)),
      pods: cluster.pods.filter((p) => p !== pod),
    };
    expect(gw(other)).toBe('10.250.0.1');
    expect(bridgeOwner(other, node.meta.name, '10.250.0.1')).toBe('cni0');
    expect(bridgeOwner(other, node.meta.name, cni0)).toBeUndefined();
    expect(bridgeOwner(other, node.meta.name, pod.podIP)).toBeUndefined();
    expect(bridgeOwner(cluster, node.meta.name, cni0)).toBe('cni0');
  });
});

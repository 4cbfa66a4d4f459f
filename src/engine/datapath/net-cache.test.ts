/**
 * What net.ts remembers or computes without strings answers as the plain lookup would:
 * fibLookup per network (for any destination, on every host of the lab, asked once or again),
 * the LAN neighbour found by comparing /24s as integers, the bridge ports kept per pod.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostVethName, lanOf, type HostRef } from '../routing';
import { fibLookup, fibLookupUncached, hostNet, lanHostByIp, podByIp, podByPort } from './net';
import { labWorld } from './test-fixtures';

describe('fibLookup cache', () => {
  it('answers as the uncached lookup, first time and again', () => {
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
});

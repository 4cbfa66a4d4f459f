/**
 * fibLookup remembers its answers per network: for any destination, on every host of the lab
 * (nodes with cni0 and the LAN, pods, with kube-ipvs0 or not), asked once or again, it answers
 * exactly what a fresh fib_lookup over the same tables answers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HostRef } from '../routing';
import { fibLookup, fibLookupUncached, hostNet } from './net';
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
});

/**
 * Packets a node sends itself (OUTPUT, ip_route_me_harder after DNAT, loopback), plain
 * pod-to-pod traffic on one bridge, and traffic that leaves the lab.
 */
import { describe, expect, it } from 'vitest';
import type { HostRef } from '../routing';
import { sendPacket } from './index';
import { answer, clusterIP, hookSteps, labWorld, natSteps, podRef, tcp } from './test-fixtures';

const node1: HostRef = { kind: 'node', name: 'node-1' };

describe("a node's own connections", () => {
  it('to a ClusterIP: DNAT at OUTPUT, re-routed to cni0, masqueraded; the reply un-DNATed at INPUT', () => {
    const world = labWorld({ webOn: 'node-1' });
    const web = podRef(world, 'web');
    const vip = clusterIP(world, 'web');
    const out = sendPacket(world, node1, tcp('0.0.0.0', 40000, vip, 80, 'S'));
    const routes = out.steps.flatMap((s) =>
      s.kind === 'route' && s.at.host === 'node-1' ? [`${s.decision} ${s.oif ?? ''}`] : [],
    );
    // The source was chosen for the default route (eth0); after DNAT the route is cni0.
    expect(routes).toEqual(['output eth0', 'output cni0']);
    // KUBE-SVC marks sources outside the cluster CIDR; MASQUERADE picks cni0's address.
    expect(out.outcome).toMatchObject({
      kind: 'delivered',
      host: { name: web.name },
      packet: { src: '10.244.0.1', dst: web.ip, dport: 8080 },
    });
    if (out.outcome.kind !== 'delivered') return;
    const back = sendPacket(world, web, answer(out.outcome.packet, 'S.'));
    expect(natSteps(back.steps).map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual([
      'node-1 PREROUTING unsnat',
      'node-1 INPUT undnat',
    ]);
    expect(back.outcome).toMatchObject({
      kind: 'delivered',
      host: node1,
      packet: { src: vip, sport: 80, dst: '192.168.1.10', dport: 40000 },
    });
  });

  it('to its own NodePort: routed to lo, DNATed at OUTPUT, re-routed to the pod', () => {
    const world = labWorld({ webOn: 'node-2' });
    const web = podRef(world, 'web');
    const out = sendPacket(world, node1, tcp('0.0.0.0', 40001, '192.168.1.10', 30080, 'S'));
    const routes = out.steps.flatMap((s) =>
      s.kind === 'route' && s.at.host === 'node-1' ? [`${s.decision} ${s.oif ?? ''}`] : [],
    );
    expect(routes).toEqual(['output lo', 'output eth0']);
    expect(out.outcome).toMatchObject({
      kind: 'delivered',
      host: { name: web.name },
      packet: { src: '192.168.1.10', dst: web.ip },
    });
  });
});

describe('pod to pod on one bridge', () => {
  for (const bridgeNf of ['1', '0'] as const) {
    it(`bridge-nf-call-iptables=${bridgeNf}: ${bridgeNf === '1' ? 'bridged through the IPv4 hooks' : 'no netfilter at all'}`, () => {
      const world = labWorld({ bridgeNf });
      const client = podRef(world, 'client');
      const dns = world.cluster.pods.find((p) => p.podIP === '10.244.0.2');
      if (dns === undefined) throw new Error('no coredns');
      const out = sendPacket(world, client, {
        src: client.ip,
        dst: '10.244.0.2',
        proto: 'udp',
        sport: 33000,
        dport: 53,
        length: 60,
        mark: 0,
      });
      expect(hookSteps(out.steps)).toEqual(
        bridgeNf === '1' ? ['node-1 PREROUTING', 'node-1 FORWARD', 'node-1 POSTROUTING'] : [],
      );
      expect(out.outcome).toMatchObject({
        kind: 'delivered',
        host: { name: dns.meta.name },
        packet: { src: client.ip, ttl: 64 },
      });
    });
  }
});

describe('outside the lab', () => {
  it('the laptop has no route to ClusterIPs: its packet goes to the LAN router', () => {
    const world = labWorld();
    const out = sendPacket(
      world,
      { kind: 'external', name: 'laptop' },
      tcp('192.168.1.100', 50000, clusterIP(world, 'web'), 80, 'S'),
    );
    expect(out.outcome).toMatchObject({ kind: 'dropped', reason: 'left-lab' });
    expect(out.steps.at(-1)).toMatchObject({ kind: 'verdict', verdict: 'LOST' });
  });
});

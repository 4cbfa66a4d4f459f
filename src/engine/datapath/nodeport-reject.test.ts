/**
 * NodePort from outside the cluster, and Services without endpoints (kube-proxy's REJECT).
 * Expected values: NodePort source addresses as observed on a real kernel (6.18, namespaces),
 * net/ipv4/icmp.c __icmp_send() and net/ipv4/netfilter/nf_reject_ipv4.c (REJECT answers).
 */
import { describe, expect, it } from 'vitest';
import { iptablesCommand } from '../netfilter';
import type { HostRef } from '../routing';
import { nodeConntrack, sendPacket } from './index';
import { answer, clusterIP, labWorld, natSteps, podRef, tcp } from './test-fixtures';

const laptop: HostRef = { kind: 'external', name: 'laptop' };

describe('NodePort 30080 from the laptop to node-1', () => {
  for (const [webOn, seen] of [
    ['node-1', '10.244.0.1'],
    ['node-2', '192.168.1.10'],
  ] as const) {
    it(`a pod on ${webOn} sees the source ${seen} (MASQUERADE: the outgoing interface's address)`, () => {
      const world = labWorld({ webOn });
      const web = podRef(world, 'web');
      const out = sendPacket(
        world,
        laptop,
        tcp('192.168.1.100', 50000, '192.168.1.10', 30080, 'S'),
      );
      expect(out.outcome).toMatchObject({
        kind: 'delivered',
        host: { name: web.name },
        packet: { src: seen, dst: web.ip, dport: 8080 },
      });
      if (out.outcome.kind !== 'delivered') return;
      // The answer goes back to the laptop from the address it connected to.
      const back = sendPacket(world, web, answer(out.outcome.packet, 'S.'));
      expect(back.outcome).toMatchObject({
        kind: 'delivered',
        host: laptop,
        packet: { src: '192.168.1.10', sport: 30080, dst: '192.168.1.100', dport: 50000 },
      });
    });
  }
});

const NO_ENDPOINTS = `apiVersion: v1
kind: Service
metadata:
  name: nothing
  namespace: default
spec:
  type: NodePort
  selector:
    app: nothing
  ports:
  - port: 80
    nodePort: 30090
`;

describe('a Service without endpoints: kube-proxy REJECTs, the node answers', () => {
  it('ClusterIP from a pod: REJECT in FORWARD, ICMP port unreachable from the route back (cni0)', () => {
    const world = labWorld({ extra: NO_ENDPOINTS });
    const client = podRef(world, 'client');
    const vip = clusterIP(world, 'nothing');
    const syn = tcp(client.ip, 43000, vip, 80, 'S');
    const out = sendPacket(world, client, syn);
    // __icmp_send(): the rejected packet's route is not local, so the source is left to
    // routing towards the sender: 10.244.0.0/24 dev cni0 src 10.244.0.1.
    expect(out.outcome).toMatchObject({
      kind: 'answered',
      by: { kind: 'node', name: 'node-1' },
      reply: {
        src: '10.244.0.1',
        dst: client.ip,
        proto: 'icmp',
        icmp: { type: 3, code: 3 },
        length: 88,
        inner: { src: client.ip, dst: vip, proto: 'tcp', sport: 43000, dport: 80 },
      },
      then: { kind: 'delivered', host: { name: 'client' }, packet: { src: '10.244.0.1' } },
    });
    const reject = out.steps.find((s) => s.kind === 'rule' && s.outcome === 'REJECT');
    expect(reject).toMatchObject({ hook: 'FORWARD', table: 'filter', chain: 'KUBE-SERVICES' });
    // The SYN died unconfirmed: no entry; the ICMP error related to nothing (INVALID).
    expect(Object.keys(nodeConntrack(world, 'node-1').entries)).toEqual([]);
  });

  it('NodePort from the laptop: REJECT in INPUT, ICMP from the address it was sent to', () => {
    const world = labWorld({ extra: NO_ENDPOINTS });
    const out = sendPacket(world, laptop, tcp('192.168.1.100', 50000, '192.168.1.10', 30090, 'S'));
    // RTCF_LOCAL: saddr = the rejected packet's destination.
    expect(out.outcome).toMatchObject({
      kind: 'answered',
      reply: { src: '192.168.1.10', dst: '192.168.1.100', icmp: { type: 3, code: 3 } },
      then: { kind: 'delivered', host: laptop },
    });
    const reject = out.steps.find((s) => s.kind === 'rule' && s.outcome === 'REJECT');
    expect(reject).toMatchObject({ hook: 'INPUT', chain: 'KUBE-EXTERNAL-SERVICES' });
  });

  it('--reject-with tcp-reset after DNAT: the RST is un-DNATed at POSTROUTING (routed path)', () => {
    const world = labWorld({ webOn: 'node-2', bridgeNf: '0' });
    const client = podRef(world, 'client');
    const vip = clusterIP(world, 'web');
    const nf = world.kernel('node-1')?.netfilter;
    if (nf === undefined) throw new Error('no node-1');
    iptablesCommand(nf, [
      '-I',
      'FORWARD',
      '-d',
      '10.244.1.2',
      '-p',
      'tcp',
      '-j',
      'REJECT',
      '--reject-with',
      'tcp-reset',
    ]);
    const out = sendPacket(world, client, tcp(client.ip, 43000, vip, 80, 'S', { seq: 100 }));
    // nf_reject_ip_tcphdr_put(): no ACK in the SYN → RST|ACK, ack = seq + 1.
    expect(out.outcome).toMatchObject({
      kind: 'answered',
      reply: {
        src: '10.244.1.2',
        sport: 8080,
        dst: client.ip,
        dport: 43000,
        tcpFlags: 'R.',
        ack: 101,
      },
      then: { kind: 'delivered', packet: { src: vip, sport: 80, tcpFlags: 'R.' } },
    });
    expect(natSteps(out.steps)).toContain(
      `node-1 POSTROUTING undnat 10.244.1.2:8080>${client.ip}:43000 → ${vip}:80>${client.ip}:43000`,
    );
    expect(Object.keys(nodeConntrack(world, 'node-1').entries)).toEqual([]);
  });

  it('--reject-with tcp-reset of a bridged packet: sent straight out of the port, not un-DNATed', () => {
    const world = labWorld({ webOn: 'node-2' });
    const client = podRef(world, 'client');
    const nf = world.kernel('node-1')?.netfilter;
    if (nf === undefined) throw new Error('no node-1');
    iptablesCommand(nf, [
      '-I',
      'FORWARD',
      '-d',
      '10.244.1.2',
      '-p',
      'tcp',
      '-j',
      'REJECT',
      '--reject-with',
      'tcp-reset',
    ]);
    const out = sendPacket(
      world,
      client,
      tcp(client.ip, 43000, clusterIP(world, 'web'), 80, 'S', { seq: 100 }),
    );
    expect(out.outcome).toMatchObject({
      kind: 'answered',
      then: {
        kind: 'delivered',
        host: { name: 'client' },
        packet: { src: '10.244.1.2', sport: 8080 },
      },
    });
  });
});

/**
 * A pod reaching a ClusterIP: DNAT at the client's node, routing to the backend's node, the
 * reply un-DNATed (nf_nat_core.c nf_nat_packet: a reply's source is restored at the SRC-manip
 * hook, POSTROUTING), and the same-node case with and without br_netfilter.
 */
import { describe, expect, it } from 'vitest';
import { listLine } from '../conntrack';
import { captureLog, nodeConntrack, sendPacket } from './index';
import {
  answer,
  clusterIP,
  hookSteps,
  labWorld,
  natRuleSteps,
  natSteps,
  podRef,
  tcp,
} from './test-fixtures';

const entries = (world: ReturnType<typeof labWorld>, node: string): string[] =>
  Object.values(nodeConntrack(world, node).entries).map((e) =>
    listLine(e, world.clock.now(), false, {}),
  );

describe('pod → ClusterIP → pod on another node', () => {
  const world = labWorld({ webOn: 'node-2' });
  const client = podRef(world, 'client');
  const web = podRef(world, 'web');
  const vip = clusterIP(world, 'web');
  const syn = tcp(client.ip, 43812, vip, 80, 'S', { seq: 1000 });
  const out = sendPacket(world, client, syn);

  it('is DNATed at node-1 PREROUTING, routed via eth0, forwarded by node-2 to its cni0', () => {
    expect(client.ip).toBe('10.244.0.5');
    expect(web.ip).toBe('10.244.1.2');
    expect(natSteps(out.steps)).toEqual([
      `node-1 PREROUTING dnat 10.244.0.5:43812>${vip}:80 → 10.244.0.5:43812>10.244.1.2:8080`,
    ]);
    const routes = out.steps.flatMap((s) =>
      s.kind === 'route' ? [`${s.at.host} ${s.decision} ${s.oif ?? ''} ${s.via ?? ''}`.trim()] : [],
    );
    expect(routes).toEqual([
      'pod/default/client output eth0 10.244.0.1',
      'node-1 forward eth0 192.168.1.11',
      'node-2 forward cni0',
      `pod/default/${web.name} local`,
    ]);
    expect(hookSteps(out.steps)).toEqual([
      'node-1 PREROUTING',
      'node-1 FORWARD',
      'node-1 POSTROUTING',
      'node-2 PREROUTING',
      'node-2 FORWARD',
      'node-2 POSTROUTING',
    ]);
  });

  it('reaches the pod from the client address (no SNAT), TTL down by the two routers', () => {
    expect(out.outcome).toMatchObject({
      kind: 'delivered',
      host: { kind: 'pod', name: web.name },
      packet: { src: '10.244.0.5', sport: 43812, dst: '10.244.1.2', dport: 8080, ttl: 62 },
    });
    expect(entries(world, 'node-1')).toEqual([
      `tcp      6 120 SYN_SENT src=10.244.0.5 dst=${vip} sport=43812 dport=80 [UNREPLIED] src=10.244.1.2 dst=10.244.0.5 sport=8080 dport=43812 mark=0 use=1`,
    ]);
  });

  it('gets its SYN-ACK un-DNATed at node-1 POSTROUTING: the source becomes the ClusterIP:80', () => {
    if (out.outcome.kind !== 'delivered') throw new Error('not delivered');
    const back = sendPacket(world, web, answer(out.outcome.packet, 'S.'));
    // FORWARD still sees the pod's address; only nat POSTROUTING restores the VIP.
    expect(natSteps(back.steps)).toEqual([
      `node-1 POSTROUTING undnat 10.244.1.2:8080>10.244.0.5:43812 → ${vip}:80>10.244.0.5:43812`,
    ]);
    expect(natRuleSteps(back.steps)).toEqual([]);
    expect(back.outcome).toMatchObject({
      kind: 'delivered',
      host: { kind: 'pod', name: 'client' },
      packet: { src: vip, sport: 80, dst: '10.244.0.5', dport: 43812, tcpFlags: 'S.' },
    });
    expect(entries(world, 'node-1')[0]).toContain(' SYN_RECV ');
  });

  it('leaves tcpdump records on every interface it crossed', () => {
    const lines = captureLog(world)
      .filter((c) => c.packetId === out.packetId)
      .map((c) => `${c.host} ${c.iface} ${c.dir} ${c.packet.src}>${c.packet.dst}`);
    expect(lines).toEqual([
      `pod/default/client eth0 out 10.244.0.5>${vip}`,
      expect.stringMatching(new RegExp(`^node-1 veth[0-9a-f]{8} in 10.244.0.5>${vip}$`)),
      // br_netfilter ran PREROUTING before the bridge passed the frame up: cni0 sees the DNAT.
      'node-1 cni0 in 10.244.0.5>10.244.1.2',
      'node-1 eth0 out 10.244.0.5>10.244.1.2',
      'node-2 eth0 in 10.244.0.5>10.244.1.2',
      'node-2 cni0 out 10.244.0.5>10.244.1.2',
      expect.stringMatching(/^node-2 veth[0-9a-f]{8} out 10\.244\.0\.5>10\.244\.1\.2$/),
      `pod/default/${web.name} eth0 in 10.244.0.5>10.244.1.2`,
    ]);
  });
});

describe('the second packet of a connection', () => {
  it('skips the nat chains (a retransmitted SYN too) and goes to the same backend', () => {
    const world = labWorld();
    const client = podRef(world, 'client');
    const vip = clusterIP(world, 'web');
    const syn = tcp(client.ip, 40000, vip, 80, 'S', { seq: 7 });
    const first = sendPacket(world, client, syn);
    expect(natRuleSteps(first.steps).length).toBeGreaterThan(0);
    if (first.outcome.kind !== 'delivered') throw new Error('not delivered');
    const backend = first.outcome.host;
    // nf_nat_inet_fn(): a retransmitted SYN is still NEW, but the DST manip is initialised.
    const again = sendPacket(world, client, syn, { retransmission: true });
    expect(natRuleSteps(again.steps)).toEqual([]);
    expect(again.outcome).toMatchObject({ kind: 'delivered', host: backend });
    const synAck = sendPacket(world, backend, answer(first.outcome.packet, 'S.'));
    expect(synAck.outcome).toMatchObject({ kind: 'delivered', packet: { src: vip } });
    const ack = sendPacket(world, client, tcp(client.ip, 40000, vip, 80, '.'));
    expect(natRuleSteps(ack.steps)).toEqual([]);
    // …but it is still rewritten, from the binding (nf_nat_packet).
    expect(natSteps(ack.steps)[0]).toMatch(/^node-1 PREROUTING dnat /);
    expect(ack.outcome).toMatchObject({ kind: 'delivered', host: backend });
    expect(Object.values(nodeConntrack(world, 'node-1').entries).map((e) => e.tcp?.state)).toEqual([
      'ESTABLISHED',
    ]);
  });
});

describe('pod → ClusterIP → pod on the same node', () => {
  for (const bridgeNf of ['1', '0'] as const) {
    it(`with bridge-nf-call-iptables=${bridgeNf}`, () => {
      const world = labWorld({ webOn: 'node-1', bridgeNf });
      const client = podRef(world, 'client');
      const web = podRef(world, 'web');
      const vip = clusterIP(world, 'web');
      const out = sendPacket(world, client, tcp(client.ip, 43812, vip, 80, 'S'));
      expect(out.outcome).toMatchObject({
        kind: 'delivered',
        host: { name: web.name },
        packet: { src: client.ip, dst: web.ip, dport: 8080 },
      });
      if (out.outcome.kind !== 'delivered') return;
      const back = sendPacket(world, web, answer(out.outcome.packet, 'S.'));
      if (bridgeNf === '1') {
        // Bridged SYN-ACK: PREROUTING finds the REPLY direction, POSTROUTING un-DNATs.
        expect(hookSteps(back.steps)).toEqual([
          'node-1 PREROUTING',
          'node-1 FORWARD',
          'node-1 POSTROUTING',
        ]);
        expect(back.outcome).toMatchObject({ kind: 'delivered', packet: { src: vip, sport: 80 } });
      } else {
        // Bridged at L2 with no netfilter hook: the client sees the pod's address,
        // and node-1's entry stays SYN_SENT [UNREPLIED]. (Its socket layer resets it.)
        expect(hookSteps(back.steps)).toEqual([]);
        expect(back.outcome).toMatchObject({
          kind: 'delivered',
          host: { name: 'client' },
          packet: { src: web.ip, sport: 8080 },
        });
        expect(entries(world, 'node-1')[0]).toMatch(/ SYN_SENT .*\[UNREPLIED\]/);
      }
    });
  }
});

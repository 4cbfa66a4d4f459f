/**
 * Hairpin: a pod reaching itself through its own Service. Expected values as observed on a
 * real kernel (6.18, iptables 1.8.9 nf_tables, bridge + veths in network namespaces):
 * - bridge-nf-call-iptables=1: the DNATed frame is bridged back out of the port it came in
 *   on; it needs the port's hairpin flag AND the SEP masquerade rule. Without the flag the
 *   bridge drops it silently, before conntrack confirmation (no entry). Without masquerade the
 *   pod drops it as a martian (source = its own address).
 * - bridge-nf-call-iptables=0: routed and sent by cni0 itself, the flag does not matter; the
 *   masquerade rule alone decides.
 */
import { describe, expect, it } from 'vitest';
import { hostVethName } from '../routing';
import { nodeConntrack, sendPacket, setHairpinFlag } from './index';
import {
  answer,
  clusterIP,
  deleteSepMasquerade,
  hookSteps,
  labWorld,
  podRef,
  tcp,
} from './test-fixtures';

type Expected = 'works' | 'hairpin-drop' | 'martian';

function expected(bridgeNf: '0' | '1', hairpin: boolean, masq: boolean): Expected {
  if (bridgeNf === '1' && !hairpin) return 'hairpin-drop';
  return masq ? 'works' : 'martian';
}

describe('hairpin matrix: bridge-nf-call-iptables × hairpin flag × SEP masquerade rule', () => {
  for (const bridgeNf of ['1', '0'] as const)
    for (const hairpin of [true, false])
      for (const masq of [true, false]) {
        const want = expected(bridgeNf, hairpin, masq);
        it(`bridge-nf=${bridgeNf} hairpin=${hairpin ? 'on' : 'off'} masquerade=${masq ? 'kept' : 'removed'}: ${want}`, () => {
          const world = labWorld({ webOn: 'node-1', bridgeNf });
          const web = podRef(world, 'web');
          const pod = world.cluster.pods.find((p) => p.meta.name === web.name);
          if (pod === undefined) throw new Error('no web pod');
          setHairpinFlag(world, 'node-1', hostVethName(pod), hairpin);
          if (!masq) deleteSepMasquerade(world, 'node-1', web.ip);
          const vip = clusterIP(world, 'web');
          const out = sendPacket(world, web, tcp(web.ip, 51000, vip, 80, 'S'));
          const table = nodeConntrack(world, 'node-1');
          if (want === 'hairpin-drop') {
            expect(out.outcome).toMatchObject({
              kind: 'dropped',
              host: { name: 'node-1' },
              reason: 'hairpin',
            });
            // Dropped before FORWARD: no conntrack entry, confirmed or not.
            expect(hookSteps(out.steps)).toEqual(['node-1 PREROUTING']);
            expect(Object.keys(table.entries)).toEqual([]);
            // Every retransmission walks the nat rules again (nothing was confirmed).
            const again = sendPacket(world, web, tcp(web.ip, 51000, vip, 80, 'S'));
            expect(
              again.steps.some((s) => s.kind === 'rule' && s.chain.startsWith('KUBE-SEP-')),
            ).toBe(true);
            return;
          }
          if (want === 'martian') {
            expect(out.outcome).toMatchObject({
              kind: 'dropped',
              host: { name: web.name },
              reason: 'martian',
            });
            return;
          }
          // Masqueraded to the address of the outgoing interface cni0
          // (nf_nat_masquerade_ipv4: inet_select_addr of the out device), random-fully port.
          expect(out.outcome).toMatchObject({
            kind: 'delivered',
            host: { name: web.name },
            packet: { src: '10.244.0.1', dst: web.ip, dport: 8080 },
          });
          if (out.outcome.kind !== 'delivered') return;
          expect(out.outcome.packet.sport).not.toBe(51000);
          const entry = Object.values(table.entries)[0];
          expect(entry?.reply).toMatchObject({ src: web.ip, dst: '10.244.0.1', sport: 8080 });
          // The SYN-ACK: de-masqueraded at PREROUTING, un-DNATed at POSTROUTING.
          const back = sendPacket(world, web, answer(out.outcome.packet, 'S.'));
          expect(back.outcome).toMatchObject({
            kind: 'delivered',
            host: { name: web.name },
            packet: { src: vip, sport: 80, dst: web.ip, dport: 51000 },
          });
        });
      }

  it('a node already crossed sees later flag and sysctl changes (its NodeCtx is kept)', () => {
    const world = labWorld({ webOn: 'node-1' });
    const web = podRef(world, 'web');
    const pod = world.cluster.pods.find((p) => p.meta.name === web.name)!;
    const vip = clusterIP(world, 'web');
    const syn = (sport: number) => sendPacket(world, web, tcp(web.ip, sport, vip, 80, 'S'));
    expect(syn(51000).outcome).toMatchObject({ kind: 'delivered' });
    setHairpinFlag(world, 'node-1', hostVethName(pod), false);
    expect(syn(51001).outcome).toMatchObject({ kind: 'dropped', reason: 'hairpin' });
    // sysctl -w net.bridge.bridge-nf-call-iptables=0: routed by cni0, the flag does not matter.
    world.kernel('node-1')!.sysctls['net.bridge.bridge-nf-call-iptables'] = '0';
    expect(syn(51002).outcome).toMatchObject({ kind: 'delivered' });
  });

  it('kubelet hairpinMode none leaves the flag off: dropped by the bridge', () => {
    const world = labWorld({ webOn: 'node-1', hairpinMode: 'none' });
    const web = podRef(world, 'web');
    const out = sendPacket(world, web, tcp(web.ip, 51000, clusterIP(world, 'web'), 80, 'S'));
    expect(out.outcome).toMatchObject({ kind: 'dropped', reason: 'hairpin' });
  });
});

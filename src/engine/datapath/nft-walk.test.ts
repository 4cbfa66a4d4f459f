/**
 * kube-proxy's nftables mode in the packet path: a pod's SYN to a ClusterIP walks
 * nat-prerouting → services → `service-ips` vmap → the service chain's `numgen random mod N`
 * → an endpoint chain's `dnat to`; the next packet of the connection is not walked (conntrack
 * holds the binding, nf_nat_inet_fn only consults the nat chains for a new connection).
 */
import { describe, expect, it } from 'vitest';
import type { NftRuleStep, TraceStep } from '../../protocol/trace';
import { iptablesCommand } from '../netfilter';
import { sendPacket } from './index';
import { answer, clusterIP, labWorld, natSteps, podRef, tcp } from './test-fixtures';

const nftSteps = (steps: readonly TraceStep[]): NftRuleStep[] =>
  steps.filter((s): s is NftRuleStep => s.kind === 'nft-rule');

describe('pod → ClusterIP in nftables mode', () => {
  const world = labWorld({ webOn: 'node-2', proxyMode: 'nftables' });
  const client = podRef(world, 'client');
  const web = podRef(world, 'web');
  const vip = clusterIP(world, 'web');
  const out = sendPacket(world, client, tcp(client.ip, 43812, vip, 80, 'S', { seq: 1000 }));

  it('programs the kube-proxy table and no KUBE-SERVICES chain', () => {
    const kernel = world.kernel('node-1')!;
    expect(kernel.nftables?.state.tables.has('ip kube-proxy')).toBe(true);
    const nat = iptablesCommand(kernel.netfilter, ['-t', 'nat', '-S']).stdout;
    expect(nat).toContain('-N KUBE-KUBELET-CANARY'); // kubelet still programs iptables
    expect(nat).not.toContain('KUBE-SERVICES');
  });

  it('is DNATed by the endpoint chain reached through service-ips and numgen', () => {
    const matched = nftSteps(out.steps).filter((s) => s.matched && s.at.host === 'node-1');
    const svcChain = 'service-PFISGYVC-default/web/tcp/'; // port unnamed: `ns/svc/tcp/`
    const epChain = 'endpoint-X665QFQS-default/web/tcp/__10.244.1.2/8080';
    expect(matched.map((s) => `${s.hook} ${s.chain}: ${s.outcome}`)).toEqual([
      'PREROUTING filter-prerouting-pre-dnat: jump firewall-check',
      'PREROUTING nat-prerouting: jump services',
      `PREROUTING services: goto ${svcChain}`,
      `PREROUTING ${svcChain}: goto ${epChain}`,
      `PREROUTING ${epChain}: dnat to 10.244.1.2:8080`,
      'FORWARD filter-forward: jump service-endpoints-check',
      'FORWARD filter-forward: jump cluster-ips-check',
      'POSTROUTING nat-postrouting: jump masquerading',
      'POSTROUTING masquerading: return',
    ]);
    const lookup = matched[2]?.lookup;
    expect(lookup).toEqual({
      set: 'service-ips',
      key: `${vip} . tcp . 80`,
      found: true,
      value: matched[2]?.outcome,
    });
    expect(matched[3]?.lookup?.set).toBe('numgen');
    expect(natSteps(out.steps)).toEqual([
      `node-1 PREROUTING dnat ${client.ip}:43812>${vip}:80 → ${client.ip}:43812>${web.ip}:8080`,
    ]);
    expect(out.outcome).toMatchObject({ kind: 'delivered', host: { kind: 'pod', name: web.name } });
  });

  it('the second packet of the connection skips the nat chains (conntrack)', () => {
    if (out.outcome.kind !== 'delivered') throw new Error('not delivered');
    sendPacket(world, web, answer(out.outcome.packet, 'S.'));
    const ack = sendPacket(world, client, tcp(client.ip, 43812, vip, 80, '.', { seq: 1001 }));
    const natChains = nftSteps(ack.steps).filter((s) => s.chain.startsWith('nat-'));
    expect(natChains).toEqual([]);
    expect(natSteps(ack.steps)[0]).toBe(
      `node-1 PREROUTING dnat ${client.ip}:43812>${vip}:80 → ${client.ip}:43812>${web.ip}:8080`,
    );
  });

  it('a ClusterIP on a port the Service lacks is rejected by cluster-ips-check', () => {
    const r = sendPacket(world, client, tcp(client.ip, 43900, vip, 81, 'S'));
    const last = nftSteps(r.steps)
      .filter((s) => s.matched)
      .pop();
    expect(last?.chain).toBe('cluster-ips-check');
    expect(last?.outcome).toBe('reject');
  });
});

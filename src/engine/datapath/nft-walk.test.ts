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

const STICKY = `apiVersion: v1
kind: Service
metadata:
  name: sticky
  namespace: default
spec:
  clusterIP: 10.96.1.50
  selector:
    app: web
  sessionAffinity: ClientIP
  ports:
  - port: 80
    targetPort: http
`;

describe('ClientIP affinity in nftables mode', () => {
  const world = labWorld({ proxyMode: 'nftables', extra: STICKY });
  const client = podRef(world, 'client');
  const first = sendPacket(world, client, tcp(client.ip, 40001, '10.96.1.50', 80, 'S'));
  const firstDnat = natSteps(first.steps)[0]?.split(' → ')[1];

  it('the first connection draws with numgen and records the client in the affinity set', () => {
    const updates = nftSteps(first.steps).filter((s) => s.rule.startsWith('update @affinity-'));
    expect(updates).toHaveLength(1);
    expect(updates[0]?.lookup).toMatchObject({ key: client.ip, found: false });
    const set = updates[0]!.rule.slice('update @'.length, updates[0]!.rule.indexOf(' {'));
    const listed = world
      .kernel('node-1')!
      .nftables!.state.tables.get('ip kube-proxy')!
      .sets.get(set);
    expect([...listed!.elements.keys()]).toEqual([client.ip]);
  });

  it('later connections from the client skip numgen: the affinity lookup sends them to the same pod', () => {
    for (let port = 40002; port < 40012; port++) {
      const r = sendPacket(world, client, tcp(client.ip, port, '10.96.1.50', 80, 'S'));
      const hit = nftSteps(r.steps).find(
        (s) => s.matched && s.rule.startsWith('ip saddr @affinity-'),
      );
      expect(hit?.lookup).toMatchObject({ key: client.ip, found: true });
      expect(nftSteps(r.steps).some((s) => s.rule.startsWith('numgen'))).toBe(false);
      expect(natSteps(r.steps)[0]?.split(' → ')[1]?.replace(/:\d+>/, '>')).toBe(
        firstDnat?.replace(/:\d+>/, '>'),
      );
    }
  });

  it('after the 3h timeout the entry is gone and numgen draws again', () => {
    world.clock.advance(10_800_000 + 1);
    const r = sendPacket(world, client, tcp(client.ip, 40100, '10.96.1.50', 80, 'S'));
    expect(nftSteps(r.steps).some((s) => s.matched && s.rule.startsWith('numgen'))).toBe(true);
  });
});

const EMPTY = `apiVersion: v1
kind: Service
metadata:
  name: empty
  namespace: default
spec:
  clusterIP: 10.96.1.60
  selector:
    app: nothing
  ports:
  - port: 80
`;

describe('a Service without endpoints in nftables mode', () => {
  it('is rejected through no-endpoint-services → reject-chain (ICMP port unreachable)', () => {
    const world = labWorld({ proxyMode: 'nftables', extra: EMPTY });
    const client = podRef(world, 'client');
    const r = sendPacket(world, client, tcp(client.ip, 40200, '10.96.1.60', 80, 'S'));
    const matched = nftSteps(r.steps).filter((s) => s.matched);
    expect(matched.map((s) => `${s.hook} ${s.chain}: ${s.outcome}`)).toEqual([
      'PREROUTING filter-prerouting-pre-dnat: jump firewall-check',
      'PREROUTING nat-prerouting: jump services',
      'FORWARD filter-forward: jump service-endpoints-check',
      'FORWARD service-endpoints-check: goto reject-chain',
      'FORWARD reject-chain: reject',
    ]);
    expect(matched[3]?.lookup).toEqual({
      set: 'no-endpoint-services',
      key: '10.96.1.60 . tcp . 80',
      found: true,
      value: 'goto reject-chain',
    });
    const icmp = r.steps.find((s) => s.kind === 'send' && s.packet.proto === 'icmp');
    expect(icmp?.kind === 'send' ? icmp.packet.icmp : undefined).toMatchObject({
      type: 3,
      code: 3,
    });
  });
});

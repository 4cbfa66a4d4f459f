import { describe, expect, it } from 'vitest';
import { measureScale, measureScalePoint } from './scale-experiment';

let ticks = 0;
const now = (): number => ticks++;

describe('the scale experiment', () => {
  const [ipt10, ipvs10, nft10] = measureScale(10, ['iptables', 'ipvs', 'nftables'], now);
  const [ipt20, ipvs20, nft20] = measureScale(20, ['iptables', 'ipvs', 'nftables'], now);

  it('iptables: 32 more rules per Service, and the first packet tries one more rule per Service', () => {
    // kube-proxy's iptables proxier, per ClusterIP port with 10 endpoints: 1 rule in
    // KUBE-SERVICES; KUBE-SVC-… with the `! -s clusterCIDR … KUBE-MARK-MASQ` rule and 10
    // jumps; 10 KUBE-SEP-… with the hairpin KUBE-MARK-MASQ rule and the DNAT: 1 + 11 + 20.
    expect(ipt20!.rules - ipt10!.rules).toBe(10 * 32);
    // The SYN goes to the Service matched last: it is compared with every KUBE-SERVICES rule
    // before its own, so 10 more Services cost exactly 10 more rules evaluated.
    expect(ipt20!.firstPacketRules - ipt10!.firstPacketRules).toBe(10);
    expect(ipt10!.firstPacketRules).toBeGreaterThan(10);
    expect(ipt10!.firstPacketLookups).toBe(0);
  });

  it('nftables: 22 more rules per Service, a first packet whose cost does not grow', () => {
    // kube-proxy's nftables proxier: a service chain (masquerade check + numgen vmap) and 10
    // endpoint chains (hairpin masquerade + dnat); the service-ips map gets one element.
    expect(nft20!.rules - nft10!.rules).toBe(10 * 22);
    expect(nft20!.setElements).toBeGreaterThan(nft10!.setElements);
    expect(nft20!.firstPacketRules).toBe(nft10!.firstPacketRules);
    expect(nft10!.firstPacketLookups).toBeGreaterThan(0);
  });

  it('IPVS: the same iptables rules, one virtual server and 10 real servers per Service', () => {
    expect(ipvs20!.rules).toBe(ipvs10!.rules);
    expect([ipvs10!.virtualServers, ipvs20!.virtualServers]).toEqual([10, 20]);
    expect([ipvs10!.realServers, ipvs20!.realServers]).toEqual([100, 200]);
    // One entry per Service in KUBE-CLUSTER-IP (`IP,tcp:80`) and in KUBE-IPVS-IPS (the
    // addresses bound to kube-ipvs0); KUBE-LOOP-BACK holds the local endpoints, shared here.
    expect(ipvs20!.setElements - ipvs10!.setElements).toBe(2 * 10);
    expect(ipvs20!.firstPacketRules).toBe(ipvs10!.firstPacketRules);
    expect(ipvs10!.firstPacketLookups).toBeGreaterThan(0);
    expect(ipvs10!.firstPacketRules).toBeLessThan(ipt10!.firstPacketRules);
  });

  it('times the first sync with the host clock it is given', () => {
    const clock = [100, 142];
    const p = measureScalePoint('iptables', 10, undefined, () => clock.shift() ?? 1e9);
    expect(p.point.firstSyncMs).toBe(42);
    expect(p.world.kernel('node-1')?.mode).toBe('iptables');
  });

  it('the connection went to the Service whose rule is last in KUBE-SERVICES', () => {
    const { world, target } = measureScalePoint('iptables', 10, undefined, now);
    const rules = world
      .kernel('node-1')!
      .netfilter.tables.nat!.chains.find((c) => c.name === 'KUBE-SERVICES')!.rules;
    const svcRules = rules.filter((r) => r.target.kind === 'jump' && r.dst !== undefined);
    expect(svcRules.at(-1)!.dst!.addr).toBe(target);
  });
});

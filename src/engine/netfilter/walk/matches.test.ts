/**
 * Every match the rule model holds, table-driven with synthetic packets: the rule is parsed from
 * iptables syntax, so each case also checks that the parsed fields mean what the kernel does.
 */
import { describe, expect, it } from 'vitest';
import type { AddrType } from '../types';
import { ruleMatches } from './matches';
import type { IpvsInfo, Packet, WalkContext } from './types';
import { matchContext, packet, ruleOf, type PacketPatch } from './walk-fixtures';

type Case = readonly [args: string, pkt: PacketPatch, ctx: Partial<WalkContext>, want: boolean];

function check(cases: readonly Case[]): void {
  it.each(cases)('%s %j %j → %s', (args, pkt, ctx, want) => {
    expect(ruleMatches(ruleOf(args), packet(pkt), matchContext(ctx), () => 'k')).toBe(want);
  });
}

const bridged = { physIn: 'vethA', physOut: 'vethB', inIface: 'cni0', outIface: 'cni0' };
const routedFromBridge = { physIn: 'vethA', inIface: 'cni0', outIface: 'eth0' };
const ipvsConn: IpvsInfo = { vaddr: '10.96.0.1', vport: 80, method: 'MASQ' };
const ipvs = { ipvs: () => ipvsConn };

describe('ip_packet_match(): addresses, devices, protocol, fragments', () => {
  check([
    ['-s 10.0.0.0/8', {}, {}, true],
    ['-s 10.0.0.0/8', { src: '11.0.0.1' }, {}, false],
    ['! -s 10.0.0.0/8', { src: '11.0.0.1' }, {}, true],
    ['-s 10.0.0.1/255.255.255.254', { src: '10.0.0.0' }, {}, true],
    ['-d 10.0.0.2', {}, {}, true],
    ['-d 10.0.0.3', {}, {}, false],
    ['-i eth0', {}, {}, true],
    ['-i eth1', {}, {}, false],
    ['-i eth+', {}, {}, true],
    ['-i et+', { inIface: 'veth1' }, {}, false],
    ['! -i eth+', {}, {}, false],
    ['-i +', { inIface: undefined }, {}, true],
    ['-i eth', {}, {}, false],
    ['-o eth0', {}, {}, false],
    ['! -o eth0', {}, {}, true],
    ['-p tcp', {}, {}, true],
    ['-p udp', {}, {}, false],
    ['! -p udp', {}, {}, true],
    ['-p icmp', { protocol: 'icmp', sport: undefined, dport: undefined }, {}, true],
    ['-p all', { protocol: 'udp' }, {}, true],
    ['-f', {}, {}, false],
    ['-f', { fragOffset: 185 }, {}, true],
    ['! -f', {}, {}, true],
    ['! -f', { fragOffset: 185 }, {}, false],
  ]);
});

describe('xt_tcpudp / xt_sctp / xt_multiport', () => {
  check([
    ['-p tcp -m tcp --dport 80', {}, {}, true],
    ['-p tcp -m tcp --dport 81', {}, {}, false],
    ['-p tcp -m tcp ! --dport 81', {}, {}, true],
    ['-p tcp -m tcp --sport 1000:50000 --dport 80', {}, {}, true],
    ['-p tcp -m tcp ! --sport 1000:50000', {}, {}, false],
    ['-p tcp -m tcp', {}, {}, true],
    // A non-first fragment has no TCP header: even a port-less -m tcp fails.
    ['-p tcp -m tcp', { fragOffset: 8 }, {}, false],
    ['-p udp -m udp --dport 53', { protocol: 'udp', dport: 53 }, {}, true],
    ['-p udp -m udp --dport 53', { protocol: 'udp', dport: 54 }, {}, false],
    ['-p sctp -m sctp --dport 3868', { protocol: 'sctp', dport: 3868 }, {}, true],
    ['-p tcp -m multiport --dports 22,80:90', {}, {}, true],
    ['-p tcp -m multiport --dports 22,443', {}, {}, false],
    ['-p tcp -m multiport ! --dports 22', {}, {}, true],
    ['-p tcp -m multiport ! --dports 80', {}, {}, false],
    ['-p tcp -m multiport --ports 40000', {}, {}, true],
    ['-p tcp -m multiport --sports 80', {}, {}, false],
    ['-p tcp -m multiport --dports 80', { fragOffset: 8 }, {}, false],
  ]);
});

describe('xt_mark / xt_comment / xt_conntrack', () => {
  check([
    ['-m comment --comment "anything"', {}, {}, true],
    ['-m mark --mark 0x4000/0x4000', { mark: 0x4001 }, {}, true],
    ['-m mark --mark 0x4000/0x4000', { mark: 0 }, {}, false],
    ['-m mark ! --mark 0x4000/0x4000', { mark: 0 }, {}, true],
    ['-m mark --mark 0x1', { mark: 0x3 }, {}, false],
    ['-m mark --mark 0xffffffff', { mark: 0xffffffff }, {}, true],
    ['-m conntrack --ctstate NEW', {}, {}, true],
    ['-m conntrack --ctstate NEW', {}, { conntrack: { state: 'ESTABLISHED' } }, false],
    [
      '-m conntrack --ctstate RELATED,ESTABLISHED',
      {},
      { conntrack: { state: 'ESTABLISHED', dir: 'REPLY' } },
      true,
    ],
    [
      '-m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT',
      {},
      { conntrack: { state: 'NEW', dnat: true } },
      false,
    ],
    ['-m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT', {}, {}, true],
    // SNAT/DNAT are ct->status bits: without a conntrack there is no status.
    ['-m conntrack --ctstate DNAT', {}, { conntrack: { state: 'INVALID', dnat: true } }, false],
    ['-m conntrack --ctstate INVALID', {}, { conntrack: { state: 'INVALID' } }, true],
    ['-m conntrack --ctstate UNTRACKED', {}, { conntrack: { state: 'UNTRACKED' } }, true],
    ['-m conntrack --ctstate NEW', {}, { conntrack: { state: 'UNTRACKED' } }, false],
  ]);
});

/** A routing view: 10.0.0.2 is local on eth0 only, 10.0.0.255 is eth0's broadcast. */
const addrType = (ip: string, iface: string | undefined): AddrType => {
  if (ip === '10.0.0.255') return 'BROADCAST';
  if (ip !== '10.0.0.2') return 'UNICAST';
  return iface === undefined || iface === 'eth0' ? 'LOCAL' : 'UNICAST';
};

describe('xt_addrtype', () => {
  check([
    ['-m addrtype --dst-type LOCAL', {}, {}, true],
    ['-m addrtype --dst-type LOCAL', { dst: '10.0.0.3' }, {}, false],
    ['-m addrtype ! --dst-type LOCAL', { dst: '10.0.0.3' }, {}, true],
    ['-m addrtype ! --src-type LOCAL', {}, {}, true],
    ['-m addrtype --src-type UNICAST --dst-type LOCAL', {}, {}, true],
    ['-m addrtype --dst-type BROADCAST', { dst: '255.255.255.255' }, {}, true],
    ['-m addrtype --dst-type BROADCAST', { dst: '0.1.2.3' }, {}, true],
    ['-m addrtype --dst-type MULTICAST', { dst: '224.0.0.251' }, {}, true],
    ['-m addrtype --dst-type BROADCAST', { dst: '10.0.0.255' }, { addrType }, true],
    ['-m addrtype --dst-type LOCAL --limit-iface-in', {}, { addrType }, true],
    ['-m addrtype --dst-type LOCAL --limit-iface-in', { inIface: 'cni0' }, { addrType }, false],
    ['-m addrtype --dst-type LOCAL --limit-iface-out', { outIface: 'cni0' }, { addrType }, false],
  ]);
});

describe('xt_physdev', () => {
  check([
    ['-m physdev --physdev-is-bridged', {}, {}, false],
    ['-m physdev ! --physdev-is-bridged', {}, {}, true],
    ['-m physdev --physdev-in veth+', {}, {}, false],
    ['-m physdev ! --physdev-in veth+', {}, {}, true],
    ['-m physdev --physdev-is-bridged', bridged, {}, true],
    ['-m physdev --physdev-in veth+ --physdev-out vethB', bridged, {}, true],
    ['-m physdev --physdev-in eth0', bridged, {}, false],
    ['-m physdev ! --physdev-in vethA', bridged, {}, false],
    ['-m physdev --physdev-out vethC', bridged, {}, false],
    ['-m physdev --physdev-is-bridged', routedFromBridge, {}, false],
    ['-m physdev --physdev-is-in', routedFromBridge, {}, true],
    ['-m physdev --physdev-is-out', routedFromBridge, {}, false],
    // The out-port is not known: --physdev-out matches anyway (physdev_mt()).
    ['-m physdev --physdev-out vethC', routedFromBridge, {}, true],
  ]);
});

describe('xt_set / xt_ipvs (callbacks)', () => {
  const inSet = {
    ipsetTest: (name: string, dims: readonly string[], p: Packet) =>
      name === 'KUBE-X' && dims.join() === 'dst,dst' && p.dst === '10.0.0.2',
  };
  check([
    ['-m set --match-set KUBE-X dst,dst', {}, {}, false],
    ['-m set --match-set KUBE-X dst,dst', {}, inSet, true],
    ['-m set ! --match-set KUBE-X dst,dst', {}, inSet, false],
    ['-m set --match-set KUBE-X dst,dst', { dst: '10.0.0.3' }, inSet, false],
    ['-m ipvs --ipvs', {}, {}, false],
    ['-m ipvs ! --ipvs', {}, {}, true],
    ['-m ipvs --ipvs', {}, ipvs, true],
    ['-m ipvs --vaddr 10.96.0.1/32 --vport 80', {}, ipvs, true],
    ['-m ipvs --vaddr 10.96.0.0/16 ! --vport 80', {}, ipvs, false],
    ['-m ipvs --vaddr 10.96.0.1/32', {}, {}, false],
    ['-m ipvs --vproto 6 --vmethod MASQ', {}, ipvs, true],
    ['-m ipvs --vmethod GATE', {}, ipvs, false],
    ['-m ipvs --vdir ORIGINAL', {}, ipvs, true],
    ['-m ipvs --vdir REPLY', {}, ipvs, false],
  ]);
});

/** An rng that returns the given values in turn. */
const values = (...v: number[]) => {
  let i = 0;
  return { nextU32: () => v[i++ % v.length] ?? 0 };
};

describe('xt_statistic', () => {
  // P(0.5) = 0x40000000: a draw matches when its low 31 bits are below it.
  check([
    ['-m statistic --mode random --probability 0.5', {}, { rng: values(0x3fffffff) }, true],
    ['-m statistic --mode random --probability 0.5', {}, { rng: values(0x40000000) }, false],
    ['-m statistic --mode random --probability 0.5', {}, { rng: values(0xbfffffff) }, true],
    ['-m statistic --mode random --probability 0.5', {}, { rng: values(0xc0000000) }, false],
    ['-m statistic --mode random ! --probability 0.5', {}, { rng: values(0x40000000) }, true],
    ['-m statistic --mode random --probability 1', {}, { rng: values(0xffffffff) }, true],
    ['-m statistic --mode random --probability 0', {}, { rng: values(0) }, false],
  ]);

  it.each([
    ['--every 3 --packet 0', [true, false, false, true, false, false, true]],
    ['--every 3 --packet 2', [false, false, true, false, false, true, false]],
    ['--every 2 --packet 1', [false, true, false, true]],
    ['! --every 2 --packet 0', [false, true, false, true]],
    ['--every 1 --packet 0', [true, true, true]],
  ])('nth %s: the counter lives in the store, per rule', (opts, want) => {
    const rule = ruleOf(`-m statistic --mode nth ${opts}`);
    const ctx = matchContext();
    const got = want.map(() => ruleMatches(rule, packet(), ctx, () => 'rule-a'));
    expect(got).toEqual(want);
    // Another rule instance has its own counter.
    expect(ruleMatches(rule, packet(), ctx, () => 'rule-b')).toBe(want[0]);
  });
});

describe('xt_nfacct', () => {
  it('always matches and counts packets and bytes in the named object', () => {
    const rule = ruleOf('-m nfacct --nfacct-name ct_state_invalid_dropped_pkts');
    const ctx = matchContext();
    expect(ruleMatches(rule, packet(), ctx, () => 'k')).toBe(true);
    expect(ruleMatches(rule, packet({ length: 1500 }), ctx, () => 'k')).toBe(true);
    expect(ctx.store.nfacct).toEqual({
      ct_state_invalid_dropped_pkts: { packets: 2, bytes: 1560 },
    });
  });

  it('is not reached when an earlier match fails (matches run in order)', () => {
    const rule = ruleOf(
      '-m conntrack --ctstate INVALID -m nfacct --nfacct-name ct_state_invalid_dropped_pkts',
    );
    const ctx = matchContext();
    expect(ruleMatches(rule, packet(), ctx, () => 'k')).toBe(false);
    expect(ctx.store.nfacct).toEqual({});
  });
});

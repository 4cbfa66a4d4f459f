/**
 * KubeProxyConfiguration knobs: masqueradeAll, detectLocalMode, localhostNodePorts,
 * nodePortAddresses, and the node facts (nfacct, tcp_be_liberal, --random-fully).
 */
import { describe, expect, it } from 'vitest';
import type { KubeProxyConfig } from '../../model/cluster';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  TEST_NODE,
  upstreamProxierOptions,
} from '../testing/fixtures';
import { asUpstream, chainRules, dedent, tableLines } from '../testing/iptables-dump';
import { createIptablesProxier, type IptablesProxierOptions } from './proxier';

const SVC = 'KUBE-SVC-XPGD46QRK7WJZT7O';
const EXT = 'KUBE-EXT-XPGD46QRK7WJZT7O';
const nodePortLocal = service('ns1', 'svc1', '172.30.0.41', {
  type: 'NodePort',
  externalTrafficPolicy: 'Local',
  ports: [port('p80', 80, { nodePort: 3001 })],
});
const eps = slice('ns1', 'svc1', [
  endpoint('10.180.0.1'),
  endpoint('10.180.2.1', { node: TEST_NODE }),
]);

function restore(
  config: Partial<KubeProxyConfig> = {},
  opts: Partial<IptablesProxierOptions> = {},
): string {
  return createIptablesProxier(upstreamProxierOptions(opts, config)).sync(
    cluster([nodePortLocal], [eps]),
  ).restoreInput;
}

describe('static rules and declaration order (proxier.go syncProxyRules)', () => {
  it('writes filter then nat, top-level chains first, Go %#08x marks, KUBE-FORWARD last', () => {
    const out = restore({}, { randomFully: true });
    expect(
      out.startsWith('*filter\n:KUBE-SERVICES - [0:0]\n:KUBE-EXTERNAL-SERVICES - [0:0]\n'),
    ).toBe(true);
    expect(tableLines(out, 'filter').slice(0, 7)).toEqual([
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-EXTERNAL-SERVICES - [0:0]',
      ':KUBE-FORWARD - [0:0]',
      ':KUBE-NODEPORTS - [0:0]',
      ':KUBE-PROXY-FIREWALL - [0:0]',
      ':KUBE-FIREWALL - [0:0]',
      '-A KUBE-FIREWALL -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
    ]);
    expect(tableLines(out, 'filter').slice(-3)).toEqual([
      '-A KUBE-FORWARD -m conntrack --ctstate INVALID -m nfacct --nfacct-name ct_state_invalid_dropped_pkts -j DROP',
      '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x00004000/0x00004000 -j ACCEPT',
      '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
    ]);
    expect(tableLines(out, 'nat').slice(0, 8)).toEqual([
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-NODEPORTS - [0:0]',
      ':KUBE-POSTROUTING - [0:0]',
      ':KUBE-MARK-MASQ - [0:0]',
      `:${EXT} - [0:0]`,
      `:${SVC} - [0:0]`,
      ':KUBE-SVL-XPGD46QRK7WJZT7O - [0:0]',
      expect.stringMatching(/^:KUBE-SEP-/),
    ]);
    expect(chainRules(out, 'nat', 'KUBE-POSTROUTING')).toEqual([
      '-A KUBE-POSTROUTING -m mark ! --mark 0x00004000/0x00004000 -j RETURN',
      '-A KUBE-POSTROUTING -j MARK --xor-mark 0x00004000',
      '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
    ]);
    expect(chainRules(out, 'nat', 'KUBE-MARK-MASQ')).toEqual([
      '-A KUBE-MARK-MASQ -j MARK --or-mark 0x00004000',
    ]);
    expect(out.endsWith('-j KUBE-NODEPORTS\nCOMMIT\n')).toBe(true);
  });

  it('masqueradeBit changes the mark; tcp_be_liberal drops the INVALID rule', () => {
    const out = restore({ masqueradeBit: 5 }, { tcpBeLiberal: true });
    expect(chainRules(out, 'nat', 'KUBE-MARK-MASQ')).toEqual([
      '-A KUBE-MARK-MASQ -j MARK --or-mark 0x00000020',
    ]);
    expect(chainRules(out, 'filter', 'KUBE-FORWARD')).toHaveLength(2);
  });
});

describe('masquerade and local-traffic detection', () => {
  const masqRule = (out: string): string | undefined => chainRules(out, 'nat', SVC)[0];
  const base = `-A ${SVC} -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80`;

  it.each<[string, Partial<KubeProxyConfig>, string, string]>([
    ['ClusterCIDR', {}, '! -s 10.0.0.0/8', '-s 10.0.0.0/8'],
    ['NodeCIDR', { detectLocalMode: 'NodeCIDR' }, '! -s 10.0.0.0/24', '-s 10.0.0.0/24'],
    [
      'BridgeInterface',
      { detectLocalMode: 'BridgeInterface', bridgeInterface: 'cbr0' },
      '! -i cbr0',
      '-i cbr0',
    ],
    [
      'InterfaceNamePrefix',
      { detectLocalMode: 'InterfaceNamePrefix', interfaceNamePrefix: 'veth' },
      '! -i veth+',
      '-i veth+',
    ],
  ])(
    '%s: SVC masquerades non-local sources, EXT short-circuits local ones',
    (_, config, notLocal, local) => {
      const out = restore(config);
      expect(masqRule(out)).toBe(`${base} ${notLocal} -j KUBE-MARK-MASQ`);
      expect(chainRules(out, 'nat', EXT)[0]).toBe(
        `-A ${EXT} -m comment --comment "pod traffic for ns1/svc1:p80 external destinations" ${local} -j ${SVC}`,
      );
    },
  );

  it('masqueradeAll: every ClusterIP packet is marked, whatever the detector', () => {
    expect(masqRule(restore({ masqueradeAll: true }))).toBe(`${base} -j KUBE-MARK-MASQ`);
  });

  // TestOnlyLocalNodePortsNoClusterCIDR: no detector → no masquerade rule, no pod short circuit.
  it('no detector (ClusterCIDR mode without clusterCIDR): no SVC masquerade, no pod short circuit', () => {
    const out = restore({ clusterCIDR: '' });
    expect(masqRule(out)).toMatch(/^-A KUBE-SVC-\S+ -m comment --comment "ns1\/svc1:p80 -> /);
    expect(chainRules(out, 'nat', EXT)[0]).toContain('masquerade LOCAL traffic');
  });
});

describe('localhostNodePorts and nodePortAddresses', () => {
  it('localhostNodePorts off: no KUBE-FIREWALL, no localhost rule, tail excludes 127.0.0.0/8', () => {
    const out = restore({ localhostNodePorts: false });
    expect(out).not.toContain('KUBE-FIREWALL');
    expect(out).not.toContain('localhost_nps_accepted_pkts');
    expect(chainRules(out, 'nat', 'KUBE-SERVICES').at(-1)).toBe(
      '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL ! -d 127.0.0.0/8 -j KUBE-NODEPORTS',
    );
  });

  it('restricted nodePortAddresses: one tail rule per matching node IP; no loopback → no localhost NodePorts', () => {
    const out = restore({ nodePortAddresses: ['192.168.0.0/16'] });
    const tail = (ip: string): string =>
      `-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -d ${ip} -j KUBE-NODEPORTS`;
    expect(chainRules(out, 'nat', 'KUBE-SERVICES').slice(1)).toEqual([
      tail('192.168.0.2'),
      tail('192.168.1.2'),
      tail('192.168.99.11'),
    ]);
    expect(out).not.toContain('KUBE-FIREWALL');
  });

  it('nodePortAddresses including 127.0.0.0/8 keeps localhost NodePorts and a -d 127.0.0.1 tail', () => {
    const out = restore({ nodePortAddresses: ['127.0.0.0/8', '192.168.0.2/32'] });
    expect(
      chainRules(out, 'nat', 'KUBE-SERVICES')
        .slice(-2)
        .map((l) => l.split(' -d ')[1]),
    ).toEqual(['127.0.0.1 -j KUBE-NODEPORTS', '192.168.0.2 -j KUBE-NODEPORTS']);
    expect(out).toContain(':KUBE-FIREWALL - [0:0]');
  });

  it('"primary" means the node IP /32', () => {
    const out = restore({ nodePortAddresses: ['primary'] });
    expect(chainRules(out, 'nat', 'KUBE-SERVICES').at(-1)).toContain(
      '-d 192.168.0.2 -j KUBE-NODEPORTS',
    );
  });
});

// Ports of TestOnlyLocalNodePorts / TestOnlyLocalNodePortsNoClusterCIDR (a copy without
// nfacct counters): nodePortAddresses 192.168.0.0/24 + 2001:db8::/64, localhostNodePorts off.
describe('upstream TestOnlyLocalNodePorts', () => {
  const expected = (podRule: string, masqRule: string): string =>
    dedent(`
    *filter
    :KUBE-NODEPORTS - [0:0]
    :KUBE-SERVICES - [0:0]
    :KUBE-EXTERNAL-SERVICES - [0:0]
    :KUBE-FORWARD - [0:0]
    :KUBE-PROXY-FIREWALL - [0:0]
    -A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP
    -A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT
    -A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
    COMMIT
    *nat
    :KUBE-NODEPORTS - [0:0]
    :KUBE-SERVICES - [0:0]
    :KUBE-EXT-XPGD46QRK7WJZT7O - [0:0]
    :KUBE-MARK-MASQ - [0:0]
    :KUBE-POSTROUTING - [0:0]
    :KUBE-SEP-SXIVWICOYRO3J4NJ - [0:0]
    :KUBE-SEP-ZX7GRIZKSNUQ3LAJ - [0:0]
    :KUBE-SVC-XPGD46QRK7WJZT7O - [0:0]
    :KUBE-SVL-XPGD46QRK7WJZT7O - [0:0]
    -A KUBE-NODEPORTS -m comment --comment ns1/svc1:p80 -m tcp -p tcp --dport 3001 -j KUBE-EXT-XPGD46QRK7WJZT7O
    -A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j KUBE-SVC-XPGD46QRK7WJZT7O
    -A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -d 192.168.0.2 -j KUBE-NODEPORTS
    @POD
    -A KUBE-EXT-XPGD46QRK7WJZT7O -m comment --comment "masquerade LOCAL traffic for ns1/svc1:p80 external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ
    -A KUBE-EXT-XPGD46QRK7WJZT7O -m comment --comment "route LOCAL traffic for ns1/svc1:p80 external destinations" -m addrtype --src-type LOCAL -j KUBE-SVC-XPGD46QRK7WJZT7O
    -A KUBE-EXT-XPGD46QRK7WJZT7O -j KUBE-SVL-XPGD46QRK7WJZT7O
    -A KUBE-MARK-MASQ -j MARK --or-mark 0x4000
    -A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN
    -A KUBE-POSTROUTING -j MARK --xor-mark 0x4000
    -A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE
    -A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -s 10.180.0.1 -j KUBE-MARK-MASQ
    -A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80
    -A KUBE-SEP-ZX7GRIZKSNUQ3LAJ -m comment --comment ns1/svc1:p80 -s 10.180.2.1 -j KUBE-MARK-MASQ
    -A KUBE-SEP-ZX7GRIZKSNUQ3LAJ -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.2.1:80
    @MASQ
    -A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-SXIVWICOYRO3J4NJ
    -A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.2.1:80" -j KUBE-SEP-ZX7GRIZKSNUQ3LAJ
    -A KUBE-SVL-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.2.1:80" -j KUBE-SEP-ZX7GRIZKSNUQ3LAJ
    COMMIT
    `)
      .replace('@POD\n', podRule)
      .replace('@MASQ\n', masqRule);

  const run = (clusterCIDR: string): string =>
    asUpstream(
      restore(
        {
          clusterCIDR,
          nodePortAddresses: ['192.168.0.0/24', '2001:db8::/64'],
          localhostNodePorts: false,
        },
        { nfacct: false },
      ),
    );

  it('with the 10.0.0.0/8 detector', () => {
    const pod =
      '-A KUBE-EXT-XPGD46QRK7WJZT7O -m comment --comment "pod traffic for ns1/svc1:p80 external destinations" -s 10.0.0.0/8 -j KUBE-SVC-XPGD46QRK7WJZT7O\n';
    const masq =
      '-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ\n';
    expect(run('10.0.0.0/8')).toBe(expected(pod, masq));
  });

  it('without a detector (NoClusterCIDR)', () => {
    expect(run('')).toBe(expected('', ''));
  });
});

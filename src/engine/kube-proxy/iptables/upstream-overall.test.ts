/**
 * Ports of kube-proxy's own expected dumps (pkg/proxy/iptables/proxier_test.go). The fixture
 * mirrors NewFakeProxier: node test-node / 192.168.0.2, local detector 10.0.0.0/8, mark
 * literally "0x4000" (we write Go's %#08x, 0x00004000, and map it back), no --random-fully.
 * Like upstream's assertIPTablesRulesEqual, only the generated input is normalised
 * (sortIPTablesRules); the expected text is upstream's, already in sorted form.
 */
import { describe, expect, it } from 'vitest';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  TEST_NODE,
  upstreamProxierOptions,
} from '../testing/fixtures';
import { asUpstream, dedent, sortRestoreInput } from '../testing/iptables-dump';
import { createIptablesProxier } from './proxier';

// TestOverallIPTablesRules: "creates a variety of services and verifies that the generated
// rules are exactly as expected" (v1.32+ copy, with nfacct counters).
const overallCluster = cluster(
  [
    service('ns1', 'svc1', '172.30.0.41'),
    service('ns2', 'svc2', '172.30.0.42', {
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      ports: [port('p80', 80, { nodePort: 3001 })],
      loadBalancerIngress: [{ ip: '1.2.3.4' }],
      externalIPs: ['192.168.99.22'],
      healthCheckNodePort: 30000,
    }),
    service('ns3', 'svc3', '172.30.0.43', {
      type: 'NodePort',
      ports: [port('p80', 80, { nodePort: 3003 })],
    }),
    service('ns4', 'svc4', '172.30.0.44', { type: 'NodePort', externalIPs: ['192.168.99.33'] }),
    service('ns5', 'svc5', '172.30.0.45', {
      type: 'LoadBalancer',
      ports: [port('p80', 80, { nodePort: 3002 })],
      loadBalancerIngress: [{ ip: '5.6.7.8' }],
      // Set, but eTP Cluster: NeedsHealthCheck is false, so no rule.
      healthCheckNodePort: 30000,
      // Extra whitespace, as upstream ("invalid value will not result in a crash").
      loadBalancerSourceRanges: [' 203.0.113.0/25'],
      sessionAffinity: 'ClientIP',
      sessionAffinityTimeout: 10800,
    }),
    service('ns6', 'svc6', '172.30.0.46'),
  ],
  [
    slice('ns1', 'svc1', [endpoint('10.180.0.1')]),
    // Not local (no nodeName), so ns2/svc2 has no local endpoints.
    slice('ns2', 'svc2', [endpoint('10.180.0.2')]),
    slice('ns3', 'svc3', [endpoint('10.180.0.3')]),
    slice('ns4', 'svc4', [endpoint('10.180.0.4'), endpoint('10.180.0.5', { node: TEST_NODE })]),
    slice('ns5', 'svc5', [endpoint('10.180.0.3')]),
  ],
);

const overallExpected = dedent(`
  *filter
  :KUBE-NODEPORTS - [0:0]
  :KUBE-SERVICES - [0:0]
  :KUBE-EXTERNAL-SERVICES - [0:0]
  :KUBE-FIREWALL - [0:0]
  :KUBE-FORWARD - [0:0]
  :KUBE-PROXY-FIREWALL - [0:0]
  -A KUBE-NODEPORTS -m comment --comment "ns2/svc2:p80 health check node port" -m tcp -p tcp --dport 30000 -j ACCEPT
  -A KUBE-SERVICES -m comment --comment "ns6/svc6:p80 has no endpoints" -m tcp -p tcp -d 172.30.0.46 --dport 80 -j REJECT
  -A KUBE-EXTERNAL-SERVICES -m comment --comment "ns2/svc2:p80 has no local endpoints" -m tcp -p tcp -d 192.168.99.22 --dport 80 -j DROP
  -A KUBE-EXTERNAL-SERVICES -m comment --comment "ns2/svc2:p80 has no local endpoints" -m tcp -p tcp -d 1.2.3.4 --dport 80 -j DROP
  -A KUBE-EXTERNAL-SERVICES -m comment --comment "ns2/svc2:p80 has no local endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 3001 -j DROP
  -A KUBE-FIREWALL -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP
  -A KUBE-FORWARD -m conntrack --ctstate INVALID -m nfacct --nfacct-name ct_state_invalid_dropped_pkts -j DROP
  -A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT
  -A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
  -A KUBE-PROXY-FIREWALL -m comment --comment "ns5/svc5:p80 traffic not accepted by KUBE-FW-NUKIZ6OKUXPJNT4C" -m tcp -p tcp -d 5.6.7.8 --dport 80 -j DROP
  COMMIT
  *nat
  :KUBE-NODEPORTS - [0:0]
  :KUBE-SERVICES - [0:0]
  :KUBE-EXT-4SW47YFZTEDKD3PK - [0:0]
  :KUBE-EXT-GNZBNJ2PO5MGZ6GT - [0:0]
  :KUBE-EXT-NUKIZ6OKUXPJNT4C - [0:0]
  :KUBE-EXT-X27LE4BHSL4DOUIK - [0:0]
  :KUBE-FW-NUKIZ6OKUXPJNT4C - [0:0]
  :KUBE-MARK-MASQ - [0:0]
  :KUBE-POSTROUTING - [0:0]
  :KUBE-SEP-C6EBXVWJJZMIWKLZ - [0:0]
  :KUBE-SEP-I77PXRDZVX7PMWMN - [0:0]
  :KUBE-SEP-OYPFS5VJICHGATKP - [0:0]
  :KUBE-SEP-RS4RBKLTHTF2IUXJ - [0:0]
  :KUBE-SEP-SXIVWICOYRO3J4NJ - [0:0]
  :KUBE-SEP-UKSFD7AGPMPPLUHC - [0:0]
  :KUBE-SVC-4SW47YFZTEDKD3PK - [0:0]
  :KUBE-SVC-GNZBNJ2PO5MGZ6GT - [0:0]
  :KUBE-SVC-NUKIZ6OKUXPJNT4C - [0:0]
  :KUBE-SVC-X27LE4BHSL4DOUIK - [0:0]
  :KUBE-SVC-XPGD46QRK7WJZT7O - [0:0]
  -A KUBE-NODEPORTS -m comment --comment ns2/svc2:p80 -m tcp -p tcp -d 127.0.0.0/8 --dport 3001 -m nfacct --nfacct-name localhost_nps_accepted_pkts -j KUBE-EXT-GNZBNJ2PO5MGZ6GT
  -A KUBE-NODEPORTS -m comment --comment ns2/svc2:p80 -m tcp -p tcp --dport 3001 -j KUBE-EXT-GNZBNJ2PO5MGZ6GT
  -A KUBE-NODEPORTS -m comment --comment ns3/svc3:p80 -m tcp -p tcp -d 127.0.0.0/8 --dport 3003 -m nfacct --nfacct-name localhost_nps_accepted_pkts -j KUBE-EXT-X27LE4BHSL4DOUIK
  -A KUBE-NODEPORTS -m comment --comment ns3/svc3:p80 -m tcp -p tcp --dport 3003 -j KUBE-EXT-X27LE4BHSL4DOUIK
  -A KUBE-NODEPORTS -m comment --comment ns5/svc5:p80 -m tcp -p tcp -d 127.0.0.0/8 --dport 3002 -m nfacct --nfacct-name localhost_nps_accepted_pkts -j KUBE-EXT-NUKIZ6OKUXPJNT4C
  -A KUBE-NODEPORTS -m comment --comment ns5/svc5:p80 -m tcp -p tcp --dport 3002 -j KUBE-EXT-NUKIZ6OKUXPJNT4C
  -A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j KUBE-SVC-XPGD46QRK7WJZT7O
  -A KUBE-SERVICES -m comment --comment "ns2/svc2:p80 cluster IP" -m tcp -p tcp -d 172.30.0.42 --dport 80 -j KUBE-SVC-GNZBNJ2PO5MGZ6GT
  -A KUBE-SERVICES -m comment --comment "ns2/svc2:p80 external IP" -m tcp -p tcp -d 192.168.99.22 --dport 80 -j KUBE-EXT-GNZBNJ2PO5MGZ6GT
  -A KUBE-SERVICES -m comment --comment "ns2/svc2:p80 loadbalancer IP" -m tcp -p tcp -d 1.2.3.4 --dport 80 -j KUBE-EXT-GNZBNJ2PO5MGZ6GT
  -A KUBE-SERVICES -m comment --comment "ns3/svc3:p80 cluster IP" -m tcp -p tcp -d 172.30.0.43 --dport 80 -j KUBE-SVC-X27LE4BHSL4DOUIK
  -A KUBE-SERVICES -m comment --comment "ns4/svc4:p80 cluster IP" -m tcp -p tcp -d 172.30.0.44 --dport 80 -j KUBE-SVC-4SW47YFZTEDKD3PK
  -A KUBE-SERVICES -m comment --comment "ns4/svc4:p80 external IP" -m tcp -p tcp -d 192.168.99.33 --dport 80 -j KUBE-EXT-4SW47YFZTEDKD3PK
  -A KUBE-SERVICES -m comment --comment "ns5/svc5:p80 cluster IP" -m tcp -p tcp -d 172.30.0.45 --dport 80 -j KUBE-SVC-NUKIZ6OKUXPJNT4C
  -A KUBE-SERVICES -m comment --comment "ns5/svc5:p80 loadbalancer IP" -m tcp -p tcp -d 5.6.7.8 --dport 80 -j KUBE-FW-NUKIZ6OKUXPJNT4C
  -A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS
  -A KUBE-EXT-4SW47YFZTEDKD3PK -m comment --comment "masquerade traffic for ns4/svc4:p80 external destinations" -j KUBE-MARK-MASQ
  -A KUBE-EXT-4SW47YFZTEDKD3PK -j KUBE-SVC-4SW47YFZTEDKD3PK
  -A KUBE-EXT-GNZBNJ2PO5MGZ6GT -m comment --comment "pod traffic for ns2/svc2:p80 external destinations" -s 10.0.0.0/8 -j KUBE-SVC-GNZBNJ2PO5MGZ6GT
  -A KUBE-EXT-GNZBNJ2PO5MGZ6GT -m comment --comment "masquerade LOCAL traffic for ns2/svc2:p80 external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ
  -A KUBE-EXT-GNZBNJ2PO5MGZ6GT -m comment --comment "route LOCAL traffic for ns2/svc2:p80 external destinations" -m addrtype --src-type LOCAL -j KUBE-SVC-GNZBNJ2PO5MGZ6GT
  -A KUBE-EXT-NUKIZ6OKUXPJNT4C -m comment --comment "masquerade traffic for ns5/svc5:p80 external destinations" -j KUBE-MARK-MASQ
  -A KUBE-EXT-NUKIZ6OKUXPJNT4C -j KUBE-SVC-NUKIZ6OKUXPJNT4C
  -A KUBE-EXT-X27LE4BHSL4DOUIK -m comment --comment "masquerade traffic for ns3/svc3:p80 external destinations" -j KUBE-MARK-MASQ
  -A KUBE-EXT-X27LE4BHSL4DOUIK -j KUBE-SVC-X27LE4BHSL4DOUIK
  -A KUBE-FW-NUKIZ6OKUXPJNT4C -m comment --comment "ns5/svc5:p80 loadbalancer IP" -s 203.0.113.0/25 -j KUBE-EXT-NUKIZ6OKUXPJNT4C
  -A KUBE-FW-NUKIZ6OKUXPJNT4C -m comment --comment "other traffic to ns5/svc5:p80 will be dropped by KUBE-PROXY-FIREWALL"
  -A KUBE-MARK-MASQ -j MARK --or-mark 0x4000
  -A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN
  -A KUBE-POSTROUTING -j MARK --xor-mark 0x4000
  -A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE
  -A KUBE-SEP-C6EBXVWJJZMIWKLZ -m comment --comment ns4/svc4:p80 -s 10.180.0.5 -j KUBE-MARK-MASQ
  -A KUBE-SEP-C6EBXVWJJZMIWKLZ -m comment --comment ns4/svc4:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.5:80
  -A KUBE-SEP-I77PXRDZVX7PMWMN -m comment --comment ns5/svc5:p80 -s 10.180.0.3 -j KUBE-MARK-MASQ
  -A KUBE-SEP-I77PXRDZVX7PMWMN -m comment --comment ns5/svc5:p80 -m recent --name KUBE-SEP-I77PXRDZVX7PMWMN --set -m tcp -p tcp -j DNAT --to-destination 10.180.0.3:80
  -A KUBE-SEP-OYPFS5VJICHGATKP -m comment --comment ns3/svc3:p80 -s 10.180.0.3 -j KUBE-MARK-MASQ
  -A KUBE-SEP-OYPFS5VJICHGATKP -m comment --comment ns3/svc3:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.3:80
  -A KUBE-SEP-RS4RBKLTHTF2IUXJ -m comment --comment ns2/svc2:p80 -s 10.180.0.2 -j KUBE-MARK-MASQ
  -A KUBE-SEP-RS4RBKLTHTF2IUXJ -m comment --comment ns2/svc2:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.2:80
  -A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -s 10.180.0.1 -j KUBE-MARK-MASQ
  -A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80
  -A KUBE-SEP-UKSFD7AGPMPPLUHC -m comment --comment ns4/svc4:p80 -s 10.180.0.4 -j KUBE-MARK-MASQ
  -A KUBE-SEP-UKSFD7AGPMPPLUHC -m comment --comment ns4/svc4:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.4:80
  -A KUBE-SVC-4SW47YFZTEDKD3PK -m comment --comment "ns4/svc4:p80 cluster IP" -m tcp -p tcp -d 172.30.0.44 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
  -A KUBE-SVC-4SW47YFZTEDKD3PK -m comment --comment "ns4/svc4:p80 -> 10.180.0.4:80" -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-UKSFD7AGPMPPLUHC
  -A KUBE-SVC-4SW47YFZTEDKD3PK -m comment --comment "ns4/svc4:p80 -> 10.180.0.5:80" -j KUBE-SEP-C6EBXVWJJZMIWKLZ
  -A KUBE-SVC-GNZBNJ2PO5MGZ6GT -m comment --comment "ns2/svc2:p80 cluster IP" -m tcp -p tcp -d 172.30.0.42 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
  -A KUBE-SVC-GNZBNJ2PO5MGZ6GT -m comment --comment "ns2/svc2:p80 -> 10.180.0.2:80" -j KUBE-SEP-RS4RBKLTHTF2IUXJ
  -A KUBE-SVC-NUKIZ6OKUXPJNT4C -m comment --comment "ns5/svc5:p80 cluster IP" -m tcp -p tcp -d 172.30.0.45 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
  -A KUBE-SVC-NUKIZ6OKUXPJNT4C -m comment --comment "ns5/svc5:p80 -> 10.180.0.3:80" -m recent --name KUBE-SEP-I77PXRDZVX7PMWMN --rcheck --seconds 10800 --reap -j KUBE-SEP-I77PXRDZVX7PMWMN
  -A KUBE-SVC-NUKIZ6OKUXPJNT4C -m comment --comment "ns5/svc5:p80 -> 10.180.0.3:80" -j KUBE-SEP-I77PXRDZVX7PMWMN
  -A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 cluster IP" -m tcp -p tcp -d 172.30.0.43 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
  -A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 -> 10.180.0.3:80" -j KUBE-SEP-OYPFS5VJICHGATKP
  -A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
  -A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j KUBE-SEP-SXIVWICOYRO3J4NJ
  COMMIT
`);

describe('upstream TestOverallIPTablesRules', () => {
  it('generates the expected restore input (after upstream normalisation)', () => {
    const proxier = createIptablesProxier(upstreamProxierOptions());
    const result = proxier.sync(overallCluster);
    expect(result.full).toBe(true);
    expect(asUpstream(result.restoreInput)).toBe(overallExpected);
  });

  it('is already in the sorted form the upstream expectation uses', () => {
    expect(sortRestoreInput(overallExpected)).toBe(overallExpected);
  });

  it('counts nat rules like the sync_proxy_rules_iptables_total metric', () => {
    const result = createIptablesProxier(upstreamProxierOptions()).sync(overallCluster);
    const natRuleLines = result.restoreInput
      .split('*nat\n')[1]
      ?.split('\n')
      .filter((l) => l.startsWith('-A'));
    expect(result.natRulesTotal).toBe(natRuleLines?.length);
  });
});

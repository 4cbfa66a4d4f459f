/**
 * NodePort, LoadBalancer and externalIP shapes. Expected lines follow
 * pkg/proxy/iptables/proxier.go; the cited proxier_test.go cases show the same shapes.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../../model/cluster';
import { endpointChainName } from '../hash';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  TEST_NODE,
  upstreamProxierOptions,
} from '../testing/fixtures';
import { chainRules, declaredChains } from '../testing/iptables-dump';
import { createIptablesProxier, type IptablesProxierOptions } from './proxier';

function restore(
  services: Service[],
  slices: EndpointSlice[] = [],
  opts: Partial<IptablesProxierOptions> = {},
) {
  return createIptablesProxier({ ...upstreamProxierOptions(), ...opts }).sync(
    cluster(services, slices),
  ).restoreInput;
}

const H = 'XPGD46QRK7WJZT7O';
const [SVC, SVL, EXT, FW] = ['SVC', 'SVL', 'EXT', 'FW'].map((p) => `KUBE-${p}-${H}`) as [
  string,
  string,
  string,
  string,
];
const sep = (ep: string): string => endpointChainName('ns1/svc1:p80', 'tcp', ep);
const twoEndpoints = [
  slice('ns1', 'svc1', [endpoint('10.180.0.1'), endpoint('10.180.2.1', { node: TEST_NODE })]),
];
const nodePortSvc = (patch: Partial<Service> = {}): Service =>
  service('ns1', 'svc1', '172.30.0.41', {
    type: 'NodePort',
    ports: [port('p80', 80, { nodePort: 3001 })],
    ...patch,
  });

describe('NodePort', () => {
  // TestOverallIPTablesRules ns3/svc3 (eTP Cluster).
  it('eTP Cluster: KUBE-NODEPORTS (localhost nfacct rule first) → KUBE-EXT (masquerade all) → KUBE-SVC', () => {
    const out = restore([nodePortSvc()], twoEndpoints);
    expect(chainRules(out, 'nat', 'KUBE-NODEPORTS')).toEqual([
      `-A KUBE-NODEPORTS -m comment --comment ns1/svc1:p80 -m tcp -p tcp -d 127.0.0.0/8 --dport 3001 -m nfacct --nfacct-name localhost_nps_accepted_pkts -j ${EXT}`,
      `-A KUBE-NODEPORTS -m comment --comment ns1/svc1:p80 -m tcp -p tcp --dport 3001 -j ${EXT}`,
    ]);
    expect(chainRules(out, 'nat', EXT)).toEqual([
      `-A ${EXT} -m comment --comment "masquerade traffic for ns1/svc1:p80 external destinations" -j KUBE-MARK-MASQ`,
      `-A ${EXT} -j ${SVC}`,
    ]);
    expect(declaredChains(out, 'nat').slice(4)).toEqual([
      EXT,
      SVC,
      sep('10.180.0.1:80'),
      sep('10.180.2.1:80'),
    ]);
  });

  it('the localhost rule needs the nfacct counter', () => {
    const out = restore([nodePortSvc()], twoEndpoints, { nfacct: false });
    expect(chainRules(out, 'nat', 'KUBE-NODEPORTS')).toEqual([
      `-A KUBE-NODEPORTS -m comment --comment ns1/svc1:p80 -m tcp -p tcp --dport 3001 -j ${EXT}`,
    ]);
    expect(chainRules(out, 'filter', 'KUBE-FORWARD')[0]).toBe(
      '-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP',
    );
  });

  // TestOnlyLocalNodePorts: short circuit for pods and node, KUBE-SVL for the rest.
  it('eTP Local with a local endpoint: EXT short-circuits pod/LOCAL sources, else KUBE-SVL', () => {
    const out = restore([nodePortSvc({ externalTrafficPolicy: 'Local' })], twoEndpoints);
    expect(chainRules(out, 'nat', EXT)).toEqual([
      `-A ${EXT} -m comment --comment "pod traffic for ns1/svc1:p80 external destinations" -s 10.0.0.0/8 -j ${SVC}`,
      `-A ${EXT} -m comment --comment "masquerade LOCAL traffic for ns1/svc1:p80 external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ`,
      `-A ${EXT} -m comment --comment "route LOCAL traffic for ns1/svc1:p80 external destinations" -m addrtype --src-type LOCAL -j ${SVC}`,
      `-A ${EXT} -j ${SVL}`,
    ]);
    expect(chainRules(out, 'nat', SVL)).toEqual([
      `-A ${SVL} -m comment --comment "ns1/svc1:p80 -> 10.180.2.1:80" -j ${sep('10.180.2.1:80')}`,
    ]);
    expect(chainRules(out, 'filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([]);
    // NodePort services have no health check node port (LoadBalancer only).
    expect(chainRules(out, 'filter', 'KUBE-NODEPORTS')).toEqual([]);
  });

  // TestOverallIPTablesRules ns2/svc2: no final jump, filter DROP for what is not short-circuited.
  it('eTP Local without local endpoints: EXT without fall-through, filter DROP on the NodePort', () => {
    const out = restore(
      [nodePortSvc({ externalTrafficPolicy: 'Local' })],
      [slice('ns1', 'svc1', [endpoint('10.180.0.1')])],
    );
    expect(chainRules(out, 'nat', EXT)).toHaveLength(3);
    expect(chainRules(out, 'filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([
      '-A KUBE-EXTERNAL-SERVICES -m comment --comment "ns1/svc1:p80 has no local endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 3001 -j DROP',
    ]);
    expect(declaredChains(out, 'nat')).not.toContain(SVL);
  });

  it('no endpoints: REJECT for the ClusterIP and the NodePort', () => {
    const out = restore([nodePortSvc()]);
    expect(chainRules(out, 'filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([
      '-A KUBE-EXTERNAL-SERVICES -m comment --comment "ns1/svc1:p80 has no endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 3001 -j REJECT',
    ]);
    expect(chainRules(out, 'nat', 'KUBE-NODEPORTS')).toEqual([]);
  });
});

describe('LoadBalancer', () => {
  const lb = (patch: Partial<Service> = {}): Service =>
    service('ns1', 'svc1', '172.30.0.41', {
      type: 'LoadBalancer',
      ports: [port('p80', 80, { nodePort: 3001 })],
      loadBalancerIngress: [{ ip: '1.2.3.4' }, { ip: '5.6.7.8', ipMode: 'Proxy' }],
      ...patch,
    });

  it('VIP → KUBE-EXT; ipMode Proxy ingress is skipped', () => {
    const out = restore([lb()], twoEndpoints);
    expect(chainRules(out, 'nat', 'KUBE-SERVICES').slice(1, -1)).toEqual([
      `-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 loadbalancer IP" -m tcp -p tcp -d 1.2.3.4 --dport 80 -j ${EXT}`,
    ]);
  });

  // TestOverallIPTablesRules ns5/svc5 + TestLoadBalancer (source range containing the node IP).
  it('source ranges: VIP → KUBE-FW, KUBE-PROXY-FIREWALL drop; node IP in a range adds -s <VIP>', () => {
    const out = restore(
      [lb({ loadBalancerSourceRanges: ['203.0.113.0/25', '192.168.0.0/24'] })],
      twoEndpoints,
    );
    expect(chainRules(out, 'nat', 'KUBE-SERVICES')[1]).toBe(
      `-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 loadbalancer IP" -m tcp -p tcp -d 1.2.3.4 --dport 80 -j ${FW}`,
    );
    expect(chainRules(out, 'nat', FW)).toEqual([
      `-A ${FW} -m comment --comment "ns1/svc1:p80 loadbalancer IP" -s 203.0.113.0/25 -j ${EXT}`,
      `-A ${FW} -m comment --comment "ns1/svc1:p80 loadbalancer IP" -s 192.168.0.0/24 -j ${EXT}`,
      `-A ${FW} -m comment --comment "ns1/svc1:p80 loadbalancer IP" -s 1.2.3.4 -j ${EXT}`,
      `-A ${FW} -m comment --comment "other traffic to ns1/svc1:p80 will be dropped by KUBE-PROXY-FIREWALL"`,
    ]);
    expect(chainRules(out, 'filter', 'KUBE-PROXY-FIREWALL')).toEqual([
      `-A KUBE-PROXY-FIREWALL -m comment --comment "ns1/svc1:p80 traffic not accepted by ${FW}" -m tcp -p tcp -d 1.2.3.4 --dport 80 -j DROP`,
    ]);
    expect(declaredChains(out, 'nat').slice(4, 6)).toEqual([EXT, FW]);
  });

  it('eTP Local: the health check node port is accepted in filter KUBE-NODEPORTS, with or without local endpoints', () => {
    const svc = lb({ externalTrafficPolicy: 'Local', healthCheckNodePort: 30000 });
    for (const slices of [twoEndpoints, []]) {
      expect(chainRules(restore([svc], slices), 'filter', 'KUBE-NODEPORTS')).toEqual([
        '-A KUBE-NODEPORTS -m comment --comment "ns1/svc1:p80 health check node port" -m tcp -p tcp --dport 30000 -j ACCEPT',
      ]);
    }
  });

  it('eTP Local without local endpoints: DROP per VIP after the VIP loop', () => {
    const out = restore(
      [lb({ externalTrafficPolicy: 'Local', externalIPs: ['192.168.99.22'] })],
      [slice('ns1', 'svc1', [endpoint('10.180.0.1')])],
    );
    expect(
      chainRules(out, 'filter', 'KUBE-EXTERNAL-SERVICES').map(
        (l) => l.split(' -j ')[0]?.split(' -m tcp -p tcp ')[1],
      ),
    ).toEqual(['-d 192.168.99.22 --dport 80', '-d 1.2.3.4 --dport 80', '--dport 3001']);
  });
});

describe('externalIPs', () => {
  // TestOverallIPTablesRules ns4/svc4: ClusterIP-typed with externalIPs.
  it('each external IP → KUBE-EXT after the cluster IP rule', () => {
    const out = restore(
      [service('ns1', 'svc1', '172.30.0.41', { externalIPs: ['192.168.99.11', '192.168.99.33'] })],
      twoEndpoints,
    );
    expect(chainRules(out, 'nat', 'KUBE-SERVICES').slice(1, 3)).toEqual([
      `-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 external IP" -m tcp -p tcp -d 192.168.99.11 --dport 80 -j ${EXT}`,
      `-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 external IP" -m tcp -p tcp -d 192.168.99.33 --dport 80 -j ${EXT}`,
    ]);
    expect(chainRules(out, 'nat', EXT)[0]).toContain(
      'masquerade traffic for ns1/svc1:p80 external destinations',
    );
  });

  it('no endpoints: REJECT per external IP in KUBE-EXTERNAL-SERVICES', () => {
    const out = restore([
      service('ns1', 'svc1', '172.30.0.41', { externalIPs: ['192.168.99.11'] }),
    ]);
    expect(chainRules(out, 'filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([
      '-A KUBE-EXTERNAL-SERVICES -m comment --comment "ns1/svc1:p80 has no endpoints" -m tcp -p tcp -d 192.168.99.11 --dport 80 -j REJECT',
    ]);
  });
});

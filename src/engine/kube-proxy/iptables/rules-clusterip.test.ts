/**
 * Rule generation per ClusterIP service shape. Expected lines follow kube-proxy's
 * pkg/proxy/iptables/proxier.go text; the cited proxier_test.go cases show the same shapes.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../../model/cluster';
import { endpointChainName, servicePortChainName } from '../hash';
import {
  cluster,
  endpoint,
  kubeProxyConfig,
  port,
  service,
  slice,
  slicePort,
  TEST_NODE,
  upstreamProxierOptions,
} from '../testing/fixtures';
import { chainRules, declaredChains } from '../testing/iptables-dump';
import { createIptablesProxier, type IptablesProxierOptions } from './proxier';

function restore(
  services: Service[],
  slices: EndpointSlice[] = [],
  opts: Partial<IptablesProxierOptions> = {},
): string {
  return createIptablesProxier({ ...upstreamProxierOptions(), ...opts }).sync(
    cluster(services, slices),
  ).restoreInput;
}

const SVC1 = 'KUBE-SVC-XPGD46QRK7WJZT7O';
const CLUSTER_IP_RULE =
  '-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j KUBE-SVC-XPGD46QRK7WJZT7O';
const MASQ_RULE =
  '-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ';
const sep = (ep: string): string => endpointChainName('ns1/svc1:p80', 'tcp', ep);

describe('ClusterIP services', () => {
  // proxier_test.go TestOverallIPTablesRules, ns1/svc1.
  it('one endpoint: cluster IP rule, SVC masquerade + dispatch, SEP hairpin + DNAT', () => {
    const out = restore(
      [service('ns1', 'svc1', '172.30.0.41')],
      [slice('ns1', 'svc1', [endpoint('10.180.0.1')])],
    );
    expect(chainRules(out, 'nat', 'KUBE-SERVICES')[0]).toBe(CLUSTER_IP_RULE);
    expect(chainRules(out, 'nat', SVC1)).toEqual([
      MASQ_RULE,
      '-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j KUBE-SEP-SXIVWICOYRO3J4NJ',
    ]);
    expect(chainRules(out, 'nat', 'KUBE-SEP-SXIVWICOYRO3J4NJ')).toEqual([
      '-A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -s 10.180.0.1 -j KUBE-MARK-MASQ',
      '-A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80',
    ]);
    expect(declaredChains(out, 'nat')).toEqual([
      'KUBE-SERVICES',
      'KUBE-NODEPORTS',
      'KUBE-POSTROUTING',
      'KUBE-MARK-MASQ',
      SVC1,
      'KUBE-SEP-SXIVWICOYRO3J4NJ',
    ]);
  });

  it.each([
    [2, ['0.5000000000', '']],
    [3, ['0.3333333333', '0.5000000000', '']],
  ])('%i endpoints: the probability ladder 1/n, 1/(n-1), …, unconditional', (n, ladder) => {
    const ips = ['10.180.0.1', '10.180.0.2', '10.180.0.3'].slice(0, n);
    const out = restore(
      [service('ns1', 'svc1', '172.30.0.41')],
      [
        slice(
          'ns1',
          'svc1',
          ips.map((ip) => endpoint(ip)),
        ),
      ],
    );
    const expected = ips.map((ip, i) => {
      const stat = ladder[i] ? ` -m statistic --mode random --probability ${ladder[i]}` : '';
      return `-A ${SVC1} -m comment --comment "ns1/svc1:p80 -> ${ip}:80"${stat} -j ${sep(`${ip}:80`)}`;
    });
    expect(chainRules(out, 'nat', SVC1)).toEqual([MASQ_RULE, ...expected]);
  });

  it('orders endpoints by the ip:port string (endpointslicecache byEndpoint), deduplicated', () => {
    const out = restore(
      [service('ns1', 'svc1', '172.30.0.41')],
      [
        slice('ns1', 'svc1', [endpoint('10.244.0.8'), endpoint('10.244.0.10')], undefined, 'a'),
        slice('ns1', 'svc1', [endpoint('10.244.0.8')], undefined, 'b'),
      ],
    );
    const targets = chainRules(out, 'nat', SVC1)
      .slice(1)
      .map((l) => /-> ([\d.:]+)/.exec(l)?.[1]);
    expect(targets).toEqual(['10.244.0.10:80', '10.244.0.8:80']);
  });

  // TestNoEndpointsReject / TestOverallIPTablesRules ns6/svc6.
  it('no endpoints: filter REJECT, nothing in nat but the top-level chains', () => {
    const out = restore([service('ns6', 'svc6', '172.30.0.46')]);
    expect(chainRules(out, 'filter', 'KUBE-SERVICES')).toEqual([
      '-A KUBE-SERVICES -m comment --comment "ns6/svc6:p80 has no endpoints" -m tcp -p tcp -d 172.30.0.46 --dport 80 -j REJECT',
    ]);
    expect(declaredChains(out, 'nat')).toHaveLength(4);
  });

  it('not-ready endpoints count as none; serving+terminating ones are the fallback', () => {
    const notReady = restore(
      [service('ns1', 'svc1', '172.30.0.41')],
      [slice('ns1', 'svc1', [endpoint('10.180.0.1', { ready: false, serving: false })])],
    );
    expect(chainRules(notReady, 'filter', 'KUBE-SERVICES')[0]).toContain('-j REJECT');
    const terminating = restore(
      [service('ns1', 'svc1', '172.30.0.41')],
      [
        slice('ns1', 'svc1', [
          endpoint('10.180.0.1', { ready: false, serving: true, terminating: true }),
          endpoint('10.180.0.2', { ready: false, serving: false, terminating: true }),
        ]),
      ],
    );
    expect(chainRules(terminating, 'nat', SVC1).slice(1)).toEqual([
      `-A ${SVC1} -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j ${sep('10.180.0.1:80')}`,
    ]);
  });

  // TestInternalTrafficPolicy (proxier_test.go): iTP Local uses KUBE-SVL.
  it('iTP Local with a local endpoint: ClusterIP → KUBE-SVL with local endpoints only', () => {
    const out = restore(
      [service('ns1', 'svc1', '172.30.0.41', { internalTrafficPolicy: 'Local' })],
      [
        slice('ns1', 'svc1', [
          endpoint('10.180.0.1', { node: TEST_NODE }),
          endpoint('10.180.0.2', { node: 'host1' }),
        ]),
      ],
    );
    const svl = 'KUBE-SVL-XPGD46QRK7WJZT7O';
    expect(chainRules(out, 'nat', 'KUBE-SERVICES')[0]).toBe(CLUSTER_IP_RULE.replace(SVC1, svl));
    expect(chainRules(out, 'nat', svl)).toEqual([
      MASQ_RULE.replace(SVC1, svl),
      `-A ${svl} -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j ${sep('10.180.0.1:80')}`,
    ]);
    expect(declaredChains(out, 'nat')).toEqual([
      'KUBE-SERVICES',
      'KUBE-NODEPORTS',
      'KUBE-POSTROUTING',
      'KUBE-MARK-MASQ',
      svl,
      sep('10.180.0.1:80'),
    ]);
  });

  it('iTP Local without local endpoints: filter DROP "has no local endpoints", no nat chains', () => {
    const out = restore(
      [service('ns1', 'svc1', '172.30.0.41', { internalTrafficPolicy: 'Local' })],
      [slice('ns1', 'svc1', [endpoint('10.180.0.2', { node: 'host1' })])],
    );
    expect(chainRules(out, 'filter', 'KUBE-SERVICES')).toEqual([
      '-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 has no local endpoints" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j DROP',
    ]);
    expect(declaredChains(out, 'nat')).toHaveLength(4);
  });

  // ServicePortName.String(): no ":" for an unnamed port.
  it('unnamed port: S is namespace/name', () => {
    const out = restore(
      [service('ns1', 'svc1', '172.30.0.41', { ports: [port('', 80)] })],
      [slice('ns1', 'svc1', [endpoint('10.180.0.1')], [slicePort('', 80)])],
    );
    const svc = servicePortChainName('KUBE-SVC-', 'ns1/svc1', 'tcp');
    expect(chainRules(out, 'nat', 'KUBE-SERVICES')[0]).toBe(
      `-A KUBE-SERVICES -m comment --comment "ns1/svc1 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j ${svc}`,
    );
    expect(
      chainRules(out, 'nat', endpointChainName('ns1/svc1', 'tcp', '10.180.0.1:80'))[0],
    ).toContain('--comment ns1/svc1 -s 10.180.0.1');
  });

  it('UDP and SCTP ports use -m udp -p udp / -m sctp -p sctp (kube-dns)', () => {
    const dns = service('kube-system', 'kube-dns', '10.96.0.10', {
      ports: [
        port('dns', 53, { protocol: 'UDP' }),
        port('dns-tcp', 53),
        port('x', 9999, { protocol: 'SCTP' }),
      ],
    });
    const eps = slice(
      'kube-system',
      'kube-dns',
      [endpoint('10.244.0.2'), endpoint('10.244.0.3')],
      [slicePort('dns', 53, 'UDP'), slicePort('dns-tcp', 53, 'TCP'), slicePort('x', 9999, 'SCTP')],
    );
    const out = restore([dns], [eps], {
      config: kubeProxyConfig({ clusterCIDR: '10.244.0.0/16' }),
    });
    expect(chainRules(out, 'nat', 'KUBE-SERVICES').slice(0, 3)).toEqual([
      '-A KUBE-SERVICES -m comment --comment "kube-system/kube-dns:dns cluster IP" -m udp -p udp -d 10.96.0.10 --dport 53 -j KUBE-SVC-TCOU7JCQXEZGVUNU',
      '-A KUBE-SERVICES -m comment --comment "kube-system/kube-dns:dns-tcp cluster IP" -m tcp -p tcp -d 10.96.0.10 --dport 53 -j KUBE-SVC-ERIFXISQEP7F7OF4',
      expect.stringMatching(
        /"kube-system\/kube-dns:x cluster IP" -m sctp -p sctp -d 10\.96\.0\.10 --dport 9999 -j KUBE-SVC-/,
      ),
    ]);
    expect(chainRules(out, 'nat', 'KUBE-SVC-TCOU7JCQXEZGVUNU').slice(1)).toEqual([
      '-A KUBE-SVC-TCOU7JCQXEZGVUNU -m comment --comment "kube-system/kube-dns:dns -> 10.244.0.2:53" -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-YIL6JZP7A3QYXJU2',
      '-A KUBE-SVC-TCOU7JCQXEZGVUNU -m comment --comment "kube-system/kube-dns:dns -> 10.244.0.3:53" -j KUBE-SEP-6E7XQMQ4RAYOWTTM',
    ]);
    expect(chainRules(out, 'nat', 'KUBE-SEP-YIL6JZP7A3QYXJU2')[1]).toBe(
      '-A KUBE-SEP-YIL6JZP7A3QYXJU2 -m comment --comment kube-system/kube-dns:dns -m udp -p udp -j DNAT --to-destination 10.244.0.2:53',
    );
  });

  it('a slice port must match the service port by name and protocol', () => {
    const out = restore(
      [service('ns1', 'svc1', '172.30.0.41')],
      [
        slice(
          'ns1',
          'svc1',
          [endpoint('10.180.0.1')],
          [slicePort('p80', 80, 'UDP'), slicePort('other', 80)],
        ),
      ],
    );
    expect(chainRules(out, 'filter', 'KUBE-SERVICES')[0]).toContain('has no endpoints');
  });

  // TestOverallIPTablesRules ns5/svc5: recent --rcheck rules first, then the ladder.
  it('sessionAffinity ClientIP: recent --rcheck per endpoint, then the ladder; SEP --set', () => {
    const out = restore(
      [
        service('ns1', 'svc1', '172.30.0.41', {
          sessionAffinity: 'ClientIP',
          sessionAffinityTimeout: 600,
        }),
      ],
      [slice('ns1', 'svc1', [endpoint('10.180.0.1'), endpoint('10.180.0.2')])],
    );
    const [a, b] = [sep('10.180.0.1:80'), sep('10.180.0.2:80')];
    expect(chainRules(out, 'nat', SVC1).slice(1)).toEqual([
      `-A ${SVC1} -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -m recent --name ${a} --rcheck --seconds 600 --reap -j ${a}`,
      `-A ${SVC1} -m comment --comment "ns1/svc1:p80 -> 10.180.0.2:80" -m recent --name ${b} --rcheck --seconds 600 --reap -j ${b}`,
      `-A ${SVC1} -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -m statistic --mode random --probability 0.5000000000 -j ${a}`,
      `-A ${SVC1} -m comment --comment "ns1/svc1:p80 -> 10.180.0.2:80" -j ${b}`,
    ]);
    expect(chainRules(out, 'nat', a)[1]).toBe(
      `-A ${a} -m comment --comment ns1/svc1:p80 -m recent --name ${a} --set -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80`,
    );
  });

  it('headless, ExternalName and proxy-name-labelled services produce nothing', () => {
    const empty = restore([]);
    const headless = service('ns1', 'h', 'None');
    const external = service('ns1', 'e', '', { type: 'ExternalName', externalName: 'example.com' });
    const other = service('ns1', 'o', '172.30.0.9', {
      meta: {
        ...service('ns1', 'o', '').meta,
        labels: { 'service.kubernetes.io/service-proxy-name': 'x' },
      },
    });
    expect(
      restore([headless, external, other], [slice('ns1', 'h', [endpoint('10.180.0.1')])]),
    ).toBe(empty);
  });
});

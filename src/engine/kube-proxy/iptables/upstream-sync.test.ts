/**
 * Partial syncs, ported from pkg/proxy/iptables/proxier_test.go TestSyncProxyRulesRepeated
 * (a copy without nfacct counters).
 */
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../../model/cluster';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  slicePort,
  upstreamProxierOptions,
} from '../testing/fixtures';
import { asUpstream, dedent } from '../testing/iptables-dump';
import { createIptablesProxier } from './proxier';

const FILTER = dedent(`
  *filter
  :KUBE-NODEPORTS - [0:0]
  :KUBE-SERVICES - [0:0]
  :KUBE-EXTERNAL-SERVICES - [0:0]
  :KUBE-FIREWALL - [0:0]
  :KUBE-FORWARD - [0:0]
  :KUBE-PROXY-FIREWALL - [0:0]
  @REJECT
  -A KUBE-FIREWALL -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP
  -A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP
  -A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT
  -A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
  COMMIT
`);
const STATIC_NAT = dedent(`
  -A KUBE-MARK-MASQ -j MARK --or-mark 0x4000
  -A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN
  -A KUBE-POSTROUTING -j MARK --xor-mark 0x4000
  -A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE
`);
const TAIL =
  '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS';
const clusterIPRule = (n: number, p: number, chain: string): string =>
  `-A KUBE-SERVICES -m comment --comment "ns${n}/svc${n}:p${p} cluster IP" -m tcp -p tcp -d 172.30.0.4${n} --dport ${p} -j ${chain}`;

/** The expected (sorted) dump: filter, then nat with the given chains, rules and deletions. */
function expected(o: {
  chains: string[];
  services: string[];
  rules: string[];
  deleted?: string[];
  reject?: string;
}): string {
  const decl = (c: string): string => `:${c} - [0:0]`;
  const nat = [
    '*nat',
    decl('KUBE-NODEPORTS'),
    decl('KUBE-SERVICES'),
    ...['KUBE-MARK-MASQ', 'KUBE-POSTROUTING', ...o.chains].sort().map(decl),
    ...o.services,
    TAIL,
    STATIC_NAT.trimEnd(),
    ...o.rules,
    ...(o.deleted ?? []).map((c) => `-X ${c}`),
    'COMMIT',
  ];
  return FILTER.replace('@REJECT\n', o.reject ? `${o.reject}\n` : '') + nat.join('\n') + '\n';
}

const svcChain = {
  1: 'KUBE-SVC-XPGD46QRK7WJZT7O',
  2: 'KUBE-SVC-2VJB64SDSIJUP5T6',
  3: 'KUBE-SVC-X27LE4BHSL4DOUIK',
  4: 'KUBE-SVC-4SW47YFZTEDKD3PK',
};
const svcRules = (n: 1 | 2 | 3 | 4, p: number, eps: [string, string][]): string[] => [
  `-A ${svcChain[n]} -m comment --comment "ns${n}/svc${n}:p${p} cluster IP" -m tcp -p tcp -d 172.30.0.4${n} --dport ${p} ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ`,
  ...eps.map(
    ([ip, sep], i) =>
      `-A ${svcChain[n]} -m comment --comment "ns${n}/svc${n}:p${p} -> ${ip}:${p}"` +
      (i < eps.length - 1
        ? ` -m statistic --mode random --probability ${(1 / (eps.length - i)).toFixed(10)}`
        : '') +
      ` -j ${sep}`,
  ),
];
const sepRules = (n: number, p: number, ip: string, sep: string): string[] => [
  `-A ${sep} -m comment --comment ns${n}/svc${n}:p${p} -s ${ip} -j KUBE-MARK-MASQ`,
  `-A ${sep} -m comment --comment ns${n}/svc${n}:p${p} -m tcp -p tcp -j DNAT --to-destination ${ip}:${p}`,
];

describe('upstream TestSyncProxyRulesRepeated', () => {
  const svc = (n: number, p: number): Service =>
    service(`ns${n}`, `svc${n}`, `172.30.0.4${n}`, { ports: [port(`p${p}`, p)] });
  const eps = (n: number, p: number, ips: string[]): EndpointSlice =>
    slice(
      `ns${n}`,
      `svc${n}`,
      ips.map((ip) => endpoint(ip)),
      [slicePort(`p${p}`, p)],
    );

  it('rewrites only what changed, and recovers from a failed partial restore with a full sync', () => {
    const proxier = createIptablesProxier(upstreamProxierOptions({ nfacct: false }));
    const sync = (services: Service[], slices: EndpointSlice[]): string =>
      asUpstream(proxier.sync(cluster(services, slices)).restoreInput);

    // Initial state: full sync of ns1/svc1 and ns2/svc2.
    let services = [svc(1, 80), svc(2, 8080)];
    let slices = [eps(1, 80, ['10.0.1.1']), eps(2, 8080, ['10.0.2.1'])];
    expect(sync(services, slices)).toBe(
      expected({
        chains: [
          'KUBE-SEP-SNQ3ZNILQDEJNDQO',
          'KUBE-SEP-UHEGFW77JX3KXTOV',
          svcChain[2],
          svcChain[1],
        ],
        services: [clusterIPRule(1, 80, svcChain[1]), clusterIPRule(2, 8080, svcChain[2])],
        rules: [
          ...sepRules(1, 80, '10.0.1.1', 'KUBE-SEP-SNQ3ZNILQDEJNDQO'),
          ...sepRules(2, 8080, '10.0.2.1', 'KUBE-SEP-UHEGFW77JX3KXTOV'),
          ...svcRules(2, 8080, [['10.0.2.1', 'KUBE-SEP-UHEGFW77JX3KXTOV']]),
          ...svcRules(1, 80, [['10.0.1.1', 'KUBE-SEP-SNQ3ZNILQDEJNDQO']]),
        ],
      }),
    );

    // Add a new service and its endpoints: only its SVC and SEP chains are written.
    services = [...services, svc(3, 80)];
    slices = [...slices, eps(3, 80, ['10.0.3.1'])];
    const svc3 = clusterIPRule(3, 80, svcChain[3]);
    expect(sync(services, slices)).toBe(
      expected({
        chains: ['KUBE-SEP-BSWRHOQ77KEXZLNL', svcChain[3]],
        services: [clusterIPRule(1, 80, svcChain[1]), clusterIPRule(2, 8080, svcChain[2]), svc3],
        rules: [
          ...sepRules(3, 80, '10.0.3.1', 'KUBE-SEP-BSWRHOQ77KEXZLNL'),
          ...svcRules(3, 80, [['10.0.3.1', 'KUBE-SEP-BSWRHOQ77KEXZLNL']]),
        ],
      }),
    );

    // Delete a service: its chains are flushed and deleted; the others are not touched.
    services = services.filter((s) => s.meta.name !== 'svc2');
    slices = slices.filter((s) => s.serviceName !== 'svc2');
    expect(sync(services, slices)).toBe(
      expected({
        chains: ['KUBE-SEP-UHEGFW77JX3KXTOV', svcChain[2]],
        services: [clusterIPRule(1, 80, svcChain[1]), svc3],
        rules: [],
        deleted: ['KUBE-SEP-UHEGFW77JX3KXTOV', svcChain[2]],
      }),
    );

    // Add a service without endpoints: only its REJECT rule.
    services = [...services, svc(4, 80)];
    const reject =
      '-A KUBE-SERVICES -m comment --comment "ns4/svc4:p80 has no endpoints" -m tcp -p tcp -d 172.30.0.44 --dport 80 -j REJECT';
    expect(sync(services, slices)).toBe(
      expected({
        chains: [],
        services: [clusterIPRule(1, 80, svcChain[1]), svc3],
        rules: [],
        reject,
      }),
    );

    // Then its endpoints: the new service's chains.
    slices = [...slices, eps(4, 80, ['10.0.4.1'])];
    const svc4 = clusterIPRule(4, 80, svcChain[4]);
    expect(sync(services, slices)).toBe(
      expected({
        chains: ['KUBE-SEP-AYCN5HPXMIRJNJXU', svcChain[4]],
        services: [clusterIPRule(1, 80, svcChain[1]), svc3, svc4],
        rules: [
          ...sepRules(4, 80, '10.0.4.1', 'KUBE-SEP-AYCN5HPXMIRJNJXU'),
          ...svcRules(4, 80, [['10.0.4.1', 'KUBE-SEP-AYCN5HPXMIRJNJXU']]),
        ],
      }),
    );

    // Change an endpoint: the SVC chain and a new SEP are written, the old SEP deleted.
    slices = slices.map((s) => (s.serviceName === 'svc3' ? eps(3, 80, ['10.0.3.2']) : s));
    expect(sync(services, slices)).toBe(
      expected({
        chains: ['KUBE-SEP-BSWRHOQ77KEXZLNL', 'KUBE-SEP-DKCFIS26GWF2WLWC', svcChain[3]],
        services: [clusterIPRule(1, 80, svcChain[1]), svc3, svc4],
        rules: [
          ...sepRules(3, 80, '10.0.3.2', 'KUBE-SEP-DKCFIS26GWF2WLWC'),
          ...svcRules(3, 80, [['10.0.3.2', 'KUBE-SEP-DKCFIS26GWF2WLWC']]),
        ],
        deleted: ['KUBE-SEP-BSWRHOQ77KEXZLNL'],
      }),
    );

    // Add an endpoint.
    slices = slices.map((s) =>
      s.serviceName === 'svc3' ? eps(3, 80, ['10.0.3.2', '10.0.3.3']) : s,
    );
    const svc3Rules = [
      ...sepRules(3, 80, '10.0.3.2', 'KUBE-SEP-DKCFIS26GWF2WLWC'),
      ...sepRules(3, 80, '10.0.3.3', 'KUBE-SEP-JVVZVJ7BSEPPRNBS'),
      ...svcRules(3, 80, [
        ['10.0.3.2', 'KUBE-SEP-DKCFIS26GWF2WLWC'],
        ['10.0.3.3', 'KUBE-SEP-JVVZVJ7BSEPPRNBS'],
      ]),
    ];
    expect(sync(services, slices)).toBe(
      expected({
        chains: ['KUBE-SEP-DKCFIS26GWF2WLWC', 'KUBE-SEP-JVVZVJ7BSEPPRNBS', svcChain[3]],
        services: [clusterIPRule(1, 80, svcChain[1]), svc3, svc4],
        rules: svc3Rules,
      }),
    );

    // No change: only the top-level chains.
    const idle = expected({
      chains: [],
      services: [clusterIPRule(1, 80, svcChain[1]), svc3, svc4],
      rules: [],
    });
    expect(sync(services, slices)).toBe(idle);

    // Delete svc4, but the restore fails (upstream provokes it with a dangling jump).
    services = services.filter((s) => s.meta.name !== 'svc4');
    slices = slices.filter((s) => s.serviceName !== 'svc4');
    sync(services, slices);
    proxier.restoreFailed();

    // The retry is a full sync: every service, and svc4's chains deleted.
    const result = proxier.sync(cluster(services, slices));
    expect(result.full).toBe(true);
    expect(asUpstream(result.restoreInput)).toBe(
      expected({
        chains: [
          'KUBE-SEP-AYCN5HPXMIRJNJXU',
          'KUBE-SEP-DKCFIS26GWF2WLWC',
          'KUBE-SEP-JVVZVJ7BSEPPRNBS',
          'KUBE-SEP-SNQ3ZNILQDEJNDQO',
          svcChain[4],
          svcChain[3],
          svcChain[1],
        ],
        services: [clusterIPRule(1, 80, svcChain[1]), svc3],
        rules: [
          ...svc3Rules.slice(0, 4),
          ...sepRules(1, 80, '10.0.1.1', 'KUBE-SEP-SNQ3ZNILQDEJNDQO'),
          ...svc3Rules.slice(4),
          ...svcRules(1, 80, [['10.0.1.1', 'KUBE-SEP-SNQ3ZNILQDEJNDQO']]),
        ],
        deleted: ['KUBE-SEP-AYCN5HPXMIRJNJXU', svcChain[4]],
      }),
    );
  });
});

/**
 * SRV answers of the lab's CoreDNS. Expected values come from the Kubernetes DNS specification
 * (kubernetes/dns docs/specification.md §2.3.2 ClusterIP, §2.4.2 headless) and from CoreDNS:
 * plugin/kubernetes/handler_test.go ("SRV Service": `0 100 80 svc1.testns.svc.cluster.local.`
 * with the A in Extra; "SRV Service (Headless)": one SRV per endpoint, target
 * `172-0-0-2.hdls1.testns.svc.cluster.local.`, weights 50/25/16 for 2/4/6 records),
 * plugin/backend_lookup.go SRV() (weight floor(100/n), duplicates dropped) and
 * plugin/kubernetes/kubernetes.go findServices() (which ports match, NXDOMAIN otherwise).
 * TTL 30: kubeadm's Corefile sets `ttl 30` (CoreDNS's own default is 5).
 */
import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../../model/runtime';
import { DEFAULT_SCENARIO, loadScenario } from '../../scenario';
import { corednsAnswer } from './coredns';
import type { ResourceRecord, RRType } from './message';
import { dnsQuery, rdataText } from './message';

const EXTRA = `
---
apiVersion: v1
kind: Service
metadata: {name: web-headless, namespace: default}
spec:
  clusterIP: None
  selector: {app: web}
  ports: [{name: http, port: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: multi, namespace: default}
spec:
  clusterIP: 10.96.7.7
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
  - {name: syslog, port: 514, protocol: UDP, targetPort: 514}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: default}
spec:
  type: ExternalName
  externalName: my.database.example.com
`;

const { cluster, diagnostics } = loadScenario(DEFAULT_SCENARIO + EXTRA);
const webIPs = cluster.pods
  .filter((p) => p.ownerDeployment === 'web')
  .map((p) => p.podIP)
  .sort();
const webIP = cluster.services.find((s) => s.meta.name === 'web')?.clusterIP ?? '?';

function ask(name: string, type: RRType = 'SRV', seed = 7) {
  return corednsAnswer(cluster, dnsQuery(1, name, type), { rng: rngFromSeed(seed), serial: 1 });
}
const text = (rrs: readonly ResourceRecord[]) =>
  rrs.map((rr) => `${rr.name} ${rr.ttl} ${rr.data.type} ${rdataText(rr.data)}`);

describe('CoreDNS SRV records (kubernetes plugin)', () => {
  it('loads the scenario', () => {
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('answers _port._proto.SVC for a named ClusterIP port, with the A in ADDITIONAL (§2.3.2)', () => {
    const r = ask('_https._tcp.kubernetes.default.svc.cluster.local');
    expect([r.rcode, r.aa, r.authority]).toEqual(['NOERROR', true, []]);
    expect(text(r.answer)).toEqual([
      '_https._tcp.kubernetes.default.svc.cluster.local. 30 SRV 0 100 443 kubernetes.default.svc.cluster.local.',
    ]);
    expect(text(r.additional)).toEqual(['kubernetes.default.svc.cluster.local. 30 A 10.96.0.1']);
  });

  it('matches the port name and protocol case-insensitively, underscores optional', () => {
    for (const name of ['_HTTP._TCP.multi', 'http.tcp.multi', '_syslog._udp.multi'])
      expect(ask(`${name}.default.svc.cluster.local`).answer).toHaveLength(1);
    expect(rdataText(ask('_syslog._udp.multi.default.svc.cluster.local').answer[0]!.data)).toBe(
      '0 100 514 multi.default.svc.cluster.local.',
    );
  });

  it('lists every port, unnamed too, for SVC.NS.svc (an absent port matches any)', () => {
    expect(ask('multi.default.svc.cluster.local').answer.map((rr) => rdataText(rr.data))).toEqual([
      '0 50 80 multi.default.svc.cluster.local.',
      '0 50 514 multi.default.svc.cluster.local.',
    ]);
    // The built-in web Service has one unnamed port: still one SRV, and one A for both.
    const web = ask('web.default.svc.cluster.local');
    expect(web.answer.map((rr) => rdataText(rr.data))).toEqual([
      '0 100 80 web.default.svc.cluster.local.',
    ]);
    expect(text(web.additional)).toEqual([`web.default.svc.cluster.local. 30 A ${webIP}`]);
  });

  it('weighs by all records but drops duplicates (kube-dns: 53/UDP, 53/TCP, 9153/TCP → 33)', () => {
    const r = ask('kube-dns.kube-system.svc.cluster.local');
    expect(r.answer.map((rr) => rdataText(rr.data))).toEqual([
      '0 33 53 kube-dns.kube-system.svc.cluster.local.',
      '0 33 9153 kube-dns.kube-system.svc.cluster.local.',
    ]);
    expect(text(r.additional)).toEqual(['kube-dns.kube-system.svc.cluster.local. 30 A 10.96.0.10']);
    expect(text(ask('_dns-tcp._tcp.kube-dns.kube-system.svc.cluster.local').answer)).toEqual([
      '_dns-tcp._tcp.kube-dns.kube-system.svc.cluster.local. 30 SRV 0 100 53 kube-dns.kube-system.svc.cluster.local.',
    ]);
  });

  it('answers one SRV per ready endpoint of a headless Service, named by dashed IP (§2.4.2)', () => {
    const r = ask('_http._tcp.web-headless.default.svc.cluster.local');
    const target = (ip: string) =>
      `${ip.replaceAll('.', '-')}.web-headless.default.svc.cluster.local.`;
    expect(r.answer.map((rr) => rdataText(rr.data)).sort()).toEqual(
      webIPs.map((ip) => `0 33 8080 ${target(ip)}`).sort(),
    );
    expect(text(r.additional).sort()).toEqual(
      webIPs.map((ip) => `${target(ip)} 30 A ${ip}`).sort(),
    );
    // An endpoint's own name: its SRV only, weight 100.
    const one = ask(target(webIPs[0]!));
    expect(one.answer.map((rr) => rdataText(rr.data))).toEqual([
      `0 100 8080 ${target(webIPs[0]!)}`,
    ]);
  });

  it('shuffles a headless ADDITIONAL section (loadbalance: all A records) but not the SRVs', () => {
    const orders = (section: 'answer' | 'additional') =>
      new Set(
        [1, 2, 3, 4, 5, 6].map((seed) => {
          const r = ask('web-headless.default.svc.cluster.local', 'SRV', seed);
          return r[section].map((rr) => rdataText(rr.data)).join(',');
        }),
      );
    expect(orders('answer').size).toBe(1);
    expect(orders('additional').size).toBeGreaterThan(1);
  });

  it.each([
    // kubernetes.go findServices(): no port with that name and protocol keeps errNoItems.
    ['_http._tcp.web.default.svc.cluster.local', 'NXDOMAIN'], // web's port has no name
    ['_https._udp.kubernetes.default.svc.cluster.local', 'NXDOMAIN'],
    ['_nope._tcp.web-headless.default.svc.cluster.local', 'NXDOMAIN'],
    // parse.go: one label left is an endpoint, and no endpoint is named `_tcp`.
    ['_tcp.web.default.svc.cluster.local', 'NXDOMAIN'],
    // Wildcards were removed from CoreDNS (1.9): `*` is a port name like any other.
    ['*.*.web.default.svc.cluster.local', 'NXDOMAIN'],
    ['_http._tcp.nope.default.svc.cluster.local', 'NXDOMAIN'],
    ['a._http._tcp.web.default.svc.cluster.local', 'NXDOMAIN'],
    // ExternalName: a port/protocol request skips it (NXDOMAIN); the bare name has only a CNAME,
    // which Services() drops for SRV, leaving NODATA.
    ['_http._tcp.db.default.svc.cluster.local', 'NXDOMAIN'],
    ['db.default.svc.cluster.local', 'NOERROR'],
    // Names that exist without SRV records: NODATA.
    ['default.svc.cluster.local', 'NOERROR'],
  ] as const)('%s SRV → %s with the SOA and no answer', (name, rcode) => {
    const r = ask(name);
    expect([r.rcode, r.answer, r.additional, r.authority.length]).toEqual([rcode, [], [], 1]);
  });

  it('gives a pod name an SRV with port 0 (findPods() sets no port; plugin.SRV() keeps 0)', () => {
    const r = ask('10-244-0-5.default.pod.cluster.local');
    expect(text(r.answer)).toEqual([
      '10-244-0-5.default.pod.cluster.local. 30 SRV 0 100 0 10-244-0-5.default.pod.cluster.local.',
    ]);
    expect(text(r.additional)).toEqual(['10-244-0-5.default.pod.cluster.local. 30 A 10.244.0.5']);
  });

  it('answers A for _port._proto.SVC too, as findServices() matched the port', () => {
    expect(text(ask('_https._tcp.kubernetes.default.svc.cluster.local', 'A').answer)).toEqual([
      '_https._tcp.kubernetes.default.svc.cluster.local. 30 A 10.96.0.1',
    ]);
    expect(ask('_http._tcp.web.default.svc.cluster.local', 'A').rcode).toBe('NXDOMAIN');
  });
});

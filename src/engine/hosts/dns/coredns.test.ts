import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../../model/runtime';
import { DEFAULT_SCENARIO, loadScenario } from '../../scenario';
import { corednsAnswer, soaSerial } from './coredns';
import type { RRType } from './message';
import { dnsQuery, dnsWireSize, rdataText } from './message';
import { resolvConfFor, resolvConfText, searchCandidates } from './resolv';

const EXTRA = `
---
apiVersion: v1
kind: Service
metadata: {name: web-headless, namespace: default}
spec:
  clusterIP: None
  selector: {app: web}
  ports: [{port: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: default}
spec:
  type: ExternalName
  externalName: my.database.example.com
---
apiVersion: v1
kind: Service
metadata: {name: empty, namespace: default}
spec:
  selector: {app: nothing}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: empty-headless, namespace: default}
spec:
  clusterIP: None
  selector: {app: nothing}
  ports: [{port: 80}]
`;

const { cluster, diagnostics } = loadScenario(DEFAULT_SCENARIO + EXTRA);
const ip = (name: string) => cluster.services.find((s) => s.meta.name === name)?.clusterIP ?? '?';
const webIPs = cluster.pods
  .filter((p) => p.ownerDeployment === 'web')
  .map((p) => p.podIP)
  .sort();

function ask(name: string, type: RRType = 'A') {
  const q = dnsQuery(4242, name, type, { edns: { udpSize: 1232, cookie: 'cf43afbef635ca61' } });
  return corednsAnswer(cluster, q, { rng: rngFromSeed(7), serial: 1733149320 });
}

describe('CoreDNS answers from the Cluster (kubernetes plugin, kubeadm Corefile)', () => {
  it('loads the scenario with the extra Services', () => {
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it.each([
    ['kubernetes.default.svc.cluster.local', 'A', 'NOERROR', () => [ip('kubernetes')]],
    ['web.default.svc.cluster.local', 'A', 'NOERROR', () => [ip('web')]],
    ['kube-dns.kube-system.svc.cluster.local', 'A', 'NOERROR', () => ['10.96.0.10']],
    ['empty.default.svc.cluster.local', 'A', 'NOERROR', () => [ip('empty')]],
    ['web-headless.default.svc.cluster.local', 'A', 'NOERROR', () => webIPs],
    ['db.default.svc.cluster.local', 'A', 'NOERROR', () => ['my.database.example.com.']],
    ['db.default.svc.cluster.local', 'CNAME', 'NOERROR', () => ['my.database.example.com.']],
    ['10-244-0-5.default.pod.cluster.local', 'A', 'NOERROR', () => ['10.244.0.5']],
    ['1.0.96.10.in-addr.arpa', 'PTR', 'NOERROR', () => ['kubernetes.default.svc.cluster.local.']],
  ] as const)('%s %s → %s', (name, type, rcode, answers) => {
    const r = ask(name, type);
    expect(r.rcode).toBe(rcode);
    expect(r.answer.map((rr) => rdataText(rr.data)).sort()).toEqual([...answers()].sort());
    expect(r.answer.every((rr) => rr.ttl === 30 && rr.name === `${name}.`)).toBe(true);
    expect([r.aa, r.ra, r.rd, r.qr]).toEqual([true, false, true, true]);
    expect(r.authority).toEqual([]);
  });

  it.each([
    ['nope.default.svc.cluster.local', 'A', 'NXDOMAIN'],
    ['web.nosuchns.svc.cluster.local', 'A', 'NXDOMAIN'],
    ['empty-headless.default.svc.cluster.local', 'A', 'NXDOMAIN'],
    ['web.default.svc.cluster.local.default.svc.cluster.local', 'A', 'NXDOMAIN'],
    ['web.cluster.local', 'A', 'NXDOMAIN'],
    ['web.default.svc.cluster.local', 'AAAA', 'NOERROR'],
    ['web-headless.default.svc.cluster.local', 'AAAA', 'NOERROR'],
    ['default.svc.cluster.local', 'A', 'NOERROR'],
    ['cluster.local', 'A', 'NOERROR'],
  ] as const)('%s %s → %s with the zone SOA and no answer', (name, type, rcode) => {
    const r = ask(name, type);
    expect([r.rcode, r.answer.length, r.aa, r.ra]).toEqual([rcode, 0, true, false]);
    expect(r.authority.map((rr) => `${rr.name} ${rr.ttl} ${rdataText(rr.data)}`)).toEqual([
      'cluster.local. 30 ns.dns.cluster.local. hostmaster.cluster.local. 1733149320 7200 1800 86400 30',
    ]);
  });

  it('forwards other names to an upstream that knows none of them: NXDOMAIN, ra, no SOA', () => {
    for (const name of ['web', 'example.com', 'nope'])
      expect(ask(name)).toMatchObject({
        rcode: 'NXDOMAIN',
        aa: false,
        ra: true,
        answer: [],
        authority: [],
      });
  });

  it('echoes the query OPT record and its cookie, keeps the id and rd', () => {
    const r = ask('web.default.svc.cluster.local');
    expect(r.id).toBe(4242);
    expect(r.edns).toEqual({ udpSize: 1232, cookie: 'cf43afbef635ca61' });
  });

  it('shuffles a headless answer (loadbalance) deterministically from the rng', () => {
    const orders = new Set(
      [1, 2, 3, 4, 5, 6].map((seed) =>
        corednsAnswer(cluster, dnsQuery(1, 'web-headless.default.svc.cluster.local', 'A'), {
          rng: rngFromSeed(seed),
          serial: 0,
        })
          .answer.map((rr) => rdataText(rr.data))
          .join(','),
      ),
    );
    expect(orders.size).toBeGreaterThan(1);
  });

  it('uses the last Service/EndpointSlice change as the SOA serial (APIConn.Modified)', () => {
    const last = Math.max(
      ...[...cluster.services, ...cluster.endpointSlices].map((o) => o.meta.createdAt),
    );
    expect(soaSerial(cluster, 1_700_000_000)).toBe(1_700_000_000 + last);
  });
});

describe('wire sizes (dig MSG SIZE, tcpdump (N)): as measured on the real tools', () => {
  it.each([
    // Real sizes: dig's query 70, glibc's 47, `nope.` 22; CoreDNS-like answers 115 (A), 164
    // (NXDOMAIN + SOA), 163 (AAAA NODATA + SOA), 136 for a CNAME from `ext.default…` — here
    // `db.default…`, one letter shorter in the question and the answer: 134.
    [
      'dig query',
      70,
      dnsQuery(1, 'web.default.svc.cluster.local', 'A', {
        edns: { udpSize: 1232, cookie: 'cf43afbef635ca61' },
      }),
    ],
    ['glibc query', 47, dnsQuery(1, 'web.default.svc.cluster.local', 'A')],
    ['nope. query', 22, dnsQuery(1, 'nope', 'A')],
    ['A answer', 115, ask('web.default.svc.cluster.local')],
    ['NXDOMAIN + SOA', 164, ask('nope.default.svc.cluster.local')],
    ['NODATA + SOA', 163, ask('web.default.svc.cluster.local', 'AAAA')],
    ['CNAME', 134, ask('db.default.svc.cluster.local')],
  ] as const)('%s: %i bytes', (_, size, m) => {
    expect(dnsWireSize(m)).toBe(size);
  });
});

describe('resolv.conf and the search list', () => {
  const conf = resolvConfFor(cluster, { kind: 'pod', namespace: 'default', name: 'client' });

  it('is what kubelet writes for a ClusterFirst pod', () => {
    expect(resolvConfText(conf)).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
  });

  it.each([
    [
      'web',
      ['web.default.svc.cluster.local.', 'web.svc.cluster.local.', 'web.cluster.local.', 'web.'],
    ],
    [
      'web.default.svc.cluster.local',
      [
        'web.default.svc.cluster.local.default.svc.cluster.local.',
        'web.default.svc.cluster.local.svc.cluster.local.',
        'web.default.svc.cluster.local.cluster.local.',
        'web.default.svc.cluster.local.',
      ],
    ],
    ['web.default.svc.cluster.local.', ['web.default.svc.cluster.local.']],
    [
      'a.b.c.d.e.f',
      [
        'a.b.c.d.e.f.',
        'a.b.c.d.e.f.default.svc.cluster.local.',
        'a.b.c.d.e.f.svc.cluster.local.',
        'a.b.c.d.e.f.cluster.local.',
      ],
    ],
  ])('%s (ndots:5) → %j', (name, names) => {
    expect(searchCandidates(name, conf)).toEqual(names);
  });

  it("gives nodes their own resolv.conf: the LAN's router, no search list", () => {
    expect(resolvConfFor(cluster, { kind: 'node', name: 'node-1' })).toMatchObject({
      nameservers: ['192.168.1.1'],
      search: [],
    });
  });
});

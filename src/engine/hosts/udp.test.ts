import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, loadScenario } from '../scenario';
import { parseCurlArgs, parseDigArgs, parseNcArgs, parseNslookupArgs } from './programs/args';
import { openUdp, sendData } from './stack';
import { serviceNat, TestNet } from './test-net';

const { cluster } = loadScenario(DEFAULT_SCENARIO);
const CLIENT = 'pod/default/client';
const coredns = cluster.pods.filter((p) => p.ownerDeployment === 'coredns').map((p) => p.podIP);
const webSvc = cluster.services.find((s) => s.meta.name === 'web');
const web = cluster.pods.find((p) => p.ownerDeployment === 'web' && p.nodeName === 'node-2');

function ok<T>(r: { ok: true; opts: T } | { ok: false; stderr: string }): T {
  if (!r.ok) throw new Error(r.stderr);
  return r.opts;
}

const dig = (...a: string[]) => ({ kind: 'dig' as const, opts: ok(parseDigArgs(['dig', ...a])) });
/** Replies from CoreDNS pods skip un-DNAT: the same-node bridge problem for DNS. */
const sameNodeDns = serviceNat(cluster, { undnat: (p) => !coredns.includes(p.src) });

describe('DNS through the kube-dns Service', () => {
  it('dig gets the ClusterIP of web from CoreDNS behind 10.96.0.10', () => {
    const net = new TestNet(cluster, { rewrite: serviceNat(cluster), latencyMs: 1 });
    const r = net.exec(CLIENT, dig('web.default.svc.cluster.local'));
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      `;; ANSWER SECTION:\nweb.default.svc.cluster.local. 30 IN\tA\t${webSvc?.clusterIP}\n`,
    );
    expect(r.stdout).toContain(
      ';; Query time: 2 msec\n;; SERVER: 10.96.0.10#53(10.96.0.10) (UDP)\n',
    );
    const [query, reply] = net.wire;
    expect(query?.delivered?.dst).toBe(coredns[0]);
    expect(reply?.delivered).toMatchObject({ src: '10.96.0.10', sport: 53, dst: '10.244.0.5' });
  });

  it('same-node reply without un-DNAT: the connected socket never sees it, the host sends ICMP port unreachable', () => {
    const net = new TestNet(cluster, { rewrite: sameNodeDns });
    const r = net.exec(CLIENT, dig('web.default.svc.cluster.local'));
    const icmp = net.wire.filter((w) => w.packet.proto === 'icmp');
    expect(icmp).toHaveLength(3);
    const reply = net.wire[1]?.packet;
    expect(icmp[0]?.packet).toMatchObject({
      src: '10.244.0.5',
      dst: coredns[0],
      icmp: { type: 3, code: 3 },
      length: 20 + 8 + (reply?.length ?? 0),
      inner: { src: coredns[0], dst: '10.244.0.5', proto: 'udp', sport: 53, dport: reply?.dport },
    });
    expect(r.exitCode).toBe(9);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual(
      Array(3).fill(';; communications error to 10.96.0.10#53: timed out'),
    );
    expect(
      net.wire.filter((w) => w.packet.proto === 'udp' && w.from === CLIENT).map((w) => w.t),
    ).toEqual([0, 5000, 10000]);
  });

  it('BIND 9.16 dig (unconnected socket) reports the reply from the unexpected source', () => {
    const net = new TestNet(cluster, { rewrite: sameNodeDns });
    const legacy = dig('web.default.svc.cluster.local');
    const r = net.exec(CLIENT, { kind: 'dig', opts: { ...legacy.opts, legacy: true } });
    expect(net.wire.some((w) => w.packet.proto === 'icmp')).toBe(false);
    expect(r.stdout.split('\n').filter((l) => l.startsWith(';; reply'))).toEqual(
      Array(3).fill(`;; reply from unexpected source: ${coredns[0]}#53, expected 10.96.0.10#53`),
    );
    expect(r.stdout.endsWith(';; connection timed out; no servers could be reached\n')).toBe(true);
    expect(r.exitCode).toBe(9);
  });

  it('an unconnected socket gets `unexpected-source`, a connected one would not match', () => {
    const net = new TestNet(cluster, { rewrite: sameNodeDns });
    const open = openUdp(net.hosts, CLIENT, net.ctx());
    const id = open.socket?.id ?? -1;
    const query = {
      kind: 'dns' as const,
      message: {
        id: 7,
        qr: false,
        aa: false,
        tc: false,
        rd: true,
        ra: false,
        ad: false,
        cd: false,
        rcode: 'NOERROR' as const,
        question: [{ name: 'web.default.svc.cluster.local.', type: 'A' as const }],
        answer: [],
        authority: [],
        additional: [],
      },
    };
    net.push(sendData(net.hosts, id, query, net.ctx(), { addr: '10.96.0.10', port: 53 }));
    net.run(10);
    const ev = net.events.find((e) => e.socket === id);
    expect(ev).toMatchObject({ kind: 'unexpected-source', from: { addr: coredns[0], port: 53 } });
  });

  it('nslookup web: the first search name answers, then the AAAA lookup of that name', () => {
    const net = new TestNet(cluster, { rewrite: serviceNat(cluster) });
    const r = net.exec(CLIENT, {
      kind: 'nslookup',
      opts: ok(parseNslookupArgs(['nslookup', 'web'])),
    });
    expect(r.stdout).toBe(
      ';; Got recursion not available from 10.96.0.10\n' +
        'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n' +
        `Name:\tweb.default.svc.cluster.local\nAddress: ${webSvc?.clusterIP}\n` +
        ';; Got recursion not available from 10.96.0.10\n\n',
    );
    expect(r.exitCode).toBe(0);
  });

  it('curl by name: getaddrinfo sends A and AAAA from one port per search name, then connects', () => {
    const net = new TestNet(cluster, {
      rewrite: serviceNat(cluster, {
        pick: (e) => (e.includes(web?.podIP ?? '') ? (web?.podIP ?? '') : (e[0] ?? '')),
      }),
    });
    const r = net.exec(CLIENT, {
      kind: 'curl',
      opts: ok(parseCurlArgs(['curl', '-s', 'http://web/clientip'])),
    });
    const dns = net.wire.filter((w) => w.packet.dport === 53);
    expect(
      dns.map((w) =>
        w.packet.data?.kind === 'dns'
          ? `${w.packet.sport} ${w.packet.data.message.question[0]?.type}`
          : '',
      ),
    ).toEqual([`${dns[0]?.packet.sport} A`, `${dns[0]?.packet.sport} AAAA`]);
    expect(r.stdout).toMatch(/^10\.244\.0\.5:\d+$/);
  });

  it('curl to a name nothing resolves: (6) Could not resolve host after 4 search names', () => {
    const net = new TestNet(cluster, { rewrite: serviceNat(cluster) });
    const r = net.exec(CLIENT, {
      kind: 'curl',
      opts: ok(parseCurlArgs(['curl', '-sS', 'http://nope/'])),
    });
    expect(net.wire.filter((w) => w.packet.dport === 53)).toHaveLength(8);
    expect(r.stderr).toBe('curl: (6) Could not resolve host: nope\n');
    expect(r.exitCode).toBe(6);
  });
});

describe('nc -u', () => {
  const nc = (stdin: string, ...a: string[]) => ({
    kind: 'nc' as const,
    opts: ok(parseNcArgs(['nc', ...a], stdin)),
  });

  it('gets the echo line of a UDP containerPort', () => {
    const net = new TestNet(cluster);
    const echoCluster = loadScenario(
      DEFAULT_SCENARIO +
        '---\napiVersion: v1\nkind: Pod\nmetadata: {name: echo, namespace: default}\nspec:\n  nodeName: node-2\n  containers:\n  - name: e\n    image: registry.k8s.io/e2e-test-images/agnhost:2.53\n    ports: [{containerPort: 5005, protocol: UDP}]\n',
    ).cluster;
    const echoNet = new TestNet(echoCluster);
    const ip = echoCluster.pods.find((p) => p.meta.name === 'echo')?.podIP ?? '';
    const r = echoNet.exec(CLIENT, nc('hello\n', '-u', '-w1', ip, '5005'));
    expect(r.stdout).toMatch(
      new RegExp(
        `^echo \\(${ip.replaceAll('.', '\\.')}:5005/udp\\): you are 10\\.244\\.0\\.5:\\d+, you sent: hello\\n$`,
      ),
    );
    expect(r.exitCode).toBe(0);
    expect(net.hosts.programs).toEqual({});
  });

  it('a datagram to a closed port: ICMP port unreachable from the pod; -v exits 1 silently, plain nc 0', () => {
    const ip = web?.podIP ?? '';
    for (const [args, exit] of [
      [['-u', '-v', '-w1', ip, '9'], 1],
      [['-u', '-w1', ip, '9'], 0],
    ] as const) {
      const net = new TestNet(cluster);
      const r = net.exec(CLIENT, nc('hello\n', ...args));
      const icmp = net.wire.find((w) => w.packet.proto === 'icmp');
      expect(icmp?.packet).toMatchObject({
        src: ip,
        dst: '10.244.0.5',
        icmp: { type: 3, code: 3 },
        inner: { dport: 9 },
      });
      expect([r.stdout, r.stderr, r.exitCode]).toEqual(['', '', exit]);
    }
  });
});

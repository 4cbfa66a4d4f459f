import { describe, expect, it } from 'vitest';
import type { DnsMessage, Rcode, RData, RRType } from '../dns/message';
import { dnsQuery } from '../dns/message';
import { parseDigArgs } from '../programs/args';
import type { TranscriptEntry } from '../programs/types';
import { digOutput } from './dig';
import { nslookupOutput } from './nslookup';

/** 2026-12-02 16:02:23 UTC, when the golden outputs were captured. */
const EPOCH = 1_796_227_343;
const SERVER = { addr: '10.99.0.2', port: 53 };
const SOA: RData = {
  type: 'SOA',
  mname: 'ns.dns.cluster.local.',
  rname: 'hostmaster.cluster.local.',
  serial: 1733149320,
  refresh: 7200,
  retry: 1800,
  expire: 86400,
  minimum: 30,
};

/** The golden server's zone (see GOLDEN below). */
function zone(name: string, type: RRType): { rcode: Rcode; aa: boolean; data: RData[] } {
  const n = name.toLowerCase().replace(/\.$/, '');
  const records: Record<string, RData[]> = {
    'web.default.svc.cluster.local A': [{ type: 'A', address: '10.96.100.200' }],
    'headless.default.svc.cluster.local A': [
      { type: 'A', address: '10.244.0.7' },
      { type: 'A', address: '10.244.1.3' },
    ],
    'ext.default.svc.cluster.local A': [{ type: 'CNAME', target: 'my.database.example.com.' }],
  };
  const exists = ['web', 'headless', 'ext'].some((s) => n === `${s}.default.svc.cluster.local`);
  if (!n.endsWith('cluster.local')) return { rcode: 'NXDOMAIN', aa: false, data: [] };
  return { rcode: exists ? 'NOERROR' : 'NXDOMAIN', aa: true, data: records[`${n} ${type}`] ?? [] };
}

function reply(q: DnsMessage): DnsMessage {
  const question = q.question[0] ?? { name: '.', type: 'A' as const };
  const z = zone(question.name, question.type);
  return {
    ...q,
    qr: true,
    aa: z.aa,
    ra: !z.aa,
    ad: false,
    rcode: z.rcode,
    answer: z.data.map((data) => ({ name: question.name, ttl: 30, data })),
    authority: z.aa && z.data.length === 0 ? [{ name: 'cluster.local.', ttl: 30, data: SOA }] : [],
  };
}

function digRun(cmd: string, id: number, cookie: string, sentAt: number, tookMs: number) {
  const parsed = parseDigArgs(cmd.split(' '));
  if (!parsed.ok) throw new Error(parsed.stderr);
  const opts = parsed.opts;
  const q = dnsQuery(id, opts.name, opts.type, { edns: { udpSize: 1232, cookie }, ad: true });
  const server = { addr: opts.server ?? SERVER.addr, port: opts.port };
  const tr: TranscriptEntry[] = [
    { t: sentAt, kind: 'dns-query', server, message: q, tcp: false },
    { t: sentAt + tookMs, kind: 'dns-response', server, message: reply(q), tcp: false },
  ];
  return digOutput(opts, tr, { epochSeconds: EPOCH });
}

describe('dig output, byte for byte as dig 9.18.49 printed it', () => {
  it.each([
    ['dig @10.99.0.2 web.default.svc.cluster.local', 57788, '7e264f308ce11c6e', 0, 4],
    ['dig @10.99.0.2 headless.default.svc.cluster.local', 5928, '70a6ffb4e0762cfc', 0, 0],
    ['dig @10.99.0.2 nope.default.svc.cluster.local', 42687, '04e4a80d71ebb2ad', 0, 0],
    ['dig @10.99.0.2 ext.default.svc.cluster.local', 13229, 'b8e09a8c7b8a747b', 1000, 0],
    ['dig @10.99.0.2 web.default.svc.cluster.local AAAA', 59898, '81db6ee908a0fca5', 1000, 0],
    ['dig @10.99.0.2 example.com', 10680, '66a36597e84af743', 1000, 0],
    ['dig +short headless.default.svc.cluster.local', 26652, '0000000000000000', 1000, 0],
    ['dig web.default.svc.cluster.local', 63058, '040089545aef9c72', 1000, 0],
  ])('%s', (cmd, id, cookie, sentAt, took) => {
    const out = digRun(cmd, id, cookie, sentAt, took);
    const golden = GOLDEN[cmd];
    expect(out.stdout).toBe(golden?.stdout);
    expect(out.exitCode).toBe(golden?.rc);
  });

  it.each([
    ['dig @10.99.0.2 -p 55 web.default.svc.cluster.local', 'dns-refused'],
    ['dig @10.99.1.5 web.default.svc.cluster.local', 'dns-timeout'],
    ['dig +short @10.99.1.5 web.default.svc.cluster.local', 'dns-timeout'],
  ] as const)('%s: three failed tries', (cmd, kind) => {
    const parsed = parseDigArgs(cmd.split(' '));
    if (!parsed.ok) throw new Error(parsed.stderr);
    const server = { addr: parsed.opts.server ?? '', port: parsed.opts.port };
    const q = dnsQuery(1, parsed.opts.name, 'A', {
      edns: { udpSize: 1232, cookie: '00' },
      ad: true,
    });
    const tr: TranscriptEntry[] = [0, 1, 2].flatMap((i) => [
      { t: i * 5000, kind: 'dns-query' as const, server, message: q, tcp: false },
      { t: i * 5000 + 5000, kind, server },
    ]);
    expect(digOutput(parsed.opts, tr, { epochSeconds: EPOCH })).toEqual({
      stdout: GOLDEN[cmd]?.stdout,
      stderr: '',
      exitCode: 9,
    });
  });
});

/** nslookup's queries for `name` through the search list, answered by the golden server. */
function nslookupRun(names: string[], aaaa: string | undefined): TranscriptEntry[] {
  const tr: TranscriptEntry[] = [];
  const ask = (name: string, type: RRType) => {
    const q = dnsQuery(1, name, type);
    tr.push({ t: 0, kind: 'dns-query', server: SERVER, message: q, tcp: false });
    tr.push({ t: 0, kind: 'dns-response', server: SERVER, message: reply(q), tcp: false });
  };
  for (const n of names) ask(n, 'A');
  if (aaaa !== undefined) ask(aaaa, 'AAAA');
  return tr;
}

describe('nslookup output, byte for byte as nslookup 9.18.49 printed it', () => {
  const S = ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'];
  it.each([
    ['nslookup web', ['web.default.svc.cluster.local.'], 'web.default.svc.cluster.local.'],
    ['nslookup nope', [...S.map((d) => `nope.${d}.`), 'nope.'], undefined],
    ['nslookup ext', ['ext.default.svc.cluster.local.'], 'my.database.example.com.'],
    [
      'nslookup headless',
      ['headless.default.svc.cluster.local.'],
      'headless.default.svc.cluster.local.',
    ],
    [
      'nslookup web.default.svc.cluster.local',
      [...S.map((d) => `web.default.svc.cluster.local.${d}.`), 'web.default.svc.cluster.local.'],
      'web.default.svc.cluster.local.',
    ],
  ])('%s', (cmd, names, aaaa) => {
    const out = nslookupOutput(nslookupRun(names, aaaa));
    expect(out.stdout).toBe(GOLDEN[cmd]?.stdout);
    expect(out.exitCode).toBe(GOLDEN[cmd]?.rc);
  });

  it.each([
    ['nslookup -port=55 web.default.svc.cluster.local 10.99.0.2', 'dns-refused', 55, '10.99.0.2'],
    ['nslookup web.default.svc.cluster.local 10.99.1.5', 'dns-timeout', 53, '10.99.1.5'],
  ] as const)('%s', (cmd, kind, port, addr) => {
    const server = { addr, port };
    const q = dnsQuery(1, 'web.default.svc.cluster.local.default.svc.cluster.local', 'A');
    const tr: TranscriptEntry[] = [0, 1, 2].flatMap((i) => [
      { t: i, kind: 'dns-query' as const, server, message: q, tcp: false },
      { t: i, kind, server },
    ]);
    expect(nslookupOutput(tr)).toEqual({ stdout: GOLDEN[cmd]?.stdout, stderr: '', exitCode: 1 });
  });
});

/**
 * Real outputs of dig and nslookup 9.18.49-1~deb12u3-Debian (bookworm dnsutils), captured in a pair
 * of network namespaces against a small DNS server answering like CoreDNS (see zone() above).
 */
const GOLDEN: Record<string, { stdout: string; rc: number }> = {
  'dig @10.99.0.2 web.default.svc.cluster.local': {
    stdout:
      '\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @10.99.0.2 web.default.svc.cluster.local\n; (1 server found)\n;; global options: +cmd\n;; Got answer:\n;; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 57788\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n; COOKIE: 7e264f308ce11c6e (echoed)\n;; QUESTION SECTION:\n;web.default.svc.cluster.local.\tIN\tA\n\n;; ANSWER SECTION:\nweb.default.svc.cluster.local. 30 IN\tA\t10.96.100.200\n\n;; Query time: 4 msec\n;; SERVER: 10.99.0.2#53(10.99.0.2) (UDP)\n;; WHEN: Wed Dec 02 16:02:23 UTC 2026\n;; MSG SIZE  rcvd: 115\n\n',
    rc: 0,
  },
  'dig @10.99.0.2 headless.default.svc.cluster.local': {
    stdout:
      '\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @10.99.0.2 headless.default.svc.cluster.local\n; (1 server found)\n;; global options: +cmd\n;; Got answer:\n;; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 5928\n;; flags: qr aa rd; QUERY: 1, ANSWER: 2, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n; COOKIE: 70a6ffb4e0762cfc (echoed)\n;; QUESTION SECTION:\n;headless.default.svc.cluster.local. IN\tA\n\n;; ANSWER SECTION:\nheadless.default.svc.cluster.local. 30 IN A\t10.244.0.7\nheadless.default.svc.cluster.local. 30 IN A\t10.244.1.3\n\n;; Query time: 0 msec\n;; SERVER: 10.99.0.2#53(10.99.0.2) (UDP)\n;; WHEN: Wed Dec 02 16:02:23 UTC 2026\n;; MSG SIZE  rcvd: 175\n\n',
    rc: 0,
  },
  'dig @10.99.0.2 nope.default.svc.cluster.local': {
    stdout:
      '\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @10.99.0.2 nope.default.svc.cluster.local\n; (1 server found)\n;; global options: +cmd\n;; Got answer:\n;; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n;; ->>HEADER<<- opcode: QUERY, status: NXDOMAIN, id: 42687\n;; flags: qr aa rd; QUERY: 1, ANSWER: 0, AUTHORITY: 1, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n; COOKIE: 04e4a80d71ebb2ad (echoed)\n;; QUESTION SECTION:\n;nope.default.svc.cluster.local.\tIN\tA\n\n;; AUTHORITY SECTION:\ncluster.local.\t\t30\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1733149320 7200 1800 86400 30\n\n;; Query time: 0 msec\n;; SERVER: 10.99.0.2#53(10.99.0.2) (UDP)\n;; WHEN: Wed Dec 02 16:02:23 UTC 2026\n;; MSG SIZE  rcvd: 164\n\n',
    rc: 0,
  },
  'dig @10.99.0.2 ext.default.svc.cluster.local': {
    stdout:
      '\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @10.99.0.2 ext.default.svc.cluster.local\n; (1 server found)\n;; global options: +cmd\n;; Got answer:\n;; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 13229\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n; COOKIE: b8e09a8c7b8a747b (echoed)\n;; QUESTION SECTION:\n;ext.default.svc.cluster.local.\tIN\tA\n\n;; ANSWER SECTION:\next.default.svc.cluster.local. 30 IN\tCNAME\tmy.database.example.com.\n\n;; Query time: 0 msec\n;; SERVER: 10.99.0.2#53(10.99.0.2) (UDP)\n;; WHEN: Wed Dec 02 16:02:24 UTC 2026\n;; MSG SIZE  rcvd: 136\n\n',
    rc: 0,
  },
  'dig @10.99.0.2 web.default.svc.cluster.local AAAA': {
    stdout:
      '\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @10.99.0.2 web.default.svc.cluster.local AAAA\n; (1 server found)\n;; global options: +cmd\n;; Got answer:\n;; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 59898\n;; flags: qr aa rd; QUERY: 1, ANSWER: 0, AUTHORITY: 1, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n; COOKIE: 81db6ee908a0fca5 (echoed)\n;; QUESTION SECTION:\n;web.default.svc.cluster.local.\tIN\tAAAA\n\n;; AUTHORITY SECTION:\ncluster.local.\t\t30\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1733149320 7200 1800 86400 30\n\n;; Query time: 0 msec\n;; SERVER: 10.99.0.2#53(10.99.0.2) (UDP)\n;; WHEN: Wed Dec 02 16:02:24 UTC 2026\n;; MSG SIZE  rcvd: 163\n\n',
    rc: 0,
  },
  'dig @10.99.0.2 example.com': {
    stdout:
      '\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @10.99.0.2 example.com\n; (1 server found)\n;; global options: +cmd\n;; Got answer:\n;; ->>HEADER<<- opcode: QUERY, status: NXDOMAIN, id: 10680\n;; flags: qr rd ra; QUERY: 1, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 1\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n; COOKIE: 66a36597e84af743 (echoed)\n;; QUESTION SECTION:\n;example.com.\t\t\tIN\tA\n\n;; Query time: 0 msec\n;; SERVER: 10.99.0.2#53(10.99.0.2) (UDP)\n;; WHEN: Wed Dec 02 16:02:24 UTC 2026\n;; MSG SIZE  rcvd: 52\n\n',
    rc: 0,
  },
  'dig +short headless.default.svc.cluster.local': { stdout: '10.244.0.7\n10.244.1.3\n', rc: 0 },
  'dig web.default.svc.cluster.local': {
    stdout:
      '\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> web.default.svc.cluster.local\n;; global options: +cmd\n;; Got answer:\n;; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 63058\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n; COOKIE: 040089545aef9c72 (echoed)\n;; QUESTION SECTION:\n;web.default.svc.cluster.local.\tIN\tA\n\n;; ANSWER SECTION:\nweb.default.svc.cluster.local. 30 IN\tA\t10.96.100.200\n\n;; Query time: 0 msec\n;; SERVER: 10.99.0.2#53(10.99.0.2) (UDP)\n;; WHEN: Wed Dec 02 16:02:24 UTC 2026\n;; MSG SIZE  rcvd: 115\n\n',
    rc: 0,
  },
  'dig @10.99.0.2 -p 55 web.default.svc.cluster.local': {
    stdout:
      ';; communications error to 10.99.0.2#55: connection refused\n;; communications error to 10.99.0.2#55: connection refused\n;; communications error to 10.99.0.2#55: connection refused\n\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @10.99.0.2 -p 55 web.default.svc.cluster.local\n; (1 server found)\n;; global options: +cmd\n;; no servers could be reached\n',
    rc: 9,
  },
  'nslookup web': {
    stdout:
      ';; Got recursion not available from 10.99.0.2\nServer:\t\t10.99.0.2\nAddress:\t10.99.0.2#53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.100.200\n;; Got recursion not available from 10.99.0.2\n\n',
    rc: 0,
  },
  'nslookup nope': {
    stdout:
      ";; Got recursion not available from 10.99.0.2\n;; Got recursion not available from 10.99.0.2\n;; Got recursion not available from 10.99.0.2\nServer:\t\t10.99.0.2\nAddress:\t10.99.0.2#53\n\n** server can't find nope: NXDOMAIN\n\n",
    rc: 1,
  },
  'nslookup ext': {
    stdout:
      ";; Got recursion not available from 10.99.0.2\nServer:\t\t10.99.0.2\nAddress:\t10.99.0.2#53\n\next.default.svc.cluster.local\tcanonical name = my.database.example.com.\n** server can't find my.database.example.com: NXDOMAIN\n\n",
    rc: 1,
  },
  'nslookup headless': {
    stdout:
      ';; Got recursion not available from 10.99.0.2\nServer:\t\t10.99.0.2\nAddress:\t10.99.0.2#53\n\nName:\theadless.default.svc.cluster.local\nAddress: 10.244.0.7\nName:\theadless.default.svc.cluster.local\nAddress: 10.244.1.3\n;; Got recursion not available from 10.99.0.2\n\n',
    rc: 0,
  },
  'nslookup web.default.svc.cluster.local': {
    stdout:
      ';; Got recursion not available from 10.99.0.2\n;; Got recursion not available from 10.99.0.2\n;; Got recursion not available from 10.99.0.2\n;; Got recursion not available from 10.99.0.2\nServer:\t\t10.99.0.2\nAddress:\t10.99.0.2#53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.100.200\n;; Got recursion not available from 10.99.0.2\n\n',
    rc: 0,
  },
  'nslookup -port=55 web.default.svc.cluster.local 10.99.0.2': {
    stdout:
      ';; communications error to 10.99.0.2#55: connection refused\n;; communications error to 10.99.0.2#55: connection refused\n;; communications error to 10.99.0.2#55: connection refused\n;; no servers could be reached\n\n',
    rc: 1,
  },
  'dig @10.99.1.5 web.default.svc.cluster.local': {
    stdout:
      ';; communications error to 10.99.1.5#53: timed out\n;; communications error to 10.99.1.5#53: timed out\n;; communications error to 10.99.1.5#53: timed out\n\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @10.99.1.5 web.default.svc.cluster.local\n; (1 server found)\n;; global options: +cmd\n;; no servers could be reached\n',
    rc: 9,
  },
  'dig +short @10.99.1.5 web.default.svc.cluster.local': {
    stdout:
      ';; communications error to 10.99.1.5#53: timed out\n;; communications error to 10.99.1.5#53: timed out\n;; communications error to 10.99.1.5#53: timed out\n;; no servers could be reached\n',
    rc: 9,
  },
  'nslookup web.default.svc.cluster.local 10.99.1.5': {
    stdout:
      ';; communications error to 10.99.1.5#53: timed out\n;; communications error to 10.99.1.5#53: timed out\n;; communications error to 10.99.1.5#53: timed out\n;; no servers could be reached\n\n',
    rc: 1,
  },
};

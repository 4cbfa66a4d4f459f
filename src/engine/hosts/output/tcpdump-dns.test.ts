import { describe, expect, it } from 'vitest';
import type { DnsMessage } from '../dns/message';
import { dnsQuery } from '../dns/message';
import type { HostPacket } from '../types';
import { dnsSummary } from './tcpdump';
import { format, syn, tcp, ts } from './tcpdump-fixtures';

/**
 * Golden lines: tcpdump 4.99.3 (`tcpdump -i eth0 -n`, Debian bookworm) on one end of a veth pair
 * between two network namespaces (Linux 6.x, tcp_rmem 4096 131072 6291456), while curl, dig,
 * nslookup and a raw-socket sender ran. Each packet below is rebuilt from its line's absolute
 * values; the formatter must print the same line.
 */

function check(rows: readonly (readonly [string, HostPacket])[]) {
  for (const [golden, line] of format(rows)) expect(line).toBe(golden);
}

describe('tcpdump lines for DNS, ICMP and UDP, as tcpdump 4.99.3 printed them', () => {
  it('DNS over UDP and TCP, ICMP port unreachable, other UDP', () => {
    const q = (id: number, name: string, type: 'A' | 'AAAA', edns: boolean): DnsMessage =>
      dnsQuery(
        id,
        name,
        type,
        edns ? { edns: { udpSize: 1232, cookie: '0123456789abcdef' }, ad: true } : {},
      );
    const r = (m: DnsMessage, patch: Partial<DnsMessage>): DnsMessage => ({
      ...m,
      qr: true,
      aa: true,
      ad: false,
      ...patch,
    });
    const udp = (src: string, dst: string, m: DnsMessage, size: number): HostPacket => {
      const [sa, sp] = src.split(':') as [string, string];
      const [da, dp] = dst.split(':') as [string, string];
      return {
        src: sa,
        dst: da,
        proto: 'udp',
        sport: Number(sp),
        dport: Number(dp),
        length: 28 + size,
        mark: 0,
        payload: size,
        data: { kind: 'dns', message: m },
      };
    };
    const web = q(57788, 'web.default.svc.cluster.local', 'A', true);
    const headless = q(5928, 'headless.default.svc.cluster.local', 'A', true);
    const nope = q(42687, 'nope.default.svc.cluster.local', 'A', true);
    const ext = q(13229, 'ext.default.svc.cluster.local', 'A', true);
    const aaaa = q(55861, 'web.default.svc.cluster.local', 'AAAA', false);
    const soa = {
      name: 'cluster.local.',
      ttl: 30,
      data: {
        type: 'SOA',
        mname: 'ns.dns.cluster.local.',
        rname: 'hostmaster.cluster.local.',
        serial: 1733149320,
        refresh: 7200,
        retry: 1800,
        expire: 86400,
        minimum: 30,
      },
    } as const;
    const toClosed = udp(
      '10.99.0.1:51619',
      '10.99.0.2:55',
      q(1, 'web.default.svc.cluster.local', 'A', true),
      70,
    );
    const icmp: HostPacket = {
      src: '10.99.0.2',
      dst: '10.99.0.1',
      proto: 'icmp',
      icmp: { type: 3, code: 3 },
      length: 126,
      mark: 0,
      inner: { src: '10.99.0.1', dst: '10.99.0.2', proto: 'udp', sport: 51619, dport: 55 },
    };
    const tcpQuery = q(19806, 'web.default.svc.cluster.local', 'A', true);
    check([
      [
        '16:02:23.913911 IP 10.99.0.1.59351 > 10.99.0.2.53: 57788+ [1au] A? web.default.svc.cluster.local. (70)',
        udp('10.99.0.1:59351', '10.99.0.2:53', web, 70),
      ],
      [
        '16:02:23.914232 IP 10.99.0.2.53 > 10.99.0.1.59351: 57788*- 1/0/1 A 10.96.100.200 (115)',
        udp(
          '10.99.0.2:53',
          '10.99.0.1:59351',
          r(web, {
            answer: [
              {
                name: 'web.default.svc.cluster.local.',
                ttl: 30,
                data: { type: 'A', address: '10.96.100.200' },
              },
            ],
          }),
          115,
        ),
      ],
      [
        '16:02:23.948707 IP 10.99.0.2.53 > 10.99.0.1.54071: 5928*- 2/0/1 A 10.244.0.7, A 10.244.1.3 (175)',
        udp(
          '10.99.0.2:53',
          '10.99.0.1:54071',
          r(headless, {
            answer: ['10.244.0.7', '10.244.1.3'].map((address) => ({
              name: 'headless.default.svc.cluster.local.',
              ttl: 30,
              data: { type: 'A' as const, address },
            })),
          }),
          175,
        ),
      ],
      [
        '16:02:23.975802 IP 10.99.0.2.53 > 10.99.0.1.55766: 42687 NXDomain*- 0/1/1 (164)',
        udp(
          '10.99.0.2:53',
          '10.99.0.1:55766',
          r(nope, { rcode: 'NXDOMAIN', authority: [soa] }),
          164,
        ),
      ],
      [
        '16:02:24.012479 IP 10.99.0.2.53 > 10.99.0.1.36767: 13229*- 1/0/1 CNAME my.database.example.com. (136)',
        udp(
          '10.99.0.2:53',
          '10.99.0.1:36767',
          r(ext, {
            answer: [
              {
                name: 'ext.default.svc.cluster.local.',
                ttl: 30,
                data: { type: 'CNAME', target: 'my.database.example.com.' },
              },
            ],
          }),
          136,
        ),
      ],
      [
        '16:02:24.187038 IP 10.99.0.1.33118 > 10.99.0.2.53: 55861+ AAAA? web.default.svc.cluster.local. (47)',
        udp('10.99.0.1:33118', '10.99.0.2:53', aaaa, 47),
      ],
      [
        '16:02:24.187080 IP 10.99.0.2.53 > 10.99.0.1.33118: 55861*- 0/1/0 (140)',
        udp('10.99.0.2:53', '10.99.0.1:33118', r(aaaa, { authority: [soa] }), 140),
      ],
      [
        '16:02:24.221946 IP 10.99.0.2.53 > 10.99.0.1.39031: 44735 NXDomain 0/0/0 (22)',
        udp(
          '10.99.0.2:53',
          '10.99.0.1:39031',
          r(q(44735, 'nope', 'A', false), { aa: false, ra: true, rcode: 'NXDOMAIN' }),
          22,
        ),
      ],
      [
        '15:47:12.874656 IP 10.99.0.2.53 > 10.99.0.1.35014: 7802 ServFail- 0/0/1 (52)',
        udp(
          '10.99.0.2:53',
          '10.99.0.1:35014',
          r(q(7802, 'example.com', 'A', true), { aa: false, rcode: 'SERVFAIL' }),
          52,
        ),
      ],
      ['16:02:24.156997 IP 10.99.0.1.51619 > 10.99.0.2.55: UDP, length 70', toClosed],
      [
        '16:02:24.157056 IP 10.99.0.2 > 10.99.0.1: ICMP 10.99.0.2 udp port 55 unreachable, length 106',
        icmp,
      ],
      [
        '15:47:12.914359 IP 10.99.0.1.39757 > 10.99.0.2.53: Flags [S], seq 1278619391, win 64660, options [mss 1220,sackOK,TS val 2852274101 ecr 0,nop,wscale 7], length 0',
        tcp(
          '10.99.0.1:39757',
          '10.99.0.2:53',
          'S',
          1278619391,
          undefined,
          64660,
          syn(2852274101, 0, 7, 1220),
        ),
      ],
      [
        '15:47:12.914390 IP 10.99.0.2.53 > 10.99.0.1.39757: Flags [S.], seq 2598292939, ack 1278619392, win 65160, options [mss 1460,sackOK,TS val 3321673772 ecr 2852274101,nop,wscale 7], length 0',
        tcp(
          '10.99.0.2:53',
          '10.99.0.1:39757',
          'S.',
          2598292939,
          1278619392,
          65160,
          syn(3321673772, 2852274101),
        ),
      ],
      [
        '15:47:12.914505 IP 10.99.0.1.39757 > 10.99.0.2.53: Flags [P.], seq 1:73, ack 1, win 506, options [nop,nop,TS val 2852274101 ecr 3321673772], length 72 19806+ [1au] A? web.default.svc.cluster.local. (70)',
        tcp(
          '10.99.0.1:39757',
          '10.99.0.2:53',
          'P.',
          1278619392,
          2598292940,
          506,
          ts(2852274101, 3321673772),
          { kind: 'dns', message: tcpQuery },
        ),
      ],
    ]);
  });

  it('ICMP echo request and reply (a raw-socket ping, id 4660 seq 1, 56 data bytes)', () => {
    const req: HostPacket = {
      src: '10.99.0.1',
      dst: '10.99.0.2',
      proto: 'icmp',
      icmp: { type: 8, code: 0, id: 4660 },
      seq: 1,
      length: 84,
      mark: 0,
    };
    check([
      [
        '16:07:20.200199 IP 10.99.0.1 > 10.99.0.2: ICMP echo request, id 4660, seq 1, length 64',
        req,
      ],
      [
        '16:07:20.200228 IP 10.99.0.2 > 10.99.0.1: ICMP echo reply, id 4660, seq 1, length 64',
        { ...req, src: req.dst, dst: req.src, icmp: { type: 0, code: 0, id: 4660 } },
      ],
    ]);
  });

  it('an SRV answer as ns_rprint() prints it: target:port priority weight', () => {
    // print-domain.c (tcpdump 4.99), case T_SRV: fqdn_print(target), then
    // ":%u %u %u" of port, priority, weight — not dig's `priority weight port target` order.
    const q = dnsQuery(7, '_https._tcp.kubernetes.default.svc.cluster.local', 'SRV');
    const target = 'kubernetes.default.svc.cluster.local.';
    const reply: DnsMessage = {
      ...q,
      qr: true,
      aa: true,
      answer: [
        {
          name: q.question[0]!.name,
          ttl: 30,
          data: { type: 'SRV', priority: 0, weight: 100, port: 443, target },
        },
      ],
    };
    // 170 bytes: header 12, question 54, the SRV 104 (uncompressed, as CoreDNS sends it).
    expect(dnsSummary(reply)).toBe(`7*- 1/0/0 SRV ${target}:443 0 100 (170)`);
  });
});

import { describe, expect, it } from 'vitest';
import { curlRequest } from '../apps/http';
import type { HostPacket, Payload } from '../types';
import { createTcpdumpState, tcpdumpLine } from './tcpdump';
import { DAY, format, syn, tcp, ts } from './tcpdump-fixtures';

/**
 * Golden lines: tcpdump 4.99.3 (`tcpdump -i eth0 -n`, Debian bookworm) on one end of a veth pair
 * between two network namespaces (Linux 6.x, tcp_rmem 4096 131072 6291456), while curl, dig,
 * nslookup and a raw-socket sender ran. Each packet below is rebuilt from its line's absolute
 * values; the formatter must print the same line.
 */

function check(rows: readonly (readonly [string, HostPacket])[]) {
  for (const [golden, line] of format(rows)) expect(line).toBe(golden);
}

describe('tcpdump lines, as tcpdump 4.99.3 printed them', () => {
  it('a curl HTTP exchange: absolute SYN and SYN-ACK, relative numbers after, HTTP on 8080', () => {
    const C = '10.99.0.1:53480';
    const S = '10.99.0.2:8080';
    const c0 = 3747959398;
    const s0 = 1443180854;
    const req: Payload = { kind: 'text', text: curlRequest('10.99.0.2', 8080, '/') };
    const res: Payload = {
      kind: 'text',
      text: 'HTTP/1.1 200 OK\r\nDate: Mon, 02 Dec 2024 14:22:00 GMT\r\nContent-Length: 31\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nweb-x: you are 10.99.0.1:47164\n',
    };
    check([
      [
        '15:35:48.990616 IP 10.99.0.1.53480 > 10.99.0.2.8080: Flags [S], seq 3747959398, win 64240, options [mss 1460,sackOK,TS val 2690072492 ecr 0,nop,wscale 7], length 0',
        tcp(C, S, 'S', c0, undefined, 64240, syn(2690072492, 0)),
      ],
      [
        '15:35:48.990644 IP 10.99.0.2.8080 > 10.99.0.1.53480: Flags [S.], seq 1443180854, ack 3747959399, win 65160, options [mss 1460,sackOK,TS val 1642461416 ecr 2690072492,nop,wscale 7], length 0',
        tcp(S, C, 'S.', s0, c0 + 1, 65160, syn(1642461416, 2690072492)),
      ],
      [
        '15:35:48.990662 IP 10.99.0.1.53480 > 10.99.0.2.8080: Flags [.], ack 1, win 502, options [nop,nop,TS val 2690072492 ecr 1642461416], length 0',
        tcp(C, S, '.', c0 + 1, s0 + 1, 502, ts(2690072492, 1642461416)),
      ],
      [
        '15:35:48.990736 IP 10.99.0.1.53480 > 10.99.0.2.8080: Flags [P.], seq 1:79, ack 1, win 502, options [nop,nop,TS val 2690072492 ecr 1642461416], length 78: HTTP: GET / HTTP/1.1',
        tcp(C, S, 'P.', c0 + 1, s0 + 1, 502, ts(2690072492, 1642461416), req),
      ],
      [
        '15:35:48.990744 IP 10.99.0.2.8080 > 10.99.0.1.53480: Flags [.], ack 79, win 509, options [nop,nop,TS val 1642461416 ecr 2690072492], length 0',
        tcp(S, C, '.', s0 + 1, c0 + 79, 509, ts(1642461416, 2690072492)),
      ],
      [
        '15:35:48.993095 IP 10.99.0.2.8080 > 10.99.0.1.53480: Flags [P.], seq 1:149, ack 79, win 509, options [nop,nop,TS val 1642461419 ecr 2690072492], length 148: HTTP: HTTP/1.1 200 OK',
        tcp(S, C, 'P.', s0 + 1, c0 + 79, 509, ts(1642461419, 2690072492), res),
      ],
      [
        '15:35:48.993117 IP 10.99.0.1.53480 > 10.99.0.2.8080: Flags [.], ack 149, win 501, options [nop,nop,TS val 2690072495 ecr 1642461419], length 0',
        tcp(C, S, '.', c0 + 79, s0 + 149, 501, ts(2690072495, 1642461419)),
      ],
      [
        '15:35:48.993228 IP 10.99.0.1.53480 > 10.99.0.2.8080: Flags [F.], seq 79, ack 149, win 501, options [nop,nop,TS val 2690072495 ecr 1642461419], length 0',
        tcp(C, S, 'F.', c0 + 79, s0 + 149, 501, ts(2690072495, 1642461419)),
      ],
      [
        '15:35:48.993251 IP 10.99.0.2.8080 > 10.99.0.1.53480: Flags [F.], seq 149, ack 80, win 509, options [nop,nop,TS val 1642461419 ecr 2690072495], length 0',
        tcp(S, C, 'F.', s0 + 149, c0 + 80, 509, ts(1642461419, 2690072495)),
      ],
      [
        '15:35:48.993255 IP 10.99.0.1.53480 > 10.99.0.2.8080: Flags [.], ack 150, win 501, options [nop,nop,TS val 2690072495 ecr 1642461419], length 0',
        tcp(C, S, '.', c0 + 80, s0 + 150, 501, ts(2690072495, 1642461419)),
      ],
    ]);
  });

  it('connection refused, and the reset of an unexpected SYN-ACK (tcp_v4_send_reset)', () => {
    const refusedRst = {
      ...tcp('10.99.0.2:81', '10.99.0.1:56874', 'R.', 0, 855228619, 0),
      length: 40,
    };
    const strayRst = {
      ...tcp('10.99.0.1:40000', '10.99.0.2:8080', 'R', 12345, undefined, 0),
      length: 40,
    };
    check([
      [
        '15:35:29.724926 IP 10.99.0.1.56874 > 10.99.0.2.81: Flags [S], seq 855228618, win 64240, options [mss 1460,sackOK,TS val 1949180716 ecr 0,nop,wscale 10], length 0',
        tcp(
          '10.99.0.1:56874',
          '10.99.0.2:81',
          'S',
          855228618,
          undefined,
          64240,
          syn(1949180716, 0, 10),
        ),
      ],
      [
        '15:35:29.724973 IP 10.99.0.2.81 > 10.99.0.1.56874: Flags [R.], seq 0, ack 855228619, win 0, length 0',
        refusedRst,
      ],
      [
        '15:49:31.316233 IP 10.99.0.2.8080 > 10.99.0.1.40000: Flags [S.], seq 1000000, ack 12345, win 64240, length 0',
        tcp('10.99.0.2:8080', '10.99.0.1:40000', 'S.', 1000000, 12345, 64240),
      ],
      [
        '15:49:31.316378 IP 10.99.0.1.40000 > 10.99.0.2.8080: Flags [R], seq 12345, win 0, length 0',
        strayRst,
      ],
    ]);
  });

  it('-i any: interface and direction before IP', () => {
    const p = tcp('10.99.0.1:40000', '10.99.0.2:8080', 'R', 12345, undefined, 0);
    expect(
      tcpdumpLine(
        createTcpdumpState(),
        { ...p, length: 40 },
        { epochSeconds: DAY, labMs: 0 },
        { any: { iface: 'cni0', direction: 'In' } },
      ),
    ).toBe(
      // print-sll.c pads the interface name to 5 (seen on the kernel: experiment 09's `-i any`).
      '00:00:00.000000 cni0  In  IP 10.99.0.1.40000 > 10.99.0.2.8080: Flags [R], seq 12345, win 0, length 0',
    );
  });

  it('-e: the link-level header, on an Ethernet device and with -i any, with and without -n', () => {
    // tcpdump 4.99.3 (bookworm) on a veth with the MACs below, during `ping -c1 10.9.0.2`
    // and `ping -c1 10.9.0.1` (over lo): `-e -n -i kpl-va`, `-e -i kpl-va`, `-e -n -i any`,
    // `-e -i any` and `-e -n -i lo`, all with the filter `icmp` but the last.
    const A = '52:54:00:d8:11:7a';
    const B = '0a:58:0a:f4:00:04';
    const ZERO = '00:00:00:00:00:00';
    const echo = (src: string, dst: string, type: 8 | 0, id = 11542): HostPacket => ({
      src,
      dst,
      proto: 'icmp',
      length: 84,
      mark: 0,
      icmp: { type, code: 0, id },
      seq: 1,
    });
    const request = echo('10.9.0.1', '10.9.0.2', 8);
    const line = (p: HostPacket, opts: Parameters<typeof tcpdumpLine>[3]) =>
      tcpdumpLine(createTcpdumpState(), p, { epochSeconds: DAY, labMs: 0 }, opts).slice(16);
    const link = (src: string, dst: string, ifindex: number) => ({ link: { src, dst, ifindex } });
    expect(line(request, { ...link(A, B, 2) })).toBe(
      `${A} > ${B}, ethertype IPv4 (0x0800), length 98: 10.9.0.1 > 10.9.0.2: ICMP echo request, id 11542, seq 1, length 64`,
    );
    expect(line(echo('10.9.0.2', '10.9.0.1', 0), { names: true, ...link(B, A, 2) })).toBe(
      `${B} (oui Unknown) > ${A} (oui Unknown), ethertype IPv4 (0x0800), length 98: 10.9.0.2 > 10.9.0.1: ICMP echo reply, id 11542, seq 1, length 64`,
    );
    expect(line(request, { any: { iface: 'kpl-va', direction: 'Out' }, ...link(A, B, 2) })).toBe(
      `kpl-va Out ifindex 2 ${A} ethertype IPv4 (0x0800), length 104: 10.9.0.1 > 10.9.0.2: ICMP echo request, id 11542, seq 1, length 64`,
    );
    const self = echo('10.9.0.1', '10.9.0.1', 8, 11543);
    const lo = { any: { iface: 'lo', direction: 'In' as const }, ...link(ZERO, ZERO, 1) };
    expect(line(self, { names: true, ...lo })).toBe(
      `lo    In  ifindex 1 ${ZERO} (oui Ethernet) ethertype IPv4 (0x0800), length 104: 10.9.0.1 > 10.9.0.1: ICMP echo request, id 11543, seq 1, length 64`,
    );
    expect(line(self, link(ZERO, ZERO, 1))).toBe(
      `${ZERO} > ${ZERO}, ethertype IPv4 (0x0800), length 98: 10.9.0.1 > 10.9.0.1: ICMP echo request, id 11543, seq 1, length 64`,
    );
  });
});

/**
 * The masks of the experiments' differential tests hide only what differs by nature (chosen
 * ports, timers, timestamps, which endpoint a random draw picked) and keep everything else, so
 * that a comparison can still fail on what matters.
 */
import { describe, expect, it } from 'vitest';
import { normaliseCapture } from './captures';
import {
  normalise,
  normaliseConntrackEvent,
  normaliseConntrackLine,
  type NormaliseContext,
} from './normalise';

const ctx: NormaliseContext = {
  knownPorts: new Set([80, 8080, 53, 30081]),
  randomEndpoints: new Map([
    ['10.96.1.1:80', { service: 'default/web', addresses: ['10.244.0.4', '10.244.1.2'] }],
  ]),
};

describe("the experiments' normalisation", () => {
  it('masks a conntrack entry’s timer and chosen ports, keeps state, addresses and flags', () => {
    const line =
      'tcp      6 117 SYN_SENT src=10.244.0.4 dst=10.96.1.11 sport=53986 dport=80 [UNREPLIED] src=10.244.0.4 dst=10.244.0.1 sport=8080 dport=1022 mark=0 use=1';
    expect(normaliseConntrackLine(line, ctx)).toBe(
      'tcp      6 <timer> SYN_SENT src=10.244.0.4 dst=10.96.1.11 sport=<port> dport=80 [UNREPLIED] src=10.244.0.4 dst=10.244.0.1 sport=8080 dport=<port> mark=0 use=1',
    );
  });

  it('keeps the order and armed timeouts of conntrack events; masks what a destroy left and who deleted', () => {
    const ev = (l: string) => normaliseConntrackEvent(l, ctx);
    expect(
      ev(
        '    [NEW] udp      17 30 src=10.244.0.4 dst=10.96.0.10 sport=50367 dport=53 [UNREPLIED] src=10.244.0.2 dst=10.244.0.4 sport=53 dport=50367',
      ),
    ).toBe(
      '    [NEW] udp      17 30 src=10.244.0.4 dst=10.96.0.10 sport=<port> dport=53 [UNREPLIED] src=10.244.0.2 dst=10.244.0.4 sport=53 dport=<port>',
    );
    const destroy = (tail: string) =>
      ev(
        `[DESTROY] udp      17 118 src=10.244.0.4 dst=10.96.0.10 sport=50367 dport=53 src=10.244.0.2 dst=10.244.0.4 sport=53 dport=50367 [ASSURED]${tail}`,
      );
    expect(destroy(' [USERSPACE] portid=1')).toBe(
      destroy(' [USERSPACE] portid=4242 progname=conntrack'),
    );
    expect(destroy(' [USERSPACE] portid=1')).toContain('17 <timer> src=');
    // A destroy by the kernel (a timeout) is not one by a process.
    expect(destroy('')).not.toBe(destroy(' [USERSPACE] portid=1'));
    // A jiffy between arming and the event: the kernel says 119 for the 120 it armed.
    expect(ev('  [UPDATE] udp      17 119 src=10.244.0.4')).toBe(
      ev('  [UPDATE] udp      17 120 src=10.244.0.4'),
    );
    expect(ev('  [UPDATE] udp      17 118 src=10.244.0.4')).toContain(' 118 ');
    expect(ev(' [UPDATE] udp      17 120 src=10.244.0.4')).not.toBe(
      ev(' [UPDATE] udp      17 30 src=10.244.0.4'),
    );
  });

  it('masks the endpoint of a Service with several endpoints, only when it is one of them', () => {
    const drawn = (ep: string): string =>
      normaliseConntrackLine(
        `tcp      6 119 TIME_WAIT src=10.244.0.5 dst=10.96.1.1 sport=40000 dport=80 src=${ep} dst=10.244.0.5 sport=8080 dport=40000 [ASSURED] mark=0 use=1`,
        ctx,
      );
    expect(drawn('10.244.0.4')).toBe(drawn('10.244.1.2'));
    expect(drawn('10.244.0.4')).toContain('src=<endpoint of default/web> dst=10.244.0.5');
    expect(drawn('10.244.9.9')).toContain('src=10.244.9.9 dst=10.244.0.5');
  });

  it('keeps which pod answered and the source it saw; masks the port and curl’s milliseconds', () => {
    const out = (stdout: string, stderr = '', exitCode = 0) =>
      normalise('curl -sS http://10.96.1.1/', { stdout, stderr, exitCode }, ctx);
    expect(out('web-1 (10.244.0.4:8080): you are 10.244.0.5:41234\n')).toEqual(
      out('web-1 (10.244.0.4:8080): you are 10.244.0.5:55555\n'),
    );
    expect(out('web-1 (10.244.0.4:8080): you are 10.244.0.5:41234\n')).not.toEqual(
      out('web-1 (10.244.0.4:8080): you are 10.244.0.1:41234\n'),
    );
    const timeout = (ms: number) =>
      out('', `curl: (28) Connection timed out after ${ms} milliseconds\n`, 28);
    expect(timeout(2000)).toEqual(timeout(2001));
  });

  it('masks capture times, ISNs, TCP timestamps and chosen ports; drops ARP and IGMP', () => {
    const capture = (t: string, isn: number, port: number, arp: string) => ({
      stdout:
        `${t} IP 10.244.0.5.${port} > 10.244.1.2.8080: Flags [S], seq ${isn}, win 64240, options [mss 1460,sackOK,TS val ${isn} ecr 0,nop,wscale 7], length 0\n` +
        arp,
      stderr: 'listening on eth0, link-type EN10MB (Ethernet), snapshot length 262144 bytes\n',
      exitCode: 0,
    });
    const a = normaliseCapture(capture('08:00:00.000000', 3394835397, 50366, ''), ctx);
    const b = normaliseCapture(
      capture(
        '17:42:19.453929',
        4276361004,
        55332,
        '17:42:19.5 ARP, Request who-has 10.244.0.4 tell 10.244.0.5, length 28\n',
      ),
      ctx,
    );
    expect(a).toEqual(b);
    // A line a CI run caught on cni0 (an unsolicited IGMPv3 report after the bridge came up).
    const igmp = '00:17:40.118301 IP 10.244.0.1 > 224.0.0.22: igmp v3 report, 1 group record(s)\n';
    expect(normaliseCapture(capture('08:00:00.000000', 3394835397, 50366, igmp), ctx)).toEqual(a);
    expect(a.stdout).toContain('Flags [S], seq <isn>, win 64240');
    expect(normaliseCapture(capture('08:00:00.000000', 1, 50366, ''), ctx).stdout).toContain(
      'seq 1,',
    );
  });

  it("masks a mid-connection capture's absolute sequence numbers, keeping the segment length", () => {
    const write = (seq: number, length: number) => ({
      stdout: `08:00:00.000000 IP 10.244.0.5.50366 > 10.96.1.1.80: Flags [P.], seq ${seq}:${(seq + length) % 2 ** 32}, ack 3394835617, win 501, options [nop,nop,TS val 1 ecr 2], length ${length}: HTTP: GET / HTTP/1.1\n`,
      stderr: '',
      exitCode: 0,
    });
    const a = normaliseCapture(write(2356333283, 73), ctx);
    expect(a.stdout).toContain('seq <isn>:<isn>+73, ack <isn>, win 501');
    expect(a).toEqual(normaliseCapture(write(3394835544, 73), ctx));
    // Across the wrap of the sequence space, and not equal for another length.
    expect(normaliseCapture(write(2 ** 32 - 10, 73), ctx)).toEqual(a);
    expect(normaliseCapture(write(2356333283, 74), ctx).stdout).not.toEqual(a.stdout);
  });
});

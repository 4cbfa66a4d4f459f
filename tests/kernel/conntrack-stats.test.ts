/**
 * Differential test: `conntrack -S` and `-C` of the engine against conntrack-tools 1.4.7 and
 * the kernel. A throwaway namespace (veth c0 with 10.0.0.1 and 10.0.0.3, its peer up and
 * unaddressed, so packets to 10.0.0.2 pass OUTPUT and POSTROUTING and are confirmed) gets one
 * SNAT rule; python3 sends an invalid SYN|RST, a lone RST, an ICMP port unreachable about no
 * flow, and three UDP flows, the last SNAT'd onto the first one's source. The engine walks the
 * same packets. Compared: each counter summed over the kernel's CPUs against the lab's (the
 * lab counts on cpu=0, stats.ts), the line format with the numbers masked, and `-C`.
 * On 6.18 the kernel printed found=1 invalid=2 error=1 and insert=0 for this traffic.
 */
import { describe, expect, it } from 'vitest';
import {
  conntrackCommand,
  createConntrackTable,
  type CtPacket,
  type CtTable,
} from '../../src/engine/conntrack';
import { fixedRng, walk } from '../../src/engine/conntrack/testing';
import { netnsUnavailableReason, withNetns, type NsRun } from './netns';

const reason = netnsUnavailableReason();

const FLOWS = `
import socket, struct
def csum(b):
    if len(b) % 2: b += b'\\0'
    c = sum(struct.unpack('!%dH' % (len(b) // 2), b)); c = (c >> 16) + (c & 0xffff); c += c >> 16
    return ~c & 0xffff
def ip4(a): return socket.inet_aton(a)
def seg(sport, flags):
    h = struct.pack('!HHIIBBHHH', sport, 8080, 1, 0, 5 << 4, flags, 1024, 0, 0)
    c = csum(ip4('10.0.0.1') + ip4('10.0.0.2') + struct.pack('!BBH', 0, 6, len(h)) + h)
    return h[:16] + struct.pack('!H', c) + h[18:]
t = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_TCP); t.bind(('10.0.0.1', 0))
t.sendto(seg(41000, 0x02 | 0x04), ('10.0.0.2', 0))
t.sendto(seg(41001, 0x04), ('10.0.0.2', 0))
inner = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 28, 0, 0, 64, 17, 0, ip4('10.0.0.2'), ip4('10.0.0.1'))
icmp = struct.pack('!BBHI', 3, 3, 0, 0) + inner + struct.pack('!HHHH', 7000, 41002, 8, 0)
icmp = icmp[:2] + struct.pack('!H', csum(icmp)) + icmp[4:]
i = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP); i.bind(('10.0.0.1', 0))
i.sendto(icmp, ('10.0.0.2', 0))
for src, sport in (('10.0.0.1', 40000), ('10.0.0.1', 40001), ('10.0.0.3', 40000)):
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind((src, sport))
    u.sendto(b'x', ('10.0.0.2', 7000))
`;

/** The packets FLOWS sends, as the namespace's OUTPUT and POSTROUTING hooks see them. */
function engineTable(): CtTable {
  const t = createConntrackTable();
  const rng = fixedRng([]);
  const rules = {
    POSTROUTING: (p: CtPacket) => (p.src === '10.0.0.3' ? { addr: '10.0.0.1' } : undefined),
  };
  const send = (p: CtPacket): void => void walk(t, 'local-out', p, 0, rng, rules);
  const base = { src: '10.0.0.1', dst: '10.0.0.2' } as const;
  send({ ...base, proto: 'tcp', sport: 41000, dport: 8080, tcpFlags: { syn: true, rst: true } });
  send({ ...base, proto: 'tcp', sport: 41001, dport: 8080, tcpFlags: { rst: true } });
  send({
    ...base,
    proto: 'icmp',
    icmpType: 3,
    icmpCode: 3,
    icmpInner: { src: '10.0.0.2', dst: '10.0.0.1', proto: 'udp', sport: 7000, dport: 41002 },
  });
  for (const [src, sport] of [
    ['10.0.0.1', 40000],
    ['10.0.0.1', 40001],
    ['10.0.0.3', 40000],
  ] as const)
    // prettier-ignore
    send({ src, dst: '10.0.0.2', proto: 'udp', sport, dport: 7000 });
  return t;
}

function must(run: NsRun, argv: readonly string[], input?: string): string {
  const r = run(argv, input);
  if (r.exitCode !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Each `name=value` field (after the `cpu=N` prefix) summed over the CPU lines. */
function totals(text: string): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const [, name = '', value] of text.matchAll(/(?<=[\t ])(\w+)=(\d+)(?= )/g))
    sum[name] = (sum[name] ?? 0) + Number(value);
  return sum;
}

const masked = (line: string): string => line.replace(/=\d+/g, '=N');

interface KernelViews {
  readonly idle: string;
  readonly stats: string;
  readonly expect: string;
  readonly count: string;
}

function kernelViews(): KernelViews {
  return withNetns((run) => {
    must(run, ['ip', 'link', 'set', 'lo', 'up']);
    must(run, ['ip', 'link', 'add', 'c0', 'type', 'veth', 'peer', 'name', 's0']);
    for (const a of ['10.0.0.1/24', '10.0.0.3/24']) must(run, ['ip', 'addr', 'add', a, 'dev', 'c0']); // prettier-ignore
    for (const dev of ['c0', 's0']) must(run, ['ip', 'link', 'set', dev, 'up']);
    const idle = must(run, ['conntrack', '-S']);
    must(run, ['iptables', '-t', 'nat', '-A', 'POSTROUTING', '-s', '10.0.0.3/32', '-j', 'SNAT', '--to-source', '10.0.0.1']); // prettier-ignore
    must(run, ['python3', '-c', FLOWS]);
    return {
      idle,
      stats: must(run, ['conntrack', '-S']),
      expect: must(run, ['conntrack', '-S', 'expect']),
      count: must(run, ['conntrack', '-C']),
    };
  });
}

describe.skipIf(reason !== undefined)('conntrack -S against the kernel', () => {
  const kernel = reason === undefined ? kernelViews() : undefined;
  const lab = engineTable();
  const mine = (argv: string[]): string => conntrackCommand(lab, argv, 0).stdout;

  it('every counter, summed over the CPUs, is what the lab counted', () => {
    const real = totals(kernel?.stats ?? '');
    expect(Object.keys(real)).toHaveLength(10);
    expect(real['invalid']).toBeGreaterThan(0); // the traffic ran (not two tables of zeros)
    expect(totals(mine(['-S']))).toEqual(real);
  });

  it('the lines read the same, numbers aside (one per CPU: the lab has 2)', () => {
    const real = (kernel?.stats ?? '').split('\n').filter(Boolean).map(masked);
    const ours = mine(['-S']).split('\n').filter(Boolean).map(masked);
    expect(ours).toHaveLength(2);
    expect(ours.slice(0, real.length)).toEqual(real.slice(0, 2));
    expect(mine(['-S', 'expect']).split('\n')[0]).toBe(kernel?.expect.split('\n')[0]);
  });

  it('a fresh table prints what a fresh namespace prints', () => {
    const fresh = conntrackCommand(createConntrackTable(), ['-S'], 0).stdout;
    expect(fresh.split('\n')[0]).toBe(kernel?.idle.split('\n')[0]);
  });

  it('conntrack -C counts the confirmed entries', () => {
    expect(mine(['-C'])).toBe(kernel?.count);
  });
});

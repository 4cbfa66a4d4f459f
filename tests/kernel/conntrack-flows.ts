/**
 * The flows of the conntrack differential test, twice: as python3 programs run in network
 * namespaces (a server in `…-s`, the client with its conntrack table in `…-c`), and as the
 * packet sequence the client namespace's conntrack sees, replayed into the engine at the
 * times the client recorded.
 */
import { createConntrackTable, type CtPacket, type CtTable } from '../../src/engine/conntrack';
import { rngFromSeed } from '../../src/engine/model/runtime';
import { walk, type NatRules } from '../../src/engine/conntrack/testing';

/** iptables rules of the client namespace (nat table), and the engine's equivalent. */
export const NAT_RULES: readonly (readonly string[])[] = [
  [
    '-A',
    'OUTPUT',
    '-d',
    '10.96.0.10/32',
    '-p',
    'udp',
    '--dport',
    '53',
    '-j',
    'DNAT',
    '--to-destination',
    '10.0.0.2:5353',
  ],
  [
    '-A',
    'OUTPUT',
    '-d',
    '10.96.0.20/32',
    '-p',
    'tcp',
    '--dport',
    '80',
    '-j',
    'DNAT',
    '--to-destination',
    '10.0.0.2:8080',
  ],
  ['-A', 'POSTROUTING', '-s', '10.0.0.3/32', '-p', 'udp', '-j', 'MASQUERADE', '--random-fully'],
  ['-A', 'POSTROUTING', '-s', '10.0.0.3/32', '-j', 'SNAT', '--to-source', '10.0.0.1'],
];
const ENGINE_RULES: NatRules = {
  OUTPUT: (p) =>
    p.dst === '10.96.0.10' && p.proto === 'udp' && p.dport === 53
      ? { addr: '10.0.0.2', port: 5353 }
      : p.dst === '10.96.0.20' && p.proto === 'tcp' && p.dport === 80
        ? { addr: '10.0.0.2', port: 8080 }
        : undefined,
  POSTROUTING: (p) =>
    p.src !== '10.0.0.3'
      ? undefined
      : p.proto === 'udp'
        ? { addr: '10.0.0.1', randomFully: true }
        : { addr: '10.0.0.1' },
};

export const SERVER = `
import socket, select, time
socks = {}
for port, echo in ((7000, True), (5353, True), (7001, False)):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('0.0.0.0', port)); socks[s] = echo
l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(('0.0.0.0', 8080)); l.listen(32)
conns = []
print('ready', flush=True)
end = time.time() + 40
while time.time() < end:
    r, _, _ = select.select(list(socks) + [l] + conns, [], [], 0.2)
    for s in r:
        if s is l: conns.append(l.accept()[0])
        elif s in socks:
            d, a = s.recvfrom(2048)
            if socks[s]: s.sendto(b'pong:' + d, a)
        else:
            d = s.recv(2048)
            if d: s.sendall(b'echo:' + d)
            else: s.close(); conns.remove(s)
`;

/** Runs the flows, records when each started, then snapshots the views (JSON on stdout). */
export const CLIENT = `
import json, socket, struct, subprocess, sys, time
t0 = time.monotonic(); at = {}
def mark(name): at[name] = round((time.monotonic() - t0) * 1000)
def udp(dst, port, src='10.0.0.1', sport=0, wait=True):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind((src, sport)); s.settimeout(2)
    s.sendto(b'ping', (dst, port))
    if wait: s.recvfrom(100)
    return s
def tcp(dst, port, src, sport, close=False):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((src, sport)); s.settimeout(2); s.connect((dst, port)); s.sendall(b'hi'); s.recv(100)
    if close: s.close()
    return s
keep = []
mark('udp'); keep.append(udp('10.0.0.2', 7000, sport=40001))
mark('unreplied'); keep.append(udp('10.0.0.2', 7001, sport=40002, wait=False))
mark('dns'); keep.append(udp('10.96.0.10', 53, sport=40003))
mark('open'); keep.append(tcp('10.0.0.2', 8080, '10.0.0.1', 40010))
mark('close'); tcp('10.0.0.2', 8080, '10.0.0.1', 40011, close=True)
mark('refused')
try: socket.create_connection(('10.0.0.2', 9999), source_address=('10.0.0.1', 40012), timeout=2)
except OSError: pass
mark('snat'); keep.append(tcp('10.0.0.2', 8080, '10.0.0.3', 40013))
mark('masq'); keep.append(udp('10.0.0.2', 7000, src='10.0.0.3', sport=40031))
mark('dnat'); keep.append(tcp('10.96.0.20', 80, '10.0.0.1', 40014))
mark('icmp')
r = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP); r.settimeout(2)
body = struct.pack('!BBHHH', 8, 0, 0, 4242, 1) + b'abcdefgh'
c = sum(struct.unpack('!8H', body)); c = (c >> 16) + (c & 0xffff); c = ~(c + (c >> 16)) & 0xffff
r.sendto(struct.pack('!BBHHH', 8, 0, c, 4242, 1) + b'abcdefgh', ('10.0.0.2', 0)); r.recvfrom(100)
mark('direct'); keep.append(tcp('10.0.0.2', 8080, '10.0.0.1', 40020))
mark('clash'); keep.append(tcp('10.96.0.20', 80, '10.0.0.1', 40020))
mark('stream'); s = udp('10.0.0.2', 7000, sport=40004); time.sleep(2.5)
mark('stream2'); s.sendto(b'again', ('10.0.0.2', 7000)); s.recvfrom(100); time.sleep(0.2)
out = {'at': at, 'views': {}}
for args in json.loads(sys.argv[1]):
    mark('list')
    p = subprocess.run(args, capture_output=True, text=True, timeout=10)
    out['views'][' '.join(args)] = {'stdout': p.stdout, 'stderr': p.stderr, 'exitCode': p.returncode, 'at': at['list']}
print(json.dumps(out))
`;

const C = '10.0.0.1';
const S = '10.0.0.2';

function tcpPacket(
  src: string,
  dst: string,
  sport: number,
  dport: number,
  f: string,
  data = 0,
): CtPacket {
  return {
    src,
    dst,
    sport,
    dport,
    proto: 'tcp',
    tcpFlags: {
      syn: f.includes('S'),
      ack: f.includes('A'),
      fin: f.includes('F'),
      rst: f.includes('R'),
    },
    ...(data > 0 ? { payloadBytes: data } : {}),
  };
}

/** Feeds the engine what the client namespace's conntrack saw, at the recorded times. */
export function replay(at: Readonly<Record<string, number>>): CtTable {
  const t = createConntrackTable();
  const rng = rngFromSeed(42);
  const out = (p: CtPacket, ms: number): CtPacket =>
    walk(t, 'local-out', p, ms, rng, ENGINE_RULES).packet;
  const back = (p: CtPacket, ms: number): void =>
    void walk(t, 'local-in', p, ms, rng, ENGINE_RULES);
  const udp = (src: string, dst: string, sport: number, dport: number): CtPacket => ({
    src,
    dst,
    sport,
    dport,
    proto: 'udp',
  });
  const time = (k: string): number => at[k] ?? 0;
  /** Handshake, 'hi' and its echo; with `close`, the client closes first. */
  const session = (
    name: string,
    src: string,
    dst: string,
    sport: number,
    dport: number,
    close = false,
  ): void => {
    const ms = time(name);
    const sent = out(tcpPacket(src, dst, sport, dport, 'S'), ms);
    const r = (f: string, data = 0): CtPacket =>
      tcpPacket(sent.dst, sent.src, sent.dport ?? 0, sent.sport ?? 0, f, data);
    back(r('SA'), ms);
    out(tcpPacket(src, dst, sport, dport, 'A'), ms);
    out(tcpPacket(src, dst, sport, dport, 'A', 2), ms);
    back(r('A', 7), ms);
    out(tcpPacket(src, dst, sport, dport, 'A'), ms);
    if (!close) return;
    out(tcpPacket(src, dst, sport, dport, 'FA'), ms);
    back(r('FA'), ms);
    out(tcpPacket(src, dst, sport, dport, 'A'), ms);
  };
  const rr = (name: string, src: string, dst: string, sport: number, dport: number): void => {
    const sent = out(udp(src, dst, sport, dport), time(name));
    back(udp(sent.dst, sent.src, sent.dport ?? 0, sent.sport ?? 0), time(name));
  };
  rr('udp', C, S, 40001, 7000);
  out(udp(C, S, 40002, 7001), time('unreplied'));
  rr('dns', C, '10.96.0.10', 40003, 53);
  session('open', C, S, 40010, 8080);
  session('close', C, S, 40011, 8080, true);
  out(tcpPacket(C, S, 40012, 9999, 'S'), time('refused'));
  back(tcpPacket(S, C, 9999, 40012, 'RA'), time('refused'));
  session('snat', '10.0.0.3', S, 40013, 8080);
  rr('masq', '10.0.0.3', S, 40031, 7000);
  session('dnat', C, '10.96.0.20', 40014, 80);
  const echo: CtPacket = {
    src: C,
    dst: S,
    proto: 'icmp',
    icmpType: 8,
    icmpCode: 0,
    icmpId: 4242,
    payloadBytes: 8,
  };
  out(echo, time('icmp'));
  back({ ...echo, src: S, dst: C, icmpType: 0 }, time('icmp'));
  session('direct', C, S, 40020, 8080);
  session('clash', C, '10.96.0.20', 40020, 80);
  rr('stream', C, S, 40004, 7000);
  rr('stream2', C, S, 40004, 7000);
  return t;
}

/**
 * Differential test of the packet walk's rule evaluation: the same ruleset in the engine and in
 * a real kernel (two throwaway namespaces joined by a veth pair), the same UDP and ICMP packets
 * sent from one to the other, then `iptables -L -v -x` counters compared per rule and chain.
 * raw/mangle/filter only: there every packet is counted (nat counts connections: conntrack's
 * job). The namespaces are always deleted.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createNetfilter,
  createWalkStore,
  iptablesList,
  iptablesRestore,
  TABLES_AT_HOOK,
  traverseTable,
  type Packet,
  type TableName,
  type WalkContext,
} from '../../src/engine/netfilter';
import { rngFromSeed } from '../../src/engine/model/runtime';
import { netnsUnavailableReason, type RunResult } from './netns';

const RULES = `*raw
:PREROUTING ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:RAWCHK - [0:0]
-A PREROUTING -i kplws -j RAWCHK
-A PREROUTING -p udp -m udp --dport 5000:5010 -m comment --comment "udp range"
-A PREROUTING -i lo -j ACCEPT
-A RAWCHK -p icmp -j RETURN
-A RAWCHK -m statistic --mode nth --every 3 --packet 1
-A RAWCHK -m statistic --mode nth --every 2 --packet 0 -j RETURN
-A RAWCHK ! -s 10.77.0.0/24 -j DROP
COMMIT
*mangle
:PREROUTING ACCEPT [0:0]
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:POSTROUTING ACCEPT [0:0]
:MARKS - [0:0]
:MARK2 - [0:0]
-A PREROUTING -j MARKS
-A PREROUTING -m mark --mark 0x4000/0x4000 -j ACCEPT
-A PREROUTING -p udp -m multiport --dports 5001,5003:5004
-A MARKS -p udp -m udp --dport 5001 -j MARK --set-xmark 0x4000/0x4000
-A MARKS -p udp -m udp --sport 6001 -j MARK --set-mark 0x1
-A MARKS -m mark --mark 0x1 -j RETURN
-A MARKS -s 10.77.0.0/24 -m addrtype --dst-type LOCAL -g MARK2
-A MARKS -j MARK --set-mark 0x8
-A MARK2 ! -p icmp -j MARK --or-mark 0x2
-A INPUT -m mark --mark 0x2/0x2
-A INPUT -m addrtype --src-type LOCAL
COMMIT
*filter
:INPUT DROP [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:SVC - [0:0]
-A INPUT -m conntrack --ctstate INVALID -j DROP
-A INPUT -p icmp -j ACCEPT
-A INPUT -m conntrack --ctstate NEW -m nfacct --nfacct-name kplwalk -j SVC
-A INPUT -p udp -m udp --dport 5002 -j REJECT
-A INPUT -m recent --name seen --rcheck --seconds 3600 -j ACCEPT
-A INPUT -m recent --name seen --set
-A INPUT -p udp -m udp --sport 6003 -j ACCEPT
-A SVC -p udp -m multiport --sports 6000:6001 -j RETURN
-A SVC -p udp -m udp --dport 5004 -j ACCEPT
-A SVC -m mark --mark 0x4000/0x4000 -j DROP
COMMIT
`;

/** [sport, dport, payload bytes] of each UDP datagram, or 'ping': an ICMP echo request (84 bytes). */
const TRAFFIC: readonly (readonly [number, number, number] | 'ping')[] = [
  [6000, 5000, 10],
  [6001, 5001, 20],
  [6002, 5002, 30],
  [6003, 5003, 40],
  'ping',
  [6004, 5004, 50],
  [6005, 5001, 60],
  [6000, 5005, 0],
  [6002, 5000, 100],
  [6001, 5004, 5],
  [6006, 5006, 7],
];

const COMPARED: readonly (readonly [TableName, string])[] = [
  ['raw', 'PREROUTING'],
  ['raw', 'RAWCHK'],
  ['mangle', 'PREROUTING'],
  ['mangle', 'MARKS'],
  ['mangle', 'MARK2'],
  ['mangle', 'INPUT'],
  ['filter', 'INPUT'],
  ['filter', 'SVC'],
];

function sh(argv: readonly string[], input = ''): RunResult {
  const [cmd = '', ...args] = argv;
  const r = spawnSync(cmd, args, { input, encoding: 'utf8', timeout: 30_000 });
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', exitCode: r.status ?? -1 };
}

function must(argv: readonly string[], input = ''): string {
  const r = sh(argv, input);
  if (r.exitCode !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const SENDER = `
import socket, struct, sys, time
def checksum(b):
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    return ~(s + (s >> 16)) & 0xffff
for spec in sys.argv[1:]:
    if spec == 'ping':
        body = bytes(56)
        hdr = struct.pack('!BBHHH', 8, 0, 0, 0x4b50, 1)
        msg = struct.pack('!BBHHH', 8, 0, checksum(hdr + body), 0x4b50, 1) + body
        s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
        s.sendto(msg, ('10.77.0.2', 0))
    else:
        sport, dport, n = (int(x) for x in spec.split(':'))
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(('10.77.0.1', sport))
        s.sendto(b'x' * n, ('10.77.0.2', dport))
    s.close()
    time.sleep(0.05)
`;

/** Runs the traffic in the kernel; returns `iptables -L -v -x` per compared chain, and nfacct. */
function kernelRun(): { lists: string[]; nfacct: string } {
  const tag = randomBytes(4).toString('hex');
  const client = `kpl-walk-${tag}-c`;
  const server = `kpl-walk-${tag}-s`;
  const inC = (...a: string[]) => must(['ip', 'netns', 'exec', client, ...a]);
  const inS = (...a: string[]) => must(['ip', 'netns', 'exec', server, ...a]);
  must(['ip', 'netns', 'add', client]);
  try {
    must(['ip', 'netns', 'add', server]);
    // Both ends are created inside the namespaces: nothing touches the root namespace.
    inC('ip', 'link', 'add', 'kplwc', 'type', 'veth', 'peer', 'name', 'kplws', 'netns', server);
    inC('ip', 'addr', 'add', '10.77.0.1/24', 'dev', 'kplwc');
    inS('ip', 'addr', 'add', '10.77.0.2/24', 'dev', 'kplws');
    for (const [run, dev] of [
      [inC, 'kplwc'],
      [inS, 'kplws'],
    ] as const) {
      run('ip', 'link', 'set', 'lo', 'up');
      run('ip', 'link', 'set', dev, 'up');
    }
    inS('nfacct', 'add', 'kplwalk');
    must(['ip', 'netns', 'exec', server, 'iptables-restore'], RULES);
    // Resolve ARP first (not IPv4: no counter sees it).
    inC('ip', 'neigh', 'replace', '10.77.0.2', 'lladdr', linkAddr(inS, 'kplws'), 'dev', 'kplwc');
    inC('python3', '-c', SENDER, ...TRAFFIC.map((t) => (t === 'ping' ? t : t.join(':'))));
    const lists = COMPARED.map(([table, chain]) =>
      inS('iptables', '-t', table, '-L', chain, '-v', '-x', '-n', '--line-numbers'),
    );
    return { lists, nfacct: inS('nfacct', 'get', 'kplwalk') };
  } finally {
    sh(['ip', 'netns', 'del', server]);
    sh(['ip', 'netns', 'del', client]);
  }
}

function linkAddr(run: (...a: string[]) => string, dev: string): string {
  const m = /link\/ether ([0-9a-f:]+)/.exec(run('ip', 'link', 'show', dev));
  if (m?.[1] === undefined) throw new Error(`no MAC for ${dev}`);
  return m[1];
}

/** The same traffic through the engine: PREROUTING then INPUT, table by table in hook order. */
function engineRun(): { lists: string[]; nfacct: { packets: number; bytes: number } | undefined } {
  const state = createNetfilter();
  const r = iptablesRestore(state, RULES);
  expect(r.stderr).toBe('');
  const ctx: WalkContext = {
    // Every datagram is a new 5-tuple and nothing answers it; the one echo request is NEW too.
    conntrack: { state: 'NEW' },
    isLocalAddress: (ip) => ip === '10.77.0.2' || ip.startsWith('127.'),
    rng: rngFromSeed(1),
    now: 0,
    store: createWalkStore(),
  };
  for (const t of TRAFFIC) {
    let pkt: Packet =
      t === 'ping'
        ? { src: '10.77.0.1', dst: '10.77.0.2', protocol: 'icmp', icmpType: 8, length: 84, mark: 0 }
        : {
            src: '10.77.0.1',
            dst: '10.77.0.2',
            protocol: 'udp',
            sport: t[0],
            dport: t[1],
            length: 28 + t[2],
            mark: 0,
          };
    pkt = { ...pkt, inIface: 'kplws' };
    walk: for (const hook of ['PREROUTING', 'INPUT'] as const) {
      for (const table of TABLES_AT_HOOK[hook]) {
        const res = traverseTable(state, table, hook, pkt, ctx, { steps: 'none' });
        pkt = res.packet;
        if (res.verdict !== 'ACCEPT') break walk;
      }
    }
  }
  const lists = COMPARED.map(
    ([table, chain]) =>
      iptablesList(state, {
        table,
        chain,
        verbose: true,
        exact: true,
        numeric: true,
        lineNumbers: true,
      }).stdout,
  );
  return { lists, nfacct: ctx.store.nfacct['kplwalk'] };
}

const reason =
  netnsUnavailableReason() ??
  (sh(['sh', '-c', 'command -v python3']).exitCode !== 0 ? 'python3 is missing' : undefined);
if (reason !== undefined) console.log(`skipping walk counter differential test: ${reason}`);

describe.skipIf(reason !== undefined)('walk counters against the real kernel', () => {
  it('raw/mangle/filter rule and policy counters match packet for packet', () => {
    const kernel = kernelRun();
    const engine = engineRun();
    COMPARED.forEach(([table, chain], i) => {
      expect
        .soft(engine.lists[i]?.split('\n'), `${table} ${chain}`)
        .toEqual(kernel.lists[i]?.split('\n'));
    });
    const m = /pkts = (\d+), bytes = (\d+)/.exec(kernel.nfacct);
    expect(engine.nfacct).toEqual({ packets: Number(m?.[1]), bytes: Number(m?.[2]) });
  });
});

/**
 * Differential test of the nftables packet walk: kube-proxy's nftables ruleset (the engine's
 * proxier output) loaded with the real `nft -f` into a "node" namespace joined to a "client"
 * namespace by a veth pair; UDP datagrams sent from the client to ClusterIPs, a NodePort, a
 * port a ClusterIP lacks, an unallocated ClusterIP; then what the kernel did (ICMP port
 * unreachable back to the client, a conntrack entry with its DNAT target and masquerade, or
 * nothing: dropped) is compared with the engine's evaluation of the same base chains, hook by
 * hook. The affinity set the packets filled is compared too. Every Service has one endpoint, so
 * `numgen` has one choice. The namespaces are always deleted.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createNftablesProxier } from '../../src/engine/kube-proxy/nftables/proxier';
import {
  cluster as makeCluster,
  endpoint,
  kubeProxyConfig,
  port,
  service,
  slice,
  slicePort,
} from '../../src/engine/kube-proxy/testing/fixtures';
import { rngFromSeed } from '../../src/engine/model/runtime';
import {
  baseChainsAt,
  createNftState,
  evalBaseChain,
  nftApply,
  nftCommand,
  type NftHook,
  type NftPacket,
  type NftState,
} from '../../src/engine/nftables';
import { nftUnavailableReason } from './nft-differential';
import type { RunResult } from './netns';

const NODE_IP = '10.77.0.2';
const CLIENT_IP = '10.77.0.1';

const CLUSTER = makeCluster(
  [
    service('default', 'dns', '10.96.0.30', {
      ports: [port('dns', 53, { protocol: 'UDP', targetPort: 5353 })],
    }),
    service('default', 'empty', '10.96.0.25', { ports: [port('dns', 53, { protocol: 'UDP' })] }),
    service('default', 'np', '10.96.0.31', {
      type: 'NodePort',
      ports: [port('dns', 53, { protocol: 'UDP', targetPort: 5353, nodePort: 30053 })],
    }),
    service('default', 'sticky', '10.96.0.40', {
      sessionAffinity: 'ClientIP',
      ports: [port('dns', 53, { protocol: 'UDP', targetPort: 5353 })],
    }),
  ],
  [
    slice('default', 'dns', [endpoint('10.244.1.5')], [slicePort('dns', 5353, 'UDP')]),
    slice('default', 'np', [endpoint('10.244.1.6')], [slicePort('dns', 5353, 'UDP')]),
    slice('default', 'sticky', [endpoint('10.244.1.7')], [slicePort('dns', 5353, 'UDP')]),
  ],
  kubeProxyConfig({ mode: 'nftables', clusterCIDR: '10.244.0.0/16' }),
);

/** [destination, port] of each datagram (source port 40000 + index). */
const TRAFFIC: readonly (readonly [string, number])[] = [
  ['10.96.0.30', 53],
  ['10.96.0.25', 53],
  [NODE_IP, 30053],
  ['10.96.0.30', 54],
  ['10.96.0.99', 53],
  ['10.96.0.40', 53],
];

type Fate = string; // 'reject' | 'drop' | 'dnat IP:PORT' (+ ' masquerade')

export function transaction(): string {
  const p = createNftablesProxier({
    nodeName: 'node-1',
    nodeIPs: [NODE_IP],
    podCIDR: '10.244.0.0/24',
    config: CLUSTER.kubeProxy,
    serviceCIDRs: '10.96.0.0/12',
  });
  return p.sync({ ...CLUSTER, lab: { ...CLUSTER.lab, serviceCIDR: '10.96.0.0/12' } }, { now: 0 })
    .transaction;
}

/** The engine: the node's base chains, hook by hook, for one new datagram. */
function engineFate(state: NftState, dst: string, dport: number, sport: number): Fate {
  const table = state.tables.get('ip kube-proxy')!;
  const ctx = {
    isLocalAddress: (ip: string) => ip === NODE_IP || ip.startsWith('127.'),
    rng: rngFromSeed(1),
    nowMs: 0,
  };
  let pkt: NftPacket = {
    src: CLIENT_IP,
    dst,
    proto: 'udp',
    dport,
    mark: 0,
    iif: 'kplnn',
    ctstate: 'new',
  };
  void sport;
  let dnat = '';
  const run = (hook: NftHook, type: 'filter' | 'nat'): string | undefined => {
    for (const chain of baseChainsAt(table, hook, type)) {
      const r = evalBaseChain(table, chain, pkt, ctx);
      pkt = { ...pkt, mark: r.mark };
      if (r.verdict !== 'accept') return r.verdict;
      if (r.nat?.kind === 'dnat') {
        dnat = `${r.nat.addr}:${r.nat.port ?? dport}`;
        pkt = {
          ...pkt,
          dst: r.nat.addr,
          ...(r.nat.port !== undefined ? { dport: r.nat.port } : {}),
        };
        return undefined;
      }
      if (r.nat?.kind === 'masquerade') return 'masquerade';
    }
    return undefined;
  };
  const pre = run('prerouting', 'filter') ?? run('prerouting', 'nat');
  if (pre !== undefined) return pre;
  if (ctx.isLocalAddress(pkt.dst)) return run('input', 'filter') ?? 'local';
  const fwd = run('forward', 'filter');
  if (fwd !== undefined) return fwd;
  const post = run('postrouting', 'nat');
  return `dnat ${dnat}${post === 'masquerade' ? ' masquerade' : ''}`;
}

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

// Sends one datagram per spec from a connected socket and reports whether an ICMP error came back.
const SENDER = `
import socket, sys
for spec in sys.argv[1:]:
    dst, dport, sport = spec.split(':')
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(('${CLIENT_IP}', int(sport)))
    s.connect((dst, int(dport)))
    s.send(b'x')
    s.settimeout(0.3)
    try:
        s.recv(100)
        print(spec, 'answer')
    except ConnectionRefusedError:
        print(spec, 'refused')
    except socket.timeout:
        print(spec, 'timeout')
    s.close()
`;

function kernelRun(tx: string): { fates: Fate[]; affinity: string } {
  const tag = randomBytes(4).toString('hex');
  const client = `kpl-nftw-${tag}-c`;
  const node = `kpl-nftw-${tag}-n`;
  const inC = (...a: string[]) => must(['ip', 'netns', 'exec', client, ...a]);
  const inN = (...a: string[]) => must(['ip', 'netns', 'exec', node, ...a]);
  must(['ip', 'netns', 'add', client]);
  try {
    must(['ip', 'netns', 'add', node]);
    inC('ip', 'link', 'add', 'kplnc', 'type', 'veth', 'peer', 'name', 'kplnn', 'netns', node);
    inC('ip', 'addr', 'add', `${CLIENT_IP}/24`, 'dev', 'kplnc');
    inN('ip', 'addr', 'add', `${NODE_IP}/24`, 'dev', 'kplnn');
    inC('ip', 'link', 'set', 'lo', 'up');
    inC('ip', 'link', 'set', 'kplnc', 'up');
    inN('ip', 'link', 'set', 'lo', 'up');
    inN('ip', 'link', 'set', 'kplnn', 'up');
    inC('ip', 'route', 'add', '10.96.0.0/12', 'via', NODE_IP);
    inN('ip', 'route', 'add', '10.244.0.0/16', 'via', CLIENT_IP);
    // A node routes what is not local to its gateway, here out of a second interface:
    // ClusterIP packets that are not DNATed are forwarded, so filter-forward sees them.
    inN('ip', 'link', 'add', 'kplnd', 'type', 'veth', 'peer', 'name', 'kplne');
    inN('ip', 'addr', 'add', '10.78.0.1/24', 'dev', 'kplnd');
    inN('ip', 'link', 'set', 'kplnd', 'up');
    inN('ip', 'link', 'set', 'kplne', 'up');
    inN('ip', 'route', 'add', 'default', 'via', '10.78.0.2');
    inN('sysctl', '-qw', 'net.ipv4.ip_forward=1');
    // DNATed packets leave the node the way they came (to the client, the lab's stand-in for
    // pods): the ICMP redirect that would cause also arms the per-host ICMP rate limit
    // (ip_rt_send_redirect sets peer->rate_last), which would swallow REJECT's answers.
    inN('sysctl', '-qw', 'net.ipv4.conf.all.send_redirects=0');
    inN('sysctl', '-qw', 'net.ipv4.conf.kplnn.send_redirects=0');
    must(['ip', 'netns', 'exec', node, 'nft', '-f', '-'], tx);
    const specs = TRAFFIC.map(([dst, dport], i) => `${dst}:${dport}:${40000 + i}`);
    const sent = inC('python3', '-c', SENDER, ...specs)
      .trim()
      .split('\n');
    const ct = sh(['ip', 'netns', 'exec', node, 'conntrack', '-L', '-p', 'udp']).stdout;
    const fates = specs.map((spec, i) => {
      if (sent[i]?.endsWith('refused')) return 'reject';
      const sport = 40000 + i;
      const line = ct.split('\n').find((l) => l.includes(`sport=${sport} `));
      if (line === undefined) return 'drop';
      const m =
        /src=(\S+) dst=(\S+) sport=(\d+) dport=\d+.*src=(\S+) dst=(\S+) sport=(\d+) dport=(\d+)/.exec(
          line,
        );
      if (m === null) return `unparsed ${line}`;
      const [, , , , rsrc, rdst, rsport] = m;
      return `dnat ${rsrc}:${rsport}${rdst === NODE_IP ? ' masquerade' : ''}`;
    });
    const set = /affinity-\S+/.exec(tx)?.[0] ?? '';
    const affinity = inN('nft', 'list', 'set', 'ip', 'kube-proxy', set);
    return { fates, affinity };
  } finally {
    sh(['ip', 'netns', 'del', node]);
    sh(['ip', 'netns', 'del', client]);
  }
}

const base = nftUnavailableReason();
const reason =
  base ??
  (sh(['sh', '-c', 'command -v python3 && command -v conntrack']).exitCode !== 0
    ? 'python3 or conntrack is missing'
    : undefined);
if (reason !== undefined) console.log(`skipping nft walk differential test: ${reason}`);

describe.skipIf(reason !== undefined)('nftables packet walk against the real kernel', () => {
  it('reject, drop, DNAT and masquerade decisions and the affinity set match', () => {
    const tx = transaction();
    const kernel = kernelRun(tx);
    const state = createNftState();
    expect(nftApply(state, tx, { nowMs: 0 }).stderr).toBe('');
    const engine = TRAFFIC.map(([dst, dport], i) => engineFate(state, dst, dport, 40000 + i));
    expect(engine).toEqual(kernel.fates);
    // The client (10.77.0.1) is outside the cluster CIDR: ClusterIP traffic is masqueraded too.
    expect(kernel.fates).toEqual([
      'dnat 10.244.1.5:5353 masquerade',
      'reject',
      'dnat 10.244.1.6:5353 masquerade',
      'reject',
      'drop',
      'dnat 10.244.1.7:5353 masquerade',
    ]);
    // The `update @affinity-…` rule put the client in the set (the kernel lists it with its expiry).
    expect(kernel.affinity).toMatch(/elements = \{ 10\.77\.0\.1 expires 2h59m5\d+s\d*m?s? \}/);
    const set = /affinity-\S+/.exec(tx)?.[0] ?? '';
    expect(nftCommand(state, ['list', 'set', 'ip', 'kube-proxy', set], 0).stdout).toContain(
      'elements = { 10.77.0.1 expires 3h }',
    );
  });
});

/**
 * `ss` compared with the real ss (iproute2 6.1) on the same sockets. The lab's cluster makes
 * its sockets (a long-lived flow and a finished curl from the client pod, a UDP flow to
 * kube-dns, the listeners of a web pod, CoreDNS and a node); for each host, a throwaway
 * namespace gets the same sockets on the same addresses and ports, made by Node's sockets
 * (ss-replica.mjs: a Go-style dual-stack listener is Node's `::` listener with ipv6Only off),
 * with their peers in a second namespace behind a veth. Then both print the same flags into a
 * pipe and on terminals 60, 80 and 100 columns wide (script(1) with stty cols). The kernel lists
 * connections in the order of its hash table, which a random secret decides, so the records
 * are compared as sorted lines; the header, the widths and every cell must be the same.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hostView, runScript, World } from '../../src/engine';
import type { HostRef } from '../../src/engine/commands/registry';
import type { Socket } from '../../src/engine/hosts';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { netnsUnavailableReason } from './netns';

const ssVersion = spawnSync('ss', ['-V'], { encoding: 'utf8' }).stdout?.trim();
const skip =
  netnsUnavailableReason() ??
  (ssVersion === 'ss utility, iproute2-6.1.0'
    ? undefined
    : `ss is "${ssVersion}", not iproute2 6.1 (Debian package iproute2)`);
if (skip !== undefined) console.log(`skipping the ss comparison: ${skip}`);

const REPLICA = fileURLToPath(new URL('./ss-replica.mjs', import.meta.url));
const FLAGS = [
  '-tan', '-tn', '-tln', '-uan', '-tuan', '-ltun', '-ta', '-tua', '-tanH', '-4tan', '-6tan', '-tl', '-u',
  '-tan state established', '-tn state time-wait', '-t state all', '-tan exclude listening',
  '-ua state unconnected', '-tun state connected', '-tua state bucket', '-t state big',
  '-tan state listening state time-wait', '-ta exclude established exclude listening',
  '-tn dst 10.96.1.1', '-tan dst 10.96.1.1:80', '-tan sport = :8080', '-tan dport != :80',
  '-tan src 10.244.0.0/16', '-tuan dst 10.244.0.5 or dport = :53', '-tuan not dst 10.96.0.10',
  '-tan dport gt :1024', '-tan sport le :8080', '-tan dst :80', '-tan src *:8080',
  '-tun dport = domain', '-4tan dst 10.96.1.1', '-6tan src 10.244.0.4', '-tan dst 10.96.1.1/24',
  '-tan sport eq :8080 and dst 10.244.0.0/16', '-ta dst 10.96.1.1 dport = :http',
  '-tan dport = :80 or sport = :1 and sport = :2', '-4un', '-un', '-4 -6 -tan', '-6 -4 -tan',
]; // prettier-ignore
const WIDE = ['-tan', '-tuan', '-ltun'];

const sh = (argv: readonly string[]) => {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 20_000 });
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', status: r.status ?? -1 };
};

type Item = Record<string, unknown>;

/** The replica plans: B's listeners, the host's sockets, then B's connections. */
function plans(sockets: readonly Socket[]) {
  const bListen: Item[] = [];
  const host: Item[] = [];
  const bConnect: Item[] = [];
  const peers = new Set<string>();
  const listenB = (addr: string, port: number) => {
    peers.add(addr);
    if (!bListen.some((i) => i.host === addr && i.port === port))
      bListen.push({ kind: 'listen', host: addr, port, backlog: 16 });
  };
  for (const s of sockets) {
    const go = s.owner.kind === 'app';
    const dual = s.owner.kind === 'app' && s.owner.ipv4Only !== true;
    const local = [s.local.addr, s.local.port];
    if (s.proto === 'udp') {
      if (s.closed) continue;
      if (s.remote !== undefined) peers.add(s.remote.addr);
      host.push({ kind: 'udp', dual, port: s.local.port, ...(s.remote ? { remote: [s.remote.addr, s.remote.port] } : {}) }); // prettier-ignore
      continue;
    }
    if (s.state === 'LISTEN') {
      host.push({ kind: 'listen', dual, port: s.local.port, backlog: go ? 4096 : 1, ...(go && !dual ? { host: s.local.addr } : {}) }); // prettier-ignore
      continue;
    }
    const remote = [s.remote!.addr, s.remote!.port];
    if (s.state === 'ESTABLISHED' && !s.active) {
      peers.add(s.remote!.addr);
      bConnect.push({ kind: 'connect', local: remote, remote: local });
    } else if ((s.state === 'ESTABLISHED' || s.state === 'TIME_WAIT') && s.active) {
      listenB(s.remote!.addr, s.remote!.port);
      host.push({ kind: s.state === 'TIME_WAIT' ? 'timewait' : 'connect', local, remote });
    } else throw new Error(`no replica for a ${s.state} socket`);
  }
  return { bListen, host, bConnect, peers };
}

/** Starts a replica in `ns` and waits for its "ready". */
function replica(ns: string, plan: readonly Item[]): Promise<ChildProcess> {
  const child = spawn('ip', ['netns', 'exec', ns, process.execPath, REPLICA, JSON.stringify(plan)]);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`replica not ready: ${err}`)), 10_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`replica exited ${code}: ${err}`)));
  });
}

/** The real ss's output per case, for a host's sockets. */
async function realSs(address: string, sockets: readonly Socket[], cases: readonly string[][]) {
  const id = randomBytes(3).toString('hex');
  const [a, b] = [`kpl-ss-a-${id}`, `kpl-ss-b-${id}`];
  const children: ChildProcess[] = [];
  try {
    for (const cmd of [
      `ip netns add ${a}`,
      `ip netns add ${b}`,
      `ip link add a0 netns ${a} type veth peer name b0 netns ${b}`,
      `ip -n ${a} link set lo up`,
      `ip -n ${b} link set lo up`,
      `ip -n ${a} link set a0 up`,
      `ip -n ${b} link set b0 up`,
      `ip -n ${a} addr add ${address}/32 dev a0`,
      `ip -n ${a} route add default dev a0`,
      `ip -n ${b} route add ${address}/32 dev b0`,
    ]) {
      const r = sh(cmd.split(' '));
      if (r.status !== 0) throw new Error(`${cmd}: ${r.stderr}`);
    }
    const p = plans(sockets);
    for (const peer of p.peers) sh(['ip', '-n', b, 'addr', 'add', `${peer}/32`, 'dev', 'b0']);
    children.push(await replica(b, p.bListen));
    children.push(await replica(a, p.host));
    children.push(await replica(b, p.bConnect));
    return cases.map(
      ([flags, width]) =>
      width === undefined
        ? sh(['ip', 'netns', 'exec', a, 'ss', ...flags!.split(' ')])
        : sh(['ip', 'netns', 'exec', a, 'script', '-qc', `stty cols ${width}; ss ${flags}`, '/dev/null']), // prettier-ignore
    );
  } finally {
    for (const c of children) c.kill();
    sh(['ip', 'netns', 'del', a]);
    sh(['ip', 'netns', 'del', b]);
  }
}

/** Header first, then the records sorted (the kernel's order is its hash table's). */
const canonical = (text: string, header: boolean) => {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  return header ? [lines[0], ...lines.slice(1).sort()] : lines.sort();
};

function labCluster() {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  runScript(
    world,
    [
      'pod/client$ lab flow open f1 tcp 10.96.1.1:80',
      'pod/client$ lab flow open u1 udp 10.96.0.10:53',
      'pod/client$ curl -s 10.96.1.1',
    ].join('\n'),
    { readFile: () => undefined, onOutput: () => undefined },
  );
  return world;
}

function labSs(world: World, ref: HostRef, flags: string, width: number | undefined): string {
  world.terminalColumns = width;
  let out = '';
  const target = ref.kind === 'pod' ? `pod/${ref.namespace}/${ref.name}` : ref.name;
  runScript(world, `${target}$ ss ${flags}${width === undefined ? ' | cat' : ''}`, {
    readFile: () => undefined,
    onOutput: (_l, r) => (out = r.stdout),
  });
  return out;
}

describe.skipIf(skip !== undefined)('ss, as the real ss on the same sockets', () => {
  it('prints the same tables for a client, a web pod, CoreDNS and a node', async () => {
    const world = labCluster();
    const pods = world.cluster.pods;
    const web = pods.filter((p) => p.meta.name.startsWith('web-'));
    const dns = pods.find((p) => p.meta.name.startsWith('coredns-'))!;
    const refs: HostRef[] = [
      { kind: 'pod', namespace: 'default', name: 'client' },
      ...web.map((p): HostRef => ({ kind: 'pod', namespace: 'default', name: p.meta.name })),
      { kind: 'pod', namespace: 'kube-system', name: dns.meta.name },
      { kind: 'node', name: 'node-1' },
    ];
    const cases = [...FLAGS.map((f) => [f]), ...WIDE.flatMap((f) => ['60', '80', '100'].map((w) => [f, w]))]; // prettier-ignore
    let compared = 0;
    for (const ref of refs) {
      const view = hostView(world, ref, () => undefined);
      const sockets = view.sockets?.()?.sockets ?? [];
      const address =
        ref.kind === 'pod'
          ? pods.find((p) => p.meta.name === ref.name)!.podIP
          : world.cluster.nodes.find((n) => n.meta.name === ref.name)!.internalIP;
      const real = await realSs(address, sockets, cases);
      for (const [i, [flags, width]] of cases.entries()) {
        const mine = labSs(world, ref, flags!, width === undefined ? undefined : Number(width));
        expect(
          canonical(mine, !flags!.includes('H')),
          `${JSON.stringify(ref)} ss ${flags} ${width ?? 'pipe'}`,
        ).toEqual(canonical(real[i]!.stdout, !flags!.includes('H')));
        compared += mine.split('\n').length;
        // On a terminal the table really was spread over the screen's width.
        if (width === '100') expect(mine.split('\n')[0]).toHaveLength(100);
      }
    }
    // The comparison saw the sockets it was built for: a flow, a TIME-WAIT, an accepted one.
    const client = labSs(world, refs[0]!, '-tan', undefined);
    expect(client).toMatch(/ESTAB .* 10\.96\.1\.1:80/);
    expect(client).toMatch(/TIME-WAIT .* 10\.96\.1\.1:80/);
    expect(web.some((p) => labSs(world, { kind: 'pod', namespace: 'default', name: p.meta.name }, '-tn', undefined).includes('[::ffff:10.244.0.5]'))).toBe(true); // prettier-ignore
    expect(compared).toBeGreaterThan(100);
  }, 120_000);

  it('says what the real ss says to a wrong option, -V and -h', () => {
    const world = labCluster();
    for (const args of [
      ['-q'],
      ['--bogus'],
      ['-V'],
      ['-h'],
      ['-tQ'],
      ['-t', 'state'],
      ['-t', 'state', 'foo'],
      ['-t', 'state', 'established', 'exclude'],
      ['-tn', 'dst'],
      ['-tn', 'dst', '999.1.1.1'],
      ['-tn', 'dport', '=', ':nosuch'],
      ['-tn', 'dst', '10.96.1.1', 'and'],
      ['-tn', 'sport', '<'],
    ]) {
      // prettier-ignore
      const real = sh(['ss', ...args]);
      let mine = { stdout: '', stderr: '', exitCode: -1 };
      const line = args.map((x) => (/^[\w:.=-]+$/.test(x) ? x : `'${x}'`)).join(' ');
      runScript(world, `pod/client$ ss ${line}`, {
        readFile: () => undefined,
        onOutput: (_l, r) => (mine = r),
      });
      expect({ ...mine }, args.join(' ')).toEqual({
        stdout: real.stdout,
        stderr: real.stderr,
        exitCode: real.status,
      });
    }
  });
});

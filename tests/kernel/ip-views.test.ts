/**
 * Differential test: the engine's `ip` views against the real iproute2 on the real kernel.
 *
 * For each lab host the test rebuilds the engine's topology (same interface names, creation order
 * → ifindexes, MACs, addresses, routes) inside network namespaces it creates itself
 * (`kpl-ip-<random>-…`), runs `ip …` there and compares stdout, stderr and exit status with the
 * engine, line for line. The root namespace is never touched; every namespace is deleted at the end.
 *
 * How the kernel objects are made to match the model:
 * - a node's / client's `eth0` is a tap device held open by a small python3 process (an attached
 *   tap has carrier, like a VM's NIC, and no `@ifN` suffix), its qdisc forced to pfifo_fast;
 * - IPv6 DAD is disabled in each namespace so link-local addresses are not `tentative`;
 * - the node's namespace is created with a name, used for the node's views, then unnamed (its
 *   holder process keeps it alive), so that inside a pod the peer shows as `link-netnsid 0`, as a
 *   node's unnamed root namespace does.
 *
 * The one normalisation: the node's veths print `link-netns <pod namespace name>`; the real names
 * here are `kpl-ip-…-pN` (unique per run, so parallel runs cannot collide), the engine's are
 * containerd's `cni-<uuid>`. The real name is replaced by the engine's for that pod, nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeFdb } from '../../src/engine/commands/bridge';
import { runIp } from '../../src/engine/routing/ip-command';
import {
  hostNetwork,
  hostVethName,
  podNetnsName,
  podsWithVeth,
  withDummyInterface,
  type HostNetwork,
  type HostRef,
} from '../../src/engine/routing/topology';
import type { Cluster } from '../../src/engine/model/cluster';
import { cluster, meta, node, pod } from '../helpers/cluster-fixtures';
import { must, NetnsSandbox, run } from './ip-sandbox';

const skipReason = NetnsSandbox.skipReason();
if (skipReason !== '') console.warn(`tests/kernel/ip-views: skipped — ${skipReason}`);
const sandbox = new NetnsSandbox();
const netnsRename = new Map<string, string>();

const lab: Cluster = cluster({
  nodes: [
    node('node-1', '192.168.1.10', '10.244.0.0/24'),
    node('node-2', '192.168.1.11', '10.244.1.0/24'),
    node('node-3', '192.168.1.12', '10.244.2.0/24'),
  ],
  pods: [
    pod('web-1', 'node-1', '10.244.0.2'),
    pod('web-2', 'node-1', '10.244.0.3'),
    pod('kube-proxy-x', 'node-1', '192.168.1.10', {
      hostNetwork: true,
      meta: meta('kube-proxy-x', { namespace: 'kube-system' }),
    }),
  ],
  lab: {
    serviceCIDR: '10.96.0.0/12',
    sysctls: {},
    externalClients: [{ name: 'laptop', address: '192.168.1.50' }],
    seed: 1,
    clusterAgeSeconds: 0,
  },
});

/** Builds one NIC host (node or external client) and its pods; returns the namespace name. */
async function realiseNicHost(net: HostNetwork, tag: string): Promise<string> {
  const ns = sandbox.add(tag);
  const ip = (...a: string[]): string => must(['ip', '-n', ns, ...a]);
  const eth0 = net.interfaces.find((i) => i.name === 'eth0');
  if (eth0 === undefined) throw new Error('no eth0');
  // The holder creates eth0 first so it gets ifindex 2, like the model.
  await sandbox.holdTaps(ns, ['eth0']);
  ip('link', 'set', 'eth0', 'address', eth0.mac, 'txqueuelen', '1000');
  must(['ip', 'netns', 'exec', ns, 'tc', 'qdisc', 'replace', 'dev', 'eth0', 'root', 'pfifo_fast']);
  const cni0 = net.interfaces.find((i) => i.name === 'cni0');
  if (cni0 !== undefined) {
    ip('link', 'add', 'cni0', 'type', 'bridge');
    ip('link', 'set', 'cni0', 'address', cni0.mac);
  }
  for (const iface of net.interfaces) {
    for (const a of iface.addresses)
      if (a.family === 'inet' && iface.type !== 'loopback' && iface.type !== 'veth') {
        ip('addr', 'add', `${a.address}/${a.prefix}`, 'brd', '+', 'dev', iface.name);
      }
  }
  ip('link', 'set', 'eth0', 'up');
  // An attached tap starts with carrier but never reports an operstate (UNKNOWN); a carrier flap
  // makes linkwatch set it to UP, as a VM's NIC driver does.
  ip('link', 'set', 'eth0', 'carrier', 'off');
  ip('link', 'set', 'eth0', 'carrier', 'on');
  // systemd 252's loopback setup adds ::1/128 without noprefixroute, which puts ::1 in main.
  ip('addr', 'del', '::1/128', 'dev', 'lo');
  ip('addr', 'add', '::1/128', 'dev', 'lo');
  if (cni0 !== undefined) ip('link', 'set', 'cni0', 'up');
  for (const r of net.routes)
    if (r.via !== undefined) ip('route', 'add', r.dst, 'via', r.via, 'dev', r.dev);
  return ns;
}

async function realiseNode(name: string, tag: string): Promise<string> {
  const net = hostNetwork(lab, { kind: 'node', name });
  if (net === undefined) throw new Error(name);
  const ns = await realiseNicHost(net, tag);
  podsWithVeth(lab, name).forEach((p, i) => {
    const podNs = sandbox.add(`${tag}p${i}`);
    netnsRename.set(podNs, podNetnsName(p));
    const podNet = hostNetwork(lab, {
      kind: 'pod',
      namespace: p.meta.namespace,
      name: p.meta.name,
    });
    const podEth0 = podNet?.interfaces.find((x) => x.name === 'eth0');
    const hostEnd = net.interfaces.find((x) => x.name === hostVethName(p));
    if (podEth0 === undefined || hostEnd === undefined || podNet === undefined)
      throw new Error(p.meta.name);
    // As the CNI plugin does: the pair is created inside the pod's namespace, the host end in the node's.
    must([
      'ip',
      '-n',
      podNs,
      'link',
      'add',
      'eth0',
      'type',
      'veth',
      'peer',
      'name',
      hostEnd.name,
      'netns',
      ns,
    ]);
    must(['ip', '-n', podNs, 'link', 'set', 'eth0', 'address', podEth0.mac]);
    must(['ip', '-n', ns, 'link', 'set', hostEnd.name, 'address', hostEnd.mac]);
    must(['ip', '-n', ns, 'link', 'set', hostEnd.name, 'master', 'cni0', 'up']);
    const inet = podEth0.addresses.find((a) => a.family === 'inet');
    must(['ip', '-n', podNs, 'link', 'set', 'eth0', 'up']);
    if (inet !== undefined)
      must([
        'ip',
        '-n',
        podNs,
        'addr',
        'add',
        `${inet.address}/${inet.prefix}`,
        'brd',
        '+',
        'dev',
        'eth0',
      ]);
    for (const r of podNet.routes)
      if (r.via !== undefined)
        must(['ip', '-n', podNs, 'route', 'add', r.dst, 'via', r.via, 'dev', r.dev]);
  });
  return ns;
}

const VIEWS: string[][] = [
  ['addr'],
  ['a'],
  ['address', 'show'],
  ['-4', 'addr'],
  ['-6', 'addr'],
  ['addr', 'show', 'dev', 'eth0'],
  ['addr', 'show', 'lo'],
  ['-br', 'addr'],
  ['-brief', '-4', 'a'],
  ['link'],
  ['link', 'show', 'eth0'],
  ['-br', 'link'],
  ['l', 's', 'lo'],
  ['route'],
  ['r'],
  ['route', 'show'],
  ['ro', 'show', 'dev', 'eth0'],
  ['-6', 'route'],
  ['route', 'get', '10.96.0.1'],
  ['route', 'get', '10.244.0.3'],
  ['route', 'get', '10.244.1.7'],
  ['route', 'get', '192.168.1.11'],
  ['route', 'get', '127.0.0.1'],
  ['route', 'get', '10.244.0.1'],
  ['route', 'get', '10.244.0.2'],
  ['addr', 'show', 'nosuchdev'],
  ['link', 'show', 'nosuchdev'],
  ['route', 'show', 'dev', 'nosuchdev'],
  ['nosuchobject'],
  ['addr', 'frob'],
  ['route', 'get'],
  ['route', 'get', 'abc'],
  ['route', 'get', '10.96.0.1', 'from', 'abc'],
  ['route', 'get', '10.96.0.1', 'from'],
  ['route', 'get', '10.96.0.1', 'iif', 'nosuchdev'],
  ['route', 'get', '10.96.0.1', 'mark', 'abc'],
  ['rule'],
  ['ru', 'show'],
  ['-x', 'addr'],
  ['addr', 'show', 'dev'],
  ['addr', 'show', 'lo', 'extra'],
  [],
  // Selectors (ipaddress.c ipaddr_list_flush_or_save), -oneline, and the local table.
  ['link', 'show', 'type', 'bridge'],
  ['link', 'show', 'type', 'veth'],
  ['link', 'show', 'type', 'bridge_slave'],
  ['link', 'show', 'type', 'nosuchkind'],
  ['link', 'show', 'type', 'bridge', 'type', 'veth'],
  ['link', 'show', 'master', 'cni0'],
  ['link', 'show', 'master', 'eth0'],
  ['link', 'show', 'master', 'nosuchdev'],
  ['link', 'show', 'master'],
  ['link', 'show', 'type'],
  ['link', 'show', 'nomaster'],
  ['link', 'show', 'up'],
  ['link', 'show', 'eth0', 'type', 'bridge'],
  ['-br', 'link', 'show', 'master', 'cni0'],
  ['addr', 'show', 'type', 'bridge'],
  ['addr', 'show', 'master', 'cni0'],
  ['-4', 'addr', 'show', 'up'],
  ['-o', 'link'],
  ['-oneline', 'link', 'show', 'lo'],
  ['-o', 'addr'],
  ['-4', '-o', 'addr'],
  ['-6', '-o', 'a'],
  ['-o', '-br', 'addr'],
  ['-o', 'route'],
  ['-o', 'route', 'get', '10.244.0.3'],
  ['-o', 'route', 'get', '127.0.0.1'],
  ['-o', 'rule'],
  ['route', 'show', 'table', 'local'],
  ['route', 'show', 'table', '255'],
  ['route', 'show', 'table', 'main'],
  ['route', 'show', 'table', 'all'],
  ['-4', 'route', 'show', 'table', 'all'],
  ['-6', 'route', 'show', 'table', 'local'],
  ['-6', 'route', 'show', 'table', 'all'],
  ['route', 'show', 'table', 'local', 'dev', 'eth0'],
  ['-6', 'route', 'show', 'table', 'local', 'dev', 'eth0'],
  ['route', 'show', 'table', 'default'],
  ['route', 'show', 'table', '100'],
  ['-6', 'route', 'show', 'table', '100'],
  ['route', 'show', 'table', 'nosuchtable'],
  ['route', 'show', 'table'],
  ['r', 's', 't', 'local'],
  ['--', '-4', 'addr'],
  ['--', 'addr', 'show', 'lo'],
  ['--4', 'addr', 'show', 'lo'],
  ['-o-', 'addr'],
  ['rule', 'main'],
];

function compare(
  host: HostRef,
  ipPrefix: string[],
  views: string[][] = VIEWS,
  net = hostNetwork(lab, host),
): string[] {
  if (net === undefined) throw new Error('host');
  const problems: string[] = [];
  for (const view of views) {
    const real = run([...ipPrefix, ...view]);
    let realOut = real.stdout;
    for (const [from, to] of netnsRename)
      realOut = realOut.split(`link-netns ${from}\n`).join(`link-netns ${to}\n`);
    const engine = runIp(net, view);
    const label = `${JSON.stringify(host)} ip ${view.join(' ')}`;
    if (engine.stdout !== realOut)
      problems.push(`${label}: stdout differs\n--- real\n${realOut}--- engine\n${engine.stdout}`);
    if (engine.stderr !== real.stderr)
      problems.push(
        `${label}: stderr differs\n--- real\n${real.stderr}--- engine\n${engine.stderr}`,
      );
    if (engine.exitCode !== real.exitCode)
      problems.push(`${label}: exit ${real.exitCode} (real) vs ${engine.exitCode} (engine)`);
  }
  return problems;
}

describe.skipIf(skipReason !== '')('ip views match iproute2 6.1 on the real kernel', () => {
  const nsOf: Record<string, string> = {};
  beforeAll(async () => {
    expect(must(['ip', '-V'])).toBe('ip utility, iproute2-6.1.0, libbpf 1.1.2\n');
    nsOf['node-1'] = await realiseNode('node-1', 'n1');
    nsOf['node-3'] = await realiseNode('node-3', 'n3');
    const laptop = hostNetwork(lab, { kind: 'external', name: 'laptop' });
    if (laptop === undefined) throw new Error('laptop');
    nsOf.laptop = await realiseNicHost(laptop, 'ext');
  }, 60_000);

  afterAll(() => sandbox.cleanup());

  it('node with pods (node-1), a node without pods (node-3) and an external client', () => {
    const problems = [
      ...compare({ kind: 'node', name: 'node-1' }, ['ip', '-n', nsOf['node-1'] ?? '']),
      ...compare({ kind: 'node', name: 'node-3' }, ['ip', '-n', nsOf['node-3'] ?? '']),
      ...compare({ kind: 'external', name: 'laptop' }, ['ip', '-n', nsOf.laptop ?? '']),
    ];
    expect(problems.join('\n')).toBe('');
  });

  it("bridge fdb: the bridges' and devices' permanent entries, device by device", () => {
    // Only `permanent` lines are compared: the real pods' eth0s came up seconds ago and sent
    // IPv6 start-up messages (MLD reports), which cni0 learned; the lab's pods have been up for
    // longer than the bridge's 300 s ageing time, and its cni0 learns from traffic only.
    const permanent = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.endsWith(' permanent'))
        .map((l) => `${l}\n`)
        .join('');
    const node1 = hostNetwork(lab, { kind: 'node', name: 'node-1' });
    const port = node1?.interfaces.find((i) => i.master === 'cni0')?.name ?? '';
    const views = [
      ['fdb'],
      ['fdb', 'show'],
      ['fdb', 'show', 'br', 'cni0'],
      ['fdb', 'list', 'br', 'cni0', 'brport', port],
      ['fdb', 's', 'dev', 'eth0'],
      ['fdb', 'show', 'dev', 'cni0'],
      ['fdb', 'show', 'frob'],
      ['fdb', 'show', 'br', 'eth0'],
      ['fdb', 'show', 'dev', 'nosuchdev'],
      ['fdb', 'show', 'br'],
      ['fdb', 'frob'],
    ];
    const problems: string[] = [];
    const hosts: [string, HostRef][] = [
      ['node-1', { kind: 'node', name: 'node-1' }],
      ['node-3', { kind: 'node', name: 'node-3' }],
      ['laptop', { kind: 'external', name: 'laptop' }],
    ];
    for (const [tag, host] of hosts) {
      const net = hostNetwork(lab, host);
      for (const view of views) {
        const real = run(['ip', 'netns', 'exec', nsOf[tag] ?? '', 'bridge', ...view]);
        const engine = bridgeFdb(net?.interfaces ?? [], [], view);
        const label = `${tag} bridge ${view.join(' ')}`;
        if (permanent(engine.stdout) !== permanent(real.stdout) || engine.stdout === '' !== (real.stdout === '')) // prettier-ignore
          problems.push(`${label}: stdout differs\n--- real\n${real.stdout}--- engine\n${engine.stdout}`); // prettier-ignore
        if (engine.stderr !== real.stderr || engine.exitCode !== real.exitCode)
          problems.push(`${label}: ${real.exitCode} ${real.stderr} (real) vs ${engine.exitCode} ${engine.stderr}`); // prettier-ignore
      }
    }
    expect(problems.join('\n')).toBe('');
  });

  it("IPVS mode's kube-ipvs0: ClusterIPs on a link never set up are local routes", () => {
    // kube-proxy's dummy link; this kernel has no dummy driver, so a bridge that is never set
    // up stands in for it. Only routing views are compared: they do not print the link's kind.
    const ns = nsOf['node-1'] ?? '';
    const clusterIPs = ['10.96.0.1', '10.96.0.10', '10.96.1.1'];
    must(['ip', '-n', ns, 'link', 'add', 'kube-ipvs0', 'type', 'bridge']);
    for (const a of clusterIPs)
      must(['ip', '-n', ns, 'addr', 'add', `${a}/32`, 'dev', 'kube-ipvs0']);
    const base = hostNetwork(lab, { kind: 'node', name: 'node-1' });
    if (base === undefined) throw new Error('node-1');
    const net = withDummyInterface(base, 'kube-ipvs0', clusterIPs);
    const views = [
      ['route'],
      ['route', 'show', 'table', 'local'],
      ['route', 'show', 'table', 'local', 'dev', 'kube-ipvs0'],
      ['-4', 'route', 'show', 'table', 'all'],
      ['route', 'get', '10.96.0.10'],
      ['-4', 'addr', 'show', 'up'],
    ];
    const problems = compare({ kind: 'node', name: 'node-1' }, ['ip', '-n', ns], views, net);
    expect(problems.join('\n')).toBe('');
    must(['ip', '-n', ns, 'link', 'del', 'kube-ipvs0']);
  });

  it('pods, once the node namespace has no name (as a real node root namespace)', () => {
    // The tap holder running inside keeps each namespace alive without its name.
    for (const n of ['node-1', 'node-3', 'laptop']) sandbox.unname(nsOf[n] ?? '');
    const problems = podsWithVeth(lab, 'node-1').flatMap((p, i) =>
      compare({ kind: 'pod', namespace: 'default', name: p.meta.name }, [
        'ip',
        '-n',
        `${sandbox.prefix}-n1p${i}`,
      ]),
    );
    expect(problems.join('\n')).toBe('');
  });
});

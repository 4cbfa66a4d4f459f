/**
 * The hosts of a Cluster and what listens on them:
 *
 * - every pod with its own network namespace: a TCP listener per TCP containerPort (the `http`
 *   application, or `dns` on CoreDNS's port 53), a UDP socket per UDP containerPort (`dns` for
 *   CoreDNS, `udp-echo` otherwise); CoreDNS's 9153 answers like the web server;
 * - hostNetwork pods listen on their node's stack (they share its network namespace);
 * - a node listens on the endpoints user-written EndpointSlices give its InternalIP (the API
 *   server: `kubernetes` → node-1:6443, a Go TLS server), on kubelet's 10250 (TLS) and on
 *   kube-proxy's 127.0.0.1:10249 and 10256 (apps/kube-proxy-http.ts);
 * - external clients listen on nothing.
 *
 * Host keys are the trace's Place.host: the node name, `pod/<ns>/<name>`, the client's name.
 */
import type { Cluster, Pod } from '../model/cluster';
import type { HostRef, HostNetwork } from '../routing/topology';
import { buildTopology } from '../routing/topology';
import type { AppKind, HostStack, HostsState, Socket, TcpSysctls } from './types';

export const DEFAULT_TCP_SYSCTLS: TcpSysctls = {
  synRetries: 6,
  synackRetries: 5,
  retries2: 15,
  timeWaitMs: 60_000,
};

/** net.ipv4.ip_local_port_range default. */
export const DEFAULT_PORT_RANGE: readonly [number, number] = [32768, 60999];

export function hostKey(ref: HostRef): string {
  if (ref.kind !== 'pod') return ref.name;
  // Every packet a pod sends or receives asks for its stack by ref: the key is built once per
  // ref object (refs are read-only), not joined and hashed again each time.
  let key = podKeys.get(ref);
  if (key === undefined) podKeys.set(ref, (key = `pod/${ref.namespace}/${ref.name}`));
  return key;
}

const podKeys = new WeakMap<HostRef, string>();

function isCoreDns(pod: Pod): boolean {
  return (
    pod.meta.labels['k8s-app'] === 'kube-dns' ||
    pod.containers.some((c) => c.image.includes('coredns'))
  );
}

function listener(
  id: number,
  proto: 'tcp' | 'udp',
  port: number,
  app: AppKind,
  name: string,
  addr = '0.0.0.0',
): Socket {
  const owner = { kind: 'app' as const, app, name, ...(addr !== '0.0.0.0' ? { ipv4Only: true as const } : {}) }; // prettier-ignore
  if (proto === 'udp') return { id, proto, owner, local: { addr, port }, iface: '', closed: false };
  return {
    id,
    proto,
    owner,
    state: 'LISTEN',
    local: { addr, port },
    iface: '',
    active: false,
    iss: 0,
    sndUna: 0,
    sndNxt: 0,
    irs: 0,
    rcvNxt: 0,
    tsOffset: 0,
    tsRecent: 0,
    rcvWnd: 0,
    rcvWup: 0,
    inFlight: [],
    sendQueue: [],
    closeRequested: false,
    rto: 0,
    retransmits: 0,
    since: 0,
  };
}

/** [proto, port, app, name, address] of what listens on a host. */
function listenersOf(
  cluster: Cluster,
  net: HostNetwork,
): ['tcp' | 'udp', number, AppKind, string, string?][] {
  const out: ['tcp' | 'udp', number, AppKind, string, string?][] = [];
  const add = (proto: 'tcp' | 'udp', port: number, app: AppKind, name: string, addr?: string) => {
    if (!out.some(([p, n]) => p === proto && n === port))
      out.push(addr === undefined ? [proto, port, app, name] : [proto, port, app, name, addr]);
  };
  const podsHere =
    net.host.kind === 'pod'
      ? cluster.pods.filter(
          (p) =>
            net.host.kind === 'pod' &&
            p.meta.namespace === net.host.namespace &&
            p.meta.name === net.host.name,
        )
      : net.host.kind === 'node'
        ? cluster.pods.filter((p) => p.hostNetwork && p.nodeName === net.host.name)
        : [];
  for (const pod of podsHere) {
    const dns = isCoreDns(pod);
    for (const c of pod.containers)
      for (const cp of c.ports) {
        if (cp.protocol === 'SCTP') continue;
        const proto = cp.protocol === 'UDP' ? 'udp' : 'tcp';
        const app: AppKind =
          dns && cp.containerPort === 53 ? 'dns' : proto === 'udp' ? 'udp-echo' : 'http';
        // A hostNetwork pod shares its node's UTS namespace too: its hostname is the node's.
        add(proto, cp.containerPort, app, pod.hostNetwork ? pod.nodeName : pod.meta.name);
      }
  }
  if (net.host.kind === 'node') {
    const node = cluster.nodes.find((n) => n.meta.name === (net.host as { name: string }).name);
    for (const slice of cluster.endpointSlices) {
      if (slice.managed) continue;
      const here = slice.endpoints.some(
        (e) => node !== undefined && e.addresses.includes(node.internalIP),
      );
      if (!here) continue;
      for (const p of slice.ports)
        if (p.protocol === 'TCP') add('tcp', p.port, 'tls', node?.meta.name ?? '');
    }
    add('tcp', 10250, 'tls', node?.meta.name ?? '');
    // kube-proxy's own servers, at their defaults (kubeadm sets neither address): metrics on
    // 127.0.0.1:10249 (/proxyMode), health on 0.0.0.0:10256 (/healthz, /livez).
    add('tcp', 10249, 'kube-proxy', 'kube-proxy', '127.0.0.1');
    add('tcp', 10256, 'kube-proxy', 'kube-proxy');
  }
  return out;
}

/** Options of createHosts: sysctls per host key (a pod's namespace has its own net.ipv4.*). */
export interface HostsOptions {
  readonly sysctls?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

function stackOf(
  hosts: HostsState,
  cluster: Cluster,
  net: HostNetwork,
  opts: HostsOptions,
): HostStack {
  const key = hostKey(net.host);
  const addresses = net.interfaces.flatMap((i) =>
    i.addresses.filter((a) => a.family === 'inet').map((a) => a.address),
  );
  const routes = net.routes.map((r) => {
    const [dst, prefix] =
      r.dst === 'default'
        ? ['0.0.0.0', 0]
        : [r.dst.split('/')[0] ?? '', Number(r.dst.split('/')[1])];
    const dev = net.interfaces.find((i) => i.name === r.dev);
    const src =
      r.kernel?.src ??
      dev?.addresses.find((a) => a.family === 'inet')?.address ??
      addresses[1] ??
      '';
    return { dst, prefix, dev: r.dev, src };
  });
  const sysctls: Readonly<Record<string, string>> = {
    ...(net.host.kind === 'node' ? cluster.lab.sysctls[net.host.name] : undefined),
    ...opts.sysctls?.[key],
  };
  const range = (sysctls['net.ipv4.ip_local_port_range'] ?? '').split(/\s+/).map(Number);
  const num = (k: string, d: number) => {
    const v = Number(sysctls[k]);
    return Number.isInteger(v) && v >= 0 ? v : d;
  };
  return {
    key,
    label: net.host.name,
    addresses,
    routes,
    sockets: listenersOf(cluster, net).map(([proto, port, app, name, addr]) =>
      listener(hosts.nextSocketId++, proto, port, app, name, addr),
    ),
    portRange:
      range.length === 2 && range.every((n) => Number.isInteger(n) && n > 0)
        ? [range[0] as number, range[1] as number]
        : DEFAULT_PORT_RANGE,
    sysctl: {
      ...DEFAULT_TCP_SYSCTLS,
      synRetries: num('net.ipv4.tcp_syn_retries', DEFAULT_TCP_SYSCTLS.synRetries),
      synackRetries: num('net.ipv4.tcp_synack_retries', DEFAULT_TCP_SYSCTLS.synackRetries),
      retries2: num('net.ipv4.tcp_retries2', DEFAULT_TCP_SYSCTLS.retries2),
    },
  };
}

/** Every host of the cluster with its listeners; no connections yet. */
export function createHosts(cluster: Cluster, opts: HostsOptions = {}): HostsState {
  const hosts: HostsState = { hosts: {}, aliases: {}, nextSocketId: 1, nextPid: 1, programs: {} };
  syncHosts(hosts, cluster, opts);
  return hosts;
}

/**
 * Follows a changed cluster (kubectl apply, a scaled Deployment): new hosts appear with their
 * listeners, hosts that are gone disappear with their sockets, the others keep theirs.
 */
export function syncHosts(hosts: HostsState, cluster: Cluster, opts: HostsOptions = {}): void {
  const nets = buildTopology(cluster);
  const keep = new Set<string>();
  for (const net of nets) {
    const key = hostKey(net.host);
    if (net.host.kind === 'pod') {
      const pod = cluster.pods.find(
        (p) =>
          net.host.kind === 'pod' &&
          p.meta.namespace === net.host.namespace &&
          p.meta.name === net.host.name,
      );
      if (pod?.hostNetwork) {
        hosts.aliases[key] = pod.nodeName;
        continue;
      }
    }
    keep.add(key);
    if (hosts.hosts[key] === undefined) hosts.hosts[key] = stackOf(hosts, cluster, net, opts);
  }
  for (const key of Object.keys(hosts.hosts)) if (!keep.has(key)) delete hosts.hosts[key];
  for (const key of Object.keys(hosts.aliases))
    if (!nets.some((n) => hostKey(n.host) === key)) delete hosts.aliases[key];
}

/** The stack of a host (by ref or key), following hostNetwork aliases. */
export function stackFor(hosts: HostsState, host: HostRef | string): HostStack | undefined {
  const key = typeof host === 'string' ? host : hostKey(host);
  return hosts.hosts[hosts.aliases[key] ?? key];
}

/**
 * The servers of a cluster's pods in the namespaces of ./cluster-netns.ts: one ./pod-server.mjs
 * process per pod, listening where the engine's pod applications listen.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Cluster, Pod } from '../../src/engine/model/cluster';
import { sh } from './netns-env';

const SERVER = fileURLToPath(new URL('./pod-server.mjs', import.meta.url));

export interface PodServerSpec {
  readonly name: string;
  readonly addr: string;
  readonly ttlSeconds: number;
  readonly ports: readonly { proto: 'tcp' | 'udp'; port: number; app: string }[];
  readonly records: Readonly<Record<string, string>>;
}

function isCoreDns(pod: Pod): boolean {
  return (
    pod.meta.labels['k8s-app'] === 'kube-dns' ||
    pod.containers.some((c) => c.image.includes('coredns'))
  );
}

/** What the engine's pod applications listen on (src/engine/hosts/build.ts listenersOf). */
export function serverSpec(cluster: Cluster, pod: Pod, addr: string): PodServerSpec {
  const ports: { proto: 'tcp' | 'udp'; port: number; app: string }[] = [];
  for (const c of pod.containers)
    for (const cp of c.ports) {
      if (cp.protocol === 'SCTP') continue;
      const proto = cp.protocol === 'UDP' ? 'udp' : 'tcp';
      if (ports.some((p) => p.proto === proto && p.port === cp.containerPort)) continue;
      const app =
        isCoreDns(pod) && cp.containerPort === 53 ? 'dns' : proto === 'udp' ? 'udp-echo' : 'http';
      ports.push({ proto, port: cp.containerPort, app });
    }
  const records: Record<string, string> = {};
  for (const s of cluster.services)
    if (s.clusterIP !== 'None' && s.clusterIP !== '')
      records[`${s.meta.name}.${s.meta.namespace}.svc.cluster.local.`] = s.clusterIP;
  // A hostNetwork pod's hostname is its node's (it shares the node's UTS namespace).
  const name = pod.hostNetwork ? pod.nodeName : pod.meta.name;
  return { name, addr, ttlSeconds: 180, ports, records };
}

/** Starts the server in namespace `ns`; `ready` resolves once it listens (bounded: 10 s). */
export function startPodServer(
  ns: string,
  spec: PodServerSpec,
): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn('ip', ['netns', 'exec', ns, process.execPath, SERVER, JSON.stringify(spec)]);
  const ready = new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`${spec.name}'s server: not ready in 10 s: ${err}`)),
      10_000,
    );
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${spec.name}'s server exited (${code}): ${err}`));
    });
  });
  return { child, ready };
}

/**
 * What kubelet does to a pod at the end of its grace period: SIGKILL, the processes are gone
 * (their sockets closed: FINs sent), then CNI DEL deletes the veth pair (bounded: 5 s).
 */
export async function stopPod(
  server: ChildProcess | undefined,
  nodeNs: string,
  veth: string,
): Promise<void> {
  if (server?.exitCode === null) {
    const gone = new Promise((r) => server.once('exit', r));
    server.kill('SIGKILL');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000))]);
  }
  sh(['ip', '-n', nodeNs, 'link', 'del', veth]);
}

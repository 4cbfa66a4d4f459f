/**
 * The World as one host sees it when a command runs there: a node sees its kernel's tables;
 * a pod or an external client has a network namespace of its own, whose tables start empty
 * (nothing programs iptables inside a pod).
 */
import {
  CONNTRACK_SYSCTL_KEYS,
  conntrackSysctlReadOnly,
  isConntrackSysctl,
  readConntrackSysctl,
  writeConntrackSysctl,
} from '../conntrack/sysctls';
import { createNftState } from '../nftables';
import type {
  ApplyResult,
  CommandWorld,
  DirectoryEntry,
  HostRef,
  NodeKernelControls,
} from '../commands/registry';
import { isHostSystemPath } from '../commands/files';
import {
  captureLog,
  hairpinFlag,
  kernelNet,
  lastCaptureSeq,
  nodeConntrack,
  setHairpinFlag,
  fdbLearned,
  hostNeighbours,
} from '../datapath';
import { hostFile, openHostFile } from './host-files';
import { ipsetEnv } from './ipvs-node';
import {
  deleteDeploymentNow,
  deletePodNow,
  relabelPodNow,
  restartDeploymentNow,
  rollbackDeploymentNow,
  scaleDeploymentNow,
} from './control-plane';
import { flowControls } from './flows';
import { advanceNetwork, runProgram, socketLayer } from './network';
import { hostKey as stackKey } from '../hosts';
import { hostNetwork } from '../routing/topology';
import { createNetfilter, type NetfilterState } from '../netfilter';
import type { World } from './world';
import { newShellEnv, type ShellEnv } from '../commands/shell-expand';

/** Capture positions at the start of the previous and the current command (for tcpdump). */
const commandCursors = new WeakMap<World, { previous: number; current: number }>();

/**
 * Each host's shell: its variables and `$?` last from one command line to the next, as in a
 * terminal that stays open (`curl …` on one line, `echo $?` on the next).
 */
const shellEnvs = new WeakMap<World, Map<string, ShellEnv>>();

function shellEnvOf(world: World, host: HostRef): ShellEnv {
  let envs = shellEnvs.get(world);
  if (envs === undefined) shellEnvs.set(world, (envs = new Map()));
  const key = host.kind === 'pod' ? `pod/${host.namespace}/${host.name}` : host.name;
  let env = envs.get(key);
  if (env === undefined) envs.set(key, (env = newShellEnv()));
  return env;
}

/** Marks the start of a command: tcpdump shows what was captured since the previous one began. */
export function beginCommand(world: World): void {
  const last = lastCaptureSeq(world);
  const next = last !== undefined ? last + 1 : 0;
  const cursor = commandCursors.get(world);
  commandCursors.set(world, { previous: cursor?.current ?? 0, current: next });
}

/** Network namespaces of pods and external clients, created on first use. */
const privateNamespaces = new WeakMap<World, Map<string, NetfilterState>>();

/** The apiVersion of each kind `kubectl apply` accepts in the lab (kubectl prints `deployment.apps/web`). */
const API_VERSIONS: Readonly<Record<string, string>> = {
  Deployment: 'apps/v1',
  EndpointSlice: 'discovery.k8s.io/v1',
};

function hostKey(host: HostRef): string {
  return host.kind === 'pod' ? `pod/${host.namespace}/${host.name}` : `${host.kind}/${host.name}`;
}

export function hostNetfilter(world: World, host: HostRef): NetfilterState {
  if (host.kind === 'node') {
    const kernel = world.kernel(host.name);
    if (kernel !== undefined) return kernel.netfilter;
  }
  let spaces = privateNamespaces.get(world);
  if (spaces === undefined) privateNamespaces.set(world, (spaces = new Map()));
  const key = hostKey(host);
  let state = spaces.get(key);
  if (state === undefined) spaces.set(key, (state = createNetfilter()));
  return state;
}

function nodeControls(world: World, node: string): NodeKernelControls | undefined {
  const kernel = world.kernel(node);
  if (kernel === undefined) return undefined;
  const conntrack = nodeConntrack(world, node);
  return {
    conntrack,
    nowMs: () => world.clock.now(),
    // The conntrack sysctls live in the table they configure (conntrack/sysctls.ts).
    sysctl: (key) =>
      isConntrackSysctl(key) ? readConntrackSysctl(conntrack, key) : kernel.sysctls[key],
    setSysctl: (key, value) => {
      if (isConntrackSysctl(key)) writeConntrackSysctl(conntrack, key, Number(value));
      else kernel.sysctls[key] = value;
    },
    sysctlReadOnly: conntrackSysctlReadOnly,
    sysctlKeys: () => [...Object.keys(kernel.sysctls), ...CONNTRACK_SYSCTL_KEYS],
    bridgePorts: () => {
      const net = hostNetwork(world.cluster, { kind: 'node', name: node });
      const own = net?.interfaces ?? [];
      return own
        .filter((i) => i.master === 'cni0')
        .map((i) => {
          const peerIfindex = i.peerIfindex ?? 0;
          const same = own.find((o) => o.ifindex === peerIfindex);
          const peerLabel = same?.name ?? `if${peerIfindex}`;
          return { name: i.name, ifindex: i.ifindex, peerIfindex, peerLabel };
        });
    },
    hairpin: (port) => hairpinFlag(world, node, port),
    fdbLearned: () =>
      fdbLearned(world, world.cluster, node, world.clock.now()).flatMap(({ port, pod }) => {
        const ref = { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name } as const;
        const mac = hostNetwork(world.cluster, ref)?.interfaces.find((i) => i.name === 'eth0')?.mac; // prettier-ignore
        return mac === undefined ? [] : [{ port, mac }];
      }),
    setHairpin: (port, on) => setHairpinFlag(world, node, port, on),
    ipvs: () => {
      const now = world.clock.now();
      if (kernel.proxier.mode === 'ipvs') kernel.proxier.housekeeping(kernel.ipvs, now);
      return { state: kernel.ipvs, now };
    },
    ipsets: () => ({ state: kernel.ipsets, env: ipsetEnv(kernel) }),
    nfacctObjects: () => kernel.nfacct,
  };
}

function hasDeployment(world: World, ns: string, name: string): boolean {
  return world.cluster.deployments.some((d) => d.meta.namespace === ns && d.meta.name === name);
}

export function hostView(
  world: World,
  host: HostRef,
  readFile: (path: string) => string | undefined,
  listDirectory?: (path: string) => readonly DirectoryEntry[] | undefined,
): CommandWorld {
  const nodeKernel = () => (host.kind === 'node' ? nodeControls(world, host.name) : undefined);
  return {
    get cluster() {
      return world.cluster;
    },
    nowSeconds: () => world.nowSeconds(),
    epochSeconds: world.epochSeconds,
    host,
    readFile: (path) => hostFile(world, host, path, readFile, nodeKernel),
    // A host's system directories are not modelled; only a user's directories are listed.
    listDirectory: (path) => (isHostSystemPath(path) ? undefined : listDirectory?.(path)),
    openFile: (path) => openHostFile(host, path, nodeKernel),
    onHost: (other) => hostView(world, other, readFile, listDirectory),
    shellEnv: () => shellEnvOf(world, host),
    netfilter: () => hostNetfilter(world, host),
    // Pods and external clients have their own, empty nf_tables state.
    nftables: () =>
      (host.kind === 'node' ? world.kernel(host.name)?.nftables?.state : undefined) ??
      createNftState(),
    nodeKernel,
    network: () => kernelNet(world, host),
    neighbours: () => hostNeighbours(world, host),
    advanceClock: (ms) => advanceNetwork(world, world.clock.now() + ms),
    runProgram: (spec, io) => {
      const run = runProgram(world, host, spec, io);
      const writes = run.writes === undefined ? {} : { writes: run.writes };
      return { stdout: run.stdout, stderr: run.stderr, exitCode: run.exitCode, ...writes };
    },
    captures: () => {
      const label = host.kind === 'pod' ? `pod/${host.namespace}/${host.name}` : host.name;
      const since = commandCursors.get(world)?.previous ?? 0;
      return captureLog(world).filter((r) => r.seq >= since && r.host === label);
    },
    kubeProxy: () => {
      const kernel = host.kind === 'node' ? world.kernel(host.name) : undefined;
      const nft = kernel?.nftables?.lastSync;
      if (kernel?.nftables !== undefined && nft !== undefined) {
        // nftables mode: the transactions kube-proxy sent to `nft -f -`, stale chains first.
        return {
          mode: 'nftables',
          restoreInput: nft.staleChainsTransaction + nft.transaction,
          full: nft.full,
          restoreError: kernel.nftables.lastError,
          chainsWritten: nft.servicesWritten,
          chainsDeleted: nft.chainsDeleted,
          natRules: 0,
          filterRules: 0,
        };
      }
      const sync = kernel?.lastSync;
      if (kernel === undefined || sync === undefined) return undefined;
      return {
        mode: world.cluster.kubeProxy.mode,
        restoreInput: sync.restoreInput,
        full: sync.full,
        restoreError: kernel.lastRestoreError,
        chainsWritten: sync.chainsWritten,
        chainsDeleted: sync.chainsDeleted,
        natRules: sync.natRules,
        filterRules: sync.filterRules,
      };
    },
    workloads: () => ({
      deletePod: (ns, name, graceSeconds) =>
        world.cluster.pods.some((p) => p.meta.namespace === ns && p.meta.name === name)
          ? deletePodNow(world, ns, name, graceSeconds)
          : undefined,
      scaleDeployment: (ns, name, replicas) =>
        hasDeployment(world, ns, name) && (scaleDeploymentNow(world, ns, name, replicas), true),
      restartDeployment: (ns, name) =>
        hasDeployment(world, ns, name) && (restartDeploymentNow(world, ns, name), true),
      rollbackDeployment: (ns, name, revision) =>
        hasDeployment(world, ns, name) && (rollbackDeploymentNow(world, ns, name, revision), true),
      deleteService: (ns, name) => world.deleteService(ns, name),
      deleteDeployment: (ns, name) =>
        hasDeployment(world, ns, name) && (deleteDeploymentNow(world, ns, name), true),
      labelPod: (ns, name, labels) =>
        world.cluster.pods.some((p) => p.meta.namespace === ns && p.meta.name === name) &&
        (relabelPodNow(world, ns, name, labels), true),
    }),
    flows: () => flowControls(world, host),
    terminalColumns: () => world.terminalColumns,
    sockets: () => {
      const stack = socketLayer(world).hosts.hosts[stackKey(host)];
      if (stack === undefined) return undefined;
      return { sockets: stack.sockets, portRange: stack.portRange, nowMs: world.clock.now() };
    },
    applyManifests(text: string): ApplyResult {
      const result = world.apply(text);
      return {
        applied: result.results.map((r) => ({
          apiVersion: API_VERSIONS[r.kind] ?? 'v1',
          kind: r.kind,
          name: r.name,
          ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
          action: r.action,
        })),
        errors: result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
        ignored: result.diagnostics.filter((d) => d.severity === 'warning').length,
      };
    },
  };
}

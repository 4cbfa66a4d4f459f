/**
 * The command registry the lab's web terminal and the CLI share. A command is a function of
 * the world and its argv; a command line is tokenized like bash (./shell.ts) and run by
 * ./shell-run.ts, which calls runArgv for each command.
 */
import type { Cluster } from '../model/cluster';
import type { NetfilterState } from '../netfilter';
import type { NftState } from '../nftables';
import type { HostRef } from '../routing/topology';
import type { CtTable } from '../conntrack';
import type { CaptureRecord } from '../datapath';
import type { ProgramSpec, Socket } from '../hosts';
import type { IpsetEnv, IpsetState } from '../ipset';
import type { IpvsState } from '../ipvs';
import type { HostNetwork } from '../routing';
import type { NeighbourRow } from '../routing/ip-neigh';
import { unmodelledCommandNote } from './unmodelled';
import type { StdioWrite } from '../model/stdio';
import type { ShellEnv } from './shell-expand';

export type { HostRef } from '../routing/topology';

/** One object `kubectl apply` created or changed (or found unchanged). */
export interface AppliedObject {
  /** e.g. `v1`, `apps/v1`; optional: kubectl knows the group of the lab's kinds. */
  readonly apiVersion?: string;
  /** e.g. `Service`, `Deployment`. */
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly action: 'created' | 'configured' | 'unchanged';
}

export interface ApplyResult {
  readonly applied: readonly AppliedObject[];
  /** Error lines exactly as kubectl prints them (e.g. `The Service "web" is invalid: …`). */
  readonly errors: readonly string[];
  /** Objects read but left aside (kinds the lab does not simulate: a ConfigMap…). */
  readonly ignored?: number;
}

/** One entry of a user's directory. */
export interface DirectoryEntry {
  readonly name: string;
  readonly directory: boolean;
}

/**
 * What commands read from and change in the running lab. The sim's World implements it, one view
 * per host a command runs on.
 */
export interface CommandWorld {
  /** The cluster as it is now (after every apply so far). */
  readonly cluster: Cluster;
  /** The lab clock in seconds (the same clock objects' `createdAt` is measured on). */
  nowSeconds(): number;
  /** Unix time (seconds) of lab clock 0: creationTimestamp = epochSeconds + createdAt. */
  readonly epochSeconds: number;
  /** The host this command runs on (a node, a pod, or an external client). */
  readonly host: HostRef;
  /** Contents of a file the lab knows (scenario manifests for `kubectl apply -f`); undefined if absent. */
  readFile(path: string): string | undefined;
  /**
   * The entries of a user's directory (`kubectl apply -f DIR/`), unsorted; undefined when the
   * path is not a directory (a file, a missing path) or where the lab has no files to list (the
   * web lab). Symbolic links are entries that are not directories, as Go's filepath.Walk sees them.
   */
  listDirectory?(path: string): readonly DirectoryEntry[] | undefined;
  /**
   * Opens one of this host's own files for a redirection to write (`echo 0 > /proc/sys/…`);
   * undefined for a user's file (the lab writes none).
   */
  openFile?(path: string): OpenedFile | undefined;
  /** Applies manifest text as `kubectl apply` would, changing the cluster. */
  applyManifests(text: string): ApplyResult;
  /** The iptables state of this host's network namespace (a node's kernel, or a pod's own). */
  netfilter(): NetfilterState;
  /** The nf_tables state of this host's network namespace (kube-proxy's table in nftables mode). */
  nftables?(): NftState;
  /** On a node: what its kube-proxy did last (undefined on pods and external clients). */
  kubeProxy(): KubeProxyStatus | undefined;
  /** On a node: its conntrack table, sysctls and bridge ports (undefined elsewhere). */
  nodeKernel(): NodeKernelControls | undefined;
  /** Moves the lab's virtual clock forward (`sleep`): timers run, conntrack entries age. */
  advanceClock(ms: number): void;
  /** Runs a client program (curl, nc, dig, nslookup) on this host until it finishes. */
  runProgram(spec: ProgramSpec, io?: { readonly stdoutIsTty: boolean }): CommandResult;
  /** Packets seen on this host's interfaces since the previous command, for tcpdump. */
  captures(): readonly CaptureRecord[];
  /** The host's interfaces and routes as its kernel has them now (with kube-ipvs0 on IPVS nodes). */
  network?(): HostNetwork | undefined;
  /** The neighbour (ARP) entries the lab keeps for this host now (`ip neigh`). */
  neighbours?(): readonly NeighbourRow[];
  /** kubectl's writes beyond apply: the control plane acts on them as the clock advances. */
  workloads(): WorkloadControls;
  /** The lab's named long-lived flows of this host (`lab flow`). */
  flows(): FlowControls;
  /** Another host of the same lab, as a command there sees it (`kubectl exec`). */
  onHost?(host: HostRef): CommandWorld;
  /** This host's shell variables and `$?`, kept from one command line to the next. */
  shellEnv?(): ShellEnv;
  /** The sockets this host's kernel holds now (`ss`), with what ss reads beside them. */
  sockets?(): HostSockets | undefined;
  /** The width of the terminal commands print to (`ss` spreads its table over it). */
  terminalColumns?(): number | undefined;
}

export interface HostSockets {
  readonly sockets: readonly Socket[];
  /** net.ipv4.ip_local_port_range: ss never looks up a service name for these ports. */
  readonly portRange: readonly [number, number];
  readonly nowMs: number;
}

/** Each returns false (undefined) when the object does not exist (namespace, name). */
export interface WorkloadControls {
  /**
   * `kubectl delete pod`: Terminating now, gone after the grace period (`graceSeconds`, else
   * the pod's 30 s; 0: at once); returns the ms until the pod object is removed from the API.
   */
  deletePod(namespace: string, name: string, graceSeconds?: number): number | undefined;
  scaleDeployment(namespace: string, name: string, replicas: number): boolean;
  restartDeployment(namespace: string, name: string): boolean;
  /** `kubectl rollout undo`: the old ReplicaSet of `revision` rolls out again. */
  rollbackDeployment(namespace: string, name: string, revision: number): boolean;
  /** `kubectl delete deployment`: gone, its pods Terminating; false when there is none. */
  deleteDeployment(namespace: string, name: string): boolean;
  /** `kubectl label pod`: the pod's new labels; false when there is no such pod. */
  labelPod(namespace: string, name: string, labels: Readonly<Record<string, string>>): boolean;
  /** `kubectl delete service`: gone at once; false when there is no such Service. */
  deleteService(namespace: string, name: string): boolean;
}

/** What one `lab flow` action printed, as the client program would. */
export interface FlowOutcome {
  readonly ok: boolean;
  /** What the client received (the answer), or the error the client sees. */
  readonly text: string;
}

export interface FlowSummary {
  readonly name: string;
  readonly proto: 'tcp' | 'udp';
  readonly local: string;
  readonly remote: string;
  /** The socket's state as `ss` names it (TCP), or UNCONN/ESTAB (UDP); CLOSED once gone. */
  readonly state: string;
}

/** Named client sockets a learner keeps open across commands (`lab flow`). */
export interface FlowControls {
  open(name: string, proto: 'tcp' | 'udp', addr: string, port: number): FlowOutcome;
  send(name: string, text: string | undefined, waitMs: number | undefined): FlowOutcome;
  close(name: string): FlowOutcome;
  list(): readonly FlowSummary[];
}

/** A host file open for writing. */
export interface HostFileWriter {
  /** Writes the text as one write(2): undefined, or the error it gets (`Invalid argument`). */
  write(text: string): string | undefined;
}

/**
 * A file opened for writing: a writer, the error the open gets (`Permission denied`…), or the
 * lab's note that it does not model the file.
 */
export type OpenedFile = HostFileWriter | { readonly error: string } | { readonly note: string };

/** What node-level tools (conntrack, sysctl, bridge) read and change. */
export interface NodeKernelControls {
  readonly conntrack: CtTable;
  /** Virtual time in ms (conntrack timers count against it). */
  nowMs(): number;
  sysctl(key: string): string | undefined;
  setSysctl(key: string, value: string): void;
  /** A sysctl the kernel lists but nobody writes (0444, as nf_conntrack_count). */
  sysctlReadOnly?(key: string): boolean;
  /** The keys of the sysctls the lab models on this node. */
  sysctlKeys(): string[];
  /** The bridge ports of cni0 (the pods' host-side veths), in ifindex order. */
  bridgePorts(): readonly {
    readonly name: string;
    readonly ifindex: number;
    readonly peerIfindex: number;
    /**
     * What `bridge link` prints after `@`: iproute2's bridge/link.c resolves the veth's peer
     * ifindex with ll_index_to_name() in the node's own namespace, without looking at the peer's
     * namespace (unlike `ip link`'s `@ifN`), so a pod's peer (its eth0, ifindex 2) prints as the
     * node's ifindex 2, `eth0` (seen on kernel 6.18 / iproute2 6.1 in tests/kernel).
     */
    readonly peerLabel: string;
  }[];
  hairpin(port: string): boolean;
  setHairpin(port: string, on: boolean): void;
  /** The MACs cni0 learned and still holds (not aged out), each with its port. */
  fdbLearned?(): readonly { readonly port: string; readonly mac: string }[];
  /** IPVS (ip_vs) of the node, with kube-proxy's once-a-minute graceful-termination pass run up to now. */
  ipvs?(): { readonly state: IpvsState; readonly now: number };
  /** The node's IP sets and what `ipset list` needs from the rest of the kernel. */
  ipsets?(): { readonly state: IpsetState; readonly env: IpsetEnv };
  /** The node's nfacct objects, by name (kube-proxy's counters). */
  nfacctObjects?(): ReadonlySet<string>;
}

/** What the node's kube-proxy last did, for the lab's own `lab` command. */
export interface KubeProxyStatus {
  readonly mode: string;
  /** The exact bytes of the last `iptables-restore --noflush --counters` input. */
  readonly restoreInput: string;
  readonly full: boolean;
  /** The restore's error output ('' when the kernel accepted it). */
  readonly restoreError: string;
  readonly chainsWritten: readonly string[];
  readonly chainsDeleted: readonly string[];
  readonly natRules: number;
  readonly filterRules: number;
}

export interface CommandContext {
  readonly world: CommandWorld;
  /** What the previous pipeline stage wrote to stdout ('' for the first stage). */
  readonly stdin: string;
  /**
   * Whether stdout is the terminal: false when it feeds the next stage of a pipeline or goes
   * to a file (curl then shows its progress meter). Absent: the terminal.
   */
  readonly stdoutIsTty?: boolean;
  /** Whether stderr is the terminal: false after `2>FILE`, or `2>&1` into a pipe. Absent: it is. */
  readonly stderrIsTty?: boolean;
  /** The running shell's variables (`test -v NAME`). */
  readonly shellVars?: ReadonlyMap<string, string>;
  /**
   * The terminal itself, for a command line that is this one command and nothing else (no
   * pipe, redirection or other command around it) when the host asked for it (the CLI does):
   * a command may write its stdout here as it makes it, and return '' as `stdout`, instead of
   * returning it whole. Only for output that can be tens of megabytes (`iptables-save` of a
   * large node); everything else returns its stdout.
   */
  readonly stdoutStream?: (chunk: string) => void;
}

export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /**
   * The tool's writes in order, where `2>&1` depends on it (model/stdio.ts); their stdout and
   * stderr texts are `stdout` and `stderr`. Absent: stdout, then stderr, as a tool that flushes
   * stdout before each write to stderr (GNU's error()) or writes unbuffered (Go) gives them.
   */
  readonly writes?: readonly StdioWrite[];
}

/** `argv[0]` is the command name as typed. */
export type CommandHandler = (ctx: CommandContext, argv: string[]) => CommandResult;

export interface CommandRegistry {
  readonly commands: Map<string, CommandHandler>;
}

export function createRegistry(): CommandRegistry {
  return { commands: new Map() };
}

export function registerCommand(
  registry: CommandRegistry,
  name: string,
  handler: CommandHandler,
): void {
  registry.commands.set(name, handler);
}

export function lookupCommand(registry: CommandRegistry, name: string): CommandHandler | undefined {
  // `/usr/sbin/iptables` runs what `iptables` runs (the lab has one binary per name).
  const base = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
  return registry.commands.get(base);
}

/**
 * Runs one argv (no pipes). Unknown commands fail like bash: `bash: foo: command not found`,
 * 127; a real command the lab does not run says so instead (unmodelled.ts).
 */
export function runArgv(
  registry: CommandRegistry,
  ctx: CommandContext,
  argv: string[],
): CommandResult {
  const name = argv[0];
  if (name === undefined) return { stdout: ctx.stdin, stderr: '', exitCode: 0 };
  const handler = lookupCommand(registry, name);
  if (handler === undefined) {
    const note = unmodelledCommandNote(name);
    if (note !== undefined) return { stdout: '', stderr: note, exitCode: 127 };
    if (name.includes('/'))
      return { stdout: '', stderr: `bash: ${name}: No such file or directory\n`, exitCode: 127 };
    return { stdout: '', stderr: `bash: ${name}: command not found\n`, exitCode: 127 };
  }
  return handler(ctx, [...argv]);
}

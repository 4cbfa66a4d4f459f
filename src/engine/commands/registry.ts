/**
 * The command registry the lab's web terminal and the CLI share. A command is a function of
 * the world and its argv; a command line is tokenized like bash (./shell.ts), run stage by stage
 * with each stage's stdout as the next one's stdin, and joined by `;`, `&&`, `||` as bash does.
 */
import type { Cluster } from '../model/cluster';
import type { NetfilterState } from '../netfilter';
import type { NftState } from '../nftables';
import type { HostRef } from '../routing/topology';
import type { CtTable } from '../conntrack';
import type { CaptureRecord } from '../datapath';
import type { ProgramSpec } from '../hosts';
import type { IpsetEnv, IpsetState } from '../ipset';
import type { IpvsState } from '../ipvs';
import type { HostNetwork } from '../routing';
import type { Pipeline, Redirection } from './shell';
import { parseCommandLine } from './shell';
import { missingFileMessage } from './files';
import { unmodelledCommandNote } from './unmodelled';
import { mergeWrites, stdioAround, type StdioWrite } from '../model/stdio';
import { labNote } from '../model/lab-notes';

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
  /** kubectl's writes beyond apply: the control plane acts on them as the clock advances. */
  workloads(): WorkloadControls;
  /** The lab's named long-lived flows of this host (`lab flow`). */
  flows(): FlowControls;
}

/** Each returns false (undefined) when the object does not exist (namespace, name). */
export interface WorkloadControls {
  /**
   * `kubectl delete pod`: Terminating now, gone after the grace period; returns the ms until
   * the pod object is removed from the API.
   */
  deletePod(namespace: string, name: string): number | undefined;
  scaleDeployment(namespace: string, name: string, replicas: number): boolean;
  restartDeployment(namespace: string, name: string): boolean;
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

/** What node-level tools (conntrack, sysctl, bridge) read and change. */
export interface NodeKernelControls {
  readonly conntrack: CtTable;
  /** Virtual time in ms (conntrack timers count against it). */
  nowMs(): number;
  sysctl(key: string): string | undefined;
  setSysctl(key: string, value: string): void;
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
  /** IPVS (ip_vs) of the node, with kube-proxy's once-a-minute graceful-termination pass run up to now. */
  ipvs?(): { readonly state: IpvsState; readonly now: number };
  /** The node's IP sets and what `ipset list` needs from the rest of the kernel. */
  ipsets?(): { readonly state: IpsetState; readonly env: IpsetEnv };
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

function applyRedirections(
  redirections: readonly Redirection[],
  result: CommandResult,
  stdoutIsTty: boolean,
): CommandResult {
  // Nothing redirected: the tool's own writes stand.
  if (!redirections.some((r) => r.fd !== 0)) return result;
  let { stdout, stderr } = result;
  const exitCode = result.exitCode;
  for (const r of redirections) {
    if (r.fd === 0) continue;
    if (r.target === '&1' && r.fd === 2) {
      const intact = stdout === result.stdout && stderr === result.stderr;
      stdout =
        intact && result.writes !== undefined
          ? mergeWrites(result.writes, stdoutIsTty)
          : stdout + stderr;
      stderr = '';
    } else if (r.target === '&2' && r.fd === 1) {
      stderr += stdout;
      stdout = '';
    } else if (r.target === '/dev/null') {
      if (r.fd === 1 || r.fd === 'both') stdout = '';
      if (r.fd === 2 || r.fd === 'both') stderr = '';
    } else {
      return {
        stdout: '',
        stderr: `${stderr}${labNote('shell.write', { path: r.target })}`,
        exitCode: 1,
      };
    }
  }
  return { stdout, stderr, exitCode };
}

/** Runs `a | b | c`: each stage's stdout feeds the next; stderr of every stage reaches the terminal. */
export function runPipeline(
  registry: CommandRegistry,
  world: CommandWorld,
  pipeline: Pipeline,
): CommandResult {
  let stdin = '';
  let stderr = '';
  let last: CommandResult = { stdout: '', stderr: '', exitCode: 0 };
  let earlier = '';
  const commands = pipeline.commands;
  for (let i = 0; i < commands.length; i++) {
    const command = commands[i]!;
    // The last stage writes to the terminal unless its stdout goes to a file (`>&2` is the
    // terminal too).
    const stdoutIsTty =
      i === commands.length - 1 &&
      !command.redirections.some((r) => (r.fd === 1 || r.fd === 'both') && r.target !== '&2');
    let input = stdin;
    for (const r of command.redirections) {
      if (r.fd !== 0) continue;
      const text = world.readFile(r.target);
      if (text === undefined) {
        return {
          stdout: '',
          stderr: `${stderr}${missingFileMessage(r.target, `bash: ${r.target}: No such file or directory\n`)}`,
          exitCode: 1,
        };
      }
      input = text;
    }
    earlier = stderr;
    last = applyRedirections(
      command.redirections,
      runArgv(registry, { world, stdin: input, stdoutIsTty }, [...command.argv]),
      stdoutIsTty,
    );
    stderr += last.stderr;
    stdin = last.stdout;
  }
  // The earlier stages' stderr reaches the terminal before the last stage's output, which
  // they feed.
  const writes = [{ fd: 2 as const, text: earlier }, ...writesOf(last)];
  return { stdout: last.stdout, stderr, exitCode: last.exitCode, writes };
}

/** A result's writes: its own, or stdout then stderr. */
function writesOf(r: CommandResult): readonly StdioWrite[] {
  return r.writes ?? stdioAround('', r.stdout, r.stderr);
}

/** Tokenizes and runs one command line (with pipes and `;`/`&&`/`||`). */
export function runCommandLine(
  registry: CommandRegistry,
  ctx: { readonly world: CommandWorld },
  line: string,
): CommandResult {
  return runCommandLineInOrder(registry, ctx, line).result;
}

/**
 * runCommandLine, with the writes of its commands in order: what a terminal shows is
 * `mergeWrites(writes, true)` (model/stdio.ts), curl -v's body among its verbose lines.
 */
export function runCommandLineInOrder(
  registry: CommandRegistry,
  ctx: { readonly world: CommandWorld },
  line: string,
): { readonly result: CommandResult; readonly writes: readonly StdioWrite[] } {
  const world = ctx.world;
  const parsed = parseCommandLine(line);
  if (!parsed.ok) {
    const result = { stdout: '', stderr: parsed.error, exitCode: parsed.exitCode };
    return { result, writes: writesOf(result) };
  }
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  const writes: StdioWrite[] = [];
  for (const { connector, pipeline } of parsed.list.items) {
    if (connector === '&&' && exitCode !== 0) continue;
    if (connector === '||' && exitCode === 0) continue;
    const r = runPipeline(registry, world, pipeline);
    stdout += r.stdout;
    stderr += r.stderr;
    exitCode = r.exitCode;
    writes.push(...writesOf(r));
  }
  return { result: { stdout, stderr, exitCode }, writes };
}

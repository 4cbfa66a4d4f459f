/**
 * Starting programs, routing socket events and timers to them, and reading their results.
 */
import type { Cluster } from '../../model/cluster';
import type { HostRef } from '../../routing/topology';
import { hostKey, stackFor } from '../build';
import type { ResolvConf } from '../dns/resolv';
import { resolvConfFor } from '../dns/resolv';
import type { Op } from '../net';
import { udpClose } from '../udp';
import { curlOutputAll, type ToolOutput } from '../output/curl';
import { digOutput } from '../output/dig';
import { ncOutput } from '../output/nc';
import { nslookupOutput } from '../output/nslookup';
import { pingOutput } from '../output/ping';
import { wgetOutput } from '../output/wget';
import type { HostStack, HostsState, SocketEvent } from '../types';
import { curlEvent, curlResolved, curlStart, curlTimer } from './curl';
import { dnsToolEvent, dnsToolStart, dnsToolTimer } from './dnstool';
import { ncEvent, ncResolved, ncStart, ncTimer } from './nc';
import { pingId, pingStart, pingTimer } from './ping';
import { resolveStart, resolverEvent, resolverPending, resolverTimer } from './resolver';
import { wgetEvent, wgetResolved, wgetStart, wgetTimer } from './wget';
import type {
  CurlOptions,
  DigOptions,
  NcOptions,
  NslookupOptions,
  PingOptions,
  ProgramResult,
  WgetOptions,
  ProgramState,
} from './types';
import { digSearchCandidates, searchCandidates } from '../dns/resolv';
import { labNote } from '../../model/lab-notes';

/** What to run. */
export type ProgramSpec =
  | { readonly kind: 'curl'; readonly opts: CurlOptions }
  | { readonly kind: 'nc'; readonly opts: NcOptions }
  | { readonly kind: 'dig'; readonly opts: DigOptions }
  | { readonly kind: 'nslookup'; readonly opts: NslookupOptions }
  | { readonly kind: 'ping'; readonly opts: PingOptions }
  | { readonly kind: 'wget'; readonly opts: WgetOptions };

/** A program still running after this long (virtual) is stopped like Ctrl-C (exit 130). */
export const PROGRAM_LIMIT_MS = 15 * 60_000;

/** The HostRef of a host key (`node-1`, `pod/ns/name`, an external client's name). */
export function hostRefOf(cluster: Cluster, key: string): HostRef {
  // Every packet a host emits asks: the refs are kept per Cluster object (final data).
  let byKey = hostRefs.get(cluster);
  if (byKey === undefined) hostRefs.set(cluster, (byKey = new Map()));
  let ref = byKey.get(key);
  if (ref === undefined) {
    if (byKey.size >= 4096) byKey.clear();
    byKey.set(key, (ref = parseHostRef(cluster, key)));
  }
  return ref;
}

const hostRefs = new WeakMap<Cluster, Map<string, HostRef>>();

function parseHostRef(cluster: Cluster, key: string): HostRef {
  const m = /^pod\/([^/]+)\/(.+)$/.exec(key);
  if (m !== null) return { kind: 'pod', namespace: m[1] ?? '', name: m[2] ?? '' };
  if (cluster.lab.externalClients.some((c) => c.name === key))
    return { kind: 'external', name: key };
  return { kind: 'node', name: key };
}

function releaseResolver(stack: HostStack, prog: ProgramState): void {
  const id = prog.resolver?.socket;
  const sock = stack.sockets.find((s) => s.id === id);
  if (sock?.proto === 'udp') udpClose(stack, sock);
  if (prog.resolver !== undefined) prog.resolver.socket = undefined;
}

function newState(
  spec: ProgramSpec,
  base: { pid: number; host: string; startedAt: number; killAt: number },
  conf: ResolvConf,
): ProgramState {
  const common = { ...base, done: false, transcript: [] };
  if (spec.kind === 'curl')
    return {
      ...common,
      kind: 'curl',
      opts: spec.opts,
      phase: 'resolve',
      response: '',
      index: 0,
      transferStart: base.startedAt,
      connections: 0,
      dns: {},
    };
  if (spec.kind === 'wget')
    return { ...common, kind: 'wget', opts: spec.opts, phase: 'resolve', tryNo: 0, response: '' };
  if (spec.kind === 'nc')
    return { ...common, kind: 'nc', opts: spec.opts, phase: 'resolve', probesLeft: 0, output: '' };
  if (spec.kind === 'ping') {
    const counts = { transmitted: 0, received: 0, errors: 0, pipe: 0, firstSent: 0, lastSent: 0 };
    return { ...common, kind: 'ping', opts: spec.opts, id: 0, ...counts };
  }
  const server = spec.opts.server ?? conf.nameservers[0] ?? '';
  return {
    ...common,
    kind: spec.kind,
    ...(spec.kind === 'dig' ? { dig: spec.opts } : { nslookup: spec.opts }),
    conf,
    queue: [],
    candidates:
      spec.kind === 'nslookup'
        ? searchCandidates(spec.opts.name, conf)
        : spec.opts.search === true
          ? digSearchCandidates(spec.opts.name, {
              ...conf,
              ...(spec.opts.domain === undefined ? {} : { search: [spec.opts.domain] }),
              ...(spec.opts.ndots === undefined ? {} : { ndots: spec.opts.ndots }),
            })
          : [],
    tryNo: 0,
    queryId: 0,
    cookie: '',
    server: { addr: server, port: spec.opts.port },
  };
}

function afterResolve(op: Op, stack: HostStack, prog: ProgramState): void {
  const r = prog.resolver?.result;
  if (r === undefined) return;
  if (prog.kind === 'curl') curlResolved(op, stack, prog);
  else if (prog.kind === 'nc') ncResolved(op, stack, prog);
  else if (prog.kind === 'wget') wgetResolved(op, stack, prog);
  else if (prog.kind === 'ping') {
    if (r.ok) return pingStart(op, stack, prog, r.addrs[0]!);
    prog.transcript.push({ t: op.ctx.now, kind: 'resolve-failed', reason: r.reason });
    prog.done = true;
    prog.exitCode = 2;
  }
}

/** Starts a program on `host`; returns its pid (read the result with programResult). */
export function programStart(op: Op, host: HostRef | string, spec: ProgramSpec): number {
  const pid = op.hosts.nextPid++;
  const stack = stackFor(op.hosts, host);
  const key = stack?.key ?? (typeof host === 'string' ? host : hostKey(host));
  const ref = typeof host === 'string' ? hostRefOf(op.ctx.cluster, host) : host;
  const conf = resolvConfFor(op.ctx.cluster, ref);
  const now = op.ctx.now;
  const prog = newState(
    spec,
    { pid, host: key, startedAt: now, killAt: now + PROGRAM_LIMIT_MS },
    conf,
  );
  op.hosts.programs[pid] = prog;
  if (stack === undefined) {
    prog.done = true;
    prog.exitCode = 127;
    return pid;
  }
  if (prog.kind === 'ping') {
    (prog as { id: number }).id = pingId(op.ctx.rng);
    if (/^\d+\.\d+\.\d+\.\d+$/.test(prog.opts.host)) pingStart(op, stack, prog, prog.opts.host);
    else resolveStart(op, stack, prog, prog.opts.host, conf);
    return pid;
  }
  if (prog.kind !== 'curl' && prog.kind !== 'nc' && prog.kind !== 'wget') {
    prog.cookie = [op.ctx.rng.nextU32(), op.ctx.rng.nextU32()]
      .map((n) => (n >>> 0).toString(16).padStart(8, '0'))
      .join('');
    dnsToolStart(op, stack, prog);
    return pid;
  }
  resolveStart(op, stack, prog, prog.opts.host, conf);
  if (prog.kind === 'curl') curlStart(op, stack, prog);
  else if (prog.kind === 'wget') wgetStart(op, stack, prog);
  else ncStart(op, stack, prog);
  return pid;
}

/** A socket event owned by a program. */
export function programEvent(op: Op, stack: HostStack, ev: SocketEvent): void {
  if (ev.owner.kind !== 'program') return;
  const prog = op.hosts.programs[ev.owner.pid];
  if (prog === undefined || prog.done) return;
  if (resolverEvent(op, stack, prog, ev)) return afterResolve(op, stack, prog);
  if (prog.kind === 'curl') curlEvent(op, stack, prog, ev);
  else if (prog.kind === 'nc') ncEvent(op, stack, prog, ev);
  else if (prog.kind === 'wget') wgetEvent(op, stack, prog, ev);
  else if (prog.kind !== 'ping') dnsToolEvent(op, stack, prog, ev);
  if (prog.done) releaseResolver(stack, prog);
}

/** Runs the programs' timers that are due. */
export function programTimers(op: Op): void {
  for (const prog of Object.values(op.hosts.programs)) {
    if (prog.done) continue;
    const stack = op.hosts.hosts[prog.host];
    if (stack === undefined) continue;
    if (op.ctx.now >= prog.killAt) {
      prog.done = true;
      prog.exitCode = 130;
      prog.wakeAt = undefined;
      releaseResolver(stack, prog);
      continue;
    }
    const pending = resolverPending(prog);
    if (pending !== undefined && pending <= op.ctx.now) {
      resolverTimer(op, stack, prog);
      afterResolve(op, stack, prog);
    }
    if (!prog.done && prog.wakeAt !== undefined && prog.wakeAt <= op.ctx.now) {
      if (prog.kind === 'curl') curlTimer(op, stack, prog);
      else if (prog.kind === 'nc') ncTimer(op, stack, prog);
      else if (prog.kind === 'wget') wgetTimer(op, stack, prog);
      else if (prog.kind === 'ping') pingTimer(op, stack, prog);
      else dnsToolTimer(op, stack, prog);
    }
    if (prog.done) releaseResolver(stack, prog);
  }
}

export function programNextTimer(hosts: HostsState): number | undefined {
  let next: number | undefined;
  for (const prog of Object.values(hosts.programs)) {
    if (prog.done) continue;
    for (const t of [prog.wakeAt, resolverPending(prog), prog.killAt])
      if (t !== undefined && (next === undefined || t < next)) next = t;
  }
  return next;
}

/** A program's output so far (complete once `done`), as the real tool prints it. */
export function programResult(
  hosts: HostsState,
  pid: number,
  env: { readonly epochSeconds: number; readonly stdoutIsTty?: boolean },
): ProgramResult | undefined {
  const prog = hosts.programs[pid];
  if (prog === undefined) return undefined;
  const out: ToolOutput =
    prog.kind === 'curl'
      ? curlOutputAll(prog.opts, prog.transcript, {
          startedAt: prog.startedAt,
          ...(env.stdoutIsTty === undefined ? {} : { stdoutIsTty: env.stdoutIsTty }),
        })
      : prog.kind === 'wget'
        ? wgetOutput(prog.opts, prog.transcript, env)
        : prog.kind === 'nc'
          ? ncOutput(prog.opts, prog.transcript)
          : prog.kind === 'ping'
            ? pingOutput(prog.opts, prog.transcript, prog.exitCode ?? 0)
            : prog.kind === 'dig' && prog.dig !== undefined
              ? digOutput(prog.dig, prog.transcript, env)
              : nslookupOutput(prog.transcript);
  const { stdout, stderr, exitCode } = out;
  const writes = out.writes === undefined ? {} : { writes: out.writes };
  if (prog.exitCode !== 130) return { done: prog.done, stdout, stderr, exitCode, ...writes };
  // The note comes last, after whatever the program had written, on a line of its own: a
  // program stopped mid-line (wget's `Connecting to …... `) leaves the terminal's cursor
  // there, where Ctrl-C's `^C` would go before the shell's newline.
  const last = out.writes?.filter((w) => 'fd' in w).at(-1);
  const tail = last !== undefined && 'fd' in last ? last.text : stdout + stderr;
  const note = (/[^\n]$/.test(tail) ? '\n' : '') + stoppedNote(prog.kind);
  const stopped = out.writes === undefined ? {} : { writes: [...out.writes, { fd: 2 as const, text: note }] }; // prettier-ignore
  return { done: prog.done, stdout, stderr: stderr + note, exitCode: 130, ...stopped };
}

/**
 * What the lab says when it stopped a program at PROGRAM_LIMIT_MS. A real one would wait until
 * the user pressed Ctrl-C, which prints nothing of its own (the terminal echoes `^C`), so
 * without this line the transcript shows only silence and exit status 130 — and the virtual
 * clock has moved on by a quarter of an hour, which ages every conntrack entry.
 */
function stoppedNote(kind: ProgramState['kind']): string {
  const limit = STOP_OPTION[kind];
  const minutes = PROGRAM_LIMIT_MS / 60_000;
  return labNote('program.stopped', { program: kind, minutes, option: limit });
}

/** The option that bounds each program's run. */
const STOP_OPTION: Record<ProgramState['kind'], string> = {
  curl: '-m SECONDS',
  nc: '-w SECONDS',
  wget: '-T SECONDS and -t TRIES',
  ping: '-c COUNT or -w DEADLINE',
  dig: '+timeout=SECONDS',
  nslookup: '-timeout=SECONDS',
};

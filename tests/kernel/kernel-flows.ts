/**
 * `lab flow open|send|close|list` on the kernel, for the experiments' differential tests: the
 * named flows are real sockets of a client process in the target's namespace
 * (./flow-client.mjs); their outcomes are printed in the texts of the lab's command
 * (src/engine/commands/lab-flow.ts, src/engine/sim/flows.ts), and a TCP socket's state is the
 * kernel's, as `ss` reads it. Every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { curlRequest } from '../../src/engine/hosts/apps/http';
import { strerror } from '../../src/engine/hosts/output/curl';
import type { RunResult } from './netns';
import { sh } from './netns-env';

const CLIENT = fileURLToPath(new URL('./flow-client.mjs', import.meta.url));

/** The lab's waits: UDP 2 s by default; TCP connect and read are bounded here (see below). */
const UDP_DEFAULT_WAIT_MS = 2000;
/**
 * The lab's TCP waits last as long as the kernel keeps the connection; here they are bounded:
 * an answer that takes longer is reported as missing (and the comparison fails).
 */
const TCP_WAIT_MS = 20_000;

type Reply = Record<string, unknown>;

class FlowClient {
  private readonly waiting: ((r: Reply) => void)[] = [];
  private buffered = '';
  readonly ready: Promise<Reply>;

  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (d: Buffer) => {
      this.buffered += d.toString();
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.waiting.shift()?.(JSON.parse(line) as Reply);
      }
    });
    this.ready = this.next(10_000, 'start');
  }

  private next(ms: number, what: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`flow client: ${what}: no answer`)), ms);
      this.waiting.push((r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
  }

  async ask(req: Reply, waitMs: number): Promise<Reply> {
    await this.ready;
    const answer = this.next(waitMs + 5_000, JSON.stringify(req));
    this.child.stdin!.write(`${JSON.stringify(req)}\n`);
    return answer;
  }
}

const ok = (stdout: string): RunResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (text: string): RunResult => ({ stdout: '', stderr: `${text}\n`, exitCode: 1 });

/** ss's state names → the kernel's (tcp_states.h), as the lab prints them. */
function kernelState(ss: string): string {
  if (ss === 'ESTAB') return 'ESTABLISHED';
  return ss.replace(/^FIN-WAIT-(\d)$/, 'FIN_WAIT$1').replace(/-/g, '_');
}

export class KernelFlows {
  private readonly clients = new Map<string, FlowClient>();
  /** name → the remote address and protocol of the flows opened, per namespace. */
  private readonly remotes = new Map<string, { addr: string; port: number; proto: string }>();

  constructor(private readonly ttlSeconds = 180) {}

  private client(ns: string): FlowClient {
    let c = this.clients.get(ns);
    if (c === undefined) {
      const child = spawn('ip', [
        'netns',
        'exec',
        ns,
        process.execPath,
        CLIENT,
        String(this.ttlSeconds),
      ]);
      c = new FlowClient(child);
      this.clients.set(ns, c);
    }
    return c;
  }

  /**
   * The TCP state of the socket bound to `local` in `ns`, as `ss` reads it; undefined once the
   * kernel closed it (a socket in CLOSE is out of the tables `ss` dumps).
   */
  private tcpState(ns: string, local: string): string | undefined {
    const r = sh(['ip', 'netns', 'exec', ns, 'ss', '-Htan', 'state', 'all', 'src', local]);
    const state = r.stdout.trim().split(/\s+/)[0];
    return state === undefined || state === '' ? undefined : kernelState(state);
  }

  /** Runs one `lab flow …` command line in namespace `ns`. */
  async run(ns: string, command: string): Promise<RunResult> {
    const [lab, flow, sub, name = '', ...rest] = command.trim().split(/\s+/);
    if (lab !== 'lab' || flow !== 'flow') throw new Error(`not a lab flow command: ${command}`);
    const c = this.client(ns);
    const key = `${ns} ${name}`;
    if (sub === 'open') {
      const [proto = '', target = ''] = rest;
      const [addr = '', port = ''] = target.split(':');
      const waitMs = proto === 'tcp' ? TCP_WAIT_MS : 1000;
      const r = await c.ask({ op: 'open', name, proto, addr, port: Number(port), waitMs }, waitMs);
      if (r['ok'] !== true)
        return fail(
          `lab flow: ${name}: connect to ${addr} port ${port} (${proto}) failed: ${strerror(String(r['errno']))}`,
        );
      this.remotes.set(key, { addr, port: Number(port), proto });
      const local = String(r['local']);
      const state = proto === 'tcp' ? (this.tcpState(ns, local) ?? 'CLOSED') : 'CONNECTED';
      return ok(`${name} ${proto} ${local} -> ${target} ${state}\n`);
    }
    if (sub === 'send') {
      const remote = this.remotes.get(key);
      if (remote === undefined) return fail(`lab flow: ${name}: no such flow`);
      let waitMs: number | undefined;
      const words: string[] = [];
      for (let i = 0; i < rest.length; i++)
        if (rest[i] === '-w') waitMs = Math.round(Number(rest[++i]) * 1000);
        else words.push(rest[i]!);
      const http = remote.proto === 'tcp' && words.length === 0;
      const payload = http
        ? curlRequest(remote.addr, remote.port, '/')
        : `${words.length > 0 ? words.join(' ') : 'hello'}\n`;
      const limit = waitMs ?? (remote.proto === 'udp' ? UDP_DEFAULT_WAIT_MS : TCP_WAIT_MS);
      const r = await c.ask({ op: 'send', name, payload, http, waitMs: limit }, limit);
      if (typeof r['data'] === 'string') {
        if (!http) return ok(r['data']);
        const body = r['data'].slice(r['data'].indexOf('\r\n\r\n') + 4);
        return ok(body.endsWith('\n') ? body : `${body}\n`);
      }
      if (r['eof'] === true)
        return fail(`lab flow: ${name}: read: end of stream (the peer closed the connection)`);
      if (r['errno'] !== undefined)
        return fail(`lab flow: ${name}: ${String(r['stage'])}: ${strerror(String(r['errno']))}`);
      return fail(`lab flow: ${name}: no answer within ${limit / 1000} s`);
    }
    if (sub === 'close') {
      const r = await c.ask({ op: 'close', name }, 1000);
      this.remotes.delete(key);
      return r['ok'] === true ? ok('') : fail(`lab flow: ${name}: no such flow`);
    }
    if (sub === 'list') {
      const r = await c.ask({ op: 'list' }, 1000);
      const flows = r['flows'] as {
        name: string;
        proto: string;
        local: string;
        remote: string;
        open: boolean;
      }[];
      const lines = flows.map((f) => {
        if (f.proto === 'udp') return `${f.name} udp ${f.local} -> ${f.remote} CONNECTED\n`;
        // The lab prints `-` for the local address of a socket the kernel closed.
        const state = f.open ? this.tcpState(ns, f.local) : undefined;
        if (state === undefined) return `${f.name} tcp - -> ${f.remote} CLOSED\n`;
        return `${f.name} tcp ${f.local} -> ${f.remote} ${state}\n`;
      });
      return ok(lines.join(''));
    }
    throw new Error(`lab flow ${sub ?? ''}: not run on the kernel`);
  }

  /** Waits (at most `timeoutMs`) until the kernel closed the flow's socket; whether it did. */
  async waitClosed(ns: string, name: string, timeoutMs: number): Promise<boolean> {
    const r = await this.client(ns).ask({ op: 'list' }, 1000);
    const flow = (r['flows'] as { name: string; local: string }[]).find((f) => f.name === name);
    if (flow === undefined) return true;
    for (let waited = 0; waited <= timeoutMs; waited += 250) {
      if (this.tcpState(ns, flow.local) === undefined) return true;
      await new Promise((res) => setTimeout(res, 250));
    }
    return false;
  }

  /** Kills the flows' client processes (their sockets close). */
  destroy(): void {
    for (const c of this.clients.values()) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    this.clients.clear();
  }
}

/**
 * tcpdump on the kernel side of the experiments' differential tests. The lab's
 * `tcpdump -n -i IFACE [-c N]` shows the packets IFACE saw since the previous command; on the
 * kernel the same capture is started before that previous command runs (once tcpdump says
 * "listening on"), and stopped with SIGINT when the tcpdump line comes (or ends by itself
 * after N packets). Every wait is bounded.
 *
 * Normalised, because they differ by nature: timestamps, initial sequence numbers, TCP
 * timestamps, chosen ports, DNS ids. The lab does not model ARP, nor IGMP (the kernel sends
 * unsolicited IGMPv3 membership reports, to 224.0.0.22, at random times in the first seconds
 * after an interface comes up; a CI run once caught one on cni0): those lines are set aside
 * so that the unicast IP packets the experiments are about can be compared.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { RunResult } from './netns';
import type { NormaliseContext } from './normalise';

export interface Capture {
  readonly child: ChildProcess;
  readonly done: Promise<RunResult>;
  /** `-c N`: applied after ARP and IGMP lines are set aside (tcpdump itself would count them). */
  readonly count?: number;
}

function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Starts `command` (a tcpdump command line) in namespace `ns`; resolves once it listens. */
export async function startCapture(ns: string, command: string): Promise<Capture> {
  const argv = command.trim().split(/\s+/).slice(1);
  const c = argv.indexOf('-c');
  const count = c >= 0 ? Number(argv[c + 1]) : undefined;
  if (c >= 0) argv.splice(c, 2);
  // -l: line-buffered, so that what was printed before SIGINT is not lost.
  const child = spawn('ip', ['netns', 'exec', ns, 'tcpdump', '-l', ...argv]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const listening = new Promise<void>((resolve) =>
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('listening on')) resolve();
    }),
  );
  const done = new Promise<RunResult>((resolve) =>
    child.on('exit', (code) => resolve({ stdout, stderr, exitCode: code ?? 0 })),
  );
  try {
    await bounded(listening, 5_000, `${command} in ${ns}`);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return { child, done, ...(count !== undefined ? { count } : {}) };
}

/** Lets the last packets arrive, stops the capture and returns what tcpdump printed. */
export async function stopCapture(c: Capture): Promise<RunResult> {
  await new Promise((r) => setTimeout(r, 200));
  if (c.child.exitCode === null) c.child.kill('SIGINT');
  try {
    const r = await bounded(c.done, 5_000, 'tcpdump exit');
    if (c.count === undefined) return r;
    const ip = r.stdout.split('\n').filter((l) => l !== '' && !isBackground(l));
    return {
      ...r,
      stdout: ip
        .slice(0, c.count)
        .map((l) => `${l}\n`)
        .join(''),
    };
  } finally {
    if (c.child.exitCode === null) c.child.kill('SIGKILL');
  }
}

/**
 * ARP, and IGMP membership reports: traffic the lab does not model (see above). With -e the
 * line starts with the link-level header (`MAC > MAC, ethertype ARP (0x0806), …`; with `-i any`
 * `IFACE DIR ifindex N MAC ethertype …`) instead of `ARP, ` or `IP `.
 */
const LINK = String.raw`(?:ifindex \d+ )?[0-9a-f:]{17}(?: > [0-9a-f:]{17},)? ethertype`;
const isBackground = (line: string): boolean =>
  new RegExp(String.raw`^\S+ (\S+ +(In|Out|M|B|P) +)?(ARP, |${LINK} ARP )`).test(line) ||
  new RegExp(
    String.raw`^\S+ (\S+ +(In|Out|M|B|P) +)?(IP |${LINK} IPv4 \(0x0800\), length \d+: )\S+ > 224\.0\.0\.22: igmp `,
  ).test(line);

/** tcpdump's lines with what differs by nature masked; ARP and IGMP lines dropped (see above). */
export function normaliseCapture(r: RunResult, ctx: NormaliseContext): RunResult {
  const port = (p: string): string => (ctx.knownPorts.has(Number(p)) ? p : '<port>');
  // Packets to a Service with several endpoints: which one answered is a random draw.
  let text = r.stdout;
  for (const [vip, { service, addresses }] of ctx.randomEndpoints) {
    const [ip, p] = vip.split(':');
    if (!text.includes(` > ${ip}.${p}: `)) continue;
    for (const a of addresses)
      text = text.replace(
        new RegExp(`\\b${a.replace(/\./g, '\\.')}\\b`, 'g'),
        `<endpoint of ${service}>`,
      );
  }
  const lines = text
    .split('\n')
    .filter((l) => l !== '' && !isBackground(l))
    .map((l) =>
      l
        .replace(/^\d\d:\d\d:\d\d\.\d{6} /, '<time> ')
        .replace(/(\d+\.\d+\.\d+\.\d+)\.(\d+)([ :])/g, (_, a: string, p: string, e: string) => {
          return `${a}.${port(p)}${e}`;
        })
        // A capture started mid-connection prints absolute sequence numbers, `seq A:B` for
        // data: keep B as its distance from A (the segment's length, modulo 2^32).
        .replace(
          /\bseq (\d{6,}):(\d+)/g,
          (_, a: string, b: string) => `seq <isn>:<isn>+${(Number(b) - Number(a)) >>> 0}`,
        )
        .replace(/\b(seq|ack) \d{6,}/g, '$1 <isn>')
        .replace(/TS val \d+ ecr \d+/g, 'TS val <ts> ecr <ts>')
        // ping's echo identifier is the kernel's (or the lab's seeded) choice.
        .replace(/ICMP echo (request|reply), id \d+/, 'ICMP echo $1, id <id>')
        .replace(/: \d+([*+-]+|\s)/, ': <id>$1')
        .replace(/udp port \d+ unreachable/, (m) => m.replace(/\d+/, port(/\d+/.exec(m)![0]))),
    );
  // The counters are of all frames, ARP included: compare only the banner.
  const banner = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('tcpdump: verbose') || l.startsWith('listening on'))
    .join('\n');
  return { stdout: lines.map((l) => `${l}\n`).join(''), stderr: banner, exitCode: r.exitCode };
}

/**
 * `conntrack -E …`: the lab prints the events its node kept since it booted, and returns as if
 * interrupted. On the kernel the same command listens from before the script's first line and
 * is interrupted (SIGINT) when its line comes; conntrack then prints its footer. Resolves once
 * the listener's netlink socket is in the namespace's /proc/net/netlink (bounded: 5 s).
 */
export async function startEventListener(ns: string, command: string): Promise<Capture> {
  const argv = command.trim().split(/\s+/);
  const child = spawn('ip', ['netns', 'exec', ns, ...argv]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<RunResult>((resolve) =>
    child.on('exit', (code) => resolve({ stdout, stderr, exitCode: code ?? 0 })),
  );
  // `ip netns exec` execs the command: the listener's netlink port id is the child's pid.
  for (let waited = 0; ; waited += 50) {
    const sockets = spawnSync('ip', ['netns', 'exec', ns, 'cat', '/proc/net/netlink'], {
      encoding: 'utf8',
      timeout: 5_000,
    }).stdout;
    // Columns: sk Eth Pid Groups … ; NETLINK_NETFILTER is 12.
    if (sockets.split('\n').some((l) => new RegExp(`^\\S+ +12 +${child.pid} `).test(l))) break;
    if (waited >= 5_000 || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`${command} in ${ns}: not listening after 5 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, done };
}

/** Interrupts an event listener (after the last events arrived) and returns what it printed. */
export async function stopEventListener(c: Capture): Promise<RunResult> {
  await new Promise((r) => setTimeout(r, 200));
  if (c.child.exitCode === null) c.child.kill('SIGINT');
  try {
    return await bounded(c.done, 5_000, 'conntrack -E exit');
  } finally {
    if (c.child.exitCode === null) c.child.kill('SIGKILL');
  }
}

/**
 * Several network namespaces under one random prefix (`kpl-ip-<hex>-…`) for the `ip`
 * differential test, with tap devices held open by a python3 process (an attached tap has
 * carrier, like a VM's NIC). Everything is removed by cleanup(); the root namespace is never
 * touched.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { RunResult } from './netns';

/** Runs a command on the host (only ever `ip -n …` / `ip netns …` here) and returns its output. */
export function run(args: readonly string[]): RunResult {
  const r = spawnSync(args[0] ?? 'true', args.slice(1), { encoding: 'utf8', timeout: 30_000 });
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', exitCode: r.status ?? -1 };
}

export function must(args: readonly string[]): string {
  const r = run(args);
  if (r.exitCode !== 0) throw new Error(`${args.join(' ')} failed (${r.exitCode}): ${r.stderr}`);
  return r.stdout;
}

/** Opens /dev/net/tun for each named tap (TUNSETIFF, IFF_TAP|IFF_NO_PI): the taps live while it runs. */
const HOLDER = `
import fcntl, os, struct, sys, time
fds = []
for name in sys.argv[1:]:
    fd = os.open('/dev/net/tun', os.O_RDWR)
    fcntl.ioctl(fd, 0x400454ca, struct.pack('16sH', name.encode(), 0x0002 | 0x1000))
    fds.append(fd)
print('ready', flush=True)
time.sleep(300)
`;

export class NetnsSandbox {
  readonly prefix = `kpl-ip-${randomBytes(3).toString('hex')}`;
  private readonly named: string[] = [];
  private readonly holders: ChildProcess[] = [];

  /** Why these tests cannot run here ('' when they can). */
  static skipReason(): string {
    const probe = `kpl-ip-${randomBytes(3).toString('hex')}-probe`;
    const added = run(['ip', 'netns', 'add', probe]);
    if (added.exitCode !== 0) return `ip netns add is not possible here: ${added.stderr.trim()}`;
    run(['ip', 'netns', 'del', probe]);
    if (run(['python3', '-c', 'import fcntl']).exitCode !== 0) {
      return 'python3 is needed to hold tap devices open';
    }
    return '';
  }

  /** `ip netns add PREFIX-tag`, with IPv6 DAD off (no `tentative` addresses) and lo up. */
  add(tag: string): string {
    const name = `${this.prefix}-${tag}`;
    must(['ip', 'netns', 'add', name]);
    this.named.push(name);
    must([
      'ip',
      'netns',
      'exec',
      name,
      'sysctl',
      '-qw',
      'net.ipv6.conf.all.accept_dad=0',
      'net.ipv6.conf.default.accept_dad=0',
    ]);
    must(['ip', '-n', name, 'link', 'set', 'lo', 'up']);
    return name;
  }

  /** Removes a namespace's name; a holder process running inside keeps the namespace alive. */
  unname(name: string): void {
    run(['ip', 'netns', 'del', name]);
    this.named.splice(this.named.indexOf(name), 1);
  }

  /** Creates taps inside a namespace, held open by a python3 process until cleanup(). */
  async holdTaps(ns: string, devices: readonly string[]): Promise<void> {
    const child = spawn('ip', ['netns', 'exec', ns, 'python3', '-c', HOLDER, ...devices], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.holders.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (d: Buffer) =>
        d.toString().includes('ready') ? resolve() : undefined,
      );
      child.on('exit', (code) => reject(new Error(`tap holder exited (${code})`)));
    });
  }

  cleanup(): void {
    for (const h of this.holders) h.kill('SIGKILL');
    for (const ns of this.named) run(['ip', 'netns', 'del', ns]);
  }
}

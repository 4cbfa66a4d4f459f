/**
 * Runs commands inside a throwaway network namespace (`kpl-test-<random>`), so differential
 * tests can compare the engine with the real kernel without touching the host's rules.
 * The namespace is always deleted, also when the test fails.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export type NsRun = (argv: readonly string[], input?: string) => RunResult;

function sh(argv: readonly string[], input?: string): RunResult {
  const [cmd = '', ...args] = argv;
  const r = spawnSync(cmd, args, { input: input ?? '', encoding: 'utf8', timeout: 30_000 });
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', exitCode: r.status ?? -1 };
}

let cached: string | undefined | null = null;

/** undefined when namespaces can be used; otherwise why not (the tests are skipped). */
export function netnsUnavailableReason(): string | undefined {
  if (cached !== null) return cached;
  if (process.platform !== 'linux') return (cached = 'not Linux');
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    return (cached = 'not running as root');
  for (const tool of ['ip', 'iptables', 'iptables-restore', 'iptables-save', 'nfacct']) {
    if (sh(['sh', '-c', `command -v ${tool}`]).exitCode !== 0)
      return (cached = `${tool} is not installed`);
  }
  const version = sh(['iptables', '--version']).stdout.trim();
  if (version !== 'iptables v1.8.9 (nf_tables)')
    return (cached = `iptables is "${version}", not v1.8.9 (nf_tables)`);
  try {
    withNetns(() => undefined);
  } catch (e) {
    return (cached = `cannot create a network namespace: ${(e as Error).message}`);
  }
  return (cached = undefined);
}

/**
 * Creates a namespace, runs `fn` with a runner for commands inside it and the namespace's name
 * (to move a veth end into it from another), deletes it.
 */
export function withNetns<T>(fn: (run: NsRun, name: string) => T): T {
  const name = `kpl-test-${randomBytes(4).toString('hex')}`;
  const add = sh(['ip', 'netns', 'add', name]);
  if (add.exitCode !== 0) throw new Error(add.stderr.trim() || `ip netns add ${name} failed`);
  try {
    return fn((argv, input) => sh(['ip', 'netns', 'exec', name, ...argv], input), name);
  } finally {
    sh(['ip', 'netns', 'del', name]);
  }
}

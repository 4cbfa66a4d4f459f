/**
 * What the cluster of ./cluster-netns.ts needs from this machine, and the sysctls its
 * namespaces get. Every check runs here, once; nothing touches the root namespace.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { RunResult } from './netns';

export function sh(argv: readonly string[], input = '', timeoutMs = 30_000): RunResult {
  const r = spawnSync(argv[0] ?? 'true', argv.slice(1), {
    input,
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', exitCode: r.status ?? -1 };
}

let unavailable: string | undefined | null = null;

/** undefined when the cluster can be built here; otherwise why not (the tests say so and skip). */
export function clusterNetnsUnavailableReason(): string | undefined {
  if (unavailable !== null) return unavailable;
  if (process.platform !== 'linux') return (unavailable = 'not Linux');
  if (process.getuid?.() !== 0) return (unavailable = 'not running as root');
  for (const tool of ['ip', 'bridge', 'iptables', 'iptables-restore', 'nfacct', 'conntrack']) {
    if (sh(['sh', '-c', `command -v ${tool}`]).exitCode !== 0)
      return (unavailable = `${tool} is not installed`);
  }
  for (const tool of ['curl', 'sysctl']) {
    if (sh(['sh', '-c', `command -v ${tool}`]).exitCode !== 0)
      return (unavailable = `${tool} is not installed`);
  }
  const version = sh(['iptables', '--version']).stdout.trim();
  if (version !== 'iptables v1.8.9 (nf_tables)')
    return (unavailable = `iptables is "${version}", not v1.8.9 (nf_tables)`);
  // br_netfilter gives every namespace its own net.bridge.* sysctls; load it if it is missing.
  if (!existsSync('/proc/sys/net/bridge/bridge-nf-call-iptables')) sh(['modprobe', 'br_netfilter']);
  const probe = `kpl-cl-${randomBytes(3).toString('hex')}-probe`;
  const add = sh(['ip', 'netns', 'add', probe]);
  if (add.exitCode !== 0)
    return (unavailable = `cannot create a network namespace: ${add.stderr.trim()}`);
  try {
    const r = sh([
      'ip',
      'netns',
      'exec',
      probe,
      'sysctl',
      '-w',
      'net.bridge.bridge-nf-call-iptables=0',
    ]);
    if (r.exitCode !== 0)
      return (unavailable = `br_netfilter has no per-namespace sysctls here: ${r.stderr.trim()}`);
  } finally {
    sh(['ip', 'netns', 'del', probe]);
  }
  return (unavailable = undefined);
}

/** Sysctls that live in a network namespace (writing them inside one never reaches the host). */
export const PER_NETNS_SYSCTL =
  /^net\.(bridge\.bridge-nf-call-|ipv4\.|netfilter\.nf_conntrack_(tcp|udp)_)/;

/**
 * The lab models Debian bookworm's kernel (6.1). Later kernels changed two TCP defaults that
 * show in captures (both seen in this test's first runs on a 6.18 kernel): tcp_rmem's maximum
 * went from 6 MiB to 32 MiB, so SYNs carry wscale 10 instead of 7; and since 6.5 (commit
 * ccce324dabfe, "tcp: make the first N SYN RTO backoffs linear") the first 4 SYN
 * retransmissions come 1 s apart (tcp_syn_linear_timeouts = 4) where 6.1 doubles the timeout
 * every time (1 s, 2 s, 4 s…). Both are per-namespace sysctls: the namespaces get 6.1's values
 * (`-e`: a kernel without the second knob already behaves as 6.1).
 */
export const MODELLED_KERNEL =
  "-e net.ipv4.tcp_rmem='4096 131072 6291456' net.ipv4.tcp_syn_linear_timeouts=0";

/** kube-proxy (iptables mode) sets these at start (pkg/proxy/conntrack/sysctls). */
export const KUBE_PROXY_SYSCTLS = {
  'net.netfilter.nf_conntrack_tcp_timeout_established': '86400',
  'net.netfilter.nf_conntrack_tcp_timeout_close_wait': '3600',
};

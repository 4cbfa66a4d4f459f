/**
 * A node's /proc/sys files: the same values `sysctl` reads and writes (the conntrack table's
 * own included), as files, so that `cat /proc/sys/net/netfilter/nf_conntrack_count` and
 * `echo 0 > /proc/sys/net/bridge/bridge-nf-call-iptables` act as on a node.
 *
 * What the kernel does with a write, seen in a network namespace on Linux 6.18 with bash 5.2
 * (tests/kernel/proc-sys-writes.test.ts): the text is parsed as `sysctl -w` has it parsed
 * (proc_dointvec(): commands/sysctl-value.ts), so `echo abc >` fails with EINVAL while the
 * value stays; a read-only file (nf_conntrack_count, 0444) refuses the open with EACCES even
 * for root; a path that is not a sysctl is ENOENT, a directory of them EISDIR.
 */
import type { HostFileWriter, NodeKernelControls } from '../commands/registry';
import { SYSCTL_REAL_KEYS } from '../commands/sysctl';
import { intSysctlValue } from '../commands/sysctl-value';

const PREFIX = '/proc/sys/';

/** The sysctl key a /proc/sys path names (`net/ipv4/ip_forward` → `net.ipv4.ip_forward`). */
export function procSysKey(path: string): string | undefined {
  if (!path.startsWith(PREFIX)) return undefined;
  return path.slice(PREFIX.length).replace(/\//g, '.');
}

/** The file's text (the value and a newline), or undefined: the lab has no such file. */
export function readProcSys(node: NodeKernelControls, key: string): string | undefined {
  const value = node.sysctl(key);
  return value === undefined ? undefined : `${value}\n`;
}

/**
 * What opening the file for writing gives: a writer, the kernel's refusal, or undefined for a
 * file a node has that the lab does not model (the caller says so rather than claim it is
 * missing).
 */
export function openProcSys(
  node: NodeKernelControls,
  key: string,
): HostFileWriter | { readonly error: string } | undefined {
  const current = node.sysctl(key);
  if (current === undefined) {
    if (SYSCTL_REAL_KEYS.has(key)) return undefined;
    const known = [...node.sysctlKeys(), ...SYSCTL_REAL_KEYS];
    const directory = key === '' || known.some((k) => k.startsWith(`${key}.`));
    return { error: directory ? 'Is a directory' : 'No such file or directory' };
  }
  if (node.sysctlReadOnly?.(key) === true) return { error: 'Permission denied' };
  return {
    write(text) {
      // The lab's sysctls are integers (their values say so); another would keep the text.
      const stored = /^-?\d+$/.test(current) ? intSysctlValue(key, text) : text.trim();
      if (stored === undefined) return 'Invalid argument';
      node.setSysctl(key, stored);
      return undefined;
    },
  };
}

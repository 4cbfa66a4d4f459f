/**
 * What the kernel stores when `sysctl -w KEY=VALUE` writes an integer sysctl, as proc_dointvec()
 * reads the text (checked in a network namespace on Linux 6.1 with procps sysctl): blanks before
 * and after are skipped, a `-` is taken but not a `+`, the base is C's (`0x1` is 1, `010` is 8),
 * anything else after the number is EINVAL, and only the first number of `1 2` is read. Some
 * sysctls then apply their own rule: br_netfilter's bridge-nf-call-* store any non-zero value
 * as 1 (brnf_sysctl_call_tables()), and nf_conntrack_tcp_be_liberal takes 0 or 1 only
 * (proc_dou8vec_minmax); the conntrack table's own sysctls have theirs (conntrack/sysctls.ts).
 * sysctl echoes the text as given; reading the key back gives the value.
 */
import { conntrackSysctlAccepts, isConntrackSysctl } from '../conntrack/sysctls';

/** The value to store, or undefined: the kernel answers EINVAL. */
export function intSysctlValue(key: string, text: string): string | undefined {
  const m = /^[ \t\n]*(-?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)(?:[ \t\n].*)?$/s.exec(text);
  if (m === null) return undefined;
  const digits = m[2]!;
  const magnitude = /^0[xX]/.test(digits)
    ? parseInt(digits.slice(2), 16)
    : digits.length > 1 && digits.startsWith('0')
      ? parseInt(digits, 8)
      : Number(digits);
  const value = m[1] === '-' ? -magnitude : magnitude;
  if (value > 2147483647 || value < -2147483648) return undefined;
  if (key.startsWith('net.bridge.bridge-nf-call-')) return value !== 0 ? '1' : '0';
  if (key === 'net.netfilter.nf_conntrack_tcp_be_liberal' && value !== 0 && value !== 1)
    return undefined;
  if (isConntrackSysctl(key) && !conntrackSysctlAccepts(key, value)) return undefined;
  return String(value);
}

/**
 * The conntrack sysctls of a node's network namespace that the lab's table holds
 * (net/netfilter/nf_conntrack_standalone.c, Linux 6.1): `sysctl` reads them from the table and
 * writes them into it, so `sysctl -w net.netfilter.nf_conntrack_tcp_timeout_established=600`
 * changes the timeout the next packet of a connection gets, as in the kernel, which reads the
 * timeout per packet (an entry keeps its current expiry until then).
 *
 * On a node they start as kube-proxy leaves them: it sets established to 24 h and close_wait
 * to 1 h (KubeProxyConntrackConfiguration defaults, model.ts kubeProxyConfig()); the others are
 * the kernel's defaults. nf_conntrack_count is read-only: the number of confirmed entries.
 */
import type { CtTable, CtTimeouts } from './model';

const TIMEOUT_KEYS: Readonly<Record<string, keyof CtTimeouts>> = {
  'net.netfilter.nf_conntrack_icmp_timeout': 'icmp',
  'net.netfilter.nf_conntrack_tcp_timeout_close': 'tcpClose',
  'net.netfilter.nf_conntrack_tcp_timeout_close_wait': 'tcpCloseWait',
  'net.netfilter.nf_conntrack_tcp_timeout_established': 'tcpEstablished',
  'net.netfilter.nf_conntrack_tcp_timeout_fin_wait': 'tcpFinWait',
  'net.netfilter.nf_conntrack_tcp_timeout_last_ack': 'tcpLastAck',
  'net.netfilter.nf_conntrack_tcp_timeout_max_retrans': 'tcpMaxRetrans',
  'net.netfilter.nf_conntrack_tcp_timeout_syn_recv': 'tcpSynRecv',
  'net.netfilter.nf_conntrack_tcp_timeout_syn_sent': 'tcpSynSent',
  'net.netfilter.nf_conntrack_tcp_timeout_time_wait': 'tcpTimeWait',
  'net.netfilter.nf_conntrack_tcp_timeout_unacknowledged': 'tcpUnacknowledged',
  'net.netfilter.nf_conntrack_udp_timeout': 'udp',
  'net.netfilter.nf_conntrack_udp_timeout_stream': 'udpStream',
};

const COUNT = 'net.netfilter.nf_conntrack_count';
const LOOSE = 'net.netfilter.nf_conntrack_tcp_loose';
const MAX_RETRANS = 'net.netfilter.nf_conntrack_tcp_max_retrans';

/** The keys, sorted. */
export const CONNTRACK_SYSCTL_KEYS: readonly string[] = [
  COUNT,
  LOOSE,
  MAX_RETRANS,
  ...Object.keys(TIMEOUT_KEYS),
].sort();

/** Whether `key` is one of the table's sysctls. */
export function isConntrackSysctl(key: string): boolean {
  return key === COUNT || key === LOOSE || key === MAX_RETRANS || Object.hasOwn(TIMEOUT_KEYS, key);
}

/** nf_conntrack_count is 0444: procps refuses to write it (sysctl.ts says how). */
export function conntrackSysctlReadOnly(key: string): boolean {
  return key === COUNT;
}

/** The value as the kernel prints it, or undefined for another key. */
export function readConntrackSysctl(table: CtTable, key: string): string | undefined {
  if (key === COUNT) return String(table.count);
  if (key === LOOSE) return table.config.tcpLoose ? '1' : '0';
  if (key === MAX_RETRANS) return String(table.config.tcpMaxRetrans);
  const field = TIMEOUT_KEYS[key];
  return field === undefined ? undefined : String(table.config.timeouts[field]);
}

/**
 * The largest |seconds| proc_dointvec_jiffies() takes: INT_MAX / HZ, with Debian's HZ=250
 * (8589935 is EINVAL, 8589934 is taken; seen with procps 4.0.2 on a kernel with HZ=250).
 */
const MAX_JIFFIES_SECONDS = Math.floor(2147483647 / 250);

/**
 * Whether the kernel takes `value` for `key` (the timeouts: proc_dointvec_jiffies, negative
 * values included; tcp_loose: proc_dou8vec_minmax 0..1; tcp_max_retrans: proc_dou8vec 0..255).
 */
export function conntrackSysctlAccepts(key: string, value: number): boolean {
  if (key === LOOSE) return value === 0 || value === 1;
  if (key === MAX_RETRANS) return value >= 0 && value <= 255;
  return Math.abs(value) <= MAX_JIFFIES_SECONDS;
}

/** Stores an accepted value (see conntrackSysctlAccepts()). */
export function writeConntrackSysctl(table: CtTable, key: string, value: number): void {
  if (key === LOOSE) table.config = { ...table.config, tcpLoose: value !== 0 };
  else if (key === MAX_RETRANS) table.config = { ...table.config, tcpMaxRetrans: value };
  else {
    const field = TIMEOUT_KEYS[key];
    if (field === undefined) return;
    table.config = { ...table.config, timeouts: { ...table.config.timeouts, [field]: value } };
  }
}

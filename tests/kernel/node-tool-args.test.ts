/**
 * sleep's, sysctl's, bridge's and tcpdump's answers to bad command lines, compared with the real
 * tools (coreutils 9.1 sleep in the C locale, procps sysctl, iproute2 bridge, tcpdump 4.99.3) in a
 * throwaway network namespace: same stdout, stderr and exit status. Each case is a few command
 * lines run in order on node-1 of the built-in scenario and in the namespace, so a write and the
 * read after it (the kernel's value, not the text written) are compared too. None of them sends
 * a packet or waits: sleeps are of invalid intervals, tcpdump fails before it captures.
 */
import { describe, expect, it } from 'vitest';
import { netnsUnavailableReason, withNetns } from './netns';
import { asNode, labOnNode1 } from './node-lines';
import { SYSCTL_REAL_KEYS } from '../../src/engine/commands/sysctl';
import { CONNTRACK_SYSCTL_KEYS } from '../../src/engine/conntrack/sysctls';

const skip = netnsUnavailableReason();
if (skip !== undefined) console.log(`skipping the node tools' argument comparison: ${skip}`);

// prettier-ignore
const CASES: readonly (readonly string[])[] = [
  ['sleep -1'], ['sleep --foo'], ['sleep -x'], ['sleep 1e'], ['sleep nan'], ['sleep abc'], ['sleep 0.1ms'],
  ['sysctl -w net.ipv4.ip_forward=abc', 'sysctl net.ipv4.ip_forward'],
  ['sysctl -w net.ipv4.ip_forward=1x'], ['sysctl -w net.ipv4.ip_forward=+1'], ['sysctl -w net.ipv4.ip_forward='],
  ['sysctl -w net.ipv4.ip_forward=0x1', 'sysctl net.ipv4.ip_forward'],
  ['sysctl -w net.ipv4.ip_forward=010', 'sysctl net.ipv4.ip_forward'],
  ['sysctl -w "net.ipv4.ip_forward= 1 2"', 'sysctl -n net.ipv4.ip_forward'],
  ['sysctl -w "net.ipv4.ip_forward=  0  "', 'sysctl net.ipv4.ip_forward'],
  ['sysctl -w net.bridge.bridge-nf-call-iptables=2', 'sysctl net.bridge.bridge-nf-call-iptables'],
  ['sysctl -w net.ipv4.ip_forward=-1', 'sysctl net.ipv4.ip_forward'],
  ['sysctl -w net.netfilter.nf_conntrack_tcp_be_liberal=2'],
  ['sysctl -w net.netfilter.nf_conntrack_tcp_be_liberal=1', 'sysctl net.netfilter.nf_conntrack_tcp_be_liberal'],
  ['bridge link show dev nope'],
  ['tcpdump -i nope -c 1'], ['tcpdump -c abc -i eth0'], ['tcpdump -c 0x2 -i nope'], ['tcpdump -i nope -c 5x'],
  ['tcpdump -c 0 -i nope'], ['tcpdump -c -1 -i nope'],
  // sysctl's options (procps-ng 4.0.2 getopt_long): an unknown one prints the usage on stdout
  // and exits 0; combined letters, options after keys, unique prefixes of long options.
  ['sysctl -z'], ['sysctl --foo'], ['sysctl --d'], ['sysctl -r'], ['sysctl -h'], ['sysctl -V'], ['sysctl --ver'],
  ['sysctl -b net.ipv4.ip_forward'], ['sysctl net.ipv4.ip_forward -n'], ['sysctl -Nn net.ipv4.ip_forward'],
  ['sysctl -wq net.ipv4.ip_forward=1'], ['sysctl -e net.foo.bar'], ['sysctl -e -w net.foo.bar=1'],
  ['sysctl --val net.ipv4.ip_forward'], ['sysctl -ox net.ipv4.ip_forward'], ['sysctl -q net.ipv4.ip_forward'],
  // The conntrack table's sysctls (conntrack/sysctls.ts), as kube-proxy leaves them on a node;
  // the kernel's bounds (jiffies, u8 min/max) and the read-only count (procps warns, exit 0).
  [`sysctl ${CONNTRACK_SYSCTL_KEYS.join(' ')}`],
  ['sysctl -w net.netfilter.nf_conntrack_count=5', 'sysctl -q -w net.netfilter.nf_conntrack_count=5', 'sysctl -n net.netfilter.nf_conntrack_count'],
  ['sysctl -w net.netfilter.nf_conntrack_tcp_timeout_established=600', 'sysctl net.netfilter.nf_conntrack_tcp_timeout_established'],
  ['sysctl -w net.netfilter.nf_conntrack_tcp_timeout_time_wait=-1', 'sysctl net.netfilter.nf_conntrack_tcp_timeout_time_wait'],
  ['sysctl -w net.netfilter.nf_conntrack_tcp_timeout_established=8589935', 'sysctl -w net.netfilter.nf_conntrack_tcp_timeout_established=8589934', 'sysctl -w net.netfilter.nf_conntrack_tcp_timeout_close=-8589935'],
  ['sysctl -w net.netfilter.nf_conntrack_udp_timeout=0x10 "net.netfilter.nf_conntrack_udp_timeout_stream= 60 "', 'sysctl net.netfilter.nf_conntrack_udp_timeout net.netfilter.nf_conntrack_udp_timeout_stream'],
  ['sysctl -w net.netfilter.nf_conntrack_icmp_timeout=abc', 'sysctl -w net.netfilter.nf_conntrack_tcp_loose=2', 'sysctl -w net.netfilter.nf_conntrack_tcp_loose=0', 'sysctl net.netfilter.nf_conntrack_tcp_loose'],
  ['sysctl -w net.netfilter.nf_conntrack_tcp_max_retrans=256', 'sysctl -w net.netfilter.nf_conntrack_tcp_max_retrans=255', 'sysctl net.netfilter.nf_conntrack_tcp_max_retrans'],
];

describe.skipIf(skip !== undefined)(
  'node tools: bad command lines as the real tools answer them',
  () => {
    it.each(CASES.map((lines) => [lines.join(' ; '), lines] as const))('%s', (_, lines) => {
      const real = withNetns((run) => {
        asNode(run);
        return lines.map((l) => {
          const r = run(['env', 'LC_ALL=C', 'sh', '-c', l]);
          return `${r.stdout}|${r.stderr}|${r.exitCode}`;
        });
      });
      expect(labOnNode1(lines)).toEqual(real);
    });
  },
);

describe.skipIf(skip !== undefined)('sysctl: the real keys the lab calls not modelled', () => {
  it('exist on a real node (in a namespace), so "cannot stat" would be false', () => {
    const missing = withNetns((run) => {
      run(['iptables', '-t', 'nat', '-L', '-n']);
      run([
        'sh',
        '-c',
        'modprobe nf_conntrack 2>/dev/null; modprobe br_netfilter 2>/dev/null; true',
      ]);
      return [...SYSCTL_REAL_KEYS].filter((k) => run(['sysctl', '-n', k]).exitCode !== 0);
    });
    expect(missing).toEqual([]);
  });
});

/**
 * `echo 0 > /proc/sys/net/bridge/bridge-nf-call-iptables`: the lab shell's writes to a node's
 * /proc/sys files, compared with bash 5.2 and the kernel in a throwaway network namespace (each
 * line through an interactive bash, as on a terminal: its messages carry no `line 1:`). Same
 * stdout, stderr and exit status for every line, in order, and the values read back after the
 * writes: what the kernel parses (proc_dointvec), what it refuses (EINVAL on the write, EACCES
 * on opening the read-only nf_conntrack_count, ENOENT, EISDIR), how bash orders redirections
 * (`2>/dev/null` after a failed `>` does not apply yet), and what each program prints when its
 * write fails.
 */
import { describe, expect, it } from 'vitest';
import { netnsUnavailableReason, withNetns } from './netns';
import { asNode, labOnNode1 } from './node-lines';

const skip = netnsUnavailableReason();
if (skip !== undefined) console.log(`skipping the /proc/sys write comparison: ${skip}`);

const BRIDGE = '/proc/sys/net/bridge/bridge-nf-call-iptables';
const FORWARD = '/proc/sys/net/ipv4/ip_forward';
const COUNT = '/proc/sys/net/netfilter/nf_conntrack_count';
const TIME_WAIT = '/proc/sys/net/netfilter/nf_conntrack_tcp_timeout_time_wait';
const LOOSE = '/proc/sys/net/netfilter/nf_conntrack_tcp_loose';

// prettier-ignore
const CASES: readonly (readonly string[])[] = [
  [`echo 0 > ${BRIDGE}; echo "rc=$?"`, `cat ${BRIDGE}`, 'sysctl net.bridge.bridge-nf-call-iptables', `echo 2 >> ${BRIDGE}`, `cat ${BRIDGE}`],
  [`echo abc > ${FORWARD}`, `echo > ${FORWARD}`, `echo "  0 1" > ${FORWARD}`, `cat ${FORWARD}`, `echo -n 1 > ${FORWARD}; cat ${FORWARD}`],
  [`echo 5 > ${COUNT} 2>/dev/null`, `echo 5 2>/dev/null > ${COUNT}`, 'echo 1 > /proc/sys/nosuch', 'echo 1 > /proc/sys/net/netfilter', `cat ${COUNT}`],
  [`echo 0x10 > ${TIME_WAIT}`, `cat ${TIME_WAIT}`, `echo -5 > ${TIME_WAIT}`, `echo 99999999999 > ${TIME_WAIT}`, `echo +7 > ${TIME_WAIT}`, `sysctl -n net.netfilter.nf_conntrack_tcp_timeout_time_wait`],
  [`echo 2 > ${LOOSE}`, `seq 0 > ${LOOSE}`, 'sysctl net.netfilter.nf_conntrack_tcp_loose'],
  [`echo abc | cat > ${FORWARD}`, `echo abc | grep a > ${FORWARD}`, `echo abc | awk '{print}' > ${FORWARD}`, `echo abc | sort > ${FORWARD}`, `echo abc | head -1 > ${FORWARD}`, `echo abc | tail -1 > ${FORWARD}`, `echo abc | tr a b > ${FORWARD}`, `echo abc | cut -c1-3 > ${FORWARD}`, `echo abc | uniq > ${FORWARD}`],
  [`echo abc > ${FORWARD} 2>&1; echo "rc=$?"`, `echo 0 > ${FORWARD} > /dev/null; cat ${FORWARD}`, `echo 0 > /dev/null > ${FORWARD}; cat ${FORWARD}`],
  ['x="a b"; echo 1 > $x', 'echo 1 > $nosuch', `P=${FORWARD}; echo 1 > "$P"; cat $P`],
  [`printf abc > ${FORWARD}; echo "rc=$?"`, `printf '%d\\n' 0 > ${FORWARD}; cat ${FORWARD}`, `printf 1 > ${BRIDGE}; cat ${BRIDGE}`],
];

/** What an interactive bash without a terminal says first, before running anything. */
const JOB_CONTROL =
  /^bash: cannot set terminal process group \(\d+\): Inappropriate ioctl for device\nbash: no job control in this shell\n/;

describe.skipIf(skip !== undefined)('writes to /proc/sys, as bash and the kernel do them', () => {
  it.each(CASES.map((lines) => [lines.join(' ; '), lines] as const))('%s', (_, lines) => {
    const real = withNetns((run) => {
      asNode(run);
      return lines.map((l) => {
        const r = run(['env', 'LC_ALL=C', 'bash', '--norc', '--noprofile', '+m', '-i', '-c', l]);
        return `${r.stdout}|${r.stderr.replace(JOB_CONTROL, '')}|${r.exitCode}`;
      });
    });
    expect(labOnNode1(lines)).toEqual(real);
  });
});

/**
 * The kernel's conntrack statistics (struct ip_conntrack_stat, include/linux/netfilter/
 * nf_conntrack_common.h) as `conntrack -S` prints them: one line per CPU with the counters
 * ctnetlink_ct_stat_cpu_fill_info() (nf_conntrack_netlink.c) sends, in its order.
 *
 * What the lab counts, each where kernel 6.x counts it:
 * - found: nf_conntrack_tuple_taken() saw a NAT candidate's tuple in use (nat.ts); since the
 *   lookup counters were removed (Linux 4.10), a packet that finds its entry counts nothing.
 * - invalid: nf_conntrack_in() could not track the packet (no tuple, or the protocol tracker
 *   refused it: bad TCP flags, a TCP segment that opens nothing, an ICMP type that creates no
 *   connection). The lab's trackers never answer NF_DROP, so invalid never adds to drop.
 * - error: nf_conntrack_handle_icmp() refused an ICMP error (no connection for its inner
 *   header, or addressed elsewhere than that connection's source).
 * - insert_failed and drop: __nf_conntrack_confirm() found the tuple already in the hash.
 *
 * What stays 0, because the lab cannot produce it (a learner must never see a made-up count):
 * - insert: in 6.x only nf_conntrack_hash_check_insert(), i.e. `conntrack -I`, counts it;
 *   __nf_conntrack_confirm() on the packet path does not (on 6.18, 4 flows left insert=0).
 *   The lab does not run `conntrack -I`.
 * - early_drop: the lab has no nf_conntrack_max, so the table is never full.
 * - search_restart: an RCU lookup racing a resize on another CPU; the lab runs one packet at
 *   a time.
 * - clash_resolve: UDP clash resolution (nf_ct_resolve_clash) is not modelled; the lab drops
 *   every clashing packet (insert_failed).
 * - chaintoolong: the lab's hash has no bucket chains.
 *
 * CPUs: the lab's nodes have 2 (kubectl's node capacity, commands/kubectl/objects-node.ts).
 * The kernel counts on the CPU that handled the packet; the lab has no CPUs to schedule on,
 * so every count is on cpu=0 and cpu=1 stays 0 (the lab note after the lines says so).
 */

/** The counters in the order `conntrack -S` prints them (conntrack-tools 1.4.7 on 6.18). */
export const CT_STAT_NAMES = [
  'found',
  'invalid',
  'insert',
  'insert_failed',
  'drop',
  'early_drop',
  'error',
  'search_restart',
  'clash_resolve',
  'chaintoolong',
] as const;

export type CtStatName = (typeof CT_STAT_NAMES)[number];

/** The counters of one table (one network namespace), summed over its CPUs. */
export type CtStats = { [K in CtStatName]: number };

/** `conntrack -S expect`: the expectation counters (the lab has no helpers: always 0). */
const EXPECT_STAT_NAMES = ['expect_new', 'expect_create', 'expect_delete'] as const;

/** CPUs of a lab node (the capacity `kubectl get node -o yaml` shows). */
export const LAB_NODE_CPUS = 2;

export function emptyCtStats(): CtStats {
  return {
    found: 0,
    invalid: 0,
    insert: 0,
    insert_failed: 0,
    drop: 0,
    early_drop: 0,
    error: 0,
    search_restart: 0,
    clash_resolve: 0,
    chaintoolong: 0,
  };
}

/**
 * One line per CPU: nfct_stats_cb() prints `cpu=%-4u\t` then `name=%u ` per attribute
 * (a trailing space before the newline).
 */
function perCpuLines(names: readonly string[], cpu0: (name: string) => number): string {
  let text = '';
  for (let cpu = 0; cpu < LAB_NODE_CPUS; cpu++) {
    const fields = names.map((n) => `${n}=${cpu === 0 ? cpu0(n) : 0} `).join('');
    text += `cpu=${String(cpu).padEnd(4)}\t${fields}\n`;
  }
  return text;
}

/** `conntrack -S`: the table's counters, all on cpu=0. */
export function conntrackStatsText(stats: CtStats): string {
  return perCpuLines(CT_STAT_NAMES, (n) => stats[n as CtStatName] >>> 0);
}

/** `conntrack -S expect`. */
export function expectStatsText(): string {
  return perCpuLines(EXPECT_STAT_NAMES, () => 0);
}

/**
 * kube-proxy's conntrack cleanup (CleanStaleEntries, pkg/proxy/conntrack/cleanup.go) on a
 * real node's table, as kube-proxy does it: it lists the UDP entries (a netlink dump), keeps
 * those its filters select — the original destination is a frontend of a UDP service port and
 * the reply source is not one of its serving endpoints — and deletes each (a netlink delete of
 * the entry's original tuple; here `conntrack -D` with that tuple). The filters are the ones
 * the engine's kube-proxy computed for the same sync (recorded kernel operation
 * `conntrackCleanup`); which entries they select is decided on the kernel's own table.
 */
import { isStaleUdpEntry, type StaleUdpFilter } from '../../src/engine/sim/conntrack-cleanup';
import { sh } from './netns-env';

interface UdpEntry {
  readonly src: string;
  readonly dst: string;
  readonly sport: string;
  readonly dport: string;
  readonly backend: string;
}

/** The UDP entries of `conntrack -L -p udp`: the original tuple and the reply's source. */
function udpEntries(text: string): UdpEntry[] {
  const entries: UdpEntry[] = [];
  for (const line of text.split('\n')) {
    const t = [...line.matchAll(/src=(\S+) dst=(\S+) sport=(\d+) dport=(\d+)/g)];
    const [o, r] = t;
    if (o === undefined || r === undefined) continue;
    entries.push({
      src: o[1]!,
      dst: o[2]!,
      sport: o[3]!,
      dport: o[4]!,
      backend: `${r[1]}:${r[3]}`,
    });
  }
  return entries;
}

/** Runs the cleanup in namespace `ns` (a node's); returns the entries deleted. */
export function cleanStaleUdpEntries(ns: string, filters: readonly StaleUdpFilter[]): number {
  const run = (...argv: string[]) => sh(['ip', 'netns', 'exec', ns, 'conntrack', ...argv]);
  const listed = run('-L', '-p', 'udp');
  if (listed.exitCode !== 0) throw new Error(`conntrack -L: ${listed.stderr}`);
  let deleted = 0;
  for (const e of udpEntries(listed.stdout)) {
    if (!isStaleUdpEntry(filters, e.dst, Number(e.dport), e.backend)) continue;
    const d = run(
      '-D',
      '-p',
      'udp',
      '-s',
      e.src,
      '-d',
      e.dst,
      '--sport',
      e.sport,
      '--dport',
      e.dport,
    );
    // The entry may have expired between the dump and the delete, as in kube-proxy.
    if (d.exitCode === 0) deleted++;
  }
  return deleted;
}

/**
 * `tcpdump [-n|-nn] [-e] [-l] [-S] -i IFACE|any [-c N] [FILTER…]`: the packets the host's interface
 * (or all of them, with `-i any`) saw since the previous command, in tcpdump 4.99's format,
 * through a pcap filter (../hosts/output/pcap-filter.ts). Without -n, ports are printed by name
 * (/etc/services) and addresses stay numeric: the lab's hosts have no reverse DNS for cluster
 * addresses (a real node's lookups would fail the same way; a pod's would go to CoreDNS).
 * `-e` adds each frame's MACs, looked up when the command runs (../datapath/link-header.ts).
 */
import { linkMacs, type CaptureRecord } from '../datapath';
import { createTcpdumpState, parseCaptureFilter, strtolPrefix, tcpdumpLine } from '../hosts';
import type { CommandContext, CommandResult } from './registry';
import { labNote } from '../model/lab-notes';

const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });

/**
 * What tcpdump prints after a missing option argument: its version, the libraries' (Debian
 * bookworm's tcpdump 4.99.3 build, with that release's libssl), and its usage.
 */
const TCPDUMP_USAGE = [
  'tcpdump version 4.99.3',
  'libpcap version 1.10.3 (with TPACKET_V3)',
  'OpenSSL 3.0.19 27 Jan 2026',
  'Usage: tcpdump [-AbdDefhHIJKlLnNOpqStuUvxX#] [ -B size ] [ -c count ] [--count]',
  '\t\t[ -C file_size ] [ -E algo:secret ] [ -F file ] [ -G seconds ]',
  '\t\t[ -i interface ] [ --immediate-mode ] [ -j tstamptype ]',
  '\t\t[ -M secret ] [ --number ] [ --print ] [ -Q in|out|inout ]',
  '\t\t[ -r file ] [ -s snaplen ] [ -T type ] [ --version ]',
  '\t\t[ -V file ] [ -w file ] [ -W filecount ] [ -y datalinktype ]',
  '\t\t[ --time-stamp-precision precision ] [ --micro ] [ --nano ]',
  '\t\t[ -z postrotate-command ] [ -Z user ] [ expression ]',
  '',
].join('\n');

function direction(
  iface: string,
  dir: 'in' | 'out',
  bridgePorts: ReadonlySet<string>,
): 'In' | 'Out' | 'P' {
  // prettier-ignore
  if (dir === 'out') return 'Out';
  return bridgePorts.has(iface) ? 'P' : 'In';
}

export function tcpdump(ctx: CommandContext, argv: string[]): CommandResult {
  let iface: string | undefined;
  let count: number | undefined;
  let numeric = false;
  let absolute = false;
  let linkHeader = false;
  const filter: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') filter.push(a);
    else if (/^-[nlSe]+$/.test(a)) {
      numeric ||= a.includes('n');
      absolute ||= a.includes('S');
      linkHeader ||= a.includes('e');
    } else if (a === '-i' || a === '-c' || (/^-[ic]/.test(a) && a.length > 2)) {
      const value = a.length > 2 ? a.slice(2) : args[++i];
      if (value === undefined)
        return fail(`tcpdump: option requires an argument -- '${a[1]}'\n${TCPDUMP_USAGE}`);
      if (a[1] === 'i') iface = value;
      else {
        // tcpdump 4.99: strtol(optarg, NULL, 10), at least 1 (`5x` is 5, `0x2` is 0).
        count = strtolPrefix(value);
        if (count <= 0) return fail(`tcpdump: invalid packet count ${value}\n`);
      }
    } else return fail(labNote('tcpdump.option', { option: a }));
  }
  if (iface === undefined) return fail(labNote('tcpdump.interface'));
  const interfaces = ctx.world.network?.()?.interfaces;
  if (iface !== 'any' && interfaces !== undefined && !interfaces.some((i) => i.name === iface))
    return fail(`tcpdump: ${iface}: No such device exists\n(No such device exists)\n`);
  const match = parseCaptureFilter(filter);
  if (typeof match !== 'function') return fail(`tcpdump: ${match.error}\n`);
  const any = iface === 'any';
  // A frame entering a bridge port is addressed to the bridge or to another port, never to the
  // port itself: packet sockets see it as PACKET_OTHERHOST ("P"; seen on the kernel).
  const bridgePorts = new Set(
    (ctx.world.network?.()?.interfaces ?? [])
      .filter((i) => i.master !== undefined)
      .map((i) => i.name),
  );
  // libpcap drops what a packet socket sees leaving lo (PACKET_OUTGOING on the loopback
  // ifindex, pcap-linux.c): the same packet comes back in, and is shown once, as In.
  const records = ctx.world
    .captures()
    .filter((r) => (any || r.iface === iface) && !(r.iface === 'lo' && r.dir === 'out') && match(r.packet)); // prettier-ignore
  const shown = count !== undefined ? records.slice(0, count) : records;
  const state = createTcpdumpState();
  const ifindex = new Map(interfaces?.map((i) => [i.name, i.ifindex]));
  let unknownLinks = 0;
  const linkOf = (r: CaptureRecord) => {
    if (!linkHeader) return {};
    const macs = r.frame === undefined ? undefined : linkMacs(ctx.world.cluster, r.frame);
    const index = ifindex.get(r.iface);
    if (macs === undefined || index === undefined) {
      unknownLinks++;
      return {};
    }
    return { link: { ...macs, ifindex: index } };
  };
  const lines = shown.map((r) =>
    tcpdumpLine(
      state,
      r.packet,
      { epochSeconds: ctx.world.epochSeconds, labMs: r.t },
      {
        absolute,
        names: !numeric,
        ...(any ? { any: { iface: r.iface, direction: direction(r.iface, r.dir, bridgePorts) } } : {}), // prettier-ignore
        ...linkOf(r),
      },
    ),
  );
  // tcpdump's banner and summary go to stderr (as it prints them when stdout is not a tty).
  const link = any ? 'LINUX_SLL2 (Linux cooked v2)' : 'EN10MB (Ethernet)';
  const banner =
    (any ? 'tcpdump: data link type LINUX_SLL2\n' : '') +
    'tcpdump: verbose output suppressed, use -v[v]... for full protocol decode\n' +
    `listening on ${iface}, link-type ${link}, snapshot length 262144 bytes\n`;
  // tcpdump's PLURAL_SUFFIX: "1 packet captured", "0 packets dropped by kernel" (tcpdump 4.99).
  const n = shown.length;
  const stats = `${packets(n)} captured\n${packets(n)} received by filter\n${packets(0)} dropped by kernel\n`; // prettier-ignore
  // A frame whose sender or receiver is gone (a deleted pod) has no MACs left to look up.
  const note = unknownLinks > 0 ? labNote('tcpdump.link-unknown', { count: unknownLinks }) : '';
  const stdout = lines.map((l) => `${l}\n`).join('');
  // The banner goes out before the first packet; tcpdump flushes stdout before its statistics,
  // so `tcpdump … 2>&1 | cat` shows banner, packets, statistics (checked with tcpdump 4.99).
  const writes = [{ fd: 2 as const, text: banner }, { fd: 1 as const, text: stdout }, { flush: true as const }, { fd: 2 as const, text: stats + note }]; // prettier-ignore
  return { stdout, stderr: banner + stats + note, exitCode: 0, writes };
}

/** `N packet` or `N packets`, as tcpdump words its statistics. */
function packets(count: number): string {
  return `${count} packet${count === 1 ? '' : 's'}`;
}

/**
 * `tcpdump [-n|-nn] [-l] [-S] -i IFACE|any [-c N] [FILTER…]`: the packets the host's interface
 * (or all of them, with `-i any`) saw since the previous command, in tcpdump 4.99's format,
 * through a pcap filter (../hosts/output/pcap-filter.ts). Without -n, ports are printed by name
 * (/etc/services) and addresses stay numeric: the lab's hosts have no reverse DNS for cluster
 * addresses (a real node's lookups would fail the same way; a pod's would go to CoreDNS).
 */
import { createTcpdumpState, parseCaptureFilter, tcpdumpLine } from '../hosts';
import type { CommandContext, CommandResult } from './registry';

const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });

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
  const filter: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') filter.push(a);
    else if (/^-[nlS]+$/.test(a)) {
      numeric ||= a.includes('n');
      absolute ||= a.includes('S');
    } else if (a === '-i') iface = args[++i];
    else if (a.startsWith('-i') && a.length > 2) iface = a.slice(2);
    else if (a === '-c') count = Number(args[++i]);
    else if (/^-c\d+$/.test(a)) count = Number(a.slice(2));
    else return fail(`tcpdump: unsupported in the lab: ${a}\n`);
  }
  if (iface === undefined) return fail('tcpdump: the lab needs -i IFACE (or -i any)\n');
  if (count !== undefined && !(Number.isInteger(count) && count > 0))
    return fail(`tcpdump: invalid packet count ${String(count)}\n`);
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
  const records = ctx.world.captures().filter((r) => (any || r.iface === iface) && match(r.packet));
  const shown = count !== undefined ? records.slice(0, count) : records;
  const state = createTcpdumpState();
  const lines = shown.map((r) =>
    tcpdumpLine(
      state,
      r.packet,
      { epochSeconds: ctx.world.epochSeconds, labMs: r.t },
      {
        absolute,
        names: !numeric,
        ...(any ? { any: { iface: r.iface, direction: direction(r.iface, r.dir, bridgePorts) } } : {}), // prettier-ignore
      },
    ),
  );
  // tcpdump's banner and summary go to stderr (as it prints them when stdout is not a tty).
  const link = any ? 'LINUX_SLL2 (Linux cooked v2)' : 'EN10MB (Ethernet)';
  const stderr =
    (any ? 'tcpdump: data link type LINUX_SLL2\n' : '') +
    'tcpdump: verbose output suppressed, use -v[v]... for full protocol decode\n' +
    `listening on ${iface}, link-type ${link}, snapshot length 262144 bytes\n` +
    `${shown.length} packets captured\n${shown.length} packets received by filter\n0 packets dropped by kernel\n`;
  return { stdout: lines.map((l) => `${l}\n`).join(''), stderr, exitCode: 0 };
}

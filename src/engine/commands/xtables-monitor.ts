/**
 * `xtables-monitor` (iptables 1.8.9, nf_tables): with `--trace`, the trace events of the packets
 * a `-j TRACE` rule marked (netfilter/nftrace.ts). A real monitor prints them as they come until
 * Ctrl-C; the lab's prints every event of the node since it booted and stops, as `conntrack -E`
 * does here, and says so. Options, usage and errors as xtables-monitor.c has them (checked with
 * the real tool: no option prints the usage and exits 1, as -h does; a bad one exits 2).
 */
import { traceLines } from '../netfilter';
import { labNote } from '../model/lab-notes';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';

const VERSION = '1.8.9';

const USAGE =
  `xtables-monitor ${VERSION} (nf_tables)\n` +
  'Usage: xtables-monitor [ -t | -e ]\n' +
  '        --trace    -t    trace ruleset traversal of packets tagged via -j TRACE rule\n' +
  '        --event    -e    show events that modify the ruleset\n' +
  'Optional arguments:\n' +
  '        --ipv4     -4    only monitor IPv4\n' +
  '        --ipv6     -6    only monitor IPv6\n' +
  '\t--counters -c    show counters in rules\n';

const BAD =
  `xtables-monitor ${VERSION}: Bad argument.\n` +
  "Try `xtables-monitor -h' for more information.\n";

const LONG: Readonly<Record<string, string>> = {
  counters: 'c',
  trace: 't',
  event: 'e',
  ipv4: '4',
  ipv6: '6',
  version: 'V',
  help: 'h',
};

interface Options {
  trace: boolean;
  events: boolean;
  counters: boolean;
  family: 4 | 6 | undefined;
}

/** getopt_long over "ceht46V": the options' letters in order, or a result that ends the run. */
function parse(args: readonly string[]): Options | CommandResult {
  const o: Options = { trace: false, events: false, counters: false, family: undefined };
  const letters: string[] = [];
  for (const a of args) {
    if (a === '--') break;
    if (a.startsWith('--')) {
      const name = a.slice(2).split('=')[0] ?? '';
      // getopt_long takes an unambiguous prefix of a long option.
      const hits = Object.keys(LONG).filter((k) => k.startsWith(name));
      const hit = Object.hasOwn(LONG, name) ? name : hits.length === 1 ? hits[0] : undefined;
      if (name === '' || hit === undefined) return { stdout: '', stderr: BAD, exitCode: 2 };
      letters.push(LONG[hit]!);
    } else if (a.startsWith('-') && a.length > 1)
      for (const letter of a.slice(1)) letters.push(letter);
    // Operands are ignored (getopt permutes them to the end; nothing reads them).
  }
  for (const c of letters) {
    if (c === 'c') o.counters = true;
    else if (c === 't') o.trace = true;
    else if (c === 'e') o.events = true;
    else if (c === '4') o.family = 4;
    else if (c === '6') o.family = 6;
    else if (c === 'h') return { stdout: USAGE, stderr: '', exitCode: 1 };
    else if (c === 'V') return { stdout: `xtables-monitor ${VERSION}\n`, stderr: '', exitCode: 0 };
    else return { stdout: '', stderr: BAD, exitCode: 2 };
  }
  if (!o.trace && !o.events) return { stdout: USAGE, stderr: '', exitCode: 1 };
  return o;
}

function xtablesMonitor(ctx: CommandContext, argv: string[]): CommandResult {
  const o = parse(argv.slice(1));
  if (!('trace' in o)) return o;
  const notes: string[] = [];
  const onNode = ctx.world.nodeKernel() !== undefined;
  if (!onNode) notes.push(labNote('xtables-monitor.node-only'));
  if (o.events) notes.push(labNote('xtables-monitor.events'));
  const mode = ctx.world.kubeProxy()?.mode;
  if (o.trace && mode === 'nftables') notes.push(labNote('xtables-monitor.mode', { mode }));
  // The lab's hosts are IPv4 only: -6 shows nothing.
  const traced = o.trace && onNode;
  const text = traced && o.family !== 6 ? traceLines(ctx.world.netfilter(), o.counters) : '';
  if (traced) notes.push(labNote('xtables-monitor.trace'));
  return { stdout: text, stderr: notes.join(''), exitCode: 0 };
}

export function registerXtablesMonitor(registry: CommandRegistry): void {
  registerCommand(registry, 'xtables-monitor', xtablesMonitor);
}

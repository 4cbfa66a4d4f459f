/**
 * Client programs that send real (simulated) packets: curl, nc, dig, nslookup, ping; and tcpdump,
 * which prints what crossed an interface since the previous command. Argument parsing and
 * output are the real tools' (src/engine/hosts: curl 7.88.1, netcat-openbsd 1.219, BIND 9.18,
 * iputils 20221126, tcpdump 4.99, as in Debian bookworm).
 */
import {
  createTcpdumpState,
  parseCurlArgs,
  parseDigArgs,
  parseNcArgs,
  parseNslookupArgs,
  parsePingArgs,
  tcpdumpLine,
  type ProgramSpec,
} from '../hosts';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';

type Parsed = { ok: true; spec: ProgramSpec } | { ok: false; stderr: string; exitCode: number };

function program(parse: (argv: readonly string[], stdin: string) => Parsed) {
  return (ctx: CommandContext, argv: string[]): CommandResult => {
    // The hosts module parses argv as a program sees it, argv[0] included.
    const parsed = parse(argv, ctx.stdin);
    if (!parsed.ok) return { stdout: '', stderr: parsed.stderr, exitCode: parsed.exitCode };
    return ctx.world.runProgram(parsed.spec);
  };
}

function wrap<T>(
  kind: ProgramSpec['kind'],
  r: { ok: true; opts: T } | { ok: false; stderr: string; exitCode: number },
): Parsed {
  return r.ok ? { ok: true, spec: { kind, opts: r.opts } as ProgramSpec } : r;
}

/** `tcpdump -n -i IFACE [-c N]`: the packets seen on IFACE since the previous command. */
function tcpdump(ctx: CommandContext, argv: string[]): CommandResult {
  let iface: string | undefined;
  let count: number | undefined;
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-n' || a === '-nn' || a === '-l') continue;
    if (a === '-i') iface = args[++i];
    else if (a.startsWith('-i') && a.length > 2) iface = a.slice(2);
    else if (a === '-c') count = Number(args[++i]);
    else return { stdout: '', stderr: `tcpdump: unsupported in the lab: ${a}\n`, exitCode: 1 };
  }
  if (iface === undefined) {
    return { stdout: '', stderr: 'tcpdump: the lab needs -i IFACE\n', exitCode: 1 };
  }
  const records = ctx.world.captures().filter((r) => r.iface === iface);
  const shown = count !== undefined && Number.isFinite(count) ? records.slice(0, count) : records;
  const state = createTcpdumpState();
  const lines = shown.map((r) =>
    tcpdumpLine(state, r.packet, { epochSeconds: ctx.world.epochSeconds, labMs: r.t }),
  );
  // tcpdump's banner and summary go to stderr (as it prints them when stdout is not a tty).
  const stderr =
    'tcpdump: verbose output suppressed, use -v[v]... for full protocol decode\n' +
    `listening on ${iface}, link-type EN10MB (Ethernet), snapshot length 262144 bytes\n` +
    `${shown.length} packets captured\n${shown.length} packets received by filter\n0 packets dropped by kernel\n`;
  return { stdout: lines.map((l) => `${l}\n`).join(''), stderr, exitCode: 0 };
}

export function registerClients(registry: CommandRegistry): void {
  registerCommand(
    registry,
    'curl',
    program((a) => wrap('curl', parseCurlArgs(a))),
  );
  registerCommand(
    registry,
    'nc',
    program((a, stdin) => wrap('nc', parseNcArgs(a, stdin))),
  );
  registerCommand(
    registry,
    'dig',
    program((a) => wrap('dig', parseDigArgs(a))),
  );
  registerCommand(
    registry,
    'nslookup',
    program((a) => wrap('nslookup', parseNslookupArgs(a))),
  );
  registerCommand(registry, 'ping', (ctx, argv) => {
    const parsed = parsePingArgs(argv);
    if (!parsed.ok) return { stdout: '', stderr: parsed.stderr, exitCode: parsed.exitCode };
    const r = ctx.world.runProgram({ kind: 'ping', opts: parsed.opts });
    // Garbage in a -i/-W value is warned about before ping starts.
    return parsed.warn === undefined ? r : { ...r, stderr: parsed.warn + r.stderr };
  });
  registerCommand(registry, 'tcpdump', tcpdump);
}

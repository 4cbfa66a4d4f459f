/**
 * Client programs that send real (simulated) packets: curl, wget, nc, dig, nslookup, ping; and tcpdump,
 * which prints what crossed an interface since the previous command. Argument parsing and
 * output are the real tools' (src/engine/hosts: curl 7.88.1, GNU Wget 1.21.3, netcat-openbsd 1.219, BIND 9.18,
 * iputils 20221126, tcpdump 4.99, as in Debian bookworm).
 */
import {
  parseCurlArgs,
  parseDigArgs,
  parseNcArgs,
  parseNslookupArgs,
  parsePingArgs,
  parseWgetArgs,
  type ProgramSpec,
} from '../hosts';
import { tcpdump } from './tcpdump';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';

type Failed = { ok: false; stderr: string; exitCode: number; stdout?: string };
type Parsed = { ok: true; spec: ProgramSpec; stdout?: string; stderr?: string } | Failed;

function program(parse: (argv: readonly string[], stdin: string, ctx: CommandContext) => Parsed) {
  return (ctx: CommandContext, argv: string[]): CommandResult => {
    // The hosts module parses argv as a program sees it, argv[0] included.
    const parsed = parse(argv, ctx.stdin, ctx);
    if (!parsed.ok)
      return { stdout: parsed.stdout ?? '', stderr: parsed.stderr, exitCode: parsed.exitCode };
    const r = ctx.world.runProgram(parsed.spec, { stdoutIsTty: ctx.stdoutIsTty ?? true });
    // What the tool said about its arguments comes before what it did.
    if (parsed.stdout === undefined && parsed.stderr === undefined) return r;
    const said = [
      ...(parsed.stdout === undefined ? [] : [{ fd: 1 as const, text: parsed.stdout }]),
      ...(parsed.stderr === undefined ? [] : [{ fd: 2 as const, text: parsed.stderr }]),
    ];
    const writes = r.writes === undefined ? {} : { writes: [...said, ...r.writes] };
    const stdout = (parsed.stdout ?? '') + r.stdout;
    return { stdout, stderr: (parsed.stderr ?? '') + r.stderr, exitCode: r.exitCode, ...writes };
  };
}

function wrap<T>(
  kind: ProgramSpec['kind'],
  r: { ok: true; opts: T; stdout?: string; stderr?: string } | Failed,
): Parsed {
  if (!r.ok) return r;
  const spec = { kind, opts: r.opts } as ProgramSpec;
  return {
    ok: true,
    spec,
    ...(r.stdout === undefined ? {} : { stdout: r.stdout }),
    ...(r.stderr === undefined ? {} : { stderr: r.stderr }),
  };
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
    const r = ctx.world.runProgram(
      { kind: 'ping', opts: parsed.opts },
      { stdoutIsTty: ctx.stdoutIsTty ?? true },
    );
    // Garbage in a -i/-W value is warned about before ping starts.
    if (parsed.warn === undefined) return r;
    return { stdout: r.stdout, stderr: parsed.warn + r.stderr, exitCode: r.exitCode };
  });
  registerCommand(
    registry,
    'wget',
    // The progress bar takes the terminal's width; wget draws dots when stderr is no terminal.
    program((a, _stdin, ctx) => {
      const columns = ctx.world.terminalColumns?.() ?? 80;
      return wrap('wget', parseWgetArgs(a, columns, ctx.stderrIsTty ?? true));
    }),
  );
  registerCommand(registry, 'tcpdump', tcpdump);
}

/**
 * `iptables`, `iptables-save` and `iptables-restore` on the host the command runs on: a node's
 * tables as kubelet and kube-proxy programmed them, or a pod's / client's own (empty) network
 * namespace, whose rules the lab keeps but does not apply (it says so). Argument handling and
 * error texts follow iptables 1.8.9 (nf_tables), checked against the real tools.
 */
import { iptablesCommand, iptablesRestore, iptablesSave, type NetfilterState } from '../netfilter';
import { labNote } from '../model/lab-notes';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { parseRestoreArgs } from './iptables-restore-args';
import { missingFileMessage } from './files';

const SAVE_USAGE = "Look at manual page `iptables-save.8' for more information.\n";

function fail(stderr: string, exitCode = 1): CommandResult {
  return { stdout: '', stderr, exitCode };
}

function iptables(ctx: CommandContext, argv: string[]): CommandResult {
  return notingPodRules(ctx, (state) => iptablesCommand(state, argv.slice(1)));
}

/**
 * Runs `edit` on this host's tables. A pod or an external client keeps rules of its own, but
 * the lab walks netfilter on nodes only: when the rules changed there, a lab note says that
 * they do not act on the host's packets (a real pod with NET_ADMIN would have them applied).
 */
function notingPodRules(
  ctx: CommandContext,
  edit: (state: NetfilterState) => CommandResult,
): CommandResult {
  const state = ctx.world.netfilter();
  if (ctx.world.nodeKernel() !== undefined) return edit(state);
  const before = iptablesSave(state, { counters: false, nowEpochSeconds: 0 }).stdout;
  const r = edit(state);
  const after = iptablesSave(state, { counters: false, nowEpochSeconds: 0 }).stdout;
  return after === before ? r : { ...r, stderr: r.stderr + labNote('iptables.pod-rules') };
}

/** iptables-save [-c] [-t TABLE] (getopt_long: `-tnat`, `--table=nat`, `--counters`). */
function iptablesSaveCommand(ctx: CommandContext, argv: string[]): CommandResult {
  const prog = 'iptables-save';
  let table: string | undefined;
  let counters = false;
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-c' || arg === '--counters') counters = true;
    else if (arg === '-t' || arg === '--table') {
      const value = args[++i];
      if (value === undefined) {
        return fail(`${prog}: option requires an argument -- 't'\n${SAVE_USAGE}`);
      }
      table = value;
    } else if (arg.startsWith('--table=')) table = arg.slice('--table='.length);
    else if (arg.startsWith('-t') && arg.length > 2) table = arg.slice(2);
    else if (arg.startsWith('--'))
      return fail(`${prog}: unrecognized option '${arg}'\n${SAVE_USAGE}`);
    else if (arg.startsWith('-') && arg.length > 1) {
      return fail(`${prog}: invalid option -- '${arg[1]}'\n${SAVE_USAGE}`);
    } else return fail('Unknown arguments found on commandline\n');
  }
  return iptablesSave(ctx.world.netfilter(), {
    ...(table !== undefined ? { table } : {}),
    counters,
    nowEpochSeconds: ctx.world.epochSeconds + ctx.world.nowSeconds(),
  });
}

/** iptables-restore [OPTIONS] [FILE] (iptables-restore-args.ts); reads standard input without FILE. */
function iptablesRestoreCommand(ctx: CommandContext, argv: string[]): CommandResult {
  const name = argv[0] ?? 'iptables-restore';
  const parsed = parseRestoreArgs([name.slice(name.lastIndexOf('/') + 1), ...argv.slice(1)]);
  if (parsed.kind === 'done') return { stdout: parsed.stdout, stderr: parsed.stderr, exitCode: parsed.exitCode }; // prettier-ignore
  let text = ctx.stdin;
  if (parsed.file !== undefined) {
    const input = ctx.world.readFile(parsed.file);
    if (input === undefined) {
      const message = `Can't open ${parsed.file}: No such file or directory\n`;
      return fail(parsed.warn + missingFileMessage(parsed.file, message));
    }
    text = input;
  }
  const out = notingPodRules(ctx, (state) => iptablesRestore(state, text, parsed.opts));
  return parsed.warn === '' ? out : { ...out, stderr: parsed.warn + out.stderr };
}

export function registerIptablesCommands(registry: CommandRegistry): void {
  for (const name of ['iptables', 'iptables-nft']) registerCommand(registry, name, iptables);
  for (const name of ['iptables-save', 'iptables-nft-save']) {
    registerCommand(registry, name, iptablesSaveCommand);
  }
  for (const name of ['iptables-restore', 'iptables-nft-restore']) {
    registerCommand(registry, name, iptablesRestoreCommand);
  }
}

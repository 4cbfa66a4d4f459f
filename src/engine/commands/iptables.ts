/**
 * `iptables`, `iptables-save` and `iptables-restore` on the host the command runs on: a node's
 * tables as kubelet and kube-proxy programmed them, or a pod's / client's own (empty) network
 * namespace, whose rules the lab keeps but does not apply (it says so). Argument handling and
 * error texts follow iptables 1.8.9 (nf_tables), checked against the real tools.
 */
import {
  iptablesCommand,
  iptablesRestore,
  iptablesSave,
  type NetnsObjects,
  type NetfilterState,
} from '../netfilter';
import { labNote } from '../model/lab-notes';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { parseRestoreArgs } from './iptables-restore-args';
import { parseSaveArgs } from './iptables-save-args';
import { missingFileMessage } from './files';

function fail(stderr: string, exitCode = 1): CommandResult {
  return { stdout: '', stderr, exitCode };
}

function iptables(ctx: CommandContext, argv: string[]): CommandResult {
  return notingPodRules(ctx, (state) => iptablesCommand(state, argv.slice(1), netnsObjects(ctx)));
}

/**
 * The ip sets and nfacct objects a rule typed on this host may name: a node's (`ipset
 * create`, kube-proxy's sets in IPVS mode and its counters in iptables mode); a pod's or a
 * client's network namespace has none in the lab.
 */
function netnsObjects(ctx: CommandContext): NetnsObjects {
  const node = ctx.world.nodeKernel();
  const sets = node?.ipsets?.().state.sets;
  const counters = node?.nfacctObjects?.();
  return {
    ipsets: (name) => sets?.some((s) => s.name === name) ?? false,
    nfacct: (name) => counters?.has(name) ?? false,
  };
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

/** iptables-save [OPTIONS] (iptables-save-args.ts). */
function iptablesSaveCommand(ctx: CommandContext, argv: string[]): CommandResult {
  const name = argv[0] ?? 'iptables-save';
  const parsed = parseSaveArgs([name.slice(name.lastIndexOf('/') + 1), ...argv.slice(1)]);
  if (parsed.kind === 'done') return { stdout: parsed.stdout, stderr: parsed.stderr, exitCode: parsed.exitCode }; // prettier-ignore
  if (parsed.file !== undefined)
    return fail(parsed.warn + labNote('iptables.save-file', { path: parsed.file }));
  const out = iptablesSave(ctx.world.netfilter(), {
    ...(parsed.table !== undefined ? { table: parsed.table } : {}),
    counters: parsed.counters,
    nowEpochSeconds: ctx.world.epochSeconds + ctx.world.nowSeconds(),
    ...(ctx.stdoutStream !== undefined ? { stream: ctx.stdoutStream } : {}),
  });
  return parsed.warn === '' ? out : { ...out, stderr: parsed.warn + out.stderr };
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
  const opts = { ...parsed.opts, objects: netnsObjects(ctx) };
  const out = notingPodRules(ctx, (state) => iptablesRestore(state, text, opts));
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

/**
 * Node tools beyond iptables: `conntrack`, `sysctl`, `bridge` (./bridge.ts), and `sleep` (which
 * moves the lab's virtual clock). Texts and exit codes as conntrack-tools 1.4.7 and procps sysctl
 * print them (checked against the real tools in a network namespace).
 */
import { conntrackCommand } from '../conntrack';
import { strtodWhole } from '../hosts';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { sysctl } from './sysctl';
import { bridge } from './bridge';
import { labNote } from '../model/lab-notes';
import { LAB_CLOCK_END_UNIX_SECONDS } from '../model/runtime';

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): CommandResult => ({ stdout: '', stderr, exitCode });

function conntrack(ctx: CommandContext, argv: string[]): CommandResult {
  const node = ctx.world.nodeKernel();
  if (node === undefined) {
    // Pods and clients have conntrack tables of their own that the lab does not model.
    return fail(labNote('conntrack.node-only'));
  }
  return conntrackCommand(node.conntrack, argv.slice(1), node.nowMs());
}

const SLEEP_TRY = "Try 'sleep --help' for more information.\n";

/**
 * coreutils `sleep NUMBER[smhd]…`: in the lab, virtual time passes at once. A word starting
 * with `-` is an option to getopt (`-1` too); a number is what strtod() reads to the end
 * (`.5`, `1.`, `1e-1`, `0x0.1`, leading blanks), before one optional unit letter. Messages as
 * sleep prints them in the C locale (in a UTF-8 one it quotes ‘…’).
 */
function sleep(ctx: CommandContext, argv: string[]): CommandResult {
  const operands = argv.slice(1);
  if (operands.length === 0) return fail(`sleep: missing operand\n${SLEEP_TRY}`);
  let ms = 0;
  for (const op of operands) {
    if (op.startsWith('--') && op.length > 2)
      return fail(`sleep: unrecognized option '${op}'\n${SLEEP_TRY}`);
    if (op.startsWith('-') && op.length > 1 && op !== '--')
      return fail(`sleep: invalid option -- '${op[1]}'\n${SLEEP_TRY}`);
    const unitLetter = /[smhd]$/.test(op) ? op.slice(-1) : '';
    const number = strtodWhole(unitLetter === '' ? op : op.slice(0, -1));
    if (!number.ok || !(number.value >= 0))
      return fail(`sleep: invalid time interval '${op}'\n${SLEEP_TRY}`);
    const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[
      unitLetter as '' | 's' | 'm' | 'h' | 'd'
    ];
    const add = number.value * unit * 1000;
    // `sleep inf` (or 1e400) waits for ever; the lab's clock cannot.
    if (!Number.isFinite(add) || number.erange)
      return fail(labNote('sleep.infinite', { value: op }));
    ms += Math.round(add);
  }
  // Lab time is whole seconds on the tools' clocks: what is left of the last second counts.
  const { world } = ctx;
  const leftMs = (LAB_CLOCK_END_UNIX_SECONDS + 1 - world.epochSeconds - world.nowSeconds()) * 1000;
  if (ms >= leftMs) return fail(labNote('sleep.clock-end', { value: operands.join(' ') }));
  ctx.world.advanceClock(ms);
  return ok('');
}

export function registerNodeTools(registry: CommandRegistry): void {
  registerCommand(registry, 'conntrack', conntrack);
  registerCommand(registry, 'sysctl', sysctl);
  registerCommand(registry, 'bridge', bridge);
  registerCommand(registry, 'sleep', sleep);
}

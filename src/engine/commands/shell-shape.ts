/**
 * What a parsed command line (shell-types.ts) is made of, as the runner (shell-run.ts) asks it:
 * which program a command names, and whether a line is one plain command.
 */
import type { Command, CommandList } from './shell-types';

/** The program a simple command runs, as typed (after any NAME=VALUE words); none for a loop. */
export function programName(command: Command): string | undefined {
  if (command.kind !== undefined && command.kind !== 'simple') return undefined;
  return command.argv.find((w) => !/^[A-Za-z_]\w*=/.test(w)) ?? '';
}

/** `CMD ARGS…` alone: no list, pipe, loop or redirection whose output could come around it. */
export function isOneSimpleCommand(list: CommandList): boolean {
  if (list.items.length !== 1) return false;
  const commands = list.items[0]!.pipeline.commands;
  const only = commands[0];
  return (
    commands.length === 1 &&
    only !== undefined &&
    (only.kind === undefined || only.kind === 'simple') &&
    only.redirections.length === 0
  );
}

/**
 * `clear` from ncurses 6.4 (Debian 12's ncurses-bin, on every node): it writes the terminal's
 * clear_screen capability, then E3 (erase the scrollback) unless -x, for the terminal type
 * $TERM or -T names (progs/clear.c, clear_cmd.c). The lab's terminal is an xterm, as a real
 * ssh or `kubectl exec -it` session reports itself (TERM=xterm-256color), so the web terminal
 * clears its screen and scrollback, and the CLI prints the same bytes a real `clear` writes
 * to a pipe there: ESC[H ESC[2J ESC[3J (checked with `TERM=xterm-256color clear | od -c`).
 * Messages and statuses from the real clear: a bad option or any operand prints the usage
 * (status 1), -V the version (status 0, at once, as getopt meets it).
 */
import { labNote } from '../model/lab-notes';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';

const USAGE = `Usage: clear [options]

Options:
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback
`;

/** What terminfo gives the terminal types the lab names: clear_screen and E3. */
const TERMINALS: Record<string, { clear: string; e3: string }> = {
  xterm: { clear: '\x1b[H\x1b[2J', e3: '\x1b[3J' },
  'xterm-256color': { clear: '\x1b[H\x1b[2J', e3: '\x1b[3J' },
  vt100: { clear: '\x1b[H\x1b[J', e3: '' },
  screen: { clear: '\x1b[H\x1b[J', e3: '' },
};

const usage = (first = ''): CommandResult => ({ stdout: '', stderr: first + USAGE, exitCode: 1 });

function clear(_ctx: CommandContext, argv: string[]): CommandResult {
  let scrollback = true;
  let term = 'xterm-256color';
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      if (i + 1 < args.length) return usage();
      break;
    }
    if (!arg.startsWith('-') || arg === '-') return usage();
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k]!;
      if (letter === 'V') return { stdout: 'ncurses 6.4.20221231\n', stderr: '', exitCode: 0 };
      if (letter === 'x') scrollback = false;
      else if (letter === 'T') {
        const value = k + 1 < arg.length ? arg.slice(k + 1) : args[++i];
        if (value === undefined) return usage("clear: option requires an argument -- 'T'\n");
        term = value;
        break;
      } else return usage(`clear: invalid option -- '${letter}'\n`);
    }
  }
  const caps = TERMINALS[term];
  if (caps === undefined) {
    const note = labNote('tool.option', { tool: 'clear', option: `T ${term}` });
    return { stdout: '', stderr: note, exitCode: 1 };
  }
  return { stdout: caps.clear + (scrollback ? caps.e3 : ''), stderr: '', exitCode: 0 };
}

export function registerClear(registry: CommandRegistry): void {
  registerCommand(registry, 'clear', clear);
}

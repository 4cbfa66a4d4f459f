/**
 * A command's stdin from its input redirections, applied left to right as bash does (the last
 * one wins): `< FILE` reads a file of the host, `<<WORD` a here-document and `<<<WORD` a
 * here-string (shell-heredoc.ts), both expanded now, when the command runs, without word
 * splitting; a here-string gets a newline after it (bash(1) "Here Strings").
 */
import { missingFileMessage } from './files';
import type { CommandResult } from './registry';
import type { Redirection } from './shell-types';

/** A word expanded as one string (an assignment's value: expandAssigned). */
type ExpandWhole = (word: string) => { fields: readonly string[]; stderr: string; failed?: true };

export function commandInput(
  redirections: readonly Redirection[],
  stdin: string,
  readFile: (path: string) => string | undefined,
  expand: ExpandWhole,
): { input: string; stderr: string } | { error: CommandResult } {
  let input = stdin;
  let stderr = '';
  for (const r of redirections) {
    if (r.fd !== 0) continue;
    if (r.here === 'literal') {
      input = r.target;
      continue;
    }
    if (r.here !== undefined) {
      const e = expand(r.target);
      stderr += e.stderr;
      // An expansion error (`$((1/0))` in the body): the command does not run, status 1.
      if (e.failed === true) return { error: { stdout: '', stderr, exitCode: 1 } };
      input = (e.fields[0] ?? '') + (r.here === 'string' ? '\n' : '');
      continue;
    }
    const text = readFile(r.target);
    if (text === undefined) {
      const message = missingFileMessage(r.target, `bash: ${r.target}: No such file or directory\n`); // prettier-ignore
      return { error: { stdout: '', stderr: stderr + message, exitCode: 1 } };
    }
    input = text;
  }
  return { input, stderr };
}

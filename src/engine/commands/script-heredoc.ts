/**
 * Here-documents in a `TARGET$ COMMAND` script (script.ts): the lines after a command that opens
 * one, up to its delimiter line, are its body, as a terminal transcript shows them (bash's PS2
 * `> ` before each), not new `TARGET$` lines. The command line and those lines go to the shell
 * together, which reads the bodies itself (shell-heredoc.ts).
 */
import { lexLine } from './shell-lex';
import type { HereDoc } from './shell-heredoc';

/** bash's PS2, the prompt before each line it reads to finish a command. */
export const CONTINUATION_PROMPT = '> ';

/** The here-documents a command line opens (none when it does not lex: the shell says why). */
export function hereDocsOpenedBy(command: string): HereDoc[] {
  const lexed = lexLine(command);
  if ('error' in lexed) return [];
  return lexed.tokens.flatMap((t) => (t.kind === 'redir' && t.here !== undefined ? [t.here] : []));
}

/**
 * The body lines of `docs` from `lines[from]` on, each doc's up to and with its delimiter line:
 * how many lines they take, or the doc whose delimiter never comes (the script ended first).
 */
export function bodyLines(
  lines: readonly string[],
  from: number,
  docs: readonly HereDoc[],
): { count: number } | { unterminated: HereDoc } {
  let k = from;
  for (const doc of docs) {
    for (;;) {
      const line = lines[k];
      if (line === undefined) return { unterminated: doc };
      k++;
      if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
    }
  }
  return { count: k - from };
}

/**
 * The text opens a here-document whose delimiter line has not come yet: a terminal reads more
 * lines after bash's `> ` before it runs anything (the shell warns only at the end of input).
 */
export function hereDocUnfinished(text: string): boolean {
  const lexed = lexLine(text);
  return !('error' in lexed) && lexed.warnings !== '';
}

/** A command with its here-document lines as a transcript shows it: `> ` before each line. */
export function transcriptText(command: string): string {
  return command.split('\n').join(`\n${CONTINUATION_PROMPT}`);
}

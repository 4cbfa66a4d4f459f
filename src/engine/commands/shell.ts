/**
 * A POSIX-ish tokenizer for one command line of the lab's terminal, following bash's quoting
 * rules (bash(1) "QUOTING"):
 *
 * - `'…'` preserves every character literally (no escapes inside);
 * - `"…"` preserves characters literally except `\`, which escapes only `$`, `` ` ``, `"`, `\`
 *   and newline (elsewhere the backslash is kept, as in `"a\b"` → `a\b`);
 * - an unquoted `\` quotes the next character; `\` + newline is a line continuation;
 * - an unquoted `#` at the start of a word starts a comment (interactive_comments is on);
 * - `|`, `&&`, `||` and `;` are control operators; `>`, `>>`, `<`, `2>`, `&>` and `2>&1`
 *   are redirections (the lab shell honours `/dev/null` targets and `2>&1` only).
 *
 * No parameter expansion, globbing or command substitution: `$HOME` stays `$HOME`.
 * Errors use bash's words: an unterminated quote is
 * `bash: unexpected EOF while looking for matching `''` (exit status 2, as bash's syntax errors).
 */
import { labNote } from '../model/lab-notes';

export type Connector = ';' | '&&' | '||';

export interface Redirection {
  /** 1 = stdout, 2 = stderr, 'both' = `&>`. */
  readonly fd: 1 | 2 | 'both' | 0;
  /** Target file, or '&1' for `2>&1`. */
  readonly target: string;
  readonly append: boolean;
}

export interface SimpleCommand {
  readonly argv: readonly string[];
  readonly redirections: readonly Redirection[];
}

/** Commands joined by `|`. */
export interface Pipeline {
  readonly commands: readonly SimpleCommand[];
}

/** A command list: pipelines joined by `;`, `&&` and `||` (the connector before each one). */
export interface CommandList {
  readonly items: readonly {
    readonly connector: Connector | undefined;
    readonly pipeline: Pipeline;
  }[];
}

export type ShellParseResult =
  | { readonly ok: true; readonly list: CommandList }
  | { readonly ok: false; readonly error: string; readonly exitCode: number };

type Token =
  | { readonly kind: 'word'; readonly value: string }
  | { readonly kind: 'op'; readonly op: '|' | Connector }
  | {
      readonly kind: 'redir';
      readonly fd: Redirection['fd'];
      readonly append: boolean;
      readonly dup?: string;
    };

const syntaxError = (token: string): ShellParseResult => ({
  ok: false,
  error: `bash: syntax error near unexpected token \`${token}'\n`,
  exitCode: 2,
});

/** Splits a line into words and operators (quotes removed). */
export function lexLine(line: string): { tokens: Token[] } | { error: string } {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  const flush = (): void => {
    if (inWord) tokens.push({ kind: 'word', value: word });
    word = '';
    inWord = false;
  };
  let i = 0;
  while (i < line.length) {
    const c = line.charAt(i);
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { error: "bash: unexpected EOF while looking for matching `''\n" };
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let closed = false;
      while (j < line.length) {
        const d = line.charAt(j);
        if (d === '"') {
          closed = true;
          break;
        }
        if (d === '\\' && j + 1 < line.length && '$`"\\\n'.includes(line.charAt(j + 1))) {
          if (line.charAt(j + 1) !== '\n') word += line.charAt(j + 1);
          j += 2;
          continue;
        }
        word += d;
        j++;
      }
      if (!closed) return { error: 'bash: unexpected EOF while looking for matching `"\'\n' };
      inWord = true;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 < line.length) {
        if (line.charAt(i + 1) !== '\n') {
          word += line.charAt(i + 1);
          inWord = true;
        }
        i += 2;
      } else {
        // A trailing backslash asks bash for a continuation line; at end of input it is dropped.
        i++;
      }
    } else if (c === ' ' || c === '\t' || c === '\n') {
      flush();
      i++;
    } else if (c === '#' && !inWord) {
      break;
    } else if (c === '|' || c === ';' || c === '&') {
      flush();
      const two = line.slice(i, i + 2);
      if (two === '||' || two === '&&') {
        tokens.push({ kind: 'op', op: two });
        i += 2;
      } else if (two === '&>') {
        const append = line.charAt(i + 2) === '>';
        tokens.push({ kind: 'redir', fd: 'both', append });
        i += append ? 3 : 2;
      } else if (c === '&') {
        return { error: labNote('shell.background') };
      } else {
        tokens.push({ kind: 'op', op: c === '|' ? '|' : ';' });
        i++;
      }
    } else if (
      c === '>' ||
      c === '<' ||
      ((c === '1' || c === '2') && !inWord && /^[12]>/.test(line.slice(i)))
    ) {
      flush();
      let fd: Redirection['fd'] = c === '<' ? 0 : 1;
      if (c === '1' || c === '2') {
        fd = c === '2' ? 2 : 1;
        i++;
      }
      i++;
      const append = fd !== 0 && line.charAt(i) === '>';
      if (append) i++;
      if (line.charAt(i) === '&' && /^&[12]/.test(line.slice(i))) {
        tokens.push({ kind: 'redir', fd, append, dup: line.slice(i, i + 2) });
        i += 2;
      } else {
        tokens.push({ kind: 'redir', fd, append });
      }
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  flush();
  return { tokens };
}

/** Parses one command line into pipelines joined by `;`, `&&`, `||`. */
export function parseCommandLine(line: string): ShellParseResult {
  const lexed = lexLine(line);
  if ('error' in lexed) return { ok: false, error: lexed.error, exitCode: 2 };
  const items: { connector: Connector | undefined; pipeline: Pipeline }[] = [];
  let commands: SimpleCommand[] = [];
  let argv: string[] = [];
  let redirections: Redirection[] = [];
  let connector: Connector | undefined;
  let pendingOp: string | undefined;
  const tokens = lexed.tokens;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t === undefined) break;
    if (t.kind === 'word') {
      argv.push(t.value);
      pendingOp = undefined;
    } else if (t.kind === 'redir') {
      if (t.dup !== undefined) {
        redirections.push({ fd: t.fd, target: t.dup, append: false });
        continue;
      }
      const target = tokens[k + 1];
      if (target === undefined)
        return {
          ok: false,
          error: "bash: syntax error near unexpected token `newline'\n",
          exitCode: 2,
        };
      if (target.kind !== 'word') return syntaxError(target.kind === 'op' ? target.op : '>');
      redirections.push({ fd: t.fd, target: target.value, append: t.append });
      k++;
    } else {
      if (argv.length === 0 && redirections.length === 0) return syntaxError(t.op);
      commands.push({ argv, redirections });
      argv = [];
      redirections = [];
      if (t.op === '|') {
        pendingOp = '|';
        continue;
      }
      items.push({ connector, pipeline: { commands } });
      commands = [];
      connector = t.op;
      pendingOp = t.op === ';' ? undefined : t.op;
    }
  }
  if (argv.length > 0 || redirections.length > 0) commands.push({ argv, redirections });
  else if (pendingOp !== undefined)
    return { ok: false, error: 'bash: syntax error: unexpected end of file\n', exitCode: 2 };
  if (commands.length > 0) items.push({ connector, pipeline: { commands } });
  return { ok: true, list: { items } };
}

/** Convenience for tests and callers that only need words: the argv of each pipeline stage. */
export function tokenize(
  line: string,
): { ok: true; stages: string[][] } | { ok: false; error: string } {
  const parsed = parseCommandLine(line);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const stages: string[][] = [];
  for (const item of parsed.list.items)
    for (const c of item.pipeline.commands) stages.push([...c.argv]);
  return { ok: true, stages };
}

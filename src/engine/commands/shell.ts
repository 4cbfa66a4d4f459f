/**
 * The lab shell's grammar (bash(1) "SHELL GRAMMAR", the part a one-line terminal uses): simple
 * commands with redirections, pipelines (`|`), lists (`;`, `&&`, `||`) and the compound
 * commands `for NAME [in WORD…]; do LIST; done`, `while|until LIST; do LIST; done` and
 * `if LIST; then LIST; [elif …] [else LIST;] fi`, each a command of a pipeline like any other
 * (`for i in $(seq 1 100); do curl -s http://10.96.1.1/; done | sort | uniq -c`). Tokens come
 * from shell-lex.ts; reserved words count only unquoted and where a command starts. Syntax
 * errors are bash 5.2's words and status 2.
 */
import { labNote } from '../model/lab-notes';
import { lexLine, type Token } from './shell-lex';
import { MAX_NESTING, wordText } from './shell-types';
import type {
  Command,
  CommandList,
  Connector,
  Pipeline,
  Redirection,
  SimpleCommand,
} from './shell-types';

export { lexLine } from './shell-lex';
export type {
  Command,
  CommandList,
  Connector,
  ForCommand,
  Pipeline,
  Redirection,
  SimpleCommand,
} from './shell-types';
export { wordText } from './shell-types';

export type ShellParseResult =
  /** `warnings`: bash's here-document warnings, written before anything runs. */
  | { readonly ok: true; readonly list: CommandList; readonly warnings: string }
  | { readonly ok: false; readonly error: string; readonly exitCode: number };

class SyntaxError {
  constructor(
    readonly error: string,
    readonly exitCode = 2,
  ) {}
}

const near = (token: string) => new SyntaxError(`bash: syntax error near unexpected token \`${token}'\n`); // prettier-ignore
const EOF = new SyntaxError('bash: syntax error: unexpected end of file\n');

/** Reserved words that cannot start a command (bash: a syntax error there). */
const RESERVED = new Set(['do', 'done', 'then', 'else', 'elif', 'fi', 'esac']);
/** Compound commands bash has and the lab shell does not. */
const UNSUPPORTED = new Set(['case', 'select', 'function', '[[']);

class Parser {
  private at = 0;
  /** Compound commands open around the one being read. */
  private depth = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private isWord(t: Token | undefined, word: string): boolean {
    return t?.kind === 'word' && !t.quoted && t.value === word;
  }

  private text(t: Token): string {
    if (t.kind === 'word') return t.value;
    return t.kind === 'op' ? t.op : '>';
  }

  /**
   * Pipelines joined by connectors, up to the end (`stops` empty) or to one of `stops` where a
   * command starts (`done`; `then`; `elif`, `else` or `fi`), which is left to read.
   */
  list(stops: readonly string[]): CommandList {
    const items: { connector: Connector | undefined; pipeline: Pipeline }[] = [];
    let connector: Connector | undefined;
    /** `&&` or `||` read, the pipeline after it not yet: the line cannot end here. */
    let open = false;
    for (;;) {
      const t = this.peek();
      if (t === undefined) {
        if (stops.length > 0 || open) throw EOF;
        return { items };
      }
      const stop = stops.find((w) => this.isWord(t, w));
      if (stop !== undefined) {
        if (items.length === 0 || open) throw near(stop);
        return { items };
      }
      items.push({ connector, pipeline: this.pipeline(stops) });
      open = false;
      const op = this.peek();
      if (op === undefined) continue;
      if (op.kind !== 'op' || op.op === '|') throw near(this.text(op));
      this.at++;
      connector = op.op;
      open = op.op !== ';';
    }
  }

  private pipeline(stops: readonly string[]): Pipeline {
    const commands: Command[] = [this.command(stops)];
    while (this.peek()?.kind === 'op' && (this.peek() as { op: string }).op === '|') {
      this.at++;
      if (this.peek() === undefined) throw EOF;
      commands.push(this.command(stops));
    }
    return { commands };
  }

  private command(stops: readonly string[]): Command {
    const t = this.peek();
    if (t === undefined) throw EOF;
    if (t.kind === 'op') throw near(t.op);
    if (this.isWord(t, 'for')) return this.nested(() => this.forLoop());
    if (this.isWord(t, 'while') || this.isWord(t, 'until')) return this.nested(() => this.whileLoop()); // prettier-ignore
    if (this.isWord(t, 'if')) return this.nested(() => this.ifCommand());
    if (t.kind === 'word' && !t.quoted && RESERVED.has(t.value) && !stops.includes(t.value))
      throw near(t.value);
    if (t.kind === 'word' && !t.quoted && UNSUPPORTED.has(t.value))
      throw new SyntaxError(labNote('shell.compound', { keyword: t.value }));
    return this.simple();
  }

  /** A compound command inside the ones open: refused past MAX_NESTING, before anything runs. */
  private nested(parse: () => Command): Command {
    if (this.depth >= MAX_NESTING)
      throw new SyntaxError(labNote('shell.nesting', { max: MAX_NESTING }), 1);
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private redirection(t: Extract<Token, { kind: 'redir' }>): Redirection {
    if (t.dup !== undefined) return { fd: t.fd, target: t.dup, append: false };
    if (t.here !== undefined)
      return { fd: 0, target: t.here.body ?? '', append: false, here: t.here.quoted ? 'literal' : 'doc' }; // prettier-ignore
    const target = this.tokens[this.at];
    if (target === undefined) throw near('newline');
    if (target.kind !== 'word') throw near(this.text(target));
    this.at++;
    if (t.hereString === true) return { fd: 0, target: target.value, append: false, here: 'string' }; // prettier-ignore
    return { fd: t.fd, target: target.value, append: t.append };
  }

  private simple(): SimpleCommand {
    const argv: string[] = [];
    const redirections: Redirection[] = [];
    for (let t = this.peek(); t !== undefined && t.kind !== 'op'; t = this.peek()) {
      this.at++;
      if (t.kind === 'word') argv.push(t.value);
      else redirections.push(this.redirection(t));
    }
    return { argv, redirections };
  }

  /** `for NAME [in WORD…] ; do LIST ; done [REDIRECTION…]` */
  private forLoop(): Command {
    this.at++;
    const name = this.peek();
    if (name === undefined) throw EOF;
    if (name.kind !== 'word') throw near(this.text(name));
    this.at++;
    if (!/^[A-Za-z_]\w*$/.test(name.value))
      throw new SyntaxError(`bash: \`${name.value}': not a valid identifier\n`, 1);
    let words: string[] | undefined;
    if (this.isWord(this.peek(), 'in')) {
      this.at++;
      words = [];
      for (let t = this.peek(); t?.kind === 'word'; t = this.peek()) {
        words.push(t.value);
        this.at++;
      }
    }
    const sep = this.peek();
    if (sep?.kind === 'op' && sep.op === ';') this.at++;
    else if (sep !== undefined && !this.isWord(sep, 'do')) throw near(this.text(sep));
    const d = this.peek();
    if (d === undefined) throw EOF;
    if (!this.isWord(d, 'do')) throw near(this.text(d));
    this.at++;
    const body = this.list(['done']);
    this.at++;
    return { kind: 'for', name: name.value, words, body, redirections: this.trailing() };
  }

  /** `while|until LIST; do LIST; done [REDIRECTION…]` */
  private whileLoop(): Command {
    const until = this.isWord(this.peek(), 'until');
    this.at++;
    const condition = this.list(['do']);
    this.at++;
    const body = this.list(['done']);
    this.at++;
    return { kind: 'while', until, condition, body, redirections: this.trailing() };
  }

  /** `if LIST; then LIST; [elif LIST; then LIST;]… [else LIST;] fi [REDIRECTION…]` */
  private ifCommand(): Command {
    const branches: { condition: CommandList; body: CommandList }[] = [];
    let otherwise: CommandList | undefined;
    let word = 'if';
    while (word === 'if' || word === 'elif') {
      this.at++;
      const condition = this.list(['then']);
      this.at++;
      const body = this.list(['elif', 'else', 'fi']);
      branches.push({ condition, body });
      word = (this.peek() as { value: string }).value;
    }
    if (word === 'else') {
      this.at++;
      otherwise = this.list(['fi']);
    }
    this.at++;
    return { kind: 'if', branches, otherwise, redirections: this.trailing() };
  }

  /** The redirections after a compound command; a word there is bash's syntax error. */
  private trailing(): Redirection[] {
    const redirections: Redirection[] = [];
    for (let t = this.peek(); t?.kind === 'redir'; t = this.peek()) {
      this.at++;
      redirections.push(this.redirection(t));
    }
    const after = this.peek();
    if (after !== undefined && after.kind === 'word') throw near(after.value);
    return redirections;
  }
}

/** Parses one command line into pipelines joined by `;`, `&&`, `||`. */
export function parseCommandLine(line: string): ShellParseResult {
  const lexed = lexLine(line);
  if ('error' in lexed) return { ok: false, error: lexed.error, exitCode: lexed.exitCode ?? 2 };
  try {
    return { ok: true, list: new Parser(lexed.tokens).list([]), warnings: lexed.warnings };
  } catch (e) {
    // bash read the whole input, here-documents too, before it found the error.
    if (e instanceof SyntaxError) return { ok: false, error: lexed.warnings + e.error, exitCode: e.exitCode }; // prettier-ignore
    throw e;
  }
}

/** Convenience for tests and callers that only need words: the argv of each pipeline stage. */
export function tokenize(
  line: string,
): { ok: true; stages: string[][] } | { ok: false; error: string } {
  const parsed = parseCommandLine(line);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const stages: string[][] = [];
  for (const item of parsed.list.items)
    for (const c of item.pipeline.commands)
      if (c.kind === undefined || c.kind === 'simple') stages.push(c.argv.map(wordText));
  return { ok: true, stages };
}

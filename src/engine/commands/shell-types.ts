/** The lab shell's parsed command lines (shell.ts builds them, shell-run.ts runs them). */

export type Connector = ';' | '&&' | '||';

export interface Redirection {
  /** 1 = stdout, 2 = stderr, 'both' = `&>`. */
  readonly fd: 1 | 2 | 'both' | 0;
  /** Target file, or '&1' for `2>&1`. */
  readonly target: string;
  readonly append: boolean;
  /**
   * stdin from the line itself (shell-input.ts): a here-document whose `target` is its body as
   * a marked word (`doc`) or as typed (`literal`, a quoted delimiter), or a here-string (`<<<`).
   */
  readonly here?: 'doc' | 'literal' | 'string';
}

export interface SimpleCommand {
  readonly kind?: 'simple';
  /** Words as typed, quotes removed, expansions marked (MARK): expanded when the command runs. */
  readonly argv: readonly string[];
  readonly redirections: readonly Redirection[];
}

/** `for NAME [in WORD…]; do LIST; done`, itself a command of a pipeline. */
export interface ForCommand {
  readonly kind: 'for';
  readonly name: string;
  /** The words to loop over (undefined: no `in`, the positional parameters, none here). */
  readonly words: readonly string[] | undefined;
  readonly body: CommandList;
  readonly redirections: readonly Redirection[];
}

/** `while LIST; do LIST; done`, or `until` (the body runs while the condition fails). */
export interface WhileCommand {
  readonly kind: 'while';
  readonly until: boolean;
  readonly condition: CommandList;
  readonly body: CommandList;
  readonly redirections: readonly Redirection[];
}

/** `if LIST; then LIST; [elif LIST; then LIST;]… [else LIST;] fi`. */
export interface IfCommand {
  readonly kind: 'if';
  readonly branches: readonly { readonly condition: CommandList; readonly body: CommandList }[];
  readonly otherwise: CommandList | undefined;
  readonly redirections: readonly Redirection[];
}

export type Command = SimpleCommand | ForCommand | WhileCommand | IfCommand;

/** Commands joined by `|`. */
export interface Pipeline {
  readonly commands: readonly Command[];
}

/** A command list: pipelines joined by `;`, `&&` and `||` (the connector before each one). */
export interface CommandList {
  readonly items: readonly {
    readonly connector: Connector | undefined;
    readonly pipeline: Pipeline;
  }[];
}

/**
 * How deep loops, `if` and `$(…)` may nest in one line. The lab runs each level as nested
 * function calls, and JavaScript's stack (smaller in a browser's worker) ends far sooner than
 * bash's (which runs 1,000 nested for loops); deeper is refused with a lab note.
 */
export const MAX_NESTING = 100;

/**
 * Private-use characters that mark an expansion inside a word: `var` + NAME + `end` for `$NAME`,
 * `sub` + COMMAND LINE + `end` for `$(…)`; the `…Quoted` forms were inside double quotes (their
 * results are not split into words).
 */
export const MARK = {
  var: '\uE000',
  varQuoted: '\uE001',
  sub: '\uE002',
  subQuoted: '\uE003',
  /** `$((EXPRESSION))`. */
  arith: '\uE004',
  /** `${…}` with an operator (`${X:-d}`, `${#X}`): the text between the braces, as typed. */
  param: '\uE005',
  paramQuoted: '\uE006',
  /** Quoted text inside a `${…}` operator's word: matched literally, never split. */
  lit: '\uE007',
  end: '\uE00F',
} as const;

/**
 * A piece of an expanded word: `quoted` text is never split into fields nor read as a pattern;
 * `literal` text was typed in the word itself (not split either, but a pattern if unquoted).
 */
export interface Segment {
  readonly text: string;
  readonly quoted: boolean;
  readonly literal?: true;
}

/** A word's expansion: its pieces, and what its command substitutions wrote to stderr. */
export interface Expansion {
  readonly segments: Segment[];
  readonly stderr: string;
  /** An expansion error: the command does not run, and an interactive bash drops the line. */
  readonly failed?: true;
  /**
   * A `${…}` bash cannot read: the word around it reports it (bash names the whole word,
   * `bash: a${X!}b: bad substitution`).
   */
  readonly badSubstitution?: true;
}

/**
 * A word as typed (its expansions written back as `$NAME`, `$(…)`, `$((…))`, `${…}`), for bash's
 * messages about it (`bash: $x: ambiguous redirect`), tests and views.
 */
export function wordText(word: string): string {
  return word
    .replace(new RegExp(`[${MARK.var}${MARK.varQuoted}]([^${MARK.end}]*)${MARK.end}`, 'g'), '$$$1')
    .replace(
      new RegExp(`[${MARK.sub}${MARK.subQuoted}]([^${MARK.end}]*)${MARK.end}`, 'g'),
      '$$($1)',
    )
    .replace(new RegExp(`${MARK.arith}([^${MARK.end}]*)${MARK.end}`, 'g'), '$$(($1))')
    .replace(
      new RegExp(`[${MARK.param}${MARK.paramQuoted}]([^${MARK.end}]*)${MARK.end}`, 'g'),
      '$${$1}',
    ) // prettier-ignore
    .replace(new RegExp(`${MARK.lit}([^${MARK.end}]*)${MARK.end}`, 'g'), '$1');
}

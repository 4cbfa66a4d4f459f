/**
 * pkg/proxy/util `LineBuffer`: each `write` joins its arguments (strings or string lists)
 * with single spaces into one line. `append` adds an already rendered block of lines (a
 * cached service-port fragment), so unchanged services cost one array push per block.
 */
export type LineArg = string | readonly string[];

export class LineBuffer {
  private readonly chunks: string[] = [];
  private count = 0;

  write(...args: readonly LineArg[]): void {
    this.count++;
    this.chunks.push(joinArgs(args), '\n');
  }

  /** A block of `lines` lines, each already terminated by `\n`. */
  append(block: RenderedLines): void {
    this.count += block.lines;
    if (block.text !== '') this.chunks.push(block.text);
  }

  /** Number of lines written. */
  get lineCount(): number {
    return this.count;
  }

  /**
   * The lines, each terminated by `\n`, as one flat string: `write` pushes each line and its
   * `\n` separately, so this is a real join. (A line ending made with `+` would leave a rope
   * behind, and cached fragments are copied into every later restore input.)
   */
  text(): string {
    return this.chunks.join('');
  }

  /** `parts` joined, each a string or a buffer's lines: one copy of a large restore input. */
  static join(parts: readonly (string | LineBuffer)[]): string {
    const chunks: string[] = [];
    for (const part of parts) {
      if (typeof part === 'string') chunks.push(part);
      else for (const chunk of part.chunks) chunks.push(chunk);
    }
    return chunks.join('');
  }

  /** The buffer's content as a block for `append`. */
  rendered(): RenderedLines {
    return { text: this.text(), lines: this.count };
  }
}

/** Lines rendered once and reused: the text (each line `\n`-terminated) and how many. */
export interface RenderedLines {
  readonly text: string;
  readonly lines: number;
}

/** `args.flat().join(' ')`, without flattening into a new array first. */
function joinArgs(args: readonly LineArg[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  const words: string[] = [];
  for (const arg of args) {
    if (typeof arg === 'string') words.push(arg);
    else for (const word of arg) words.push(word);
  }
  return words.join(' ');
}

/** `utiliptables.MakeChainLine`: the restore-input line that declares (and flushes) a chain. */
export function chainLine(chain: string): string {
  return `:${chain} - [0:0]`;
}

/**
 * pkg/proxy/util `LineBuffer`: each `write` joins its arguments (strings or string lists)
 * with single spaces into one line. `append` adds an already rendered block of lines (a
 * cached service-port fragment), so unchanged services cost one array push per block.
 */
import {
  joinPieces,
  PrebuiltLines,
  type PrebuiltLine,
  type RestorePiece,
  type RestorePieces,
} from '../../netfilter/restore-pieces';

export type LineArg = string | readonly string[];

export class LineBuffer {
  private readonly chunks: RestorePiece[] = [];
  private count = 0;
  /** Per line written so far, the parse its writer built (see writeParsed()), if any was. */
  private parses: (PrebuiltLine | undefined)[] | undefined;

  write(...args: readonly LineArg[]): void {
    this.count++;
    this.chunks.push(joinArgs(args), '\n');
  }

  /**
   * One line (as write() joins it) and what iptables-restore reads it as (undefined: let it
   * read the line). The buffer's rendered() lines hand these to the restore (restore-pieces.ts
   * PrebuiltLines).
   */
  writeParsed(parse: PrebuiltLine | undefined, ...args: readonly LineArg[]): void {
    const parses = (this.parses ??= []);
    while (parses.length < this.count) parses.push(undefined);
    parses.push(parse);
    this.write(...args);
  }

  /** A block of `lines` lines, each already terminated by `\n`. */
  append(block: RenderedLines): void {
    this.count += block.lines;
    if (block.prebuilt !== undefined) this.chunks.push(block.prebuilt);
    else if (block.text !== '') this.chunks.push(block.text);
  }

  /**
   * `lines` lines of a text the writer keeps (text[start, end), `\n`-terminated lines): a
   * restore that gets the pieces recognises lines it has read before by where they stand.
   */
  appendRange(
    text: string,
    start: number,
    end: number,
    lines: number,
    parses?: readonly (PrebuiltLine | undefined)[],
  ): void {
    this.count += lines;
    if (end > start) this.chunks.push(parses ? { text, start, end, parses } : { text, start, end });
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
    return joinPieces(this.chunks);
  }

  /** `parts` joined, each a string or a buffer's lines: one copy of a large restore input. */
  static join(parts: readonly (string | LineBuffer)[]): string {
    return joinPieces(LineBuffer.pieces(parts).pieces);
  }

  /**
   * `parts` as restore pieces: the kept texts' ranges and the appended blocks as they are, the
   * lines written one by one between them joined (so that every piece ends a line). A full
   * sync's input is then some 20,000 pieces the restore reads one after the other, rather
   * than one 30 MB string copied together for it (the joined text is made only if asked for).
   */
  static pieces(parts: readonly (string | LineBuffer)[]): RestorePieces {
    const pieces: RestorePiece[] = [];
    let run: string[] = [];
    const add = (chunk: RestorePiece): void => {
      if (typeof chunk === 'string' && !(chunk.length >= OWN_PIECE && endsLine(chunk))) {
        run.push(chunk);
        return;
      }
      // A run ends a line here: a write() pushes its line and the line's end together.
      if (run.length > 0) pieces.push(run.join(''));
      run = [];
      pieces.push(chunk);
    };
    for (const part of parts) {
      if (typeof part === 'string') add(part);
      else for (const chunk of part.chunks) add(chunk);
    }
    if (run.length > 0) pieces.push(run.join(''));
    return { pieces };
  }

  /**
   * The buffer's content as a block for `append`, with the parses written (writeParsed()) for
   * the first restore that reads it.
   */
  rendered(): RenderedLines {
    const text = this.text();
    const parses = this.allParses();
    if (parses === undefined) return { text, lines: this.count };
    return { text, lines: this.count, prebuilt: new PrebuiltLines(text, parses, this.count) };
  }

  /**
   * The content as lines a writer keeps and hands over as ranges (appendRange()), with the
   * parses written: the restore caches a kept text's lines when it first reads them, and
   * never changes those parses, so they may be handed over again.
   */
  renderedKept(): RenderedLines {
    const text = this.text();
    const parses = this.allParses();
    return parses === undefined ? { text, lines: this.count } : { text, lines: this.count, parses };
  }

  /** A parse (or undefined) per line written, if any line was written with one. */
  private allParses(): (PrebuiltLine | undefined)[] | undefined {
    const parses = this.parses;
    while (parses !== undefined && parses.length < this.count) parses.push(undefined);
    return parses;
  }
}

/** A block of lines this long or longer is a restore piece of its own. */
const OWN_PIECE = 64;

function endsLine(text: string): boolean {
  return text.charCodeAt(text.length - 1) === 0x0a;
}

/** Lines rendered once and reused: the text (each line `\n`-terminated) and how many. */
export interface RenderedLines {
  readonly text: string;
  readonly lines: number;
  /** Kept lines (renderedKept()): per line, the parse its writer built, if any. */
  readonly parses?: readonly (PrebuiltLine | undefined)[];
  /** The same text with the parses written, for the first restore that reads it (rendered()). */
  readonly prebuilt?: PrebuiltLines;
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

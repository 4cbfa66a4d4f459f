/**
 * The terminal's line editing, without a screen: what each key (as xterm's onData sends it)
 * does to the typed line and its cursor, with bash's (readline's emacs mode) meaning for the
 * keys the lab supports. The panel draws the result (screen-layout.ts). The line is kept as
 * code points, so that the cursor never splits a character outside the Basic Multilingual Plane.
 *
 * A paste is bracketed, as bash 5.2 asks for by default (readline's enable-bracketed-paste; the
 * panel writes "\x1b[?2004h" at each prompt, so xterm wraps a paste in "\x1b[200~" and
 * "\x1b[201~"): the text goes into the line with its line breaks, and nothing runs until Enter,
 * which hands over all of the line's lines (bash reads them as successive input lines). Until
 * the next key the pasted text is highlighted, as bash 5.2 shows it (readline's active region,
 * enable-active-region: standout, "\x1b[7m", around it).
 */

export type KeyOutcome =
  /** The line or the cursor changed (or a key did nothing): draw the line again. */
  | { readonly kind: 'edit' }
  /** Text was typed at the end of the line: writing it is enough. */
  | { readonly kind: 'append'; readonly text: string }
  /** Enter: the line's lines as typed (a here-document's line keeps its indent). */
  | { readonly kind: 'run'; readonly lines: readonly string[] }
  | { readonly kind: 'interrupt' }
  | { readonly kind: 'clear-screen' }
  | { readonly kind: 'ignored' };

/** Code points [from, to) of the line. */
export interface Span {
  readonly from: number;
  readonly to: number;
}

type Motion = (chars: readonly string[], cursor: number) => number;

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/** Where bash's unix-word-rubout (Ctrl+W) starts: back over blanks, then over a word. */
const wordStart: Motion = (chars, cursor) => {
  let at = cursor;
  while (at > 0 && isSpace(chars[at - 1])) at--;
  while (at > 0 && !isSpace(chars[at - 1])) at--;
  return at;
};

/** Cursor keys as xterm sends them, in normal and application cursor mode (CSI and SS3). */
const MOTIONS: Record<string, Motion> = {
  '\x1b[D': (_, cursor) => Math.max(0, cursor - 1),
  '\x1bOD': (_, cursor) => Math.max(0, cursor - 1),
  '\x02': (_, cursor) => Math.max(0, cursor - 1),
  '\x1b[C': (chars, cursor) => Math.min(chars.length, cursor + 1),
  '\x1bOC': (chars, cursor) => Math.min(chars.length, cursor + 1),
  '\x06': (chars, cursor) => Math.min(chars.length, cursor + 1),
  '\x1b[H': () => 0,
  '\x1bOH': () => 0,
  '\x1b[1~': () => 0,
  '\x01': () => 0,
  '\x1b[F': (chars) => chars.length,
  '\x1bOF': (chars) => chars.length,
  '\x1b[4~': (chars) => chars.length,
  '\x05': (chars) => chars.length,
};

/** Keys that delete the characters between the cursor and where the motion goes. */
const DELETIONS: Record<string, Motion> = {
  '\x7f': (_, cursor) => Math.max(0, cursor - 1),
  '\b': (_, cursor) => Math.max(0, cursor - 1),
  '\x1b[3~': (chars, cursor) => Math.min(chars.length, cursor + 1),
  '\x15': () => 0,
  '\x0b': (chars) => chars.length,
  '\x17': wordStart,
};

/** What xterm puts around a paste while bracketed-paste mode (DECSET 2004) is on. */
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

/**
 * Text for one line: line breaks and tabs become a space, and other control characters are
 * dropped, since the screen would not show them.
 */
export function printable(data: string): string {
  return pasted(data).replace(/\n+/g, ' ');
}

/**
 * Pasted text as the line keeps it: its line breaks as "\n" (xterm sends each as "\r", and
 * readline's bracketed paste reads "\r" as "\n"), a tab as a space (no completion, as before),
 * and other control characters dropped, since the screen would not show them.
 */
export function pasted(data: string): string {
  return (
    data
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, ' ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, '')
  );
}

/** A bracketed paste's text without the brackets; other data as it is. */
export function unbracketed(data: string): string {
  if (!data.startsWith(PASTE_START)) return data;
  const text = data.slice(PASTE_START.length);
  // xterm sends a paste in one piece, end bracket included; without one, all of it is the paste.
  return text.endsWith(PASTE_END) ? text.slice(0, -PASTE_END.length) : text;
}

export class LineEditor {
  private chars: string[] = [];
  private cursorAt = 0;
  private readonly history: string[] = [];
  /** How many entries back in history the line is (0: the line being typed). */
  private back = 0;
  private pastedSpan: Span | undefined;

  get line(): readonly string[] {
    return this.chars;
  }

  get cursor(): number {
    return this.cursorAt;
  }

  /** The text just pasted, shown highlighted until the next key. */
  get highlight(): Span | undefined {
    return this.pastedSpan;
  }

  /** The cursor to the end of the line (before Enter's output is written below the line). */
  moveToEnd(): void {
    this.cursorAt = this.chars.length;
  }

  /** Starts a new, empty line (after a command ran or Ctrl+C). */
  reset(): void {
    this.chars = [];
    this.cursorAt = 0;
    this.back = 0;
    this.pastedSpan = undefined;
  }

  /**
   * Replaces the line with `text` to edit, the cursor at `cursor` (in code points), as
   * recalling it from history would: what a lesson puts in the terminal for the learner to
   * complete.
   */
  load(text: string, cursor: number): void {
    this.chars = [...printable(text)];
    this.cursorAt = Math.max(0, Math.min(this.chars.length, cursor));
    this.back = 0;
    this.pastedSpan = undefined;
  }

  /**
   * Keeps a command that ran for ↑ to recall: the shell says which lines made one command (a
   * here-document's lines are one entry, as with bash's cmdhist).
   */
  remember(command: string): void {
    this.history.push(command);
  }

  press(data: string): KeyOutcome {
    const highlighted = this.pastedSpan !== undefined;
    this.pastedSpan = undefined;
    const outcome = this.keyOutcome(data);
    // The next key ends the highlight (readline deactivates the region): the line is drawn again.
    const drawn = outcome.kind === 'append' || outcome.kind === 'ignored';
    return highlighted && drawn ? { kind: 'edit' } : outcome;
  }

  private keyOutcome(data: string): KeyOutcome {
    if (data === '\r') return { kind: 'run', lines: this.chars.join('').split('\n') };
    if (data.startsWith(PASTE_START)) return this.paste(pasted(unbracketed(data)));
    if (data === '\x03') return { kind: 'interrupt' };
    if (data === '\x0c') return { kind: 'clear-screen' };
    if (data === '\x1b[A' || data === '\x1bOA') return this.recall(this.back + 1);
    if (data === '\x1b[B' || data === '\x1bOB') return this.recall(this.back - 1);
    const motion = MOTIONS[data];
    if (motion) {
      this.cursorAt = motion(this.chars, this.cursorAt);
      return { kind: 'edit' };
    }
    const deletion = DELETIONS[data];
    if (deletion) {
      const to = deletion(this.chars, this.cursorAt);
      const [from, end] = to < this.cursorAt ? [to, this.cursorAt] : [this.cursorAt, to];
      this.chars.splice(from, end - from);
      this.cursorAt = from;
      return { kind: 'edit' };
    }
    // Other escape sequences (function keys, Alt+key) and a lone Tab (no completion here).
    if (data.startsWith('\x1b') || data === '\t') return { kind: 'ignored' };
    return this.insert(printable(data));
  }

  private paste(text: string): KeyOutcome {
    const from = this.cursorAt;
    const outcome = this.insert(text);
    if (this.cursorAt > from) this.pastedSpan = { from, to: this.cursorAt };
    return outcome;
  }

  private insert(text: string): KeyOutcome {
    if (text === '') return { kind: 'ignored' };
    const chars = [...text];
    const atEnd = this.cursorAt === this.chars.length;
    this.chars.splice(this.cursorAt, 0, ...chars);
    this.cursorAt += chars.length;
    return atEnd ? { kind: 'append', text } : { kind: 'edit' };
  }

  /** Up/Down: the history entry `back` steps back, or the empty line at 0. */
  private recall(back: number): KeyOutcome {
    if (back < 0 || back > this.history.length) return { kind: 'ignored' };
    this.back = back;
    this.chars = back === 0 ? [] : [...(this.history[this.history.length - back] ?? '')];
    this.cursorAt = this.chars.length;
    return { kind: 'edit' };
  }
}

/**
 * Keys typed (or text pasted) while a command runs: kept, not lost, and given to the line
 * editor when the command ends, as a terminal does. While bash runs a command the tty is in
 * canonical mode with stty's sane settings (icrnl, onlcr, echo, echoe, echok, echoke, echoctl,
 * isig, iexten), so Linux's line discipline (drivers/tty/n_tty.c):
 * - echoes each character as it comes: text as itself, Enter as CR LF, a control character
 *   as ^X (the arrow keys' ESC as ^[);
 * - edits the line being typed: Backspace (VERASE, ^?) erases a character, "\b \b" on the
 *   screen (two columns for one echoed as ^X; the lab erases a tab as one column, where n_tty
 *   counts the columns it took); Ctrl+U (VKILL) the whole line, Ctrl+W (VWERASE)
 *   a word (eraser(): back over other characters, then over letters, digits and '_');
 * - on Ctrl+C (VINTR) echoes ^C and flushes everything typed ahead (isig(), no noflsh).
 * When the command ends, readline reads what is kept key by key, as if typed at the prompt:
 * arrows, Ctrl+A/E/L… act there, and an Enter runs its line; what follows waits for the next
 * prompt. Keys that reach readline are taken as they come (no tty between), so none pass here.
 *
 * The kept text is bounded, like n_tty's read buffer: N_TTY_BUF_SIZE is 4096 bytes, one of
 * which n_tty_receive_buf_common() keeps free (room = N_TTY_BUF_SIZE - used - 1), so 4095.
 * Past that the kernel beeps and stores no more of the line (a pty's writer is throttled
 * instead once complete lines fill it); the lab drops what comes past 4095 bytes, beeps once,
 * and counts the bytes it dropped so that the terminal can say so.
 */

/** n_tty's read buffer (N_TTY_BUF_SIZE, 4096) less the byte n_tty_receive_buf_common keeps. */
export const TYPE_AHEAD_LIMIT = 4095;

const ERASE = '\x7f';
const KILL = '\x15';
const WORD_ERASE = '\x17';
const INTERRUPT = '\x03';
const ESC = '\x1b';

/** What the type-ahead said about the command that just ended. */
export interface TypeAheadReport {
  /** Ctrl+C was pressed while it ran (what was typed before it was discarded). */
  readonly interrupted: boolean;
  /** Bytes (UTF-8) dropped past TYPE_AHEAD_LIMIT. */
  readonly droppedBytes: number;
}

const utf8Length = (char: string): number => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

const isControl = (char: string): boolean => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f;
};

/** echoctl: a control character is echoed as ^ and the character 64 above it (^? for DEL). */
const echoOf = (char: string): string => {
  if (char === '\r' || char === '\n') return '\r\n';
  if (char === '\t' || !isControl(char)) return char;
  return `^${String.fromCharCode((char.charCodeAt(0) + 64) & 0x7f)}`;
};

/**
 * echoe: how the tty takes an echoed character back off the screen, "\b \b" a column (what a
 * pty echoed on Linux 6.x for x世y^A^? typed during `sleep`: one "\b \b" for 世, two for ^A).
 */
const eraseEcho = (char: string): string =>
  isControl(char) && char !== '\t' ? '\b \b\b \b' : '\b \b';

/** n_tty's eraser() for VWERASE counts these as a word's characters (isalnum(c) || c == '_'). */
const isWordChar = (char: string): boolean => /^[A-Za-z0-9_]$/.test(char);

/** One key at the start of `text`, as xterm sends it: a CSI or SS3 sequence, Alt+key, a
 * control character, or a run of text (typed at once, so drawn at once). */
function firstKey(text: string): string {
  if (text.startsWith(`${ESC}[`)) {
    // CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E.
    // eslint-disable-next-line no-control-regex
    const csi = /^\x1b\[[0-?]*[ -/]*[@-~]/.exec(text);
    return csi ? csi[0] : text.slice(0, 2);
  }
  if (text.startsWith(ESC)) {
    const next = [...text.slice(1, 3)][0];
    return next === undefined ? ESC : ESC + (next === 'O' ? text.slice(1, 3) : next);
  }
  const first = [...text.slice(0, 2)][0] ?? '';
  if (isControl(first)) return first;
  // eslint-disable-next-line no-control-regex
  return /^[^\x00-\x1f\x7f]+/.exec(text)?.[0] ?? first;
}

/** `text` as the keys xterm would have sent one by one (a run of text stays one key). */
export function keysOf(text: string): string[] {
  const keys: string[] = [];
  for (let rest = text; rest !== '';) {
    const key = firstKey(rest);
    keys.push(key);
    rest = rest.slice(key.length);
  }
  return keys;
}

export class TypeAhead {
  /** What readline will read, in order, one code point an element; Enter kept as "\r". */
  private kept: string[] = [];
  /** Where the line the tty may still edit starts: before it, lines ended or already read. */
  private lineStart = 0;
  private keptBytes = 0;
  private droppedBytes = 0;
  private interrupted = false;

  /** Whether keys are waiting for the line editor. */
  get pending(): boolean {
    return this.kept.length > 0;
  }

  /** Keeps what xterm sent while a command runs; returns what the tty echoes for it. */
  receive(data: string): string {
    let echo = '';
    let beeped = false;
    for (const char of data) {
      if (char === INTERRUPT) {
        this.kept = [];
        this.lineStart = 0;
        this.keptBytes = 0;
        this.interrupted = true;
        echo += echoOf(char);
      } else if (char === ERASE) echo += this.eraseLast();
      else if (char === KILL) echo += this.eraseLine();
      else if (char === WORD_ERASE) echo += this.eraseWord();
      else if (this.keptBytes + utf8Length(char) > TYPE_AHEAD_LIMIT) {
        this.droppedBytes += utf8Length(char);
        // One beep for what one key or paste brought past the bound, not one per byte.
        if (!beeped) echo += '\x07';
        beeped = true;
      } else {
        // icrnl: Ctrl+J and Enter both end the line; readline runs it on either.
        const kept = char === '\n' ? '\r' : char;
        this.kept.push(kept);
        this.keptBytes += utf8Length(kept);
        if (kept === '\r') this.lineStart = this.kept.length;
        echo += echoOf(char);
      }
    }
    return echo;
  }

  /** The next key for the line editor, or undefined when nothing is kept. */
  next(): string | undefined {
    if (this.kept.length === 0) return undefined;
    const key = firstKey(this.kept.slice(0, 64).join(''));
    const taken = [...key].length;
    this.kept.splice(0, taken);
    this.keptBytes -= [...key].reduce((sum, c) => sum + utf8Length(c), 0);
    this.lineStart = Math.max(0, this.lineStart - taken);
    return key;
  }

  /**
   * A command starts: what is still kept is no longer the tty's line to edit. (When bash sets
   * canonical mode again, n_tty_set_termios() moves canon_head to read_head, and the eraser
   * stops at canon_head.)
   */
  commit(): void {
    this.lineStart = this.kept.length;
  }

  /** What happened while the command ran; starts afresh for the next one. */
  takeReport(): TypeAheadReport {
    const report = { interrupted: this.interrupted, droppedBytes: this.droppedBytes };
    this.interrupted = false;
    this.droppedBytes = 0;
    return report;
  }

  /** Takes the line's last character back (none before the line's start); its echo erased. */
  private eraseLast(): string {
    if (this.kept.length <= this.lineStart) return '';
    const char = this.kept.pop()!;
    this.keptBytes -= utf8Length(char);
    return eraseEcho(char);
  }

  /** VKILL with echoke: each character of the line erased as VERASE erases it. */
  private eraseLine(): string {
    let echo = '';
    while (this.kept.length > this.lineStart) echo += this.eraseLast();
    return echo;
  }

  /** VWERASE: back over other characters, then over word characters (n_tty's eraser()). */
  private eraseWord(): string {
    let echo = '';
    let seenWordChars = false;
    while (this.kept.length > this.lineStart) {
      if (isWordChar(this.kept[this.kept.length - 1]!)) seenWordChars = true;
      else if (seenWordChars) break;
      echo += this.eraseLast();
    }
    return echo;
  }
}

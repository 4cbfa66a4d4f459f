/**
 * Where the prompt and the typed line sit on the terminal's screen, and the escape sequences
 * that redraw them. The line buffer is the truth: after an edit the whole prompt and line are
 * written again from where the prompt starts, so the screen cannot drift from what will run —
 * also when the line wraps past the terminal's width or holds double-width (CJK) characters,
 * over which a lone "\b \b" cannot move back.
 *
 * The layout follows xterm's InputHandler.print(): a character that does not fit in what is
 * left of the row (column + width > columns) goes to the start of the next row, leaving the
 * last cell empty for a wide one; after the last cell of a row is written the cursor stays on
 * that row (column = columns, "pending wrap") until the next character is printed. A line
 * break in the line (a pasted block of lines) is written as CR LF: the next line starts at
 * column 0 of the next row, as bash (readline) shows a buffer of several lines.
 */
import { cellWidth } from './display-width';

/** A cell position relative to the prompt: row 0 is the row the prompt starts on. */
export interface Place {
  readonly row: number;
  readonly col: number;
}

export interface PromptLine {
  /** The terminal's width in cells. */
  readonly cols: number;
  /** The column the prompt starts in (after output that did not end its line, not 0). */
  readonly startCol: number;
  /** The prompt as shown (colours included) and the text it shows (to count its cells). */
  readonly styledPrompt: string;
  readonly prompt: string;
  /** The typed line, one code point an element, and the cursor's index into it. */
  readonly chars: readonly string[];
  readonly cursor: number;
  /** Code points [from, to) shown highlighted (standout): a paste, until the next key. */
  readonly highlight?: { readonly from: number; readonly to: number } | undefined;
}

const CSI = '\x1b[';

/**
 * The place of each code point of `text` written from `startCol`, then (last element) where
 * the cursor is once all is written: that can be column `cols`, xterm's pending wrap.
 */
export function layout(text: readonly string[], startCol: number, cols: number): Place[] {
  const places: Place[] = [];
  let row = 0;
  let col = startCol;
  for (const char of text) {
    if (char === '\n') {
      // On a line break the cursor is just past its line's end; CR LF goes to the next row's start.
      places.push({ row, col });
      row += 1;
      col = 0;
      continue;
    }
    const width = cellWidth(char.codePointAt(0)!);
    if (width > 0 && col + width > cols) {
      row += 1;
      col = 0;
    }
    places.push({ row, col });
    col += width;
  }
  places.push({ row, col });
  return places;
}

/** Where the terminal's cursor is for this line: on the character it is at, or after the end. */
export function cursorPlace(line: PromptLine): Place {
  const text = [...line.prompt, ...line.chars];
  return layout(text, line.startCol, line.cols)[[...line.prompt].length + line.cursor]!;
}

/** Typed text as written: with convertEol off a lone LF would keep the column, so CR LF. */
const writtenText = (text: string) => text.replace(/\n/g, '\r\n');

/** Standout on and off, as readline writes them for xterm (terminfo smso, rmso). */
const STANDOUT = '\x1b[7m';
const STANDOUT_END = '\x1b[27m';

/** Text typed (or pasted) at the end of the line as written, highlighted or not. */
export const appendedText = (text: string, highlighted: boolean) =>
  highlighted ? `${STANDOUT}${writtenText(text)}${STANDOUT_END}` : writtenText(text);

/** The line's code points from `start` on as written, its highlighted part in standout. */
function styledText(line: PromptLine, start: number): string {
  const text = (from: number, to?: number) => writtenText(line.chars.slice(from, to).join(''));
  const span = line.highlight;
  if (span === undefined || span.to <= start) return text(start);
  const from = Math.max(start, span.from);
  return `${text(start, from)}${STANDOUT}${text(from, span.to)}${STANDOUT_END}${text(span.to)}`;
}

/** Moves the cursor from the row of `from` to `to` (CUU/CUD, then CHA to the column). */
function move(from: Place, to: Place): string {
  const rows = from.row - to.row;
  const vertical = rows > 0 ? `${CSI}${rows}A` : rows < 0 ? `${CSI}${-rows}B` : '';
  return `${vertical}${CSI}${to.col + 1}G`;
}

/**
 * Writes the prompt and the line where the cursor is, and leaves the cursor at the line's
 * cursor. The cursor must be where the prompt starts.
 */
export function drawLine(line: PromptLine): string {
  const text = [...line.prompt, ...line.chars];
  const places = layout(text, line.startCol, line.cols);
  const end = places[places.length - 1]!;
  const at = [...line.prompt].length + line.cursor;
  // At the end the cursor already is where writing left it (maybe pending wrap, which no
  // cursor movement could reproduce).
  const back = at < text.length ? move(end, places[at]!) : '';
  return `${line.styledPrompt}${styledText(line, 0)}${back}`;
}

/** The terminal's screen: its rows, and the row the cursor is on (0: the top one). */
export interface Screen {
  readonly rows: number;
  readonly cursorRow: number;
}

/**
 * Replaces what the screen shows for `before` with `after`: back to where the prompt starts,
 * erase to the end of the screen (ED 0), draw `after`. Both share the prompt and its place.
 *
 * A line taller than the screen (a long pasted block) has scrolled its first rows off the top:
 * the cursor cannot move up to them (CUU stops at the top row) and they can no longer change.
 * The redraw then starts at the top row, with the part of `after` that falls there and below.
 */
export function redrawLine(before: PromptLine, after: PromptLine, screen?: Screen): string {
  const from = cursorPlace(before);
  const beforeRows = layout([...before.prompt, ...before.chars], before.startCol, before.cols);
  const taller = screen !== undefined && beforeRows[beforeRows.length - 1]!.row >= screen.rows;
  const hidden = taller ? from.row - screen.cursorRow : 0;
  const text = [...after.prompt, ...after.chars];
  const places = layout(text, after.startCol, after.cols);
  const first = places.findIndex((place, i) => i < text.length && place.row >= hidden);
  const promptLength = [...after.prompt].length;
  // The prompt is off the screen, and some of `after` on it: only those rows are drawn again.
  if (hidden > 0 && first >= promptLength) {
    const end = places[places.length - 1]!;
    const at = promptLength + after.cursor;
    const back = at < text.length ? move(end, places[at]!) : '';
    const rest = styledText(after, first - promptLength);
    return `${move(from, { row: hidden, col: 0 })}${CSI}J${rest}${back}`;
  }
  const toStart = move(from, { row: 0, col: before.startCol });
  return `${toStart}${CSI}J${drawLine(after)}`;
}

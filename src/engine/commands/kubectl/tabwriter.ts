/**
 * Go's text/tabwriter (the algorithm of Writer.format / writeLines), as kubectl uses it:
 *
 * - `kubectl get` tables: cli-runtime printers.GetNewTabWriter — minwidth 6, tabwidth 4,
 *   padding 3, padchar ' ', flags RememberWidths (which only matters across flushes, i.e. watch);
 * - `kubectl describe`: tabbedString — minwidth 0, tabwidth 8, padding 2, padchar ' '.
 *
 * Cells are tab-terminated: the text after a line's last tab is not part of any column. A column
 * block is a run of consecutive lines that have a cell in that column; its width is the widest
 * cell + padding, at least minwidth. A line with no tab flushes, starting fresh blocks below it.
 * Widths count runes (utf8.RuneCountInString), as tabwriter does.
 */
export interface TabwriterOptions {
  readonly minwidth: number;
  readonly padding: number;
}

export const GET_TABWRITER: TabwriterOptions = { minwidth: 6, padding: 3 };
export const DESCRIBE_TABWRITER: TabwriterOptions = { minwidth: 0, padding: 2 };

const runeLength = (s: string): number => [...s].length;

function formatSection(lines: readonly string[][], opts: TabwriterOptions): string {
  let out = '';
  const widths: number[] = [];
  const writeLines = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      const cells = lines[i] ?? [];
      cells.forEach((cell, j) => {
        out += cell;
        const w = widths[j];
        if (w !== undefined) out += ' '.repeat(Math.max(0, w - runeLength(cell)));
      });
      out += '\n';
    }
  };
  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    let start = line0;
    for (let t = line0; t < line1; t++) {
      if (column >= (lines[t]?.length ?? 0) - 1) continue;
      writeLines(start, t);
      start = t;
      let width = opts.minwidth;
      let end = t;
      for (; end < line1; end++) {
        const cells = lines[end] ?? [];
        if (column >= cells.length - 1) break;
        width = Math.max(width, runeLength(cells[column] ?? '') + opts.padding);
      }
      widths.push(width);
      format(start, end);
      widths.pop();
      start = end;
      t = end - 1;
    }
    writeLines(start, line1);
  };
  format(0, lines.length);
  return out;
}

/** Aligns newline-terminated, tab-separated text as Go's tabwriter would on Flush. */
export function tabwrite(text: string, opts: TabwriterOptions = GET_TABWRITER): string {
  const rawLines = text.split('\n');
  const trailing = rawLines.pop(); // text after the last newline (kubectl always ends with one)
  let out = '';
  let section: string[][] = [];
  for (const raw of rawLines) {
    const cells = raw.split('\t');
    section.push(cells);
    if (cells.length === 1) {
      out += formatSection(section, opts);
      section = [];
    }
  }
  out += formatSection(section, opts);
  return out + (trailing ?? '');
}

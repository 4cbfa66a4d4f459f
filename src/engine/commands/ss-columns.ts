/**
 * How `ss` (iproute2 6.1, misc/ss.c) lays out its table. Every record is a run of fields, one per
 * enabled column; a column is as wide as its longest field (header included) plus its left
 * delimiter. Into a pipe or a file that is all ("compact output", since iproute2 5.6). On a
 * terminal the free width of the screen is shared out among the columns, the rightmost getting
 * the remainder first; columns that do not fit start a new screen line, and the terminal wraps
 * there. Two quirks kept: Recv-Q and Send-Q are printed `%-6d`, and the last record's final
 * field is never measured (it is still being written when the table is rendered).
 */

export const COLUMNS = [
  { header: 'Netid', delim: '', right: false },
  { header: 'State', delim: ' ', right: false },
  { header: 'Recv-Q', delim: ' ', right: false },
  { header: 'Send-Q', delim: ' ', right: false },
  { header: 'Local Address:', delim: ' ', right: true },
  { header: 'Port', delim: '', right: false },
  { header: 'Peer Address:', delim: ' ', right: true },
  { header: 'Port', delim: '', right: false },
  { header: 'Process', delim: '', right: false },
  { header: '', delim: '', right: false },
] as const;

export const COL_NETID = 0;
export const COL_STATE = 1;
const COL_EXT = COLUMNS.length - 1;

/** One record's fields, by column (disabled columns' entries are ignored). */
export type Row = readonly string[];

/** Column widths: measured, then (on a terminal of `screen` columns) spread over the screen. */
function widths(
  rows: readonly Row[],
  enabled: readonly boolean[],
  screen: number | undefined,
  lastUnmeasured: boolean,
) {
  const maxLen = COLUMNS.map((_, c) => {
    let max = 0;
    rows.forEach((row, r) => {
      const lastField =
        lastUnmeasured && r === rows.length - 1 && c === lastEnabled(enabled, COL_EXT - 1);
      if (enabled[c] && !lastField) max = Math.max(max, (row[c] ?? '').length);
    });
    return max;
  });
  const width: number[] = [];
  let first = true;
  for (let c = 0; c < COLUMNS.length; c++) {
    if (!enabled[c]) {
      width.push(0);
      continue;
    }
    const m = maxLen[c]!;
    let w = !first && m > 0 ? m + COLUMNS[c]!.delim.length : m;
    if (screen !== undefined) w = Math.min(w, screen);
    width.push(w);
    if (w > 0) first = false;
  }
  if (screen !== undefined) spread(width, screen);
  return width;
}

function lastEnabled(enabled: readonly boolean[], upTo: number): number {
  for (let c = upTo; c >= 0; c--) if (enabled[c]) return c;
  return -1;
}

/** render_calc_width's second pass: line breaks and the spare width of each screen line. */
function spread(width: number[], screen: number): void {
  let len = 0;
  let lineCols = 0;
  let eol = -1;
  for (let c = 0; c < width.length; c++) {
    if (width[c] === 0) continue;
    lineCols++;
    len += width[c]!;
    const last = !width.slice(c + 1).some((w) => w > 0);
    if (!last && len < screen) continue;
    if (len !== screen) {
      if (len > screen) {
        len -= width[c]!;
        c--;
        lineCols--;
      }
      const pad = screen - len;
      const spacing = Math.floor(pad / lineCols);
      let rem = pad % lineCols;
      for (let t = c; t > eol; t--) {
        if (width[t] === 0) continue;
        width[t] = width[t]! + spacing;
        if (rem > 0) {
          width[t]!++;
          rem--;
        }
      }
    }
    eol = c;
    len = 0;
    lineCols = 0;
  }
}

/**
 * The table: `header` first when given, then the rows. `screen`: the terminal's width, or
 * undefined when stdout is not a terminal.
 */
export function renderTable(
  header: boolean,
  rows: readonly Row[],
  enabled: readonly boolean[],
  screen: number | undefined,
): string {
  const headerRow = COLUMNS.map((c) => c.header);
  const all = header ? [headerRow, ...rows] : [...rows];
  if (all.length === 0) return '';
  const width = widths(all, enabled, screen, rows.length > 0);
  let out = '';
  for (const row of all) {
    let started = false;
    for (let c = 0; c < COLUMNS.length; c++) {
      if (!enabled[c]) continue;
      const col = COLUMNS[c]!;
      const text = row[c] ?? '';
      let printed = 0;
      let line = '';
      if (started) {
        line += col.delim;
        printed += col.delim.length;
      }
      started = true;
      const w = width[c]!;
      if (w > 0 && col.right) {
        const s = w - text.length - printed;
        if (s > 0) {
          line += ' '.repeat(s);
          printed += s;
        }
      }
      line += text;
      printed += text.length;
      if (w > 0 && !col.right && w - printed > 0) line += ' '.repeat(w - printed);
      out += line;
    }
    out += '\n';
  }
  return out;
}

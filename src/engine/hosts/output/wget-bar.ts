/**
 * wget 1.21.3's progress display. The bar (progress.c create_image), one image as a terminal shows it
 * after `\r`:
 *
 *     index.html          100%[===================>]      56  --.-KB/s    in 0s
 *
 * The lab draws the two images an instant transfer gets: the first (bar_create, tick 0) and
 * the last (bar_finish). No time passes between them on the lab clock, so the rate is never
 * known (`--.-KB/s`: the history ring is empty) and the elapsed time is `0s`.
 */

/** progress.c's column budget besides the bar: name+1, "xx%", "[]", size, rate, ETA. */
const FIXED_COLS = 1 + 4 + 2 + 8 + 10 + 15;
const MIN_SCROLL_TEXT = 5;

/** human_readable(n, 1000, 2) (utils.c): `56`, `1.50K`, `1.00M`, at most 7 characters. */
export function humanReadable(n: number): string {
  if (n < 1024) return String(n);
  const powers = 'KMGTPE';
  let rest = n;
  for (let i = 0; i < powers.length; i++) {
    if (rest / 1024 < 1024 || i === powers.length - 1) {
      const val = rest / 1024;
      // snprintf into wget's 8-byte buffer: `1000.00K` loses its unit (seen with 1023999 B).
      return `${val.toFixed(val < 1000 ? 2 : 0)}${powers[i]}`.slice(0, 7);
    }
    rest /= 1024;
  }
  return String(n);
}

/** The file name's field: padded, or (too long) scrolled as tick 0 shows it, or cut when done. */
function nameField(name: string, maxCols: number, done: boolean): string {
  if (name.length <= maxCols) return `${name} ${' '.repeat(maxCols - name.length)}`;
  let padding = 0;
  let offset = 0;
  if (name.length > maxCols + MIN_SCROLL_TEXT && !done) {
    offset = (0 + name.length + Math.floor(maxCols / 2)) % (name.length + maxCols);
    if (offset > name.length) {
      padding = maxCols - (offset - name.length);
      offset = 0;
    }
  }
  const shown = name.slice(offset, offset + maxCols - padding);
  return `${' '.repeat(padding)}${shown}${' '.repeat(maxCols - (padding + shown.length) + 1)}`;
}

/** The bar itself: `[====>   ]`, or for an unknown length the `<=>` that moves (tick 0). */
function barField(size: number, total: number, cols: number): string {
  if (cols === 0) return '';
  if (total > 0) {
    const done = Math.floor((size / total) * cols);
    const filled = done > 0 ? `${'='.repeat(done - 1)}>` : '';
    return `[${filled.padEnd(cols)}]`;
  }
  const cells = Array.from({ length: cols }, (_, i) => (i === 0 ? '<' : i === 1 ? '=' : i === 2 ? '>' : ' ')); // prettier-ignore
  return `[${cells.join('')}]`;
}

export function barImage(o: {
  readonly name: string;
  readonly columns: number;
  /** Content-Length (0: unknown). */
  readonly total: number;
  readonly received: number;
  readonly done: boolean;
}): string {
  // wget leaves the terminal's last column alone (bar_create: screen width - 1).
  const width = o.columns - 1;
  const maxName = Math.floor(width / 4);
  const barCols = width - (maxName + FIXED_COLS) < 5 ? 0 : width - (maxName + FIXED_COLS);
  // bar_finish: a length that was unknown (or short) becomes what was received.
  const total = o.done && o.total < o.received ? o.received : o.total;
  let image = nameField(o.name, maxName, o.done);
  image += total > 0 ? `${String(Math.floor((100 * o.received) / total)).padStart(3)}%` : '    ';
  image += barField(o.received, total, barCols);
  image += humanReadable(o.received).padStart(8);
  image += '  --.-KB/s';
  if (o.done) image += '    in 0s'.padEnd(15);
  else if (total > 0) image += ' '.repeat(15);
  return image.padEnd(width);
}

/**
 * The dots wget draws instead when stderr is not a terminal (progress.c dot_update and
 * dot_finish, the default style: 1K a dot, 10 a group, 50 a row), for a transfer within one
 * row, as the lab's are: `     0K` + the row's dots padded to its 55 columns + `100%`, the rate
 * (`%4.*f` and a unit letter: calc_rate over 0 s, so ` 104G` for 56 bytes) and `=0s`. Larger
 * bodies (50 KiB and more, several rows) do not occur in the lab.
 */
export function dotsLine(received: number, total: number): string {
  const dots = Math.min(Math.floor(received / 1024), 49);
  let row = '';
  for (let i = 0; i < 50; i++) row += (i % 10 === 0 ? ' ' : '') + (i < dots ? '.' : ' ');
  const pct = total > 0 ? `${String(Math.floor((100 * received) / total)).padStart(3)}%` : '';
  return `${'0'.padStart(6)}K${row}${pct}${dotRate(received)}=0s`;
}

/** print_row_stats()'s rate: ` %4.*f%c` with the units ` KMGT`, over the lab's 0 s. */
function dotRate(bytes: number): string {
  let rate = bytes / 0.5e-9;
  const names = ' KMGT';
  let unit = 0;
  while (unit < names.length - 1 && rate >= 1024) {
    rate /= 1024;
    unit++;
  }
  const digits = rate >= 99.95 ? 0 : rate >= 9.995 ? 1 : 2;
  return ` ${rate.toFixed(digits).padStart(4)}${names[unit]}`;
}

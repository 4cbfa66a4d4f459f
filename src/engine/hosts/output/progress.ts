/**
 * curl's progress meter (lib/progress.c, 7.88.1), shown on stderr when curl writes the body to a
 * pipe or file (not to a terminal) and `-s` is not given. Updates are printed once a second and
 * at the end, each starting with `\r`. Speeds are bytes per second of the lab clock; curl's
 * "Current" speed comes from a sliding window, which the lab takes to be the average.
 */

export const PROGRESS_HEADER =
  '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n' +
  '                                 Dload  Upload   Total   Spent    Left  Speed\n';

const KB = 1024;
const MB = 1024 * KB;

/** max5data(): a size or speed in at most 5 characters. */
export function max5(bytes: number): string {
  if (bytes < 100_000) return String(bytes).padStart(5);
  if (bytes < 10_000 * KB) return `${String(Math.floor(bytes / KB)).padStart(4)}k`;
  if (bytes < 100 * MB)
    return `${String(Math.floor(bytes / MB)).padStart(2)}.${Math.floor((bytes % MB) / (MB / 10))}M`;
  return `${String(Math.floor(bytes / MB)).padStart(4)}M`;
}

/** time2str(): `--:--:--`, or ` H:MM:SS`. */
export function time2str(seconds: number): string {
  if (seconds <= 0) return '--:--:--';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${String(h).padStart(2)}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** One meter line (without the leading `\r`). */
export function meterLine(opts: {
  readonly expected?: number | undefined;
  readonly received: number;
  readonly elapsedMs: number;
}): string {
  const us = opts.elapsedMs * 1000;
  const speed =
    opts.received === 0 ? 0 : us < 1 ? opts.received * 1e6 : Math.floor((opts.received * 1e6) / us);
  const total = opts.expected ?? 0;
  const pct = total > 0 ? Math.floor((opts.received * 100) / total) : 0;
  const spent = time2str(Math.floor(opts.elapsedMs / 1000));
  return (
    `${String(pct).padStart(3)} ${max5(total)}  ${String(pct).padStart(3)} ${max5(opts.received)}  ` +
    `${'0'.padStart(3)} ${max5(0)}  ${max5(speed)}  ${max5(0)} --:--:-- ${spent} --:--:-- ${max5(speed)}`
  );
}

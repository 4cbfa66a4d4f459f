/**
 * Go's time.ParseDuration / Duration.String, for metav1.Duration fields of the component
 * configs ("30s", "1m30s", "500ms"), plus the lab's `d` (day) unit for Lab.clusterAge.
 */

const UNITS: Readonly<Record<string, number>> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/** Seconds, or undefined when `text` is not a Go duration (`time: invalid duration "…"`). */
export function parseGoDuration(text: string, opts: { days?: boolean } = {}): number | undefined {
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s.startsWith('-')) sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  const re = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m) return undefined;
    const [whole, num = '', unit = ''] = m;
    if (unit === 'd' && !opts.days) return undefined;
    const factor = unit === 'd' ? 86400 : UNITS[unit];
    if (factor === undefined) return undefined;
    total += Number(num) * factor;
    s = s.slice(whole.length);
  }
  return sign * total;
}

/** time.Duration.String for whole-millisecond values: "0s", "500ms", "30s", "1m30s", "1h0m0s". */
export function goDurationString(seconds: number): string {
  if (seconds === 0) return '0s';
  const neg = seconds < 0;
  let ms = Math.round(Math.abs(seconds) * 1000);
  if (ms < 1000) return `${neg ? '-' : ''}${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  ms -= h * 3_600_000;
  const m = Math.floor(ms / 60_000);
  ms -= m * 60_000;
  const sec = ms / 1000;
  let out = `${sec}s`;
  if (h > 0 || m > 0) out = `${m}m${out}`;
  if (h > 0) out = `${h}h${out}`;
  return (neg ? '-' : '') + out;
}

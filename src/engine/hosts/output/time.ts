/** Clock formats of the tools, from the lab clock (UTC, as in containers and the lab's VMs). */
import {
  civilFromUnixMs,
  MONTH_NAMES as MONTHS,
  WEEKDAY_NAMES as DAYS,
} from '../../model/civil-time';

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Lab ms + epoch → Unix ms. */
export function unixMs(epochSeconds: number, labMs: number): number {
  return epochSeconds * 1000 + labMs;
}

/** RFC 7231 IMF-fixdate, as Go's net/http writes `Date:` (`Mon, 02 Dec 2024 14:22:00 GMT`). */
export function httpDate(ms: number): string {
  // The text changes once a second, and a server answers many requests within one.
  const second = Math.floor(ms / 1000);
  if (second !== lastHttpSecond) {
    lastHttpSecond = second;
    lastHttpDate = httpDateText(ms);
  }
  return lastHttpDate;
}

let lastHttpSecond = Number.NaN;
let lastHttpDate = '';

/** httpDate without the memo. */
export function httpDateText(ms: number): string {
  const p = civilFromUnixMs(ms);
  return `${DAYS[p.weekday]}, ${pad(p.day)} ${MONTHS[p.month - 1]} ${p.year} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)} GMT`;
}

/** dig's `;; WHEN:` (strftime `%a %b %d %H:%M:%S %Z %Y`): `Wed Dec 02 15:47:12 UTC 2026`. */
export function digWhen(ms: number): string {
  const p = civilFromUnixMs(ms);
  return `${DAYS[p.weekday]} ${MONTHS[p.month - 1]} ${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)} UTC ${p.year}`;
}

/** tcpdump's default timestamp: time of day with microseconds (`15:47:12.590285`). */
export function tcpdumpTime(ms: number): string {
  const p = civilFromUnixMs(ms);
  return `${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}.${pad(p.micros, 6)}`;
}

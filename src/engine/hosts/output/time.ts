/** Clock formats of the tools, from the lab clock (UTC, as in containers and the lab's VMs). */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

interface Parts {
  readonly y: number;
  readonly mon: number;
  readonly d: number;
  readonly wd: number;
  readonly h: number;
  readonly m: number;
  readonly s: number;
  readonly us: number;
}

/** Unix ms → calendar parts (UTC), without Date (days-from-civil, proleptic Gregorian). */
function parts(unixMs: number): Parts {
  const ms = Math.floor(unixMs);
  const days = Math.floor(ms / 86_400_000);
  const rem = ms - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const mon = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (mon <= 2 ? 1 : 0);
  return {
    y,
    mon,
    d,
    wd: (((days + 4) % 7) + 7) % 7,
    h: Math.floor(rem / 3_600_000),
    m: Math.floor(rem / 60_000) % 60,
    s: Math.floor(rem / 1000) % 60,
    us: Math.round((unixMs - Math.floor(unixMs / 1000) * 1000) * 1000),
  };
}

/** Lab ms + epoch → Unix ms. */
export function unixMs(epochSeconds: number, labMs: number): number {
  return epochSeconds * 1000 + labMs;
}

/** RFC 7231 IMF-fixdate, as Go's net/http writes `Date:` (`Mon, 02 Dec 2024 14:22:00 GMT`). */
export function httpDate(ms: number): string {
  const p = parts(ms);
  return `${DAYS[p.wd]}, ${pad(p.d)} ${MONTHS[p.mon - 1]} ${p.y} ${pad(p.h)}:${pad(p.m)}:${pad(p.s)} GMT`;
}

/** dig's `;; WHEN:` (strftime `%a %b %d %H:%M:%S %Z %Y`): `Wed Dec 02 15:47:12 UTC 2026`. */
export function digWhen(ms: number): string {
  const p = parts(ms);
  return `${DAYS[p.wd]} ${MONTHS[p.mon - 1]} ${pad(p.d)} ${pad(p.h)}:${pad(p.m)}:${pad(p.s)} UTC ${p.y}`;
}

/** tcpdump's default timestamp: time of day with microseconds (`15:47:12.590285`). */
export function tcpdumpTime(ms: number): string {
  const p = parts(ms);
  return `${pad(p.h)}:${pad(p.m)}:${pad(p.s)}.${pad(p.us, 6)}`;
}

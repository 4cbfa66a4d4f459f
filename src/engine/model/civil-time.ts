/**
 * Calendar arithmetic for the tools that print dates (iptables-save's ctime header, HTTP
 * `Date:`, dig's `WHEN:`, tcpdump's time of day), without `Date`: the engine never reads the
 * wall clock, and UTC is what containers and the lab's nodes use.
 */

export const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export const MONTH_NAMES = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

export interface CivilTime {
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  readonly day: number;
  /** 0 = Sunday. */
  readonly weekday: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** Microseconds within the second. */
  readonly micros: number;
}

/** Unix ms → UTC calendar fields (days-from-civil, proleptic Gregorian; H. Hinnant). */
export function civilFromUnixMs(unixMs: number): CivilTime {
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
  const month = mp < 10 ? mp + 3 : mp - 9;
  return {
    year: yoe + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: doy - Math.floor((153 * mp + 2) / 5) + 1,
    // 1970-01-01 was a Thursday.
    weekday: (((days + 4) % 7) + 7) % 7,
    hour: Math.floor(rem / 3_600_000),
    minute: Math.floor(rem / 60_000) % 60,
    second: Math.floor(rem / 1000) % 60,
    micros: Math.round((unixMs - Math.floor(unixMs / 1000) * 1000) * 1000),
  };
}

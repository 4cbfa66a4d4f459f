/**
 * Go's strconv.ParseInt(s, 0, 64), which pflag's Int64 flags use (pflag int64.go): a sign,
 * then a 0x / 0o / 0b prefix, a leading 0 (octal) or decimal digits, `_` between digits
 * (underscoreOK); the first bad character is a syntax error, overflow past uint64 or int64 a
 * range error (strconv/atoi.go ParseUint, ParseInt). Returned as a bigint: int64 does not fit
 * a JavaScript number.
 */
export type GoParseIntResult = bigint | 'invalid syntax' | 'value out of range';

const MAX_UINT64 = 2n ** 64n - 1n;
const INT64_CUTOFF = 2n ** 63n;

function digitValue(c: string): number {
  const lower = c.toLowerCase();
  if (lower >= '0' && lower <= '9') return lower.charCodeAt(0) - 48;
  if (lower >= 'a' && lower <= 'z') return lower.charCodeAt(0) - 97 + 10;
  return 99;
}

/** strconv's underscoreOK: `_` only between digits (a base prefix counts as a digit). */
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  const hex = s.length >= 2 && s[0] === '0' && 'xX'.includes(s[1]!);
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1]!)) {
    i = 2;
    saw = '0';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) saw = '0';
    else if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
    } else {
      if (saw === '_') return false;
      saw = '!';
    }
  }
  return saw !== '_';
}

/** ParseUint(s, 0, 64) of the unsigned part. */
function parseUint(s: string): GoParseIntResult {
  if (s === '') return 'invalid syntax';
  let base = 10n;
  let digits = s;
  if (s[0] === '0') {
    const prefix = s.length >= 3 ? s[1]!.toLowerCase() : '';
    const bases: Record<string, bigint> = { b: 2n, o: 8n, x: 16n };
    base = bases[prefix] ?? 8n;
    digits = s.slice(bases[prefix] !== undefined ? 2 : 1);
  }
  let n = 0n;
  let underscores = false;
  for (const c of digits) {
    if (c === '_') {
      underscores = true;
      continue;
    }
    const d = BigInt(digitValue(c));
    if (d >= base) return 'invalid syntax';
    n = n * base + d;
    if (n > MAX_UINT64) return 'value out of range';
  }
  if (underscores && !underscoreOK(s)) return 'invalid syntax';
  return n;
}

export function goParseInt64(s: string): GoParseIntResult {
  if (s === '') return 'invalid syntax';
  const neg = s[0] === '-';
  const un = parseUint(s[0] === '+' || neg ? s.slice(1) : s);
  if (un === 'invalid syntax') return un;
  if (un === 'value out of range') return un;
  if (!neg && un >= INT64_CUTOFF) return 'value out of range';
  if (neg && un > INT64_CUTOFF) return 'value out of range';
  return neg ? -un : un;
}

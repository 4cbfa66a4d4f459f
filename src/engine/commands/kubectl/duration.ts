/**
 * kubectl's AGE column: k8s.io/apimachinery/pkg/util/duration.HumanDuration, on whole seconds
 * (Go's `int(d.Seconds())` truncates toward zero; the finer branches divide the same way).
 *
 *   < 2m: "Ns" · < 10m: "MmSs" (seconds dropped when 0) · < 3h: "Mm" · < 8h: "HhMm" ·
 *   < 48h: "Hh" · < 8d: "DdHh" · < 2y: "Dd" · < 8y: "YyDd" · else "Yy"; a clock skew of up to
 *   1s in the future prints "0s", more prints "<invalid>".
 */
export function humanDuration(seconds: number): string {
  const s = Math.trunc(seconds);
  if (s < -1) return '<invalid>';
  if (s < 0) return '0s';
  if (s < 60 * 2) return `${s}s`;
  const minutes = Math.trunc(s / 60);
  if (minutes < 10) {
    const rem = s % 60;
    return rem === 0 ? `${minutes}m` : `${minutes}m${rem}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(s / 3600);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

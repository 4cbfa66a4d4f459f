/** Small formatting helpers shared by the table printers. */

/** labels.FormatLabels: sorted k=v pairs, `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels?.[k] ?? ''}`).join(',');
}

/**
 * Warnings an extension prints on stderr while a rule is parsed, the rule still accepted
 * (libxt_iprange: "xt_iprange: range A-B is reversed and will never match"). The parsers note
 * them here; `iptables` and `iptables-restore` take them and print them before the rest of
 * their stderr. The real tool parses every line of every restore, so a line that warns is
 * never kept in restore's parse cache (restore-lines.ts): it is parsed, and warns, each time.
 */
let pending = '';

/** An extension's parser warns (the text ends with its newline). */
export function warnAtParse(text: string): void {
  pending += text;
}

/** The warnings noted since the last call, emptied. */
export function takeParseWarnings(): string {
  const text = pending;
  pending = '';
  return text;
}

/** How much has been warned so far: a parse that changes it warned. */
export function parseWarningsMark(): number {
  return pending.length;
}

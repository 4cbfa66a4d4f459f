/**
 * Warnings an extension prints on stderr while a rule is parsed, the rule still accepted
 * (libxt_iprange: "xt_iprange: range A-B is reversed and will never match"). The parsers note
 * them here; `iptables` and `iptables-restore` take them and print them before the rest of
 * their stderr. (A restore line the parse cache already holds is not parsed again, so it does
 * not warn again: the real tool, which parses every line of every restore, would.)
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

/**
 * curl's `-i` / `--include` (curl 7.88.1, tool_cb_hdr.c): the response's status line and headers
 * are written to the output before the body, each line as it arrives. On a terminal curl writes
 * header names in bold (`ESC[1m` … `ESC[0m`, styled output). With `-v` each header is shown on
 * stderr (`< …`) just before it is written to stdout, but the blank line that ends the head is
 * written before its `< ` line — as the real curl did on a pty in a namespace.
 */
import type { StdioWrite } from '../../model/stdio';

const BOLD = '\x1b[1m';
const BOLD_OFF = '\x1b[0m';

/** The head as curl writes it to the output: `line\r\n`…, the header names bold if styled. */
export function includedHead(head: string, styled: boolean): string[] {
  const lines = head.split('\r\n').slice(0, -1);
  return lines.map((l, i) => {
    const colon = l.indexOf(':');
    if (!styled || i === 0 || colon <= 0) return `${l}\r\n`;
    return `${BOLD}${l.slice(0, colon)}${BOLD_OFF}:${l.slice(colon + 1)}\r\n`;
  });
}

/**
 * The writes of a transfer with -i: `before` (stderr, holding the `< ` lines when verbose),
 * the head and the body on stdout, `after` on stderr.
 */
export function includeWrites(
  before: string,
  head: string,
  body: string,
  after: string,
  styled: boolean,
): StdioWrite[] {
  const out = includedHead(head, styled);
  const shown = head
    .split('\r\n')
    .slice(0, -1)
    .map((l) => `< ${l}\r\n`);
  const at = shown.length > 0 ? before.indexOf(shown.join('')) : -1;
  if (at < 0) {
    return [
      { fd: 2, text: before },
      { fd: 1, text: out.join('') + body },
      { fd: 2, text: after },
    ];
  }
  const writes: StdioWrite[] = [{ fd: 2, text: before.slice(0, at) }];
  shown.forEach((line, i) => {
    const last = i === shown.length - 1;
    if (last) writes.push({ fd: 1, text: out[i]! });
    writes.push({ fd: 2, text: line });
    if (!last) writes.push({ fd: 1, text: out[i]! });
  });
  writes.push(
    { fd: 2, text: before.slice(at + shown.join('').length) },
    { fd: 1, text: body },
    { fd: 2, text: after },
  );
  return writes;
}

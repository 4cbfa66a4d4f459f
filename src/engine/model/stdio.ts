/**
 * The order of a tool's output when stdout and stderr share one stream (`cmd 2>&1 | …`). A C
 * program writes stdout through stdio: line-buffered on a terminal, fully buffered into a pipe
 * or a file (glibc sizes the buffer by st_blksize: 4096 for a pipe), flushed when full, at an
 * explicit fflush() and at exit; stderr is unbuffered. So `conntrack -L 2>&1 | cat` shows the
 * summary line before the entries, while on a terminal it comes after them (checked against
 * conntrack-tools 1.4.7, curl 7.88.1 and tcpdump 4.99 in a namespace).
 */

/** One write of a tool, in order: to stdout (1) or stderr (2), or its fflush(stdout). */
export type StdioWrite = { readonly fd: 1 | 2; readonly text: string } | { readonly flush: true };

/** glibc's stdio buffer for a pipe (st_blksize). */
const PIPE_BUFFER = 4096;

/**
 * What one stream holding both stdout and stderr receives from `writes`. Lengths are counted
 * in UTF-16 units, which are bytes for the ASCII the lab's tools print.
 */
export function mergeWrites(writes: readonly StdioWrite[], stdoutIsTty: boolean): string {
  let out = '';
  let buffered = '';
  for (const w of writes) {
    if ('flush' in w) {
      out += buffered;
      buffered = '';
    } else if (w.fd === 2) out += w.text;
    else {
      buffered += w.text;
      // A terminal gets each complete line; a pipe, each full buffer.
      const n = stdoutIsTty
        ? buffered.lastIndexOf('\n') + 1
        : buffered.length - (buffered.length % PIPE_BUFFER);
      out += buffered.slice(0, n);
      buffered = buffered.slice(n);
    }
  }
  return out + buffered;
}

/** The writes of a tool that prints `before` on stderr, then `stdout`, then `after` on stderr. */
export function stdioAround(before: string, stdout: string, after: string): StdioWrite[] {
  return [
    { fd: 2, text: before },
    { fd: 1, text: stdout },
    { fd: 2, text: after },
  ];
}

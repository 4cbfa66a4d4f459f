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

/** A piece of output as it leaves the tool, on its stream. */
export interface StdioPiece {
  readonly fd: 1 | 2;
  readonly text: string;
}

/**
 * The pieces of output in the order they leave the tool: stderr at once; stdout a complete
 * line at a time on a terminal, a full buffer at a time into a pipe or a file, and at fflush()
 * and exit. Lengths are counted in UTF-16 units, which are bytes for the ASCII the lab's tools
 * print.
 */
export function stdioPieces(writes: readonly StdioWrite[], stdoutIsTty: boolean): StdioPiece[] {
  const out: StdioPiece[] = [];
  let buffered = '';
  const release = (n: number) => {
    if (n > 0) out.push({ fd: 1, text: buffered.slice(0, n) });
    buffered = buffered.slice(n);
  };
  for (const w of writes) {
    if ('flush' in w) release(buffered.length);
    else if (w.fd === 2) {
      if (w.text !== '') out.push(w);
    } else {
      buffered += w.text;
      release(
        stdoutIsTty
          ? buffered.lastIndexOf('\n') + 1
          : buffered.length - (buffered.length % PIPE_BUFFER),
      );
    }
  }
  release(buffered.length);
  return out;
}

/** What one stream holding both stdout and stderr receives from `writes`. */
export function mergeWrites(writes: readonly StdioWrite[], stdoutIsTty: boolean): string {
  return stdioPieces(writes, stdoutIsTty)
    .map((p) => p.text)
    .join('');
}

/**
 * Adds `more` to the end of `writes`. One push at a time: `writes.push(...more)` passes every
 * write as an argument, and a loop of 50,000 rounds gathers more writes than V8's stack holds
 * arguments ("Maximum call stack size exceeded").
 */
export function appendWrites(writes: StdioWrite[], more: readonly StdioWrite[]): void {
  for (const w of more) writes.push(w);
}

/** The writes of a tool that prints `before` on stderr, then `stdout`, then `after` on stderr. */
export function stdioAround(before: string, stdout: string, after: string): StdioWrite[] {
  return [
    { fd: 2, text: before },
    { fd: 1, text: stdout },
    { fd: 2, text: after },
  ];
}

/**
 * pkg/proxy/util `LineBuffer`: each `write` joins its arguments (strings or string lists)
 * with single spaces into one line. A discarding buffer only counts lines: kube-proxy
 * writes unchanged services' chains into one during partial syncs so that its rule-count
 * metrics still come out right.
 */
export type LineArg = string | readonly string[];

export class LineBuffer {
  private readonly lines: string[] = [];
  private count = 0;

  constructor(private readonly discard = false) {}

  write(...args: readonly LineArg[]): void {
    this.count++;
    if (!this.discard) this.lines.push(args.flat().join(' '));
  }

  /** Number of lines written (including discarded ones). */
  get lineCount(): number {
    return this.count;
  }

  /** The lines, each terminated by `\n`. */
  text(): string {
    return this.lines.map((line) => line + '\n').join('');
  }
}

/** `utiliptables.MakeChainLine`: the restore-input line that declares (and flushes) a chain. */
export function chainLine(chain: string): string {
  return `:${chain} - [0:0]`;
}

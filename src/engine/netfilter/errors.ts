/**
 * The ways iptables 1.8.9 (nf_tables) fails, and how each is printed by `iptables` and by
 * `iptables-restore`. Internal code throws XtError; the public functions never throw.
 *
 * - param: xtables_error(PARAMETER_PROBLEM) in libxtables basic_exit_err(): "<prog> v1.8.9
 *   (nf_tables): <msg>\n", for restore "Error occurred at line: N\n", then the "Try `<prog>
 *   -h'" hint; exit 2. `raw` errors print their text without the prefix (exit_tryhelp()).
 * - errno: a command the nft layer refused before talking to the kernel (nft_strerror()):
 *   "iptables: <msg>.\n" / "iptables-restore: line N failed: <msg>.\n"; exit 1.
 * - kernel: the kernel rejected the batch (mnl_batch_talk errors): "iptables v1.8.9
 *   (nf_tables):  <OP> failed (<strerror>): <what>\n" / "… (nf_tables): \nline N: …"; exit 4.
 * - other: printed verbatim with the given exit code.
 */
import { labNote } from '../model/lab-notes';

export const VERSION = 'v1.8.9 (nf_tables)';

export type XtErrorKind = 'param' | 'raw' | 'errno' | 'kernel' | 'other';

export class XtError extends Error {
  readonly kind: XtErrorKind;
  readonly exitCode: number;
  /** kernel errors: the restore line the failing command came from (set by restore). */
  line = 0;

  private constructor(kind: XtErrorKind, message: string, exitCode: number) {
    super(message);
    this.kind = kind;
    this.exitCode = exitCode;
  }

  static param(message: string): XtError {
    return new XtError('param', message, 2);
  }
  /** Text printed as is, then the "Try" hint (e.g. "Bad argument `x'\n"). */
  static raw(text: string): XtError {
    return new XtError('raw', text, 2);
  }
  /** message without the trailing period, e.g. "No chain/target/match by that name". */
  static errno(message: string): XtError {
    return new XtError('errno', message, 1);
  }
  /** e.g. op "CHAIN_DEL", err "Device or resource busy", what "chain KUBE-X". */
  static kernel(op: string, err: string, what: string): XtError {
    return new XtError('kernel', `${op} failed (${err}): ${what}`, 4);
  }
  static other(text: string, exitCode: number): XtError {
    return new XtError('other', text, exitCode);
  }
}

/**
 * What iptables has but the lab does not model (a match, a target, a target's option): said
 * with the lab's note, not as an iptables error the real tool would never print. Exit status
 * 2, as iptables exits on a parameter problem.
 */
export function notModelled(
  id:
    | 'iptables.match'
    | 'iptables.match-option'
    | 'iptables.target'
    | 'iptables.target-option'
    | 'iptables.netmask',
  params: Readonly<Record<string, string>>,
): XtError {
  return XtError.other(labNote(id, params), 2);
}

export const ENOENT_MSG = 'No chain/target/match by that name';
export const EBUSY = 'Device or resource busy';
export const EINVAL = 'Invalid argument';

/** How `prog` (iptables or iptables-restore) prints an error; `line` is the restore line or -1. */
export function renderError(e: XtError, prog: string, line: number): string {
  const tryHelp = `Try \`${prog} -h' or '${prog} --help' for more information.\n`;
  const at = line >= 0 ? `Error occurred at line: ${line}\n` : '';
  switch (e.kind) {
    case 'param':
      return `${prog} ${VERSION}: ${e.message}\n${at}${tryHelp}`;
    case 'raw':
      return `${e.message}${at}${tryHelp}`;
    case 'errno':
      if (line >= 0) return `${prog}: line ${line} failed: ${e.message}.\n`;
      return `${prog}: ${e.message}.${e.message === 'Bad policy name' ? " Run `dmesg' for more information." : ''}\n`;
    case 'kernel':
      if (line >= 0) return `${prog} ${VERSION}: \nline ${e.line}: ${e.message}\n`;
      return `${prog} ${VERSION}:  ${e.message}\n`;
    case 'other':
      return e.message;
  }
}

export function asXtError(e: unknown): XtError {
  if (e instanceof XtError) return e;
  throw e;
}

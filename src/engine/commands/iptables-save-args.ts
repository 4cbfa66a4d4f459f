/**
 * iptables-save's command line as iptables-nft-save 1.8.9 reads it (xtables-save.c, getopt_long
 * with the optstring "bcdt:M:f:V", getopt-long.ts; seen on the kernel): the last -t wins, -V
 * prints the version at once, -d and -M change nothing, -b warns and goes on, and any other
 * word is refused.
 */
import { getoptLong, type LongOption } from './getopt-long';

const VERSION = 'v1.8.9 (nf_tables)';
const SEE_MANUAL = "Look at manual page `iptables-save.8' for more information.\n";

/** xtables-save.c's options[] for iptables (argument 0 none, 1 required). */
const LONG: readonly LongOption[] = [
  ['counters', 0, 'c'],
  ['version', 0, 'V'],
  ['dump', 0, 'd'],
  ['table', 1, 't'],
  ['modprobe', 1, 'M'],
  ['file', 1, 'f'],
];

export type SaveArgs =
  | {
      readonly kind: 'run';
      readonly table: string | undefined;
      readonly counters: boolean;
      /** -f FILE: where the real tool would write the rules instead of standard output. */
      readonly file: string | undefined;
      /** What the options printed on stderr on the way (-b). */
      readonly warn: string;
    }
  | { readonly kind: 'done'; readonly stdout: string; readonly stderr: string; readonly exitCode: number }; // prettier-ignore

/** Reads argv (argv[0] is the program's name, as the messages show it). */
export function parseSaveArgs(argv: readonly string[]): SaveArgs {
  const prog = argv[0] ?? 'iptables-save';
  let table: string | undefined;
  let counters = false;
  let file: string | undefined;
  let warn = '';
  const read = getoptLong(argv.slice(1), 'bcdt:M:f:V', LONG);
  const done = (stdout: string, stderr: string, exitCode: number): SaveArgs => ({
    kind: 'done',
    stdout,
    stderr: warn + stderr,
    exitCode,
  });
  for (const { letter, value } of read.options) {
    if (letter === 'b') warn += '-b/--binary option is not implemented\n';
    else if (letter === 'c') counters = true;
    else if (letter === 't') table = value;
    else if (letter === 'f') file = value;
    else if (letter === 'V') return done(`${prog} ${VERSION}\n`, '', 0);
  }
  if (read.error !== undefined) return done('', `${prog}: ${read.error}\n${SEE_MANUAL}`, 1);
  if (read.words.length > 0) return done('', 'Unknown arguments found on commandline\n', 1);
  return { kind: 'run', table, counters, file, warn };
}

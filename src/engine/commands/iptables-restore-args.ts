/**
 * iptables-restore's command line (iptables 1.8.9 xtables-restore.c), read by getopt_long()
 * (getopt-long.ts) with the optstring "bcvVthnM:T:wW": at most one other word, the input file.
 * `-w`/`-W` (and `--wait[=S]`, `--wait-interval[=U]`) are taken and ignored, as iptables-nft
 * does, and without a value take the next word unless it starts with `-` or `!`; `-M` is
 * ignored too; `-b` warns and goes on.
 */
import type { RestoreOptions } from '../netfilter/restore';
import { getoptLong, type LongOption } from './getopt-long';

const VERSION = 'v1.8.9 (nf_tables)';

/** xtables-restore.c's options[] (getopt_long: argument 0 none, 1 required, 2 optional). */
const LONG: readonly LongOption[] = [
  ['counters', 0, 'c'],
  ['verbose', 0, 'v'],
  ['version', 0, 'V'],
  ['test', 0, 't'],
  ['help', 0, 'h'],
  ['noflush', 0, 'n'],
  ['modprobe', 1, 'M'],
  ['table', 1, 'T'],
  ['ipv4', 0, '4'],
  ['ipv6', 0, '6'],
  ['wait', 2, 'w'],
  ['wait-interval', 2, 'W'],
];

export function restoreUsage(prog: string): string {
  return (
    `Usage: ${prog} [-c] [-v] [-V] [-t] [-h] [-n] [-T table] [-M command] [-4] [-6] [file]\n` +
    '\t   [ --counters ]\n\t   [ --verbose ]\n\t   [ --version]\n\t   [ --test ]\n' +
    '\t   [ --help ]\n\t   [ --noflush ]\n\t   [ --table=<TABLE> ]\n' +
    '\t   [ --modprobe=<command> ]\n\t   [ --ipv4 ]\n\t   [ --ipv6 ]\n'
  );
}

export type RestoreArgs =
  | { readonly kind: 'run'; readonly opts: RestoreOptions; readonly file?: string; readonly warn: string } // prettier-ignore
  /** Done before reading anything: help, version, or an error (with its exit status). */
  | { readonly kind: 'done'; readonly stdout: string; readonly stderr: string; readonly exitCode: number }; // prettier-ignore

/** Reads argv (argv[0] is the program's name, as the messages show it). */
export function parseRestoreArgs(argv: readonly string[]): RestoreArgs {
  const prog = argv[0] ?? 'iptables-restore';
  const tryHelp = `Try \`${prog} -h' for more information.\n`;
  let warn = '';
  const fail = (message: string): RestoreArgs => ({
    kind: 'done',
    stdout: '',
    stderr: warn + (message === '' ? tryHelp : `${prog}: ${message}\n${tryHelp}`),
    exitCode: 1,
  });
  const opts: { -readonly [K in keyof RestoreOptions]: RestoreOptions[K] } = {};
  const read = getoptLong(argv.slice(1), 'bcvVthnM:T:wW', LONG, 'wW');
  for (const { letter, value } of read.options) {
    if (letter === 'b') warn += '-b/--binary option is not implemented\n';
    else if (letter === 'c') opts.counters = true;
    else if (letter === 'v') opts.verbose = true;
    else if (letter === 't') opts.test = true;
    else if (letter === 'n') opts.noflush = true;
    else if (letter === 'T') opts.table = value ?? '';
    else if (letter === 'V')
      return { kind: 'done', stdout: `${prog} ${VERSION}\n`, stderr: warn, exitCode: 0 }; // prettier-ignore
    // print_usage() writes to stderr, and the status is 0.
    else if (letter === 'h')
      return { kind: 'done', stdout: '', stderr: warn + restoreUsage(prog), exitCode: 0 }; // prettier-ignore
    // --ipv4 / --ipv6 reach the switch's default case: only its hint is printed.
    else if (letter === '4' || letter === '6') return fail('');
  }
  if (read.error !== undefined) return fail(read.error);
  const words = read.words;
  if (words.length > 1)
    return { kind: 'done', stdout: '', stderr: `${warn}Unknown arguments found on commandline\n`, exitCode: 1 }; // prettier-ignore
  return { kind: 'run', opts, ...(words[0] !== undefined ? { file: words[0] } : {}), warn };
}

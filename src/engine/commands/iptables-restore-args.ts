/**
 * iptables-restore's command line (iptables 1.8.9 xtables-restore.c), read as glibc's
 * getopt_long() reads it: short options "bcvVthnM:T:wW" (clustered, `-Tnat`), the long ones
 * below (unique prefixes, `--table nat` or `--table=nat`), other words moved after the options
 * (at most one: the input file), `--` ending the options. `-w`/`-W` (and `--wait[=S]`,
 * `--wait-interval[=U]`) are taken and ignored, as iptables-nft does; without `=VALUE` they
 * consume the next word unless it starts with `-` or `!`. `-M` is ignored too.
 */
import type { RestoreOptions } from '../netfilter/restore';

const VERSION = 'v1.8.9 (nf_tables)';

/** getopt_long's table: name, argument (0 none, 1 required, 2 optional), short letter. */
const LONG: readonly (readonly [string, 0 | 1 | 2, string])[] = [
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

/** Short letters and whether each takes an argument (`M:` and `T:`). */
const SHORT: Readonly<Record<string, boolean>> = {
  b: false,
  c: false,
  v: false,
  V: false,
  t: false,
  h: false,
  n: false,
  M: true,
  T: true,
  w: false,
  W: false,
};

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
  const fail = (message: string): RestoreArgs => ({
    kind: 'done',
    stdout: '',
    stderr: message === '' ? tryHelp : `${prog}: ${message}\n${tryHelp}`,
    exitCode: 1,
  });
  const opts: { -readonly [K in keyof RestoreOptions]: RestoreOptions[K] } = {};
  const words: string[] = [];
  let warn = '';
  const args = argv.slice(1);
  // xs_has_arg(): the next word is an argument unless it starts with `-` or `!`.
  const takesNext = (i: number): boolean => {
    const next = args[i + 1];
    return next !== undefined && !next.startsWith('-') && !next.startsWith('!');
  };
  /** One option by its letter; the index of the last word it used, or the result to give. */
  const apply = (letter: string, value: string | undefined): RestoreArgs | undefined => {
    if (letter === 'b') warn += '-b/--binary option is not implemented\n';
    else if (letter === 'c') opts.counters = true;
    else if (letter === 'v') opts.verbose = true;
    else if (letter === 't') opts.test = true;
    else if (letter === 'n') opts.noflush = true;
    else if (letter === 'T') opts.table = value ?? '';
    else if (letter === 'V')
      return { kind: 'done', stdout: `${prog} ${VERSION}\n`, stderr: '', exitCode: 0 }; // prettier-ignore
    // print_usage() writes to stderr, and the status is 0.
    else if (letter === 'h')
      return { kind: 'done', stdout: '', stderr: restoreUsage(prog), exitCode: 0 }; // prettier-ignore
    else if (letter === '4' || letter === '6') return fail('');
    return undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      words.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const typed = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const exact = LONG.find(([name]) => name === typed);
      const matching = exact !== undefined ? [exact] : LONG.filter(([name]) => name.startsWith(typed)); // prettier-ignore
      if (matching.length === 0) return fail(`unrecognized option '${arg}'`);
      if (matching.length > 1) {
        const list = matching.map(([name]) => `'--${name}'`).join(' ');
        return fail(`option '--${typed}' is ambiguous; possibilities: ${list}`);
      }
      const [name, has, letter] = matching[0]!;
      let value = eq < 0 ? undefined : arg.slice(eq + 1);
      if (has === 0 && value !== undefined)
        return fail(`option '--${name}' doesn't allow an argument`);
      if (has === 1 && value === undefined) {
        if (i + 1 >= args.length) return fail(`option '--${name}' requires an argument`);
        value = args[++i];
      }
      if (has === 2 && value === undefined && takesNext(i)) i++;
      const done = apply(letter, value);
      if (done !== undefined) return done;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      words.push(arg);
      continue;
    }
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k]!;
      if (!(letter in SHORT)) return fail(`invalid option -- '${letter}'`);
      let value: string | undefined;
      if (SHORT[letter]) {
        if (k + 1 < arg.length) value = arg.slice(k + 1);
        else if (i + 1 < args.length) value = args[++i];
        else return fail(`option requires an argument -- '${letter}'`);
        k = arg.length;
      } else if ((letter === 'w' || letter === 'W') && k === arg.length - 1 && takesNext(i)) i++;
      const done = apply(letter, value);
      if (done !== undefined) return done;
    }
  }
  if (words.length > 1)
    return { kind: 'done', stdout: '', stderr: `${warn}Unknown arguments found on commandline\n`, exitCode: 1 }; // prettier-ignore
  return { kind: 'run', opts, ...(words[0] !== undefined ? { file: words[0] } : {}), warn };
}

/**
 * glibc's getopt_long() for the tools that use it as it is (iptables-save, iptables-restore):
 * short options clustered (`-ct nat`, `-tnat`), long ones by a unique prefix (an exact name
 * wins), `--name=value` or the next word for a required argument, an optional argument only
 * after `=`, other words moved after the options, `--` ending them. Its messages are glibc
 * 2.36's; the caller prefixes the program name and adds its own hint line.
 */

/** A long option: its name, its argument (0 none, 1 required, 2 optional) and its letter. */
export type LongOption = readonly [name: string, arg: 0 | 1 | 2, letter: string];

export interface Getopt {
  /** The options in the order given, each with its argument (undefined when none). */
  readonly options: readonly { readonly letter: string; readonly value: string | undefined }[];
  /** The other words, in order. */
  readonly words: readonly string[];
}

/**
 * Reads `args` (without the program name). `short` is the optstring's letters, a `:` after
 * one that takes an argument. Stops at the first error: its message (without the program
 * name) and the options read before it, which a caller may still act on (getopt returns them
 * one by one, so an option before the bad one has had its effect). The letters in `greedy`,
 * given without a value, take the next word as theirs unless it starts with `-` or `!` (what
 * iptables does after getopt for `-w`: xs_has_arg()).
 */
export function getoptLong(
  args: readonly string[],
  short: string,
  long: readonly LongOption[],
  greedy = '',
): Getopt & { readonly error?: string } {
  const options: { letter: string; value: string | undefined }[] = [];
  const words: string[] = [];
  const takesArg = (letter: string): boolean | undefined => {
    const at = short.indexOf(letter);
    return at < 0 || letter === ':' ? undefined : short[at + 1] === ':';
  };
  const stop = (error: string) => ({ options, words, error });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      for (const word of args.slice(i + 1)) words.push(word);
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const typed = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const exact = long.find(([name]) => name === typed);
      const found = exact !== undefined ? [exact] : long.filter(([n]) => n.startsWith(typed));
      if (found.length === 0) return stop(`unrecognized option '${arg}'`);
      if (found.length > 1) {
        const list = found.map(([name]) => `'--${name}'`).join(' ');
        return stop(`option '--${typed}' is ambiguous; possibilities: ${list}`);
      }
      const [name, has, letter] = found[0]!;
      let value = eq < 0 ? undefined : arg.slice(eq + 1);
      if (has === 0 && value !== undefined) return stop(`option '--${name}' doesn't allow an argument`); // prettier-ignore
      if (has === 1 && value === undefined) {
        if (i + 1 >= args.length) return stop(`option '--${name}' requires an argument`);
        value = args[++i];
      }
      if (value === undefined && greedy.includes(letter) && hasArg(args[i + 1])) value = args[++i];
      options.push({ letter, value });
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      words.push(arg);
      continue;
    }
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k]!;
      const needs = takesArg(letter);
      if (needs === undefined) return stop(`invalid option -- '${letter}'`);
      let value: string | undefined;
      if (needs) {
        if (k + 1 < arg.length) value = arg.slice(k + 1);
        else if (i + 1 < args.length) value = args[++i];
        else return stop(`option requires an argument -- '${letter}'`);
        k = arg.length;
      } else if (k === arg.length - 1 && greedy.includes(letter) && hasArg(args[i + 1])) {
        value = args[++i];
      }
      options.push({ letter, value });
    }
  }
  return { options, words };
}

/** xs_has_arg(): a next word that is not an option (nor `!`). */
function hasArg(word: string | undefined): boolean {
  return word !== undefined && !word.startsWith('-') && !word.startsWith('!');
}

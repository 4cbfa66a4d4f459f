/**
 * GNU tr (coreutils 9.1) as a learner squeezes columns before `cut` (`kubectl get pods -o wide
 * | tr -s ' ' | cut -d' ' -f6`): `tr [-ds] SET1 [SET2]` with ranges (`a-z`), classes
 * (`[:upper:]`, `[:digit:]`, `[:punct:]`…), escapes (`\n`, `\t`, `\\`); SET2 is extended with its last
 * character. -c (complement) is not modelled and says so. Messages and statuses are tr's
 * (tests/kernel/text-tools.test.ts runs both).
 */
import { labNote } from '../model/lab-notes';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';

const TRY = "Try 'tr --help' for more information.\n";
const fail = (message: string): CommandResult => ({
  stdout: '',
  stderr: `tr: ${message}\n${TRY}`,
  exitCode: 1,
});

const BASE: Readonly<Record<string, string>> = {
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  digit: '0123456789',
  space: ' \t\n\v\f\r',
  blank: ' \t',
  punct: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
  xdigit: '0123456789ABCDEFabcdef',
};
const CLASSES: Readonly<Record<string, string>> = {
  ...BASE,
  alpha: BASE.upper! + BASE.lower!,
  alnum: BASE.digit! + BASE.upper! + BASE.lower!,
};

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', v: '\v', f: '\f', a: '\x07', b: '\b' }; // prettier-ignore

/** A SET as the characters it stands for, in order, or tr's complaint about a class. */
function expand(set: string): string[] | string {
  const chars: string[] = [];
  for (let i = 0; i < set.length;) {
    const cls = /^\[:([a-z]+):\]/.exec(set.slice(i));
    if (cls !== null) {
      const members = CLASSES[cls[1]!];
      if (members === undefined) return `invalid character class ‘${cls[1]}’`;
      chars.push(...members);
      i += cls[0].length;
      continue;
    }
    let c = set.charAt(i);
    if (c === '\\' && i + 1 < set.length) {
      c = ESCAPES[set.charAt(i + 1)] ?? set.charAt(i + 1);
      i += 2;
    } else i++;
    if (set.charAt(i) === '-' && i + 1 < set.length) {
      const end = set.charAt(i + 1);
      for (let code = c.charCodeAt(0); code <= end.charCodeAt(0); code++) chars.push(String.fromCharCode(code)); // prettier-ignore
      i += 2;
    } else chars.push(c);
  }
  return chars;
}

function tr(ctx: CommandContext, argv: string[]): CommandResult {
  let del = false;
  let squeeze = false;
  const sets: string[] = [];
  for (const a of argv.slice(1)) {
    if (!a.startsWith('-') || a === '-' || sets.length > 0) {
      sets.push(a);
      continue;
    }
    for (const f of a.slice(1)) {
      if (f === 'd') del = true;
      else if (f === 's') squeeze = true;
      else if ('cCt'.includes(f))
        return { stdout: '', stderr: labNote('tool.option', { tool: 'tr', option: f }), exitCode: 1 }; // prettier-ignore
      else return { stdout: '', stderr: `tr: invalid option -- '${f}'\n${TRY}`, exitCode: 1 };
    }
  }
  if (sets.length === 0) return fail('missing operand');
  const translating = !del && sets.length >= 1 && !(squeeze && sets.length === 1);
  if (translating && sets.length === 1)
    return fail(`missing operand after ‘${sets[0]}’\nTwo strings must be given when translating.`);
  if (del && !squeeze && sets.length > 1)
    return fail(`extra operand ‘${sets[1]}’\nOnly one string may be given when deleting without squeezing repeats.`); // prettier-ignore
  const set1 = expand(sets[0]!);
  const set2 = sets[1] === undefined ? [] : expand(sets[1]);
  if (typeof set1 === 'string') return { stdout: '', stderr: `tr: ${set1}\n`, exitCode: 1 };
  if (typeof set2 === 'string') return { stdout: '', stderr: `tr: ${set2}\n`, exitCode: 1 };
  const map = new Map<string, string>();
  if (translating) set1.forEach((c, k) => map.set(c, set2[Math.min(k, set2.length - 1)] ?? c));
  const deleted = new Set(del ? set1 : []);
  // -s squeezes the characters of the last SET given (SET2 when there is one).
  const squeezed = new Set(squeeze ? (sets.length > 1 ? set2 : set1) : []);
  let out = '';
  for (const ch of ctx.stdin) {
    if (deleted.has(ch)) continue;
    const c = map.get(ch) ?? ch;
    if (squeezed.has(c) && out.endsWith(c)) continue;
    out += c;
  }
  return { stdout: out, stderr: '', exitCode: 0 };
}

export function registerTr(registry: CommandRegistry): void {
  registerCommand(registry, 'tr', tr);
}

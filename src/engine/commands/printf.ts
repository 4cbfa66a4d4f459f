/**
 * bash 5.2's builtin printf (builtins/printf.def), as the lab's shell runs it: the format's
 * backslash escapes, `%s %b %c %d %i %o %u %x %X %%` with flags (`-+ #0'`; `'` groups digits in no locale the lab has), width and precision
 * (`*` too), the format used again while arguments remain, missing arguments as "" or 0, and
 * bash's messages for a bad number or conversion (compared with bash in
 * tests/kernel/text-tools.test.ts). A classic use: `printf 'GET / HTTP/1.0\r\n\r\n' | nc …`.
 * Floating-point conversions, `%q`, `%(…)T` and `-v VAR` say they are not modelled.
 */
import { labNote } from '../model/lab-notes';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';

const USAGE = 'printf: usage: printf [-v var] format [arguments]\n';
const INTMAX = (1n << 63n) - 1n;
const INTMIN = -(1n << 63n);

/**
 * What printf says on stderr, in order: errors make its status 1, warnings (an out-of-range
 * number, an escape without digits) leave it alone.
 */
class Messages {
  text = '';
  failed = false;
  error(message: string): void {
    this.text += `bash: printf: ${message}\n`;
    this.failed = true;
  }
  warn(message: string): void {
    this.text += `bash: printf: ${message}\n`;
  }
}

/** One backslash escape at text[i] (the backslash): its text and how many characters it took. */
function escapeAt(
  text: string,
  i: number,
  inB: boolean,
  say: Messages,
): { out: string; len: number; stop?: true } {
  const n = text.charAt(i + 1);
  const simple: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' }; // prettier-ignore
  if (simple[n] !== undefined) return { out: simple[n], len: 2 };
  if (!inB && (n === '"' || n === "'" || n === '?')) return { out: n, len: 2 };
  if (inB && n === 'c') return { out: '', len: 2, stop: true };
  // Octal: up to three digits in the format; %b's argument takes `\0` and up to three more.
  const octal = inB ? (n === '0' ? /^0[0-7]{0,3}/ : /^[1-7][0-7]{0,2}/) : /^[0-7]{1,3}/;
  const o = octal.exec(text.slice(i + 1));
  if (o !== null) {
    const digits = inB && n === '0' ? o[0].slice(1) : o[0];
    return { out: String.fromCharCode(parseInt(digits || '0', 8) & 0xff), len: 1 + o[0].length };
  }
  if (n === 'x') {
    const hex = /^[0-9A-Fa-f]{1,2}/.exec(text.slice(i + 2));
    if (hex !== null)
      return { out: String.fromCharCode(parseInt(hex[0], 16)), len: 2 + hex[0].length };
    say.warn('missing hex digit for \\x');
  }
  if (n === 'u' || n === 'U') {
    const uni = new RegExp(`^[0-9A-Fa-f]{1,${n === 'u' ? 4 : 8}}`).exec(text.slice(i + 2));
    if (uni !== null) {
      const cp = parseInt(uni[0], 16);
      return { out: cp <= 0x10ffff ? String.fromCodePoint(cp) : '', len: 2 + uni[0].length };
    }
    say.warn(`missing unicode digit for \\${n}`);
  }
  // An unknown escape (or a lone backslash at the end) stays as written.
  return { out: n === '' ? '\\' : `\\${n}`, len: n === '' ? 1 : 2 };
}

/** %b's argument: echo -e's escapes; `\c` ends all output. */
function expandB(arg: string, say: Messages): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < arg.length;) {
    if (arg.charAt(i) !== '\\') {
      out += arg.charAt(i++);
      continue;
    }
    const e = escapeAt(arg, i, true, say);
    if (e.stop) return { text: out, stop: true };
    out += e.out;
    i += e.len;
  }
  return { text: out, stop: false };
}

/** getintmax(): strtoimax(arg, 0) with `'c` / `"c` as the character's code; errors as bash's. */
function intArg(arg: string | undefined, say: Messages): bigint {
  if (arg === undefined || arg === '') return 0n;
  if (arg.startsWith("'") || arg.startsWith('"')) return BigInt(arg.codePointAt(1) ?? 0);
  const m = /^[ \t\n\v\f\r]*([+-]?)(0[xX][0-9A-Fa-f]+|0[0-7]*|[1-9][0-9]*)/.exec(arg);
  if (m === null) {
    say.error(`${arg}: invalid number`);
    return 0n;
  }
  const digits = m[2]!;
  let v = /^0[xX]/.test(digits) ? BigInt(digits) : digits.length > 1 && digits.startsWith('0') ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits); // prettier-ignore
  if (m[1] === '-') v = -v;
  if (v > INTMAX || v < INTMIN) {
    say.warn(`warning: ${arg}: Numerical result out of range`);
    v = v > INTMAX ? INTMAX : INTMIN;
  } else if (m[0].length < arg.length) say.error(`${arg}: invalid number`);
  return v;
}

export interface IntSpec {
  readonly flags: string;
  readonly width: number | undefined;
  readonly precision: number | undefined;
}

function pad(body: string, s: IntSpec, zeroOk: boolean): string {
  const width = s.width ?? 0;
  if (body.length >= width) return body;
  if (s.flags.includes('-')) return body.padEnd(width);
  if (zeroOk && s.flags.includes('0')) {
    const sign = /^([+ -]|0[xX])/.exec(body)?.[0] ?? '';
    return sign + body.slice(sign.length).padStart(width - sign.length, '0');
  }
  return body.padStart(width);
}

/** C printf's integer conversions over intmax_t (o, u, x, X read it as uintmax_t). */
function integer(conv: string, v: bigint, s: IntSpec): string {
  const unsigned = conv !== 'd' && conv !== 'i';
  const n = unsigned && v < 0n ? v + (1n << 64n) : v;
  const abs = n < 0n ? -n : n;
  let digits = abs.toString(conv === 'o' ? 8 : conv === 'x' || conv === 'X' ? 16 : 10);
  if (conv === 'X') digits = digits.toUpperCase();
  if (s.precision !== undefined) digits = s.precision === 0 && abs === 0n ? '' : digits.padStart(s.precision, '0'); // prettier-ignore
  if (s.flags.includes('#')) {
    if (conv === 'o' && !digits.startsWith('0')) digits = `0${digits}`;
    if ((conv === 'x' || conv === 'X') && abs !== 0n) digits = `0${conv}${digits}`;
  }
  const sign = n < 0n ? '-' : !unsigned && s.flags.includes('+') ? '+' : !unsigned && s.flags.includes(' ') ? ' ' : ''; // prettier-ignore
  return pad(sign + digits, s, s.precision === undefined);
}

/** The flag/width/padding and integer conversions, shared with awk's printf. */
export const formatInteger = { pad, integer };

const FLOATS = 'eEfFgGaA';

function printf(_ctx: CommandContext, argv: string[]): CommandResult {
  let args = argv.slice(1);
  if (args[0] === '--') args = args.slice(1);
  else if (args[0] === '-v') return note('tool.option', { tool: 'printf', option: 'v' });
  else if (args[0] !== undefined && /^-./.test(args[0]))
    return { stdout: '', stderr: `bash: printf: ${args[0].slice(0, 2)}: invalid option\n${USAGE}`, exitCode: 2 }; // prettier-ignore
  const format = args[0];
  if (format === undefined) return { stdout: '', stderr: USAGE, exitCode: 2 };
  const rest = args.slice(1);
  const say = new Messages();
  let out = '';
  let next = 0;
  const take = (): string | undefined => rest[next++];
  const done = (): CommandResult => ({
    stdout: out,
    stderr: say.text,
    exitCode: say.failed ? 1 : 0,
  });
  const fail = (message: string): CommandResult => {
    say.error(message);
    return done();
  };
  // The format is used again while arguments remain (and a pass took at least one).
  for (;;) {
    const before = next;
    for (let i = 0; i < format.length;) {
      const c = format.charAt(i);
      if (c === '\\') {
        const e = escapeAt(format, i, false, say);
        out += e.out;
        i += e.len;
        continue;
      }
      if (c !== '%') {
        out += c;
        i++;
        continue;
      }
      const m = /^%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?[hjlLtz]*(.?)/.exec(format.slice(i))!;
      i += m[0].length;
      const conv = m[4]!;
      if (conv === '%' && m[0] === '%%') {
        out += '%';
        continue;
      }
      const star = (x: string | undefined): number | undefined =>
        x === undefined ? undefined : x === '*' ? Number(intArg(take(), say)) : Number(x || '0');
      let width = star(m[2]);
      let flags = m[1]!;
      if (width !== undefined && width < 0) {
        flags += '-';
        width = -width;
      }
      const precision = m[3] === undefined ? undefined : star(m[3]);
      const s: IntSpec = { flags, width, precision: precision !== undefined && precision < 0 ? undefined : precision }; // prettier-ignore
      if (conv === '') return fail(`\`${m[0]}': missing format character`);
      if (conv === 's') {
        const arg = take() ?? '';
        out += pad(s.precision === undefined ? arg : arg.slice(0, s.precision), s, false);
      } else if (conv === 'b') {
        const b = expandB(take() ?? '', say);
        out += pad(s.precision === undefined ? b.text : b.text.slice(0, s.precision), s, false);
        if (b.stop) return done();
      } else if (conv === 'c') {
        // getchr(): no argument, or an empty one, is a NUL character.
        out += pad((take() ?? '').charAt(0) || '\0', s, false);
      } else if ('diouxX'.includes(conv)) out += integer(conv, intArg(take(), say), s);
      else if (FLOATS.includes(conv) || conv === 'q' || conv === 'Q' || conv === '(')
        return { ...note('printf.conversion', { conversion: conv === '(' ? '(…)T' : conv }), stdout: out }; // prettier-ignore
      else return fail(`\`${conv}': invalid format character`);
    }
    if (next >= rest.length || next === before) break;
  }
  return done();
}

function note(
  id: 'tool.option' | 'printf.conversion',
  params: Record<string, string>,
): CommandResult {
  return { stdout: '', stderr: labNote(id, params), exitCode: 1 };
}

export function registerPrintf(registry: CommandRegistry): void {
  registerCommand(registry, 'printf', printf);
}

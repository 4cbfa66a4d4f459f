/**
 * awk's tokens for awk-parse.ts: numbers, strings (with their escapes), /regex/ literals (where
 * an operand cannot end, so `a / b` divides), names, operators and newlines; a word of awk the
 * lab does not run (getline, for, substr…) stops it at once. And awk's regexes (POSIX ERE) as
 * JavaScript ones.
 */
import { POSIX_CLASSES } from './posix-classes';

/** awk words the lab does not run. */
const UNMODELLED = /^(function|func|getline|while|for|do|break|continue|exit|return|delete|in|nextfile|substr|index|split|sub|gsub|match|sprintf|sin|cos|atan2|exp|log|sqrt|int|rand|srand|tolower|toupper|system|close|fflush)$/; // prettier-ignore

export type Tok = { t: 'num'; v: number } | { t: 'str'; v: string } | { t: 're'; v: string } | { t: 'name'; v: string } | { t: 'op'; v: string } | { t: 'nl' }; // prettier-ignore

/** The program uses what the lab does not model. */
export class Unsupported extends Error {}

const OPS = ['&&', '||', '==', '!=', '<=', '>=', '!~', '++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '{', '}', '(', ')', ';', ',', '+', '-', '*', '/', '%', '^', '!', '<', '>', '~', '?', ':', '=', '$']; // prettier-ignore

function unescape(s: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', '/': '/', a: '\x07', b: '\b', f: '\f', v: '\v' }; // prettier-ignore
  return s.replace(/\\([0-7]{1,3}|.)/g, (m, c: string) =>
    /^[0-7]/.test(c) ? String.fromCharCode(parseInt(c, 8)) : (map[c] ?? m),
  );
}

export function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  const operand = () => {
    const p = out[out.length - 1];
    return p !== undefined && (p.t === 'num' || p.t === 'str' || p.t === 'name' || (p.t === 'op' && (p.v === ')' || p.v === '$')) || (p.t === 'op' && (p.v === '++' || p.v === '--'))); // prettier-ignore
  };
  for (let i = 0; i < src.length;) {
    const c = src[i]!;
    if (c === ' ' || c === '\t') i++;
    else if (c === '\\' && src[i + 1] === '\n') i += 2;
    else if (c === '\n') {
      out.push({ t: 'nl' });
      i++;
    } else if (c === '#') while (i < src.length && src[i] !== '\n') i++;
    else if (c === '"') {
      const m = /^"((?:[^"\\\n]|\\.)*)"/.exec(src.slice(i));
      if (m === null) throw new Unsupported();
      out.push({ t: 'str', v: unescape(m[1]!) });
      i += m[0].length;
    } else if (c === '/' && !operand()) {
      const m = /^\/((?:[^/\\\n[]|\\.|\[(?:\^?\]?)(?:[^\]\\\n]|\\.|\[:\w+:\])*\])*)\//.exec(src.slice(i)); // prettier-ignore
      if (m === null) throw new Unsupported();
      out.push({ t: 're', v: m[1]! });
      i += m[0].length;
    } else if (/[0-9.]/.test(c) && /^(\d+\.?\d*|\.\d+)/.test(src.slice(i))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(src.slice(i))!;
      out.push({ t: 'num', v: Number(m[0]) });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_]\w*/.exec(src.slice(i))!;
      if (UNMODELLED.test(m[0])) throw new Unsupported();
      out.push({ t: 'name', v: m[0] });
      i += m[0].length;
    } else {
      const op = OPS.find((o) => src.startsWith(o, i));
      if (op === undefined) throw new Unsupported();
      out.push({ t: 'op', v: op });
      i += op.length;
    }
  }
  return out;
}

/** A regex of awk (POSIX ERE) as a JavaScript one: bracket classes such as [:digit:] spelled out. */
export function ere(source: string): RegExp {
  const js = source.replace(/\[:(\w+):\]/g, (m, name: string) => {
    const cls = POSIX_CLASSES[name];
    if (cls === undefined) throw new Unsupported();
    return cls;
  });
  try {
    return new RegExp(js);
  } catch {
    throw new Unsupported();
  }
}

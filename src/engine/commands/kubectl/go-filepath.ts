/**
 * Go's filepath.Glob and filepath.Match (go1.23 path/filepath/match.go), which kubectl applies to
 * a `-f` path that does not exist (cli-runtime builder.go expandIfFilePattern): the lab's shell
 * does no pathname expansion, so `kubectl apply -f 'dir/*.yaml'` and `-f *.yaml` both reach
 * kubectl with the pattern. `*` and `?` never match `/`; a leading dot is matched like any
 * other character; directories are read in lexical order.
 */
import type { DirectoryEntry } from '../registry';

/** Go's path.Clean, which filepath.Join applies to every path Walk hands out. */
export function cleanPath(path: string): string {
  if (path === '') return '.';
  const rooted = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out.at(-1) !== '..') out.pop();
    else if (part !== '..' || !rooted) out.push(part);
  }
  const joined = out.join('/');
  return rooted ? `/${joined}` : joined === '' ? '.' : joined;
}

/** Sorts as Go compares strings (UTF-8 bytes): by code point, which is the same order. */
export function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** filepath.ErrBadPattern. */
export const BAD_PATTERN = 'syntax error in pattern';

export const hasMeta = (path: string): boolean => /[*?[\\]/.test(path);

const esc = (c: string): string => `\\u{${c.codePointAt(0)!.toString(16)}}`;

/** A character class `[…]` from `i` (just after `[`): its regex and where it ends. */
function charClass(pattern: string, i: number): { source: string; end: number } | undefined {
  let source = '[';
  if (pattern[i] === '^') {
    source += '^';
    i++;
  }
  let ranges = 0;
  const escaped = (): string | undefined => {
    // match.go getEsc: `-` and `]` must be escaped; `\` escapes the next character.
    let c = pattern[i];
    if (c === undefined || c === '-' || c === ']') return undefined;
    if (c === '\\') c = pattern[++i];
    if (c === undefined) return undefined;
    i++;
    return c;
  };
  for (;;) {
    if (pattern[i] === ']' && ranges > 0) return { source: `${source}]`, end: i + 1 };
    const lo = escaped();
    if (lo === undefined) return undefined;
    let hi = lo;
    if (pattern[i] === '-') {
      i++;
      const h = escaped();
      if (h === undefined) return undefined;
      hi = h;
    }
    // Go matches nothing for a reversed range; a regex would refuse it.
    if (lo.codePointAt(0)! <= hi.codePointAt(0)!) source += `${esc(lo)}-${esc(hi)}`;
    ranges++;
  }
}

/** filepath.Match as a regular expression; undefined for a malformed pattern. */
export function goPatternRegExp(pattern: string): RegExp | undefined {
  let source = '';
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const cls = charClass(pattern, i + 1);
      if (cls === undefined) return undefined;
      source += cls.source;
      i = cls.end;
      continue;
    } else if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return undefined;
      source += esc(next);
      i += 2;
      continue;
    } else source += esc(c);
    i++;
  }
  return new RegExp(`^${source}$`, 'u');
}

/**
 * filepath.Glob: the paths matching `pattern`, or BAD_PATTERN. A directory that cannot be read
 * matches nothing (Glob ignores I/O errors).
 */
export function goGlob(
  pattern: string,
  list: (dir: string) => readonly DirectoryEntry[] | undefined,
): string[] | typeof BAD_PATTERN {
  const slash = pattern.lastIndexOf('/');
  const file = pattern.slice(slash + 1);
  const dirPart = slash < 0 ? '' : pattern.slice(0, slash + 1);
  const re = goPatternRegExp(file);
  if (re === undefined) return BAD_PATTERN;
  // match.go cleanGlobPath: "" is ".", a trailing separator goes (the root stays "/").
  const dir = dirPart === '' ? '.' : dirPart === '/' ? '/' : dirPart.slice(0, -1);
  const dirs = hasMeta(dir) ? goGlob(dir, list) : [dir];
  if (dirs === BAD_PATTERN) return BAD_PATTERN;
  const matches: string[] = [];
  for (const d of dirs) {
    const names = (list(d) ?? []).map((e) => e.name).sort(byCodePoint);
    for (const name of names) if (re.test(name)) matches.push(cleanPath(`${d}/${name}`));
  }
  return matches;
}

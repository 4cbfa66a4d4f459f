/**
 * Splitting a restore line into words the way xshared.c add_param_to_argv() does: spaces,
 * tabs and newlines separate words; only double quotes group (single quotes are ordinary
 * characters), and inside them a backslash takes the next character literally. An
 * unterminated quote runs to the end of the line.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a;
}

export function tokenizeRestoreLine(line: string): string[] {
  const out: string[] = [];
  const n = line.length;
  let word = '';
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (isBlank(c)) {
      // Blanks end a non-empty word.
      if (word !== '') out.push(word);
      word = '';
      i++;
    } else if (c === QUOTE) {
      // A quoted part joins the word; the closing quote ends the word (even an empty one).
      let start = ++i;
      let closed = false;
      while (i < n) {
        const d = line.charCodeAt(i);
        if (d === BACKSLASH) {
          word += line.slice(start, i);
          start = ++i;
          if (i < n) i++;
        } else if (d === QUOTE) {
          out.push(word + line.slice(start, i));
          word = '';
          closed = true;
          i++;
          break;
        } else i++;
      }
      if (!closed) word += line.slice(start, i);
    } else {
      const start = i;
      while (i < n) {
        const d = line.charCodeAt(i);
        if (isBlank(d) || d === QUOTE) break;
        i++;
      }
      word += line.slice(start, i);
    }
  }
  if (word !== '') out.push(word);
  return out;
}

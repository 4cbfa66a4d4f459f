/**
 * Splitting a restore line into words the way xshared.c add_param_to_argv() does: spaces,
 * tabs and newlines separate words; only double quotes group (single quotes are ordinary
 * characters), and inside them a backslash takes the next character literally. An
 * unterminated quote runs to the end of the line.
 */
export function tokenizeRestoreLine(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let quoteOpen = false;
  let escaped = false;
  for (const ch of line) {
    if (quoteOpen) {
      if (escaped) {
        word += ch;
        escaped = false;
        continue;
      }
      if (ch === '\\') {
        escaped = true;
        continue;
      }
      if (ch !== '"') {
        word += ch;
        continue;
      }
      quoteOpen = false;
    } else if (ch === '"') {
      quoteOpen = true;
      continue;
    }
    if (ch !== '"' && ch !== ' ' && ch !== '\t' && ch !== '\n') {
      word += ch;
      continue;
    }
    // A closing quote ends the word (even an empty one); blanks end a non-empty word.
    if (ch !== '"' && word === '') continue;
    out.push(word);
    word = '';
  }
  if (word !== '') out.push(word);
  return out;
}

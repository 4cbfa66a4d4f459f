/**
 * The word after a `${…}` operator (`${X:-WORD}`, `${X#PATTERN}`, `${X/PATTERN/STRING}`) read
 * into a marked word (shell-types.ts MARK) for shell-expand.ts: unquoted text stays as it is,
 * quoted text is wrapped in MARK.lit, expansions are marked as the tokenizer marks them. How
 * quotes count follows bash 5.2 (checked with `bash -i -c` in C.UTF-8):
 *
 * - 'unquoted' (the `${…}` is not in double quotes): quotes and `\` as in any word, so
 *   `${X:-"a b"}` is one field and `${X:-a b}` two;
 * - 'dquoted' (`"${X:-WORD}"` and `=`, `+`, `?`): the word is read as if in double quotes — `'`
 *   is an ordinary character (`"${X:-'a'}"` is `'a'`), `\` escapes only `$`, `` ` ``, `"`, `\`
 *   and `}`;
 * - 'pattern-dquoted' (`"${X#PATTERN}"`, `"${X/PATTERN/STRING}"`): quotes are quotes again
 *   (`"${X#'a'}"` removes an `a`).
 */
import { expansion } from './shell-lex';
import { MARK } from './shell-types';

export type WordMode = 'unquoted' | 'dquoted' | 'pattern-dquoted';

const quotedText = (text: string): string => `${MARK.lit}${text}${MARK.end}`;

/**
 * Reads `text` from `from` up to its end, or to the first unquoted `stop` character (the `/`
 * between a pattern and its string, the `:` between an offset and a length). `tilde`: a leading
 * `~` (alone or before `/`) is $HOME, as bash's tilde expansion makes it.
 */
export function scanWord(
  text: string,
  from: number,
  mode: WordMode,
  options: { readonly stop?: string; readonly tilde?: boolean; readonly arithmetic?: true } = {},
): { word: string; end: number } {
  let word = '';
  let i = from;
  let inDoubleQuotes = false;
  /** In an arithmetic offset, `(…)` and `?…:` hide the `:` before a length (`${X:1?1:0}`). */
  let open = 0;
  const asInDoubleQuotes = () => mode === 'dquoted' || inDoubleQuotes;
  if (options.tilde === true && mode === 'unquoted' && text.charAt(i) === '~') {
    const after = text.charAt(i + 1);
    if (after === '' || after === '/' || after === options.stop) {
      word += `${MARK.varQuoted}HOME${MARK.end}`;
      i++;
    }
  }
  while (i < text.length) {
    const c = text.charAt(i);
    if (options.arithmetic === true && !inDoubleQuotes) {
      if (c === '(' || c === '?') open++;
      else if ((c === ')' || c === ':') && open > 0) {
        open--;
        word += c;
        i++;
        continue;
      }
    }
    if (c === options.stop && !inDoubleQuotes) break;
    if (c === '\\') {
      const next = text.charAt(i + 1);
      if (next === '') {
        word += c;
        i++;
      } else if (asInDoubleQuotes() && !'$`"\\}\n'.includes(next)) {
        word += inDoubleQuotes ? quotedText(c) : c;
        i++;
      } else {
        if (next !== '\n') word += quotedText(next);
        i += 2;
      }
    } else if (c === "'" && !asInDoubleQuotes()) {
      const end = text.indexOf("'", i + 1);
      const close = end < 0 ? text.length : end;
      word += quotedText(text.slice(i + 1, close));
      i = close + 1;
    } else if (c === '"') {
      // In 'dquoted' mode a `"` only ends and starts quoting, which changes nothing there.
      inDoubleQuotes = !inDoubleQuotes;
      if (inDoubleQuotes) word += quotedText('');
      i++;
    } else if (c === '$' || c === '`') {
      const x = expansion(text, i, asInDoubleQuotes());
      if (Array.isArray(x)) {
        word += x[0];
        i = x[1];
      } else {
        word += inDoubleQuotes ? quotedText(c) : c;
        i++;
      }
    } else {
      word += inDoubleQuotes ? quotedText(c) : c;
      i++;
    }
  }
  return { word, end: i };
}

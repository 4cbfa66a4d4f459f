/**
 * Here-documents (`<<WORD`, `<<-WORD`, quoted delimiters) and here-strings (`<<<`) in the lab
 * shell against the real bash 5.2 on this machine (./bash.ts: `bash --norc --noprofile +m -i -c`,
 * C.UTF-8, a clean environment): same stdout, same stderr, same exit status.
 */
import { describe, it } from 'vitest';
import { bashInstalled, expectSameAsBash } from './bash';

// prettier-ignore
const CASES = [
  // Unquoted delimiter: parameter expansion, `$(…)`, `$((…))`; quotes are ordinary characters.
  'cat <<EOF\nhello $HOME ${USER} "$HOME" \'$HOME\'\nsum $((1 + 2)) $(echo sub)\nEOF',
  // Backslash in a body: quotes `\\`, `$`, `` ` `` and newline only (`\\"` stays).
  'X=1; cat <<EOF\n\\$X \\" \\\\ \\a tail\\\ncontinued `echo bq`\nEOF',
  // Quoted delimiters, in each way: the body as typed.
  "X=1; cat <<'EOF'\n$X $(echo no) \\$X\nEOF",
  'X=1; cat <<"EOF"\n$X\nEOF',
  'X=1; cat <<\\EOF\n$X\nEOF',
  'X=1; cat <<E"O"F\n$X\nEOF',
  // A blank before the word, and a delimiter with `$` in it (never expanded).
  'cat << END\nbody\nEND',
  'cat <<$X\n$HOME\n$X',
  // Only a line that is exactly the delimiter ends the body.
  'cat <<EOF\nline\n  EOF\nEOF  \nEOFX\nEOF',
  // `<<-` strips leading tabs (not spaces), from the delimiter line too.
  'cat <<-EOF\n\ta\n\t\tb\n  c\n\tEOF',
  // Several here-documents on one line, read in order; the last `<<` on a command wins.
  'cat <<A; cat <<B\none\nA\ntwo\nB',
  'cat <<A <<B\none\nA\ntwo\nB',
  // Feeding a pipeline, and commands after the body.
  'cat <<EOF | grep -c x\nx1\ny\nx2\nEOF',
  'cat <<EOF | wc -l\na\nb\nEOF\necho after',
  'cat <<EOF && echo ok\nbody\nEOF',
  'for i in 1 2; do cat <<EOF\nitem $i\nEOF\ndone',
  // A comment after the `<<` word: the body still follows.
  'cat <<EOF # note\nbody\nEOF',
  // `${…}` operators and special parameters in a body; a here-document inside `$(…)`.
  'false; cat <<EOF\n${HOME:-d} ${U:-dflt} ${#HOME} $? $#\nEOF',
  'echo $(cat <<EOF\ninner\nEOF\n)',
  // An empty body.
  'cat <<EOF\nEOF',
  // End of input before the delimiter: bash's warning, the body up to there.
  'cat <<EOF\nhello',
  // Its line number counts the lines before the `<<` (a `\` line continuation here).
  'echo a; echo \\\nb; cat <<EOF\nx',
  'cat <<EOF',
  // No word after `<<`.
  'cat <<',
  'cat << | cat',
  'cat <<EOF >',
  // Here-strings.
  'cat <<<"$HOME x"',
  'X="a  b"; cat <<<$X',
  "cat <<< 'q' <<<w",
  'grep -c a <<<abc',
];

describe.skipIf(!bashInstalled)('here-documents: the lab shell against bash', () => {
  it.each(CASES)('%j', (text) => expectSameAsBash(text));
});

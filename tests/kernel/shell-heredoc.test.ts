/**
 * Here-documents (`<<WORD`, `<<-WORD`, quoted delimiters) and here-strings (`<<<`) in the lab
 * shell against the real bash 5.2 on this machine, run as tests/kernel/shell-param.test.ts runs
 * it (`bash --norc --noprofile +m -i -c`, C.UTF-8, a clean environment): same stdout, same
 * stderr, same exit status. bash needs no namespace.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createStandardRegistry } from '../../src/engine/commands';
import { runCommandLine } from '../../src/engine/commands/shell-run';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { hostView } from '../../src/engine/sim/host-view';
import { World } from '../../src/engine/sim/world';

const ENV = {
  LC_ALL: 'C.UTF-8',
  HOME: '/root',
  USER: 'root',
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HISTFILE: '/dev/null',
};

/** What an interactive bash without a terminal says first, before running anything. */
const NO_TERMINAL =
  /^bash: cannot set terminal process group \(\d+\): Inappropriate ioctl for device\nbash: no job control in this shell\n/;

const bashInstalled = spawnSync('bash', ['-c', 'true']).status === 0;

function lab(text: string) {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const view = hostView(world, { kind: 'node', name: 'node-1' }, () => undefined);
  return runCommandLine(createStandardRegistry(), { world: view }, text);
}

function compare(text: string) {
  const real = spawnSync('bash', ['--norc', '--noprofile', '+m', '-i', '-c', text], {
    encoding: 'utf8',
    env: ENV,
    timeout: 5000,
  });
  const mine = lab(text);
  expect({ stdout: mine.stdout, stderr: mine.stderr, status: mine.exitCode }).toEqual({
    stdout: real.stdout,
    stderr: real.stderr.replace(NO_TERMINAL, ''),
    status: real.status,
  });
}

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
  it.each(CASES)('%j', (text) => compare(text));
});

/**
 * The lab shell's parameter expansion `${…}` against the real bash 5.2 on this machine: each line
 * runs through the lab (node-1's terminal) and through `bash -i -c` (interactive, as a terminal's
 * shell is: an expansion error drops the rest of the line with status 1, and messages carry no
 * `line 1:`), in the C.UTF-8 locale the lab's tools claim (text-tools.ts), so lengths, offsets
 * and case count characters. Same stdout, same stderr, same exit status. bash needs no
 * namespace.
 */
import { describe, expect, it } from 'vitest';
import { bashInstalled, expectSameAsBash, labShell } from './bash';
import { MAX_NESTING } from '../../src/engine/commands/shell-types';
import { labNote } from '../../src/engine/model/lab-notes';

/** `printf '[%s]'` shows each field; the fields are what word splitting made. */
const show = (words: string) => `printf '[%s]' ${words}; echo`;

// prettier-ignore
const DEFAULTS = [
  // Unset, empty and set, with and without the colon.
  'X=abc; E=; echo ${X-d} ${E-d} ${U-d} / ${X:-d} ${E:-d} ${U:-d}',
  'X=abc; E=; echo ${X+a} ${E+a} ${U+a} / ${X:+a} ${E:+a} ${U:+a} end',
  'E=; echo ${U=one} ${E=two} ${E:=three}; echo $U $E',
  'echo ${U:=a   b}; echo "[$U]"',
  show('${U:="a  b"}'),
  show('${U:-a b} ${U:-"a b"} "${U:-a b}" ${U:-"a b" c} "${U:-"a b" c}"'),
  show("${U:-'a b'} \"${U:-'a b'}\" ${U:-a\\ b} \"${U:-a\\ b}\""),
  show('${U:-""} "${U:-}" ${U:-} x${U:-}y'),
  'Y=yes; echo ${U:-$Y} ${U:-${Y}x} ${U:-${V:-deep}} "${U:-$(echo sub)}" ${U:-$((2+3))}',
  'Y="a   b"; ' + show('${U:-$Y} ${U:-"$Y"} "${U:-$Y}"'),
  'echo ${U:-~} ${U:-~/x} "${U:-~}"',
  'echo ${U:-\\}x} "${U:-\\}x}" ${U:-a}b}',
  'X=abc; echo ${X:+"[$X]"} "${X:+[$X]}"',
  // ? and :? end the line (interactive bash: status 1).
  'echo ${U?oops}; echo after',
  'echo before; echo ${U:?} after; echo not',
  'E=; echo ${E?} ok; echo ${E:?empty is bad}; echo not',
  'echo ${U?a   b "c  d" $HOME}',
  'X=set; echo ${X:?unused}',
  'echo $(echo ${U?in a subshell}) still; echo $?',
  // Special parameters.
  'echo ${?} ${#} ${0} ${1-one} ${10:-ten} ${@-at} ${*:-star} ${#@} ${#*}',
  'false; echo ${?:-x} ${#?} ${#0} ${0:1} ${0^^}',
  show('"$@" "x$@" "${@}" "${@:-d}"'),
  'echo ${1=x}',
];

// prettier-ignore
const LENGTHS_AND_SUBSTRINGS = [
  'X=abcdef; echo ${#X} ${#U} ${X:0} ${X:2} ${X:2:3} ${X:6} ${X:7}x ${X:1:0}x',
  'X=abcdef; echo ${X: -2} ${X: -6} ${X: -7}x ${X:(-3):2} ${X:1:-1} ${X:2:-4}x',
  'X=abcdef; echo ${X:1:-5}; echo after',
  'X=abcdef; echo ${X::2} ${X:1:}x ${X:1+1:2*2} ${X:N} ${X:$((1)):1}',
  'X=abcdef; N=2; echo ${X:N:N} ${X:$N}',
  'X=abcdef; echo ${X:1/0}; echo after',
  'X=abc; echo ${X:10:-1}x ${X: -10:1}x',
  'X=héllo; echo ${#X} ${X:1:2} ${X: -2} ${X:4}',
  'X=日本語テキスト; echo ${#X} ${X:2:2} ${X#日本} ${X%テ*}',
];

// prettier-ignore
const PATTERNS = [
  'X=a.b.c.d; echo ${X#*.} ${X##*.} ${X%.*} ${X%%.*}',
  'X=a.b.c.d; echo ${X#x} ${X%x} ${X#} ${X%%} ${X##*} ${X%%*}x',
  'X=path/to/file.tar.gz; echo ${X##*/} ${X%/*} ${X%.gz} ${X%%.*} ${X#path/}',
  'X=abcabc; echo ${X#?b} ${X%b?} ${X#[ab]} ${X##[ab]*} ${X#[!a]} ${X#[^b]}',
  'X=a1b2c3; echo ${X//[0-9]/} ${X//[[:digit:]]/#} ${X//[[:alpha:]]} ${X//[a-b]/-}',
  'X="a*b?c"; echo "${X#"a*"}" ${X#a\\*} ${X%%[?]*} ${X//[*?]/-} "${X#a*}"',
  "X=abc; echo \"${X#'a'}\" ${X#'a'} \"${X#\"a\"}\" ${X#\"*\"}",
  'X=abc; P="?"; echo ${X#$P} "${X#$P}" ${X#"$P"}',
  'X=aaa; echo ${X/a/b} ${X//a/b} ${X/#a/b} ${X/%a/b} ${X/x/y}',
  'X=abc; echo ${X/b} ${X//} ${X/} ${X/#/pre-} ${X/%/-post}',
  'X=abc; echo ${X/b/[&]} "${X/b/[&]}" ${X/b/\\&} ${X/b/"&"} ${X//?/<&>}',
  "X=abc; echo \"${X/a/'b'}\" ${X/a/'b'} ${X/a/\"x y\"}",
  'X="a b  c"; ' + show('${X// /_} ${X/ /} "${X// /}"'),
  'X=abc; R=x; echo ${X/b/$R} ${X/b/${R}${R}} ${X/${R:-b}/!}',
  'X=hello; echo ${X//l*/L} ${X/l*/L} ${X//*/all} ${X/#*l/S}',
  'X=one/two; echo ${X/\\//:} ${X//o/0}',
  'E=; echo ${E/#/x} ${E//*/y}x ${E/%/z} ${U/a/b}x',
  'X=abc; echo ${X#[}x ${X/[/y} ${X#[c-a]}',
];

// prettier-ignore
const CASES = [
  'X=hello; echo ${X^} ${X^^} ${X,} ${X,,} ${X~} ${X~~}',
  'X=HeLLo; echo ${X^} ${X^^} ${X,} ${X,,} ${X~} ${X~~}',
  'X=abcb; echo ${X^^[ab]} ${X^b} ${X^a} ${X,,[A]}',
  'X=ßaé; echo ${X^^} ${X^} ${U^^}x',
  'X=éte; Y=ÉTÉ; echo ${X^} ${X^^} ${Y,} ${Y,,}',
];

// prettier-ignore
const ERRORS = [
  'echo a; echo ${X!}; echo b',
  'echo ${}; echo $?',
  'echo ${X:}',
  'echo ${X::}x',
  'echo ${1a}',
  'echo ${X Y}',
  'X=abc; echo ${#X:-1}',
  'echo ${X:-',
  'echo "${X:-a}',
  'for i in 1 2; do echo ${i:-x}${U!}; done; echo after',
  'X=ab; if [ ${#X} -eq 2 ]; then echo two ${X/a/A}; fi',
];

// prettier-ignore
const IN_CONTEXT = [
  "for i in ${X:-1 2 3}; do echo $i; done",
  "X=${Y:-'a  b'}; echo \"$X\"; Z=${Y:-\"c  d\"}; echo \"$Z\"; W=${Y:-e  f}; echo \"$W\"",
  'X=😀a; echo ${#X} ${X:0:1} ${X:1} ${X^^} ${X/a/b}',
  '[ -z "${X:-}" ] && echo empty',
  'echo ${X:-$(echo a   b)} "${X:-$(echo a   b)}"',
  'X=" a b "; echo "[${X//[[:space:]]/}]" "[${X// }]"',
  "echo ${X:-'}'} \"${X:-'}'}\"",
  'echo ${X-\\$HOME} "${X:-\\$HOME}" "${X:-\\a}" ${X:-\\a}',
  "X='a*'; echo ${X%\\*} ${X%'*'} ${X%*}",
  'echo ${X:- a} "${X:- a}"x',
  'echo ${##} ${#-d} ${#:-d}',
  'X=abc; echo ${X: 1 + 1} ${X:(1)} ${X:1?1:0}',
  'echo ${X:-a}} ${X#*}x',
  'X=abc; echo ${X/?/&&} ${X//?/\\\\&}',
  "X='a&b'; echo ${X/\\&/and} ${X/&/and}",
  'echo ${HOME:0:2} ${PATH%%:*} ${USER^^} ${#PATH}',
  'X=abc; echo ${X:-$X} ${X:+${X}x} ${X/${X:0:1}/Z}',
  'echo ${X:=5} $((X+1)) ${X}',
  'X=aXbX; echo ${X,,x} ${X^^[[:lower:]]} ${X~~[aX]}',
  'X=a.b; echo ${X%.*}.${X#*.} "${X%.*}-${X##*.}"',
  'X=abc; echo ${X:?"no $HOME"} ; echo ${U:?"no $HOME"}',
  'echo ${X:-`echo bq`}',
  'echo "${X:-"$HOME"}" ${X:-"$HOME"x}',
  'X=ab; echo ${X/b/\\/} ${X/b//} ${X/a\\/b/c}',
  "X=abc; echo ${X/'b'/\"c\"} \"${X/\"b\"/'c'}\"",
  'X=abc; echo ${X#"${X%c}"} ${X%"${X#a}"}',
  'X=abc; echo ${X:-} ${X:+} ${X=} ${X+}',
  'echo $((${#HOME}+1)) $(( ${X:-3} * 2 ))',
  'X="  "; printf "[%s]" ${X:-d} "${X:-d}" ${X:+y}; echo',
  'echo $(($U+1)) $((U+1)) $(( $(echo 4) * 2 ))',
  'Y=1; echo $(($Y/0))',
  'X=abc; echo ${X:(1?1:0)} ${X:1:1?2:0} $((${X:+1}+1))',
  "echo \"${X#'}'}\"",
  'echo hi > ${U:-/dev/null}; echo $?',
];

describe.skipIf(!bashInstalled)('${…} parameter expansion, as bash 5.2 does it', () => {
  for (const [title, lines] of Object.entries({
    DEFAULTS,
    LENGTHS_AND_SUBSTRINGS,
    PATTERNS,
    CASES,
    ERRORS,
    IN_CONTEXT,
  }))
    describe(title, () => {
      it.each(lines)('%s', (line) => expectSameAsBash(line));
    });
});

describe('what the lab shell does not run is said, never printed as typed', () => {
  it.each(['echo ${!X}', 'X=abc; echo ${X@Q}', 'echo ${X[0]}', 'echo ${#X[@]}', 'echo ${$}'])(
    '%s',
    (line) => {
      const r = labShell(line);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^lab shell: \$\{.*\} is not supported; /);
      expect(r.exitCode).toBe(1);
    },
  );
});

describe('${…} nested deeper than the lab reads', () => {
  const nested = (depth: number) => `echo ${'${X:-'.repeat(depth)}z${'}'.repeat(depth)}`;

  it('reads it up to MAX_NESTING deep, as bash does', () => {
    expect(labShell(nested(MAX_NESTING)).stdout).toBe('z\n');
  });

  // bash reads far deeper; the lab's readers recurse, and 3,000 levels overflowed the stack.
  it.each([MAX_NESTING + 1, 5000])('refuses %i levels with a lab note, status 1', (depth) => {
    const r = labShell(nested(depth));
    expect({ stdout: r.stdout, stderr: r.stderr, status: r.exitCode }).toEqual({
      stdout: '',
      stderr: labNote('shell.parameter-depth', { max: MAX_NESTING }),
      status: 1,
    });
  });
});

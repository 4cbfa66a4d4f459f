/**
 * The lab shell against the real bash 5.2 and GNU coreutils 9.1 (Debian bookworm), run on this
 * machine: `for` loops, expansions and quoting, and seq, sort, uniq and cut, with the same
 * input. Same stdout, same stderr, same exit status. These need no namespace: only commands
 * that print text (echo and the coreutils) are compared.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createStandardRegistry } from '../../src/engine/commands';
import { runCommandLine } from '../../src/engine/commands/shell-run';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { hostView } from '../../src/engine/sim/host-view';
import { World } from '../../src/engine/sim/world';

const ENV = { ...process.env, LC_ALL: 'C.UTF-8', HOME: '/root', USER: 'root' };
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function installed(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
}

/** The lab's answer to one line on node-1 (`input.txt` holds `input`). */
function lab(line: string, input: string) {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const view = hostView(world, { kind: 'node', name: 'node-1' }, (p) =>
    p === 'input.txt' ? input : undefined,
  );
  return runCommandLine(createStandardRegistry(), { world: view }, line);
}

/**
 * bash -c prefixes its messages with `-c: line N: ` or `line N: ` and repeats the line; an
 * interactive bash, as on a terminal, does neither.
 */
function interactive(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !/^bash: -c: line \d+: `/.test(l))
    .map((l) => l.replace(/^bash: (-c: )?line \d+: /, 'bash: '))
    .join('\n');
}

function compare(line: string, input = '') {
  const real = spawnSync('bash', ['-c', line], {
    encoding: 'utf8',
    input,
    env: { ...ENV, PATH },
    timeout: 5000,
  });
  const mine = lab(input === '' ? line : `${line} < input.txt`, input);
  expect({ stdout: mine.stdout, stderr: mine.stderr, status: mine.exitCode }).toEqual({
    stdout: real.stdout,
    stderr: interactive(real.stderr),
    status: real.status,
  });
}

// prettier-ignore
const SHELL = [
  'for i in 1 2 3; do echo "n=$i"; done',
  'for i in {1..4}; do echo $i; done | tail -2',
  'for i in {3..1}; do echo -n $i; done; echo',
  'echo a{1..3}b {1..2} "{1..2}" x{a..b}',
  'for i in $(seq 2 4); do for j in a b; do echo $i$j; done; done',
  'for i; do echo x; done; echo after',
  'for i in a b; do echo $i; done > /dev/null; echo $?',
  "for w in 'a b' \"c d\" e; do echo [$w]; done",
  'echo $HOME "$HOME" \'$HOME\' ${HOME}/x $UNSET_VAR end',
  'echo `echo one` $(echo two three) "$(echo four   five)"',
  'x=1; echo $?',
  'i=7; echo $((i*2+1)) $(( ($i - 10) / 3 )) $((7 % 3)) $((2**10)) $((-2**2)) "$((i > 5 && i != 8))" $((i ? 10 : 20)) $((unset_var + 1))',
  'for i in 1 2 3; do echo "$i: $((i * i))"; done',
  'echo $((1/0)) after; echo status $?',
  'echo $((1+)); echo status $?',
  'echo "[$1] [$#] [$@] [$*] [$0] [${10}]" $1 end',
  'x=1; y=$x$x; echo $y; for i in a b; do x=$i; done | cat; echo $x $i',
  'seq 3 | sort -r | head -1; echo status $?',
  'false_cmd_xyz 2>/dev/null; echo $?',
  'echo a && echo b || echo c; echo $?',
  'for i in 1 2; do echo $i done',
  'for 1x in a; do echo; done',
  'for i in a b; echo $i; done',
  'for i in a; do; done',
  'done',
  'echo $(seq 3) | wc -w',
  // while, until, if, break, continue; test and [ (bash 5.2 test.c, break.def)
  'i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done; echo status $?',
  'until [ "$x" = aaa ]; do x=a$x; echo $x; done',
  'while false; do echo never; done; echo $?',
  'if false; then echo a; elif [ 1 -eq 2 ]; then echo b; else echo c; fi; echo $?',
  'if false; then echo a; fi; echo $?; if false_cmd_xyz 2>/dev/null; then :; else echo $?; fi',
  'for i in 1 2 3; do if [ $i = 2 ]; then continue; fi; echo $i; done',
  'for i in 1 2; do for j in a b c; do echo $i$j; continue 2; done; done',
  'for i in 1 2; do for j in a b; do echo $i$j; break 2; done; done; echo $?',
  'while true; do echo once; break; done | cat; i=0; until false; do i=$((i+1)); [ $i -ge 3 ] && break; done; echo $i',
  'for i in 1 2; do echo $i; break 0; done; echo rc=$?',
  'for i in 1 2; do echo $i; continue 1 2; done; echo rc=$?',
  'for i in 1 2 3; do echo $i; continue 9; done; echo rc=$?',
  'break; continue 2; echo rc=$?',
  'if true; fi', 'if true; then fi', 'while true; done', 'while; do echo; done', 'if then',
  'if true; then echo a; else; fi', 'until true; do :; done x', 'if true; then echo a; fi > /dev/null; echo $?',
  'true; echo $?; false; echo $?; : a b; echo $?; true x; false y; echo $?',
  '[ 1 -eq 1 ]; echo $?; [ 1 -eq 1; echo $?; [ abc -eq 1 ]; echo $?; [ 1 -foo 2 ]; echo $?',
  '[ -q x ]; echo $?; [ a b c d e ]; echo $?; [ ]; echo $?; [ x ]; echo $?; [ "" ]; echo $?',
  '[ -n "" ]; echo $?; [ -z "" ]; echo $?; [ a = a ]; echo $?; [ a == b ]; echo $?; [ a != b ]; echo $?; [ ! a = b ]; echo $?',
  '[ 010 -eq 10 ]; echo $?; [ " 5 " -gt 3 ]; echo $?; [ +5 -gt 3 ]; echo $?; [ 5x -gt 3 ]; echo $?; [ "" -eq 0 ]; echo $?; [ 0x10 -eq 16 ]; echo $?',
  '[ 9223372036854775807 -gt 1 ]; echo $?; [ 9223372036854775808 -gt 1 ]; echo $?; [ -9223372036854775808 -lt 0 ]; echo $?; [ 2 -le 2 ]; echo $?; [ 3 -ne 3 ]; echo $?',
  '[ a = a -a b = c ]; echo $?; [ a = a -o b = c ]; echo $?; [ "(" a ")" ]; echo $?; [ "(" a = b ")" -o b ]; echo $?; [ "(" a ]; echo $?',
  '[ a -o "(" ]; echo $?; [ 1 -eq 1 -a ]; echo $?; [ ! ! a ]; echo $?; [ a = b = c ]; echo $?; [ 1 -gt 2 -o 3 ]; echo $?',
  '[ -z ]; echo $?; [ -eq 1 ]; echo $?; [ 1 -eq 1 a b ]; echo $?; [ ! ]; echo $?; [ -n ]; echo $?; [ = ]; echo $?; [ a = ]; echo $?',
  'test; echo $?; test 1 -eq; echo $?; test abc -lt 2; echo $?; test a "<" b; echo $?; test B ">" a; echo $?',
  '[ -v HOME ]; echo $?; [ -v NOPE_VAR ]; echo $?; x=; [ -v x ]; echo $?',
  '[ "(" a = a ")" -a "(" -n x ")" ]; echo $?; [ a -a "" -o b ]; echo $?; [ -n x -a ]; echo $?; [ "(" ]; echo $?; [ ")" ]; echo $?',
  '[ "(" a b ]; echo $?; [ ! a b ]; echo $?; [ a -lt ]; echo $?; [ 1 -lt 2 ] ]; echo $?; [ "(" "(" a ")" ")" ]; echo $?',
  '[ "(" a -o ]; echo $?; [ -n -a -z ]; echo $?; [ ! -n "" -a x ]; echo $?; [ x -a y -o "" -a z ]; echo $?; [ "(" a "(" ]; echo $?',
  'echo -e "a\\tb\\c" d; echo -ne "x\\n"; echo -E "a\\tb"; echo -x a; echo -en; echo "-n"; echo -n -e "q\\n"; echo -e "\\x41\\0101\\z"',
];

// prettier-ignore
const TOOLS: [string, string?][] = [
  ['seq 5'], ['seq 2 4'], ['seq 1 3 10'], ['seq 5 -2 1'], ['seq 3 1'], ['seq 1 0.5 2'], ['seq 0.1 0.2 0.6'],
  ['seq -s , 4'], ['seq -w 8 10'], ['seq -w -3 1'], ['seq'], ['seq abc'], ['seq 1 0 2'], ['seq -x'], ['seq 1 2 3 4'],
  ['sort', 'b 2\na 10\nc 1\na 10\nB 3\n'], ['sort -r', 'b\na\nc\n'], ['sort -n', '10\n9\n-1\nx\n2.5\n'],
  ['sort -u', 'b\na\nb\n'], ['sort -k2 -n', 'b 2\na 10\nc 1\n'], ['sort -rn -k 2', 'b 2\na 10\nc 1\n'],
  ['sort -t: -k2,2n', 'x:3:a\ny:1:b\nz:2:c\n'], ['sort -k2,2nr -k1,1', 'b 1\na 1\nc 2\n'], ['sort -b -k2', 'a   z\nb y\n'],
  ['sort -q'], ['sort -k'], ['sort -k x', 'a\n'], ['sort -k 0', 'a\n'], ['sort -k 2x', 'a\n'], ['sort -k 2,3q', 'a\n'], ['sort -s -k1,1', 'a 2\na 1\n'],
  ['uniq', 'a\na\nb\na\n'], ['uniq -c', 'a\na\nb\n'], ['uniq -d', 'a\na\nb\n'], ['uniq -u', 'a\na\nb\n'], ['uniq -x'],
  ['cut -d " " -f2', 'b 2\na 10\n'], ['cut -d" " -f1,2', 'a b c\n'], ['cut -d " " -f2-', 'a b c\nnone\n'],
  ['cut -d " " -f2 -s', 'a b c\nnone\n'], ['cut -c1-2,4', 'abcdef\n'], ['cut -f1', 'a\tb\n'], ['cut'], ['cut -d " "', 'a\n'],
  ['awk \'{print $1}\'', 'b 2\n  a   10\n\n'], ['awk \'{ print $2, $1 }\'', 'b 2\na 10 x\n'],
  ['awk \'{print $NF "|" NR, NF}\'', 'a b c\n\n  \n'], ['awk -F: \'{print $2}\'', 'x:3:a\ny\n'],
  ['awk -F\'\\t\' \'{print $2}\'', 'a\tb c\n'], ['awk -Ft \'{print $2}\'', 'atb\n'], ['awk \'{print}\'', 'a  b\n'],
  ['awk \'{print $0; }\'', 'a b\n'], ['awk \'{print $5}\'', 'a b\n'], ['awk -F', 'a\n'], ['awk \'{print $1}\' nofile'],
  ['grep -oE "SEP-[A-Z0-9]+"', 'x SEP-AB1 y SEP-C\nnone\nSEP-Z\n'], ['grep -o -n a', 'banana\nx\na\n'],
  ['grep -c -o a', 'banana\nx\n'], ['grep -ov a', 'banana\nx\n'], ['grep -m1 a', 'a1\na2\n'], ['grep -m 0 a', 'a\n'],
  ['grep -m x a', 'a\n'], ['grep -x ab', 'ab\nabc\n'], ['grep -ix AB', 'ab\n'], ['grep -oi "A."', 'xAbab\n'],
  ['grep -K a', 'a\n'],
  // Context: groups, `--` between them, `N-` context lines, -m's trailing context, -o, -v, -c.
  ['grep -A1 b', 'a\nb\nc\nd\ne\nb\nf\n'], ['grep -B1 b', 'a\nb\nc\nd\ne\nb\nf\n'], ['grep -C1 b', 'a\nb\nc\nd\ne\nb\nf\n'],
  ['grep -n -A1 b', 'a\nb\nc\nd\ne\nb\nf\n'], ['grep -nA1 b', 'a\nb\nc\nb\n'], ['grep -o -A1 b', 'a\nb\nc\nd\ne\nb\nf\n'],
  ['grep -c -A1 b', 'a\nb\nc\n'], ['grep -v -A1 b', 'a\nb\nc\nd\n'], ['grep -m1 -A2 b', 'a\nb\nc\nb\ne\n'],
  ['grep -A abc b', 'b\n'], ['grep -A -1 b', 'b\n'], ['grep -2 c', 'a\nb\nc\nd\ne\nf\n'], ['grep --context=1 c', 'a\nb\nc\nd\n'],
  ['grep -A1 -B0 e', 'e\nb\n'], ['grep -C1 -A0 c', 'a\nb\nc\nd\n'], ['grep -A 0 b', 'b\nx\nb\n'], ['grep -B 2 -n KUBE-SEP', 'x\ny\n-A KUBE-SEP-1\nz\n-A KUBE-SEP-2\n'],
  ['grep --after-context=2 -A1 a', 'a\nb\nc\n'], ['grep -12 a', 'a\n'], ['grep -A', 'a\n'],
  ['wc', 'a b\nc\n'], ['wc -l', 'a\nb\n'], ['wc -lw', 'a b\n'], ['wc -c -', 'héllo\n'], ['wc -m', 'héllo\n'],
  ['wc -L', 'ab\nabcd\n'], ['wc -cl', 'x\n'], ['wc -x', 'a\n'], ['wc nofile'],
  ['tr -s " "', 'a  b   c\n'], ['tr a-z A-Z', 'hello\n'], ['tr -d l', 'hello\n'], ['tr -d "[:digit:]"', 'a1b2\n'],
  ['tr -s a-c', 'aabbcc\n'], ['tr abc x', 'abc\n'], ['tr " " "\\n"', 'a b\n'], ['tr ":" "\\t"', 'a:b\n'],
  ['tr "[:lower:]" "[:upper:]"', 'hello\n'], ['tr -ds a b', 'aabbb\n'], ['tr -d "[:punct:]"', 'a!b,c\n'],
  ['tr'], ['tr a', 'a\n'], ['tr -d a b', 'a\n'], ['tr -x', 'a\n'], ['tr "[:foo:]" x', 'a\n'],
  ['cut -f 0', 'a\n'], ['cut -d ab -f1', 'a\n'], ['cut -f 3-1', 'a\n'], ['cut -c1 -f1', 'a\n'],
];

/** bash's builtin printf: escapes, conversions, flags, reuse of the format, its messages. */
// prettier-ignore
const PRINTF = [
  "printf 'GET / HTTP/1.0\\r\\n\\r\\n' | tr '\\r' R; printf 'GET / HTTP/1.0\\r\\n\\r\\n' | wc -c",
  "printf '%d\\n' 99999999999999999999; echo rc=$?; printf '%b|\\x|\\u|\\U|\\n' 'a\\x|\\u'; echo rc=$?",
  "printf '%s-%d\\n' a 5 b 6 c",
  "printf '%5s|%-5s|%05d|%+d|% d|%x|%X|%#x|%#o|%o|%#X|%#o\\n' ab cd 42 7 7 255 255 255 8 8 0 0",
  "printf '%d\\n' abc 12abc 0x1F 010 \"'A\" -5 +3 ' 4' '5 ' 99999999999999999999 -99999999999999999999 ''; echo rc=$?",
  "printf '%i|%u|%x|%o\\n' -1 -1 -1 -1",
  "printf '%.3s|%10.4d|%-8.3x|%.0d|%5.0d|%-05d|%+05d|%.2c|\\n' abcdef 7 10 0 0 3 3 xyz",
  "printf '%b|' 'a\\tb\\0101\\x41\\101' '\\e\\E\\q' 'x\\cy' z; echo rc=$?",
  "printf 'no args\\n' extra more",
  "printf 'a\\101\\x42\\u00e9\\U0001F600\\q\\\"\\?\\'\\''|\\0101|\\8|\\x|\\n'",
  "printf '%c%c|%5c|%-3c|\\n' hello world a b",
  "printf '%*d|%-*d|%.*d|%*d|\\n' 5 1 4 2 3 7 -4 9",
  "printf '%s %s\\n' 1 2 3; printf '%%|%5%|\\n'",
  "printf -- '%s\\n' x; printf; echo rc=$?",
  "printf -x; echo rc=$?",
  "printf '%z\\n' 1; echo rc=$?",
  "printf 'a%'; echo rc=$?",
  "printf 'a%5'; echo rc=$?",
  "printf 'ok %y then\\n' 1; echo rc=$?",
  "printf '%ld %hd %lld %jd %zd %td %Lx\\n' 1 2 3 4 5 6 255",
  "printf 'x\\c y\\n'; echo",
  "printf '%s|%d|%b|%c|\\n'; printf '%d %d\\n' 1; printf '%s\\n'",
  "printf \"%'d|%'5d|\\n\" 1234567 12; echo rc=$?",
  "printf '%.s|%.d|%#.0o|%#.0x|%-+5d|%+-5d|% +d|%0-5d|\\n' abc 0 0 0 3 3 3 3",
  "printf '%b\\n' '\\0' '\\00101' '\\1010' '\\x4142' '\\u4e2d' | wc -c",
];

describe.skipIf(!installed('bash'))('the lab shell, as bash', () => {
  it.each(SHELL)('%s', (line) => compare(line));
  it.each(PRINTF)('%s', (line) => compare(line));
});

/**
 * Lines whose answer differs between `bash -c` and a terminal's interactive bash, run the
 * second way (`-i`; its two job-control lines, said before anything runs, left out): a bad
 * `break N` ends a non-interactive shell with status 128, and only abandons the line in an
 * interactive one (status 1).
 */
// prettier-ignore
const INTERACTIVE = [
  'for i in 1 2; do echo $i; break x; done; echo rc=$?',
];

describe.skipIf(!installed('bash'))('the lab shell, as an interactive bash', () => {
  it.each(INTERACTIVE)('%s', (line) => {
    const real = spawnSync('bash', ['--norc', '--noprofile', '+m', '-i', '-c', line], {
      encoding: 'utf8',
      env: { ...ENV, PATH },
      timeout: 5000,
    });
    const jobControl = /^bash: cannot set terminal process group \(\d+\): Inappropriate ioctl for device\nbash: no job control in this shell\n/; // prettier-ignore
    const mine = lab(line, '');
    expect({ stdout: mine.stdout, stderr: mine.stderr, status: mine.exitCode }).toEqual({
      stdout: real.stdout,
      stderr: real.stderr.replace(jobControl, ''),
      status: real.status,
    });
  });
});

const RULES =
  ':KUBE-SEP-A - [0:0]\n-A KUBE-SEP-A -s 10.244.0.4/32 -j KUBE-MARK-MASQ\n-A KUBE-SEP-A -p tcp -m tcp -j DNAT --to-destination 10.244.0.4:8080\n-A KUBE-SVC-X -j KUBE-SEP-A\n';
const TABLE = 'NAME READY AGE\nweb-1 1/1 10\nweb-2 0/1 9\ndns 1/1 100\n';
/** awk programs as mawk 1.3.4 runs them: patterns, BEGIN/END, variables, numbers, printf. */
// prettier-ignore
const AWK: [string, string?][] = [
  ["awk '/KUBE-SEP/ {print $2}'", RULES], ["awk '!/^:/'", RULES], ["awk '/DNAT/ {print $NF}'", RULES],
  ["awk '$1 == \"-A\" && $2 ~ /^KUBE-SVC/ { print $4 }'", RULES], ["awk '$3 !~ /^-s$/ {print NR\": \"$3}'", RULES],
  ["awk 'NR > 1'", TABLE], ["awk 'NR > 1 && $3 > 50'", TABLE], ["awk '$3 > 50'", TABLE],
  ["awk '$3 > \"50\"'", TABLE], ["awk 'NR > 1 {s += $3; n++} END {print s, n, s/n}'", TABLE],
  ["awk '{ if ($2 == \"1/1\") print $1; else print \"not ready:\", $1 }'", TABLE],
  ["awk 'NR == 1 {next} {print $1}'", TABLE], ["awk 'BEGIN {OFS=\",\"} {print $1, $2}'", TABLE],
  ["awk -v n=2 'NR == n'", TABLE], ["awk -v x 'NR == 1'", TABLE],
  ["awk 'BEGIN {FS=\"/\"} {print $1}'", TABLE], ["awk -F/ 'NF > 1 {print $2 + 0}'", TABLE],
  ["awk 'END {print NR, $0}'", TABLE], ["awk 'BEGIN {print \"only\"}'", TABLE],
  ["awk '{print length, length($1), length()}'", TABLE], ["awk '{print $1 \"-\" $3 * 2, -$3, !$3, $3 % 7, $3 ^ 2}'", TABLE],
  ["awk '{x = x $1} END {print x}'", TABLE], ["awk '{print NR % 2 ? \"odd\" : \"even\", $1}'", TABLE],
  ["awk '{n = $3; n++; ++n; n--; print n, n += 10, n -= 1, n *= 2, n /= 4, n %= 3}'", TABLE],
  ["awk 'BEGIN {print 2^31-1, 2^31, -2^31, 1e6, 0.1+0.2, 1/3, 123456.5, 1e-5, 100000000000000000000, 1/0, -1/0}'"],
  ["awk 'BEGIN {print 2^3^2, -2^2, 2^-1, 7/2, -7%3, 1e300*1e300, \"3x\"+1, \"0x1A\"+0, \" 12 \"+0, \".5e1\"*1}'"],
  ["awk 'BEGIN {printf \"%d|%5.1f|%-6.2e|%g|%G|%c|%c|%s|%x|%o|%5s|%-3d|%%\\n\", 3.9, 3.14159, 12345.678, 0.0001, 1e-5, 65, \"hi\", 1/3, 255, 8, \"ab\", 7}'"],
  ["awk 'BEGIN {printf \"%.2f %.0f %.0f %.3g %g %g %e %.1f\\n\", 0.125, 2.5, 3.5, 2.0005, 100000, 1000000, 0, -0.05}'"],
  ["awk '{printf \"%s has %d\\n\", $1, $3}'", TABLE], ["awk '{printf \"%-8s|%4s|\\n\", $1, $2}'", TABLE],
  ["awk 'BEGIN {x; print (x == 0), (x == \"\"), length(x), x + 1, x \"|\"}'"],
  ["awk '{print ($1 < $2), ($3 < 9), ($3 < \"9\"), ($1 == \"web-1\")}'", TABLE],
  ["awk '/[[:digit:]]\\/[[:digit:]]/ {print $1} $1 ~ /^[[:lower:]]+-[0-9]$/ {print \"m\", $1} $1 ~ \"dns\" {print \"s\"}'", TABLE],
  ["awk '# a comment\n/web/ {\n  c++\n}\nEND { print c }'", TABLE], ["awk '{ print $1 }; END { print \"done\" }'", TABLE],
  ["awk '{print $(NF-1), $(1+1)}'", TABLE], ["awk '{print $(-1)}'", TABLE], ["awk 'NR == 2 {print $(NF-5)}'", TABLE],
  ["awk '{print FILENAME \"|\" RS \"|\" CONVFMT \"|\" SUBSEP \"|\" RSTART \"|\" RLENGTH \"|\" FNR \"|\" OFMT}'", 'a\n'],
  ["awk 'BEGIN {print \"[\" FILENAME \"]\", NR, FNR} END {print FILENAME, NR, FNR}'", TABLE], ["awk 'length($1) > 4'", TABLE], ["awk 'NF'", 'a\n\n b\n'],
];

const LINES = 'a\nb\nc\nd\n';
/** sed scripts as GNU sed 4.9 runs them: addresses, ranges, s///, y, p, d, q, =, errors. */
// prettier-ignore
const SED: [string, string?][] = [
  ["sed -n '/KUBE-SEP/p'", RULES], ["sed '/^:/d'", RULES], ["sed -n '2,3p'", RULES], ["sed -n '$p'", RULES],
  ["sed 's/ -j .*//'", RULES], ["sed -E 's/-j ([A-Z-]+).*/→ \\1/'", RULES], ["sed 's/\\(KUBE-[A-Z]*\\)-\\([A-Z]*\\)/\\2.\\1/'", RULES],
  ["sed -n 's/.*--to-destination //p'", RULES], ["sed 's|/32||; s/KUBE/K/g'", RULES], ["sed -e 's/a/1/' -e 's/b/2/g'", 'abab\n'],
  ["sed 's/a/b/2'", 'aaa\n'], ["sed 's/a/b/2g'", 'aaaa\n'], ["sed 's/x*/-/g'", 'abc\n'], ["sed 's/b/[&]/; s/c/\\&/'", 'abc\n'],
  ["sed 's/B/x/I; s/ /\\n/'", 'aBc d\n'], ["sed 'y/abc/xyz/'", 'aabbcc\n'], ["sed -n '$='", LINES], ["sed '='", 'x\ny\n'],
  ["sed '2q'", LINES], ["sed '2Q'", LINES], ["sed -n '2!p'", LINES], ["sed '2,3!d'", LINES], ["sed -n '/b/,/c/p'", LINES],
  ["sed -n '/b/,$p'", LINES], ["sed -n '3,1p'", LINES], ["sed -n '/a/,2p; /c/,/nomatch/p'", LINES], ["sed '2,3{s/^/>/; p}'", LINES],
  ["sed -n '/[[:digit:]]\\+/p; /^[[:upper:]]/p'", 'x1\nY\nz\n'], ["sed 's/a+b?/X/; s/(c)/[\\1]/'", 'a+b?(c)\n'],
  ["sed -E 's/a+b?/X/; s/(c)/[\\1]/'", 'aab(c)\n'], ["sed 's/^*//; s/a\\{2\\}/Y/'", '*aaa\n'], ["sed -E 's/a{2}/Y/'", 'aaa\n'],
  ["sed 's/x$y/Z/; s/^^/C/'", '^x$y\n'], ["sed 's/[]a]/-/g; s/[^-]/+/'", 'a]b\n'], ["sed -n '/a\\|c/p'", LINES],
  ["sed 's,a,\\,,'", 'a\n'], ["sed '1d;$d'", LINES], ["sed 'p'", 'a\nb'], ["sed -n '$p'", 'a\nb'], ["sed 's/b/B/'", 'a\nb'],
  ["sed # comment only", 'a\n'], ["sed -n 'p # print'", 'a\n'], ["sed '/b/s//B/'", LINES], ["sed 's//x/'", LINES],
  ["sed 's/a/b'", 'a\n'], ["sed 'k'", 'a\n'], ["sed 's/a/b/z'", 'a\n'], ["sed 'p x'", 'a\n'], ["sed '0p'", 'a\n'],
  ["sed 'y/ab/x/'", 'a\n'], ["sed '1,2q'", 'a\n'], ["sed '{p'", 'a\n'], ["sed 'p}'", 'a\n'], ["sed -e 's/a/b/' -e 'k'", 'a\n'],
  ["sed", 'a\n'], ["sed p nofile", 'a\n'], ["sed -n", 'a\n'], ["sed -e", 'a\n'],
  ["sed -n '/b/{p;q}'", LINES], ["sed '$!d'", LINES], ["sed -n '2{p;p}'", LINES], ["sed 's/[[:space:]]\\+/ /g'", 'a  \t b\n'],
  ["sed -E 's/^(-A )?KUBE/X/'", RULES], ["sed 's/\\//|/g; s#|32##'", RULES], ["sed -n '/^-A KUBE-SEP/s/.*--to-destination \\([0-9.:]*\\).*/\\1/p'", RULES],
  ["sed -n -e '/DNAT/=' -e '$='", RULES], ["sed '2,$s/^/  /'", LINES], ["sed -n '/c/,1p'", LINES],
];

describe.skipIf(!installed('sed'))('sed, as GNU sed', () => {
  it.each(SED)('%s', (line, input) => compare(line, input ?? ''));
});

describe.skipIf(!installed('awk'))('awk, as mawk', () => {
  it.each(AWK)('%s', (line, input) => compare(line, input ?? ''));
});

describe.skipIf(!installed('seq') || !installed('sort'))(
  'seq, sort, uniq and cut, as coreutils',
  () => {
    it.each(TOOLS)('%s', (line, input) => compare(line, input ?? ''));
  },
);

// while, until and if in the lab shell, and where the lab differs from a terminal: a loop
// that would run until Ctrl-C is stopped after MAX_ROUNDS rounds or MAX_MINUTES of virtual
// time. The bash semantics themselves are compared with the real bash in
// tests/kernel/text-tools.test.ts.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../scenario';
import { runScript } from '../sim/run-script';
import { World } from '../sim/world';
import { parseCommandLine } from './shell';
import { MAX_MINUTES, MAX_ROUNDS } from './shell-compound';
import { MAX_ARITH_DEPTH } from './shell-arith';
import { MAX_NESTING } from './shell-types';

interface Out {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

function run(...lines: string[]): Out[] {
  return runOn('pod/client', ...lines);
}

function runOn(host: string, ...lines: string[]): Out[] {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const out: Out[] = [];
  runScript(world, lines.map((l) => `${host}$ ${l}`).join('\n'), {
    readFile: () => undefined,
    onOutput: (_l, r) => out.push(r),
  });
  return out;
}

describe('compound commands', () => {
  it('parses while, until and if as commands of a pipeline, with their redirections', () => {
    const r = parseCommandLine('while true; do echo; done | cat; if a; then b; elif c; then d; else e; fi >/dev/null'); // prettier-ignore
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [loop, cond] = r.list.items.map((i) => i.pipeline.commands[0]);
    expect(loop?.kind).toBe('while');
    expect(cond?.kind === 'if' && [cond.branches.length, cond.otherwise !== undefined, cond.redirections.length]).toEqual([2, true, 1]); // prettier-ignore
    expect(parseCommandLine('until x; do y; done').ok).toBe(true);
  });

  it('counts answers until a condition holds, as a learner retries a Service', () => {
    const [out] = run(
      'n=0; until [ $n -ge 5 ]; do curl -s http://10.96.1.1/ | cut -d" " -f1; n=$((n+1)); done | wc -l',
    );
    expect(out).toEqual({ stdout: '5\n', stderr: '', exitCode: 0 });
  });

  it('stops a loop that never ends after MAX_ROUNDS rounds, as Ctrl-C would, and says so', () => {
    const [out, next] = run('while true; do echo x; done | wc -l; echo not-run', 'echo $?');
    expect(out?.stdout).toBe(`${MAX_ROUNDS}\n`);
    expect(out?.stderr).toMatch(
      new RegExp(`^lab: the loop was still running after ${MAX_ROUNDS} rounds and 0 s of virtual time, so the lab stopped it as Ctrl-C would \\(exit status 130`), // prettier-ignore
    );
    expect(out?.exitCode).toBe(130);
    expect(next?.stdout).toBe('130\n');
  });

  it('stops a loop that sleeps after MAX_MINUTES of virtual time', () => {
    const [out] = run('while :; do curl -s http://10.96.1.1/ >/dev/null; sleep 1; done');
    expect(out?.stdout).toBe('');
    expect(out?.stderr).toContain(`after ${MAX_MINUTES * 60} rounds and ${MAX_MINUTES * 60} s`);
  });

  it('stops an inner loop and the whole line with it; a redirection still applies', () => {
    const [out] = run('for i in 1 2; do while true; do echo y; done; echo after; done > /dev/null');
    expect(out?.stdout).toBe('');
    expect(out?.stderr).toMatch(/^lab: the loop was still running/);
    expect(out?.exitCode).toBe(130);
  });

  it('test -e and other file tests say the lab has no files to look at', () => {
    const [e, nt] = run('[ -e /etc/hosts ] && echo yes', 'test a -nt b');
    expect(e).toEqual({ stdout: '', stderr: 'lab: [ -e is not modelled in kube-proxy-lab\n', exitCode: 2 }); // prettier-ignore
    expect(nt?.stderr).toBe('lab: test -nt is not modelled in kube-proxy-lab\n');
  });

  it('says `[[` is not modelled rather than bash’s command not found', () => {
    const [out] = run('[[ 1 -eq 1 ]]');
    expect(out?.stderr).toMatch(/^lab shell: `\[\[` is not supported; it runs for, while and until loops and if/); // prettier-ignore
  });
});

// Sizes past what V8 passes as the arguments of one call: the shell once spread a loop's
// writes and a word's fields into push(...) and ended with "Maximum call stack size exceeded".
describe('large loops and expansions', () => {
  it('runs a for loop over 50,000 brace-expanded words, as bash 5.2 does', () => {
    const [loop, after] = run('for i in {1..50000}; do :; done; echo brace', 'echo after $?');
    expect(loop).toEqual({ stdout: 'brace\n', stderr: '', exitCode: 0 });
    expect(after?.stdout).toBe('after 0\n');
  });

  it('runs a for loop over the 50,000 words of $(seq 50000)', () => {
    const [loop] = run('for i in $(seq 50000); do :; done; echo $i');
    expect(loop).toEqual({ stdout: '50000\n', stderr: '', exitCode: 0 });
  });

  it('prints seq 300000 in full, and seq -w pads to the widest number', () => {
    const [count, wide] = run('seq 300000 | wc -l', 'seq -w 300000 | head -1');
    expect(count?.stdout).toBe('300000\n');
    expect(wide?.stdout).toBe('000001\n');
  });

  it('expands {1..200000} in full', () => {
    // `bash -c 'echo {1..200000} | wc -c'` prints 1288895 (bash 5.2.15); the lab used to leave
    // a sequence of more than 100,000 words as typed.
    const [echo] = run('echo {1..200000} | wc -c');
    expect(echo?.stdout).toBe('1288895\n');
  });

  it('refuses a brace expansion or a seq past the lab’s limits with a lab note and status 1', () => {
    const [brace, status, seq] = run('echo {0..1000000}; echo not-run', 'echo $?', 'seq 2 1000002');
    expect(brace).toEqual({
      stdout: '',
      stderr: 'lab shell: brace expansion here makes at most 1000000 words on a line; {0..1000000} would make more, so the line did not run\n', // prettier-ignore
      exitCode: 1,
    });
    expect(status?.stdout).toBe('1\n');
    // A sequence bash itself will not make stays as typed (braces.c mkseq: more than
    // INT_MAX - 2 elements, or an end past intmax_t); bash 5.2.15 prints both words unchanged.
    const [literal] = run('echo {1..99999999999} {1..99999999999999999999}');
    expect(literal?.stdout).toBe('{1..99999999999} {1..99999999999999999999}\n');
    expect(seq).toEqual({ stdout: '', stderr: 'lab: seq here prints at most 1000000 numbers; seq 2 1000002 would print more\n', exitCode: 1 }); // prettier-ignore
  });

  it('passes 200,000 operands after -- to grep, sed, sysctl and kubectl', () => {
    // Each tool's own message for a missing operand, for the last one (grep 3.8, sed 4.9,
    // procps sysctl 4.0, kubectl 1.31).
    const lines = runOn(
      'node-1',
      'echo x | grep -- x $(seq 200000) 2>&1 | tail -1',
      'echo x | sed -n -- p $(seq 200000) 2>&1 | tail -1',
      'sysctl -- $(seq 200000) 2>&1 | tail -1',
      'kubectl get pods -- $(seq 200000) 2>&1 | tail -1',
    );
    expect(lines.map((l) => l.stdout)).toEqual([
      'grep: 200000: No such file or directory\n',
      "sed: can't read 200000: No such file or directory\n",
      'sysctl: cannot stat /proc/sys/200000: No such file or directory\n',
      'Error from server (NotFound): pods "200000" not found\n',
    ]);
  });

  it('runs loops, if and $(…) nested MAX_NESTING deep, and refuses deeper with a lab note', () => {
    // bash 5.2.15 runs 1,000 nested for loops and fails to parse 2,000 (its parser's stack);
    // the lab's own limit is lower, and says so.
    const fors = (n: number) => `${'for i in 1; do '.repeat(n)}echo ok${'; done'.repeat(n)}`;
    const subs = (n: number) => `echo ${'$(echo '.repeat(n)}ok${')'.repeat(n)}; echo after`;
    const note = `lab shell: loops, if and $(…) nest at most ${MAX_NESTING} deep here; this line nests deeper, so the lab stopped it\n`; // prettier-ignore
    const [loops, deepLoops, status, sub, deepSub, mixed] = run(
      fors(MAX_NESTING),
      fors(3000),
      'echo $?',
      subs(MAX_NESTING),
      subs(3000),
      `if true; then ${fors(MAX_NESTING / 2)}; fi; echo ${'$(echo '.repeat(MAX_NESTING / 2)}x${')'.repeat(MAX_NESTING / 2)}`,
    );
    expect(loops).toEqual({ stdout: 'ok\n', stderr: '', exitCode: 0 });
    expect(deepLoops).toEqual({ stdout: '', stderr: note, exitCode: 1 });
    expect(status?.stdout).toBe('1\n');
    expect(sub).toEqual({ stdout: 'ok\nafter\n', stderr: '', exitCode: 0 });
    expect(deepSub).toEqual({ stdout: '', stderr: note, exitCode: 1 });
    expect(mixed).toEqual({ stdout: 'ok\nx\n', stderr: '', exitCode: 0 });
  });

  it('evaluates $((…)) nested MAX_ARITH_DEPTH deep, and refuses deeper with a lab note', () => {
    // bash 5.2.15 prints 1 for 20,000 nested parentheses; the lab's limit is lower, and says so.
    const parens = (n: number) => `echo $((${'('.repeat(n)}1${')'.repeat(n)})); echo next`;
    const note = `lab shell: ( ), unary operators and ** nest at most ${MAX_ARITH_DEPTH} deep in $((…)) here; this expression nests deeper\n`; // prettier-ignore
    const [ok, minus, deep, powers, status] = run(
      parens(MAX_ARITH_DEPTH),
      `echo $((${'- '.repeat(MAX_ARITH_DEPTH - 1)}1))`,
      parens(20000),
      `echo $((${'2**'.repeat(20000)}1))`,
      'echo $?',
    );
    expect(ok).toEqual({ stdout: '1\nnext\n', stderr: '', exitCode: 0 });
    expect(minus?.stdout).toBe('-1\n');
    expect(deep).toEqual({ stdout: '', stderr: note, exitCode: 1 });
    expect(powers).toEqual({ stdout: '', stderr: note, exitCode: 1 });
    expect(status?.stdout).toBe('1\n');
  });

  it('sets $? to 2 after a syntax error, as bash 5.2 does (report_syntax_error)', () => {
    // `echo ; ;` then `echo st=$?` in an interactive bash 5.2.15 prints st=2.
    const [error, status] = run('echo ; ;', 'echo st=$?');
    expect(error?.stderr).toBe("bash: syntax error near unexpected token `;'\n");
    expect(status?.stdout).toBe('st=2\n');
  });
});

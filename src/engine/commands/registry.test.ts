// Filter behaviour and messages are GNU grep 3.8 / coreutils 9.1's (Debian bookworm), checked
// with the real tools: e.g. `echo x | head -n abc` → "head: invalid number of lines: ‘abc’".
import { describe, expect, it } from 'vitest';
import { createRegistry, registerCommand } from './registry';
import { runCommandLine } from './shell-run';
import { registerGrep } from './grep';
import { registerTextFilters } from './text-filters';
import { cluster, testWorld } from '../../../tests/helpers/cluster-fixtures';

const registry = createRegistry();
registerTextFilters(registry);
registerGrep(registry);
registerCommand(registry, 'lines', () => ({
  stdout: 'mode: ""\nclusterCIDR: 10.244.0.0/16\nMODE two\nnodePortAddresses: null\n',
  stderr: '',
  exitCode: 0,
}));
registerCommand(registry, 'fail', () => ({ stdout: '', stderr: 'boom\n', exitCode: 3 }));
const world = testWorld(cluster(), { files: { 'a.txt': 'alpha\nbeta\n' } });
const run = (line: string) => runCommandLine(registry, { world }, line);

describe('runCommandLine', () => {
  it('reports unknown commands like bash', () => {
    expect(run('frobnicate --x')).toEqual({
      stdout: '',
      stderr: 'bash: frobnicate: command not found\n',
      exitCode: 127,
    });
  });

  it('reads head and tail from their files, with headers for several, as coreutils', () => {
    expect(run('head -n1 a.txt').stdout).toBe('alpha\n');
    expect(run('tail -n 1 a.txt nope.txt a.txt')).toEqual({
      stdout: '==> a.txt <==\nbeta\n\n==> a.txt <==\nbeta\n',
      stderr: "tail: cannot open 'nope.txt' for reading: No such file or directory\n",
      exitCode: 1,
    });
    expect(run('lines | tail -f').stderr).toBe('lab: tail -f is not modelled in kube-proxy-lab\n');
    // wc's width is the digits of the files' total size (coreutils 9.1; `wc a.txt` there).
    expect(run('wc a.txt').stdout).toBe(' 2  2 11 a.txt\n');
    expect(run('wc -l a.txt a.txt').stdout).toBe(' 2 a.txt\n 2 a.txt\n 4 total\n');
  });

  it('says a real grep option it does not model is not modelled, rather than invalid', () => {
    expect(run('lines | grep -P "\\d"')).toEqual({
      stdout: '',
      stderr: 'lab: grep -P is not modelled in kube-proxy-lab\n',
      exitCode: 2,
    });
  });

  it('says a real command it does not run is not modelled, rather than missing', () => {
    // tc (iproute2) and ps (procps) are on every Debian node; bash would run them.
    const tc = run('tc qdisc');
    expect(tc.exitCode).toBe(127);
    expect(tc.stderr).toMatch(/^lab: tc is not modelled in kube-proxy-lab; it runs iptables, /);
    // In a pipeline the note is on stderr, and the status is the last command's, as in bash.
    const ps = run('/usr/bin/ps aux | grep kube-proxy');
    expect(ps.stderr).toMatch(/^lab: ps is not modelled in kube-proxy-lab; /);
    expect(ps.exitCode).toBe(1);
  });

  it("gives the note for a Debian node's essential programs and bash's builtins too", () => {
    // coreutils (tac, sha256sum), diffutils (diff), apt, perl-base and bash's own history and
    // exit are on every node: "command not found" would be false.
    for (const line of [
      'tac x',
      'diff a b',
      'sha256sum f',
      'apt-get update',
      'perl -e 1',
      'history',
      'exit',
    ]) {
      const name = line.split(' ')[0]!;
      expect(run(line).stderr).toMatch(
        new RegExp(`^lab: ${name} is not modelled in kube-proxy-lab; `),
      );
    }
    // A name no node has stays bash's answer.
    expect(run('kubectll get pods').stderr).toBe('bash: kubectll: command not found\n');
  });

  it('pipes into grep, head, tail and wc', () => {
    expect(run('lines | grep mode').stdout).toBe('mode: ""\n');
    expect(run('lines | grep -i mode').stdout).toBe('mode: ""\nMODE two\n');
    expect(run('lines | grep -v mode | wc -l').stdout).toBe('3\n');
    expect(run('lines | head -n 2').stdout).toBe('mode: ""\nclusterCIDR: 10.244.0.0/16\n');
    expect(run('lines | head -1').stdout).toBe('mode: ""\n');
    expect(run('lines | tail -n 1').stdout).toBe('nodePortAddresses: null\n');
    expect(run('lines | tail -n +4').stdout).toBe('nodePortAddresses: null\n');
    expect(run('lines | grep -c o').stdout).toBe('3\n');
  });

  it('uses grep exit statuses: 0 match, 1 none, 2 error', () => {
    expect(run('lines | grep nothing-here')).toEqual({ stdout: '', stderr: '', exitCode: 1 });
    expect(run('lines | grep').exitCode).toBe(2);
    expect(run('lines | grep').stderr).toBe(
      "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
    );
    expect(run('grep x nope.txt')).toEqual({
      stdout: '',
      stderr: 'grep: nope.txt: No such file or directory\n',
      exitCode: 2,
    });
    expect(run('grep a a.txt').stdout).toBe('alpha\nbeta\n');
  });

  it('matches basic regular expressions like GNU grep', () => {
    registerCommand(registry, 'ips', () => ({
      stdout: 'dst=10.96.0.10\ndst=10x96x0x10\na+b\n',
      stderr: '',
      exitCode: 0,
    }));
    expect(run('ips | grep 10.96.0.10').stdout).toBe('dst=10.96.0.10\ndst=10x96x0x10\n');
    expect(run('ips | grep -F 10.96.0.10').stdout).toBe('dst=10.96.0.10\n');
    expect(run("ips | grep 'a+b'").stdout).toBe('a+b\n');
    expect(run("ips | grep -E 'a+b'").stdout).toBe('');
  });

  it('reports bad line counts like coreutils', () => {
    expect(run('lines | head -n abc')).toEqual({
      stdout: '',
      stderr: 'head: invalid number of lines: ‘abc’\n',
      exitCode: 1,
    });
  });

  it('runs ; && || lists with bash semantics', () => {
    expect(run('fail && echo no; echo yes')).toEqual({
      stdout: 'yes\n',
      stderr: 'boom\n',
      exitCode: 0,
    });
    expect(run('fail || echo recovered').stdout).toBe('recovered\n');
    expect(run('echo a && fail').exitCode).toBe(3);
  });

  it('honours 2>&1 and /dev/null redirections', () => {
    expect(run('fail 2>&1 | grep boom')).toEqual({ stdout: 'boom\n', stderr: '', exitCode: 0 });
    expect(run('fail 2>/dev/null')).toEqual({ stdout: '', stderr: '', exitCode: 3 });
    expect(run('echo hi > out.txt').exitCode).toBe(1);
  });

  it('returns bash syntax errors for malformed lines', () => {
    expect(run("echo 'x")).toEqual({
      stdout: '',
      stderr: "bash: unexpected EOF while looking for matching `''\n",
      exitCode: 2,
    });
  });
});

// Expected results follow bash(1) "QUOTING" and bash 5.2's own messages (checked with
// `bash -c` on Debian bookworm: unterminated quotes and stray operators exit 2).
import { describe, expect, it } from 'vitest';
import { parseCommandLine, tokenize, wordText } from './shell';

const words = (line: string): string[][] => {
  const r = tokenize(line);
  if (!r.ok) throw new Error(r.error);
  return r.stages;
};

describe('tokenize', () => {
  it('splits on blanks and keeps quoted text literal', () => {
    expect(words('kubectl  get svc\t-n kube-system')).toEqual([
      ['kubectl', 'get', 'svc', '-n', 'kube-system'],
    ]);
    expect(words(`echo 'a b' "c d" e\\ f`)).toEqual([['echo', 'a b', 'c d', 'e f']]);
    expect(words(`echo 'it'"'"'s'`)).toEqual([['echo', "it's"]]);
    expect(words(`echo '' ""`)).toEqual([['echo', '', '']]);
  });

  it('handles backslashes as bash does inside and outside double quotes', () => {
    expect(words('echo "a\\"b" "c\\d" "e\\\\f" "\\$HOME"')).toEqual([
      ['echo', 'a"b', 'c\\d', 'e\\f', '$HOME'],
    ]);
    expect(words("echo 'a\\b'")).toEqual([['echo', 'a\\b']]);
    expect(words('echo a\\')).toEqual([['echo', 'a']]);
  });

  it('splits pipelines and keeps | inside quotes', () => {
    expect(words('conntrack -L | grep 10.96.0.10 | wc -l')).toEqual([
      ['conntrack', '-L'],
      ['grep', '10.96.0.10'],
      ['wc', '-l'],
    ]);
    expect(words(`grep 'a|b'`)).toEqual([['grep', 'a|b']]);
  });

  it('treats # at the start of a word as a comment', () => {
    expect(words('iptables -L # list')).toEqual([['iptables', '-L']]);
    expect(words('echo a#b')).toEqual([['echo', 'a#b']]);
  });

  it('reports unterminated quotes like bash', () => {
    expect(tokenize(`echo 'abc`)).toEqual({
      ok: false,
      error: "bash: unexpected EOF while looking for matching `''\n",
    });
    expect(tokenize('echo "abc')).toEqual({
      ok: false,
      error: 'bash: unexpected EOF while looking for matching `"\'\n',
    });
  });

  it('reports misplaced operators like bash', () => {
    expect(parseCommandLine('| grep x')).toEqual({
      ok: false,
      error: "bash: syntax error near unexpected token `|'\n",
      exitCode: 2,
    });
    expect(parseCommandLine('echo a |')).toEqual({
      ok: false,
      error: 'bash: syntax error: unexpected end of file\n',
      exitCode: 2,
    });
    expect(parseCommandLine('; ls')).toEqual({
      ok: false,
      error: "bash: syntax error near unexpected token `;'\n",
      exitCode: 2,
    });
  });

  it('parses ;, && and || lists and redirections', () => {
    const r = parseCommandLine('a && b || c; d 2>&1 >/dev/null');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(
      r.list.items.map((i) => {
        const c = i.pipeline.commands[0];
        return [i.connector, c?.kind === undefined || c.kind === 'simple' ? c?.argv[0] : c.kind];
      }),
    ).toEqual([
      [undefined, 'a'],
      ['&&', 'b'],
      ['||', 'c'],
      [';', 'd'],
    ]);
    expect(r.list.items[3]?.pipeline.commands[0]?.redirections).toEqual([
      { fd: 2, target: '&1', append: false },
      { fd: 1, target: '/dev/null', append: false },
    ]);
  });

  it('parses a for loop as a command of a pipeline, its body a list', () => {
    const r = parseCommandLine('for i in $(seq 3) "a b"; do curl -s x/$i; echo; done | sort');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [loop, sort] = r.list.items[0]!.pipeline.commands;
    expect(loop?.kind).toBe('for');
    if (loop?.kind !== 'for') return;
    expect([loop.name, loop.words?.map(wordText)]).toEqual(['i', ['$(seq 3)', 'a b']]);
    expect(loop.body.items.map((i) => i.connector)).toEqual([undefined, ';']);
    expect(sort).toEqual({ argv: ['sort'], redirections: [] });
    // Reserved words count only unquoted where a command starts.
    expect(words("echo for do done; 'for' x")).toEqual([
      ['echo', 'for', 'do', 'done'],
      ['for', 'x'],
    ]);
    expect(words('echo {1..3} x{1..2} "{1..2}"')).toEqual([
      ['echo', '1', '2', '3', 'x1', 'x2', '{1..2}'],
    ]);
  });

  it('reports what the lab shell does not run, and bash syntax errors, as bash words them', () => {
    expect(parseCommandLine('case x in esac')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^lab shell: `case` is not supported/),
    });
    // Process substitution, not a redirection from a file named `(echo`.
    expect(parseCommandLine('sort <(echo a)')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^lab shell: `<\(…\)` is not supported/),
    });
    expect(parseCommandLine('for i in a b; do echo $i done')).toMatchObject({
      error: 'bash: syntax error: unexpected end of file\n',
    });
    expect(words("echo '$((1))'")).toEqual([['echo', '$((1))']]);
    expect(parseCommandLine('for i in a; do done')).toMatchObject({
      error: "bash: syntax error near unexpected token `done'\n",
    });
  });

  it('returns an empty list for blank lines and comments', () => {
    expect(words('')).toEqual([]);
    expect(words('   # nothing')).toEqual([]);
  });
});

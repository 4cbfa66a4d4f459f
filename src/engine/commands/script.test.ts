import { describe, expect, it } from 'vitest';
import { parseScript, resolveTarget } from './script';
import { twoNodeCluster, pod, cluster } from '../../../tests/helpers/cluster-fixtures';

describe('parseScript', () => {
  it('parses TARGET$ COMMAND lines and skips comments and blank lines', () => {
    const text = [
      '# warm up',
      '',
      'node-1$ iptables -t nat -L',
      '  pod/web-1$   curl web',
      'pod/kube-system/dns$ ip route',
      'laptop$ curl 192.168.1.10:30080',
    ].join('\n');
    const r = parseScript(text);
    expect(r.diagnostics).toEqual([]);
    expect(r.lines.map((l) => [l.line, l.target, l.command, l.commandCol])).toEqual([
      [3, { kind: 'host', name: 'node-1' }, 'iptables -t nat -L', 9],
      [4, { kind: 'pod', namespace: 'default', name: 'web-1' }, 'curl web', 16],
      [5, { kind: 'pod', namespace: 'kube-system', name: 'dns' }, 'ip route', 22],
      [6, { kind: 'host', name: 'laptop' }, 'curl 192.168.1.10:30080', 9],
    ]);
  });

  it('reports lines without "$ " with their line number', () => {
    const r = parseScript('node-1$ ls\niptables -L\nnode-1$\n');
    expect(r.lines).toHaveLength(1);
    expect(r.diagnostics.map((d) => [d.line, d.col, d.message])).toEqual([
      [2, 1, 'expected "TARGET$ COMMAND" (e.g. "node-1$ iptables-save")'],
      [3, 8, 'empty command after "node-1$"'],
    ]);
  });

  it('rejects malformed targets', () => {
    const r = parseScript('pod/a/b/c$ ls\nNode_1$ ls');
    expect(r.diagnostics.map((d) => d.line)).toEqual([1, 2]);
  });
});

describe('parseScript: here-documents', () => {
  it('takes the lines up to the delimiter as the body, not as TARGET$ lines', () => {
    // A body line that looks like a script line (`node-2$ …`) and a `#` line are body too.
    const text = 'node-1$ cat <<EOF | grep x\r\n# x\r\nnode-2$ x\r\nEOF\r\nnode-2$ ip route\r\n';
    const r = parseScript(text);
    expect(r.diagnostics).toEqual([]);
    expect(r.lines.map((l) => [l.line, l.targetText, l.command])).toEqual([
      [1, 'node-1', 'cat <<EOF | grep x\n# x\nnode-2$ x\nEOF'],
      [5, 'node-2', 'ip route'],
    ]);
  });

  it('reads several bodies in order and strips tabs for <<-', () => {
    const r = parseScript('node-1$ cat <<A; cat <<-B\none\nA\n\ttwo\n\tB\nnode-1$ ls\n');
    expect(r.lines.map((l) => l.line)).toEqual([1, 6]);
    expect(r.lines[0]!.command).toBe('cat <<A; cat <<-B\none\nA\n\ttwo\n\tB');
  });

  it('reports an unterminated here-document at its <<, with line and column', () => {
    // Column 30: two blanks, `node-1$ ` (8) and `kubectl apply -f - ` (19) come before the `<<`.
    const r = parseScript('node-1$ ls\n  node-1$ kubectl apply -f - <<EOF\nkind: Service\n');
    expect(r.lines.map((l) => l.line)).toEqual([1]);
    expect(r.diagnostics.map((d) => [d.line, d.col, d.message])).toEqual([
      [
        2,
        30,
        'here-document has no line "EOF" to end it before the end of the script (bash: delimited by end-of-file)',
      ],
    ]);
  });
});

describe('resolveTarget', () => {
  const c = cluster({ ...twoNodeCluster(), pods: [pod('web-1', 'node-1', '10.244.0.2')] });
  it('finds nodes, pods and external clients', () => {
    expect(resolveTarget(c, { kind: 'host', name: 'node-2' })).toEqual({
      kind: 'node',
      name: 'node-2',
    });
    expect(resolveTarget(c, { kind: 'host', name: 'laptop' })).toEqual({
      kind: 'external',
      name: 'laptop',
    });
    expect(resolveTarget(c, { kind: 'pod', namespace: 'default', name: 'web-1' })).toEqual({
      kind: 'pod',
      namespace: 'default',
      name: 'web-1',
    });
    expect(resolveTarget(c, { kind: 'pod', namespace: 'default', name: 'nope' })).toBe(
      'pods "nope" not found in namespace "default"',
    );
    expect(resolveTarget(c, { kind: 'host', name: 'node-9' })).toBe(
      'no node or external client named "node-9"',
    );
  });
});

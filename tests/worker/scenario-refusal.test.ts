/**
 * An empty scenario, one of comments only, or one without a Node is refused and the running
 * cluster stays, as for a document with errors. It used to be applied: every node, pod and
 * rule vanished and the terminal had no host left. A real API server never deletes what an
 * apply leaves out, and `kubectl apply -f` of an empty file answers "error: no objects passed
 * to apply" (kubectl's apply.go) without changing anything.
 */
import { describe, expect, it } from 'vitest';
import { LabSession } from '../../src/worker/lab-session';

const SERVICE_ONLY = `apiVersion: v1
kind: Service
metadata:
  name: lonely
spec:
  ports:
  - port: 80
`;

describe('a scenario with nothing to run', () => {
  const cases = [
    ['empty', '', 'noObjects'],
    ['whitespace', '\n  \n', 'noObjects'],
    ['comments and markers only', '# my notes\n---\n# more\n...\n', 'noObjects'],
    ['a Service but no Node', SERVICE_ONLY, 'noNodes'],
  ] as const;

  for (const [what, text, refused] of cases) {
    it(`is refused (${what}) and the last good cluster keeps running`, () => {
      const lab = new LabSession();
      const rules = lab.views('node-1').rules;
      const answer = lab.apply(text);
      expect(answer.accepted).toBe(false);
      expect(answer.refused).toBe(refused);
      expect(answer.ruleDiffs).toEqual([]);
      expect(answer.diagnostics[0]).toMatchObject({ severity: 'error', line: 1, col: 1 });
      expect(answer.topology.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2']);
      expect(lab.views('node-1').rules).toBe(rules);
      expect(lab.run('node-1', 'iptables -t nat -S KUBE-SERVICES | head -1').stdout).toBe(
        '-N KUBE-SERVICES\n',
      );
      // Loading it (a preset, a link) is refused the same way; the editor marks it too.
      expect(lab.load(text)).toMatchObject({ accepted: false, refused });
      expect(lab.validate(text)[0]).toMatchObject({ severity: 'error', line: 1, col: 1 });
      expect(lab.topology().nodes).toHaveLength(2);
    });
  }

  it('is not what a scenario with errors gets: its errors come first, no refusal', () => {
    const lab = new LabSession();
    const answer = lab.apply('apiVersion: v1\nkind: Service\nmetadata:\n  name: Bad_\n');
    expect(answer.accepted).toBe(false);
    expect(answer.refused).toBeUndefined();
    expect(answer.diagnostics.some((d) => d.message.includes('Bad_'))).toBe(true);
  });
});

/**
 * Documents the lab refuses although they have no errors: nothing but comments, or no Node.
 * Applying one would leave a cluster with no host to send from or run a command on; a real API
 * server never deletes the objects an apply leaves out either (`kubectl apply -f` of an empty
 * file says "error: no objects passed to apply" and changes nothing). So the last good
 * cluster keeps running, as for a document with errors.
 */
import type { LabDiagnostic, ScenarioRefusal } from '../protocol/lab';

/** A line that is more than a comment, a blank or a document marker (`---`, `...`). */
function holdsYaml(line: string): boolean {
  const t = line.trim();
  return t !== '' && !t.startsWith('#') && t !== '---' && t !== '...';
}

/** Why the lab refuses this scenario (undefined: it does not), from its text and node count. */
export function refusalOf(text: string, nodeCount: number): ScenarioRefusal | undefined {
  if (!text.split('\n').some(holdsYaml)) return 'noObjects';
  if (nodeCount === 0) return 'noNodes';
  return undefined;
}

/** The refusal as the editor's problem list shows it (English, as the engine's messages). */
export function refusalDiagnostic(refusal: ScenarioRefusal): LabDiagnostic {
  const message =
    refusal === 'noObjects'
      ? 'no objects passed to apply: the scenario is empty; the last good cluster keeps running'
      : 'no Node in the scenario: kube-proxy has no node to run on; the last good cluster keeps running';
  return { severity: 'error', message, line: 1, col: 1 };
}

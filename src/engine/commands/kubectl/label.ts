/**
 * `kubectl label pod NAME KEY=VALUE… KEY-… [--overwrite]`, as kubectl v1.32 does it
 * (pkg/cmd/label/label.go): resources first, then label changes (a word with `=`, or ending in
 * `-`); a value is checked before anything is sent; a key that has another value needs
 * --overwrite; removing a key the pod lacks says `label "k" not found.`. It prints
 * `pod/NAME labeled`, `unlabeled` (the object got shorter, without --overwrite) or
 * `not labeled`. The control plane answers (scenario/workloads.ts relabelPod): a pod that
 * leaves its ReplicaSet's selector is released and replaced, and leaves the Services whose
 * selector it no longer matches.
 */
import { labNote } from '../../model/lab-notes';
import { labelValue } from '../../scenario/validate-common';
import type { CommandContext, CommandResult } from '../registry';
import { notFound, targets } from './workloads';

const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });

/** cmdutil.GetResourcesAndPairs: is this argument a label change? */
const isPair = (a: string) => (a.includes('=') && !a.startsWith('=')) || (a.endsWith('-') && a !== '-'); // prettier-ignore

export function runLabel(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  overwrite: boolean,
): CommandResult {
  const first = args.findIndex(isPair);
  const resources = first < 0 ? [...args] : args.slice(0, first);
  const specs = first < 0 ? [] : args.slice(first);
  const late = specs.find((a) => !isPair(a));
  if (late !== undefined) return fail(`error: all resources must be specified before label changes: ${late}\n`); // prettier-ignore
  if (specs.length === 0) return fail('error: at least one label update is required\n');
  // parseLabels(), in its order.
  const set = new Map<string, string>();
  const remove: string[] = [];
  for (const spec of specs) {
    if (spec.includes('=')) {
      const parts = spec.split('=');
      if (parts.length !== 2) return fail(`error: invalid label spec: ${spec}\n`);
      const errs = labelValue(parts[1]!);
      if (errs.length > 0) return fail(`error: invalid label value: ${JSON.stringify(spec)}: ${errs.join(';')}\n`); // prettier-ignore
      set.set(parts[0]!, parts[1]!);
    } else remove.push(spec.slice(0, -1));
  }
  if (remove.some((k) => set.has(k)))
    return fail('error: can not both modify and remove a label in the same command\n');
  const found = targets(resources);
  if ('exitCode' in found) return found;
  let stdout = '';
  let stderr = '';
  for (const { type, name } of found) {
    if (type.kind !== 'Pod') return fail(labNote('kubectl.unmodelled', { what: `label ${type.resource}` })); // prettier-ignore
    const pod = ctx.world.cluster.pods.find((p) => p.meta.namespace === namespace && p.meta.name === name); // prettier-ignore
    if (pod === undefined) {
      stderr += notFound(type, name);
      continue;
    }
    const old = pod.meta.labels;
    for (const k of remove) if (!(k in old)) stdout += `label ${JSON.stringify(k)} not found.\n`;
    const clash = overwrite ? [] : [...set].filter(([k, v]) => k in old && old[k] !== v);
    if (clash.length > 0) {
      const errs = clash.map(([k]) => `'${k}' already has a value (${old[k]}), and --overwrite is false`); // prettier-ignore
      stderr += `error: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}\n`;
      continue;
    }
    const labels: Record<string, string> = { ...old };
    for (const [k, v] of set) labels[k] = v;
    for (const k of remove) delete labels[k];
    // updateDataChangeMsg compares the object's JSON before and after.
    const before = JSON.stringify(old);
    const after = JSON.stringify(labels);
    const changed = Object.keys(labels).length !== Object.keys(old).length || Object.entries(labels).some(([k, v]) => old[k] !== v); // prettier-ignore
    if (changed) ctx.world.workloads().labelPod(namespace, name, labels);
    const word = !changed ? 'not labeled' : !overwrite && after.length < before.length ? 'unlabeled' : 'labeled'; // prettier-ignore
    stdout += `pod/${name} ${word}\n`;
  }
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

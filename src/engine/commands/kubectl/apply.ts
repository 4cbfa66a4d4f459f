/**
 * `kubectl apply -f FILE|DIR|- [-R]`: reads the manifests (files, the .json/.yaml/.yml files of
 * a directory, or stdin for `-f -`: ./filenames.ts), hands them to the world, and reports each
 * object as kubectl does: `service/web created`, `deployment.apps/web configured`,
 * `endpointslice.discovery.k8s.io/x unchanged`. Errors are printed as the world
 * words them, after the successes, and make the exit status 1.
 */
import type { CommandContext, CommandResult } from '../registry';
import { kindPrefix, RESOURCE_TYPES } from './resources';
import { readManifestSources } from './filenames';

function groupOf(kind: string, apiVersion: string | undefined): string {
  const known = RESOURCE_TYPES.find((r) => r.kind === kind);
  if (known !== undefined) return known.group;
  return apiVersion !== undefined && apiVersion.includes('/')
    ? (apiVersion.split('/')[0] ?? '')
    : '';
}

export function runApply(
  ctx: CommandContext,
  filenames: readonly string[],
  recursive: boolean,
  args: readonly string[] = [],
): CommandResult {
  // apply.go:246 ToOptions (before Validate), as cmdutil.UsageErrorf words it.
  if (args.length > 0)
    return { stdout: '', stderr: `error: Unexpected args: [${args.join(' ')}]\nSee 'kubectl apply -h' for help and examples\n`, exitCode: 1 }; // prettier-ignore
  if (filenames.length === 0)
    return { stdout: '', stderr: 'error: must specify one of -f and -k\n', exitCode: 1 };
  // The builder reads every path first: one that is missing applies nothing (apply.go Run).
  const sources = readManifestSources(ctx, filenames, recursive);
  if ('exitCode' in sources) return sources;
  let stdout = '';
  let stderr = '';
  let objects = 0;
  for (const { text } of sources) {
    const result = ctx.world.applyManifests(text);
    objects += result.applied.length + result.errors.length + (result.ignored ?? 0);
    for (const a of result.applied)
      stdout += `${kindPrefix(a.kind, groupOf(a.kind, a.apiVersion))}/${a.name} ${a.action}\n`;
    stderr += apiErrorsText(result.errors);
  }
  // apply.go: files that hold no object at all (empty, only `---` or comments).
  if (objects === 0) return { stdout, stderr: 'error: no objects passed to apply\n', exitCode: 1 };
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

const INVALID = /^(The \S+ "[^"]*" is invalid: )(.*)$/s;

/**
 * The API server's refusals as kubectl prints them (cmd/util/helpers.go checkErr): an
 * object's field errors after one `The Service "web" is invalid: ` (MultilineError: one error
 * on that line; several each on a `* ` line below it, the prefix line ending in its space).
 */
export function apiErrorsText(errors: readonly string[]): string {
  let out = '';
  for (let i = 0; i < errors.length;) {
    const line = errors[i]!.replace(/\n$/, '');
    const m = INVALID.exec(line);
    let j = i + 1;
    while (m !== null && j < errors.length && errors[j]!.startsWith(m[1]!)) j++;
    if (m === null || j === i + 1) out += `${line}\n`;
    else {
      out += `${m[1]}\n`;
      for (const e of errors.slice(i, j)) out += `* ${e.replace(/\n$/, '').slice(m[1]!.length)}\n`;
    }
    i = j;
  }
  return out;
}

/**
 * `kubectl delete pod|service|deployment NAME…` and `kubectl delete -f FILE|DIR|- [-R]`, with
 * kubectl v1.32's output (pkg/cmd/delete/delete.go at kubernetes-1.32.4): `service "web"
 * deleted` a line as each object goes, the API server's refusals after them
 * (`Error from server (NotFound): …`, `error when deleting "FILE": …` for an object read from a
 * file: cmd/util/helpers.go AddSourceToErr) and exit status 1; `--ignore-not-found` drops the
 * NotFound ones. The control plane's reaction (kube-proxy's resync, Terminating pods) is the
 * world's, the same whichever way the object was named.
 *
 * `kubectl delete` waits by default (--wait=true) until the object is gone — for a pod, its
 * grace period — so the lab's clock moves on as kubectl would block; `--wait=false` returns
 * at once and leaves the pod Terminating.
 */
import type { CommandContext, CommandResult } from '../registry';
import { labNote } from '../../model/lab-notes';
import { LAB_CLOCK_END_UNIX_SECONDS } from '../../model/runtime';
import { manifestIdentities } from '../../scenario';
import { builderErrorsText, readManifestSources } from './filenames';
import { RESOURCE_TYPES, type ResourceType } from './resources';
import { fail, notFound, notModelled, targets } from './workloads';

const INT64_MAX = 2n ** 63n - 1n;

/** The flags of `kubectl delete` the lab models. */
export interface DeleteFlags {
  readonly wait: boolean;
  /** --grace-period as given (-1, kubectl's default, when absent). */
  readonly gracePeriod: string | undefined;
  readonly now: boolean;
  readonly force: boolean;
  readonly ignoreNotFound: boolean;
  /** -f values, comma lists already split (./filenames.ts filenameValues). */
  readonly filenames: readonly string[];
  readonly recursive: boolean;
  /** -n was given: an object read from a file must then be in that namespace. */
  readonly namespaceGiven: boolean;
}

/**
 * The grace period kubectl sends (pkg/cmd/delete/delete.go Complete and Validate): --now is 1;
 * --grace-period=0 without --force is 1 ("to prevent accidental data loss"); --force alone is
 * 0; -1 leaves the pod's own (30 s). The warning for a forced deletion goes to stderr first.
 */
function gracePeriod(flags: DeleteFlags): { seconds: number; warning: string } | CommandResult {
  const given = flags.gracePeriod;
  if (given !== undefined && !/^[+-]?\d+$/.test(given))
    return fail(`error: invalid argument "${given}" for "--grace-period" flag: strconv.ParseInt: parsing "${given}": invalid syntax\nSee 'kubectl delete --help' for usage.\n`); // prettier-ignore
  // An int flag (pflag's int64 on 64-bit kubectl): ParseInt's range error.
  if (given !== undefined && (BigInt(given) > INT64_MAX || BigInt(given) < -INT64_MAX - 1n))
    return fail(`error: invalid argument "${given}" for "--grace-period" flag: strconv.ParseInt: parsing "${given}": value out of range\nSee 'kubectl delete --help' for usage.\n`); // prettier-ignore
  let seconds = given === undefined ? -1 : Number(given);
  if (flags.now) {
    if (seconds !== -1) return fail('error: --now and --grace-period cannot be specified together\n'); // prettier-ignore
    seconds = 1;
  }
  if (seconds === 0 && !flags.force) seconds = 1;
  if (flags.force && seconds < 0) seconds = 0;
  if (flags.force && seconds > 0)
    return fail('error: --force and --grace-period greater than 0 cannot be specified together\n'); // prettier-ignore
  const warning =
    seconds === 0
      ? 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n'
      : '';
  return { seconds, warning };
}

/** One object to delete; `source` is the file it was read from (kubectl's info.Source). */
interface Target {
  readonly type: ResourceType;
  readonly name: string;
  readonly namespace: string;
  readonly source?: string;
}

/** An object's deletion: the line printed, or the server's NotFound; the pod's grace in ms. */
type Outcome = { deleted: string; waitMs: number } | { notFound: string };

function deleteTarget(ctx: CommandContext, t: Target, graceSeconds: number): Outcome {
  // PrintObj(): "force deleted" whenever the grace period sent is 0.
  const operation = graceSeconds === 0 ? 'force deleted' : 'deleted';
  const workloads = ctx.world.workloads();
  let waitMs = 0;
  let gone: boolean;
  // Deployments: background propagation, gone at once (their pods terminate after); Services
  // have no finalizers; a pod is gone after its grace period.
  if (t.type.kind === 'Deployment') gone = workloads.deleteDeployment(t.namespace, t.name);
  else if (t.type.kind === 'Service') gone = workloads.deleteService(t.namespace, t.name);
  else {
    const goneIn = workloads.deletePod(t.namespace, t.name, graceSeconds < 0 ? undefined : graceSeconds); // prettier-ignore
    gone = goneIn !== undefined;
    waitMs = goneIn ?? 0;
  }
  const kindString = t.type.group === '' ? t.type.kind.toLowerCase() : `${t.type.kind.toLowerCase()}.${t.type.group}`; // prettier-ignore
  if (gone) return { deleted: `${kindString} "${t.name}" ${operation}\n`, waitMs };
  const message = notFound(t.type, t.name);
  if (t.source === undefined) return { notFound: message };
  const prefix = 'Error from server (NotFound): ';
  return { notFound: `${prefix}error when deleting "${t.source}": ${message.slice(prefix.length)}` }; // prettier-ignore
}

/** What kubectl's visitor meets, in order: an object to delete, or an error it collects. */
type Step = Target | { readonly error: string };

const MODELLED_KINDS = ['Deployment', 'Service', 'Pod'];

/**
 * The objects `-f` names, in the order kubectl visits them, with the errors of the ones it
 * cannot delete (undecodable documents, another namespace than -n's) and the lab's notes.
 */
function fileTargets(
  ctx: CommandContext,
  namespace: string,
  flags: DeleteFlags,
): { steps: Step[]; notes: string } | CommandResult {
  const sources = readManifestSources(ctx, flags.filenames, flags.recursive);
  if ('exitCode' in sources) return sources;
  const steps: Step[] = [];
  let notes = '';
  for (const { source, text } of sources) {
    for (const item of manifestIdentities(text, source)) {
      if ('error' in item) {
        steps.push(item);
        continue;
      }
      const o = item.object;
      const type = RESOURCE_TYPES.find((r) => r.kind === o.kind);
      if (type === undefined || !MODELLED_KINDS.includes(type.kind)) {
        notes += labNote('kubectl.delete-kind', { kind: o.kind, name: o.name });
        continue;
      }
      // visitor.go RequireNamespace (enforceNamespace: -n given).
      if (flags.namespaceGiven && o.namespace !== undefined && o.namespace !== namespace) {
        steps.push({ error: `the namespace from the provided object "${o.namespace}" does not match the namespace "${namespace}". You must pass '--namespace=${o.namespace}' to perform this operation.` }); // prettier-ignore
        continue;
      }
      steps.push({ type, name: o.name, namespace: o.namespace ?? namespace, source });
    }
  }
  return { steps, notes };
}

export function runDelete(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  flags: DeleteFlags,
): CommandResult {
  const grace = gracePeriod(flags);
  if ('exitCode' in grace) return grace;
  const { world } = ctx;
  if (world.epochSeconds + world.nowSeconds() + grace.seconds > LAB_CLOCK_END_UNIX_SECONDS)
    return fail(labNote('kubectl.grace-clock-end', { seconds: grace.seconds }));
  let steps: Step[];
  let notes = '';
  if (flags.filenames.length > 0) {
    const fromFiles = fileTargets(ctx, namespace, flags);
    if ('exitCode' in fromFiles) return fromFiles;
    // builder.go:1123 visitByPaths (TYPE/NAME words alone are left aside there).
    if (args.some((a) => !a.includes('/')))
      return fail('error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well\n'); // prettier-ignore
    ({ steps, notes } = fromFiles);
  } else {
    const named = targets(args);
    if ('exitCode' in named) return named;
    const unmodelled = named.find((t) => !MODELLED_KINDS.includes(t.type.kind));
    if (unmodelled !== undefined) return notModelled(`delete ${unmodelled.type.resource}`);
    steps = named.map((t) => ({ ...t, namespace }));
  }
  let stdout = '';
  let waitMs = 0;
  // ContinueOnError: every error is collected in order and printed at the end.
  const errors: { text: string; server: boolean }[] = [];
  for (const step of steps) {
    if ('error' in step) {
      errors.push({ text: step.error, server: false });
      continue;
    }
    const outcome = deleteTarget(ctx, step, grace.seconds);
    if ('deleted' in outcome) {
      stdout += outcome.deleted;
      waitMs = Math.max(waitMs, outcome.waitMs);
    } else if (!flags.ignoreNotFound)
      errors.push({ text: outcome.notFound.replace(/\n$/, ''), server: true });
  }
  // DeleteResult: nothing visited at all (an empty file) is not an error.
  if (steps.length === 0 && notes === '') stdout += 'No resources found\n';
  // --wait: kubectl watches until every deleted object is gone from the API (a forced
  // deletion: at once, and the lab runs what that sets off now).
  if (flags.wait && (waitMs > 0 || grace.seconds === 0)) ctx.world.advanceClock(waitMs);
  const stderr = notes + (errors.length === 0 ? '' : builderErrorsText(errors));
  // A kind the lab could not delete fails the command too, as `delete TYPE NAME` does here.
  const failed = errors.length > 0 || notes !== '';
  const warning = grace.warning;
  if (warning === '') return { stdout, stderr, exitCode: failed ? 1 : 0 };
  return {
    stdout,
    stderr: warning + stderr,
    exitCode: failed ? 1 : 0,
    writes: [{ fd: 2, text: warning }, { fd: 1, text: stdout }, ...(stderr === '' ? [] : [{ fd: 2 as const, text: stderr }])], // prettier-ignore
  };
}

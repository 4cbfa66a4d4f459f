/**
 * kubectl's workload writes: `scale`, `rollout restart|status` (`delete` is ./delete.ts;
 * `rollout history|undo` ./rollout-history.ts), with
 * kubectl v1.32's output (`deployment.apps/web scaled`, `deployment.apps/web restarted`) and
 * errors. The control plane's reaction (Terminating pods, replacements, the new ReplicaSet) is
 * the world's (sim/control-plane.ts).
 */
import { MAX_REPLICAS } from '../../scenario';
import type { CommandContext, CommandResult } from '../registry';
import { parseResourceArgs } from './get';
import { deploymentPods } from './objects-workloads';
import type { ResourceType } from './resources';
import { labNote } from '../../model/lab-notes';
import { rolloutHistory, rolloutUndo, type RolloutFlags } from './rollout-history';

export const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });

export const NO_RESOURCES =
  "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n";
export const NO_NAME = 'error: resource(s) were provided, but no name was specified\n';

export const notFound = (type: ResourceType, name: string): string =>
  `Error from server (NotFound): ${type.group === '' ? type.resource : `${type.resource}.${type.group}`} "${name}" not found\n`;

export const notModelled = (what: string): CommandResult =>
  fail(labNote('kubectl.unmodelled', { what }));

/** Resolves `TYPE NAME…` or `TYPE/NAME…` into (type, name) pairs. */
export function targets(
  args: readonly string[],
): { type: ResourceType; name: string }[] | CommandResult {
  if (args.length === 0) return fail(NO_RESOURCES);
  const requests = parseResourceArgs(args);
  if ('exitCode' in requests) return requests;
  const out = requests.flatMap((r) => r.names.map((name) => ({ type: r.type, name })));
  if (out.length === 0) return fail(NO_NAME);
  return out;
}

/** `kubectl scale deployment/NAME --replicas=N` (also `deployment NAME`). */
export function runScale(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  replicasFlag: string | undefined,
): CommandResult {
  if (replicasFlag === undefined) return fail('error: required flag(s) "replicas" not set\n');
  if (!/^[+-]?\d+$/.test(replicasFlag))
    return fail(
      `error: invalid argument "${replicasFlag}" for "--replicas" flag: strconv.ParseInt: parsing "${replicasFlag}": invalid syntax\nSee 'kubectl scale --help' for usage.\n`,
    );
  const replicas = Number(replicasFlag);
  if (replicas < 0)
    return fail(
      'error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n',
    );
  const found = targets(args);
  if ('exitCode' in found) return found;
  let stdout = '';
  let stderr = '';
  for (const { type, name } of found) {
    if (type.kind !== 'Deployment') return notModelled(`scale ${type.resource}`);
    // The lab's own cap (every replica is a simulated pod), worded as the API server words
    // a rejected scale subresource.
    if (replicas > MAX_REPLICAS) {
      stderr += `The Scale "${name}" is invalid: spec.replicas: Invalid value: ${replicas}: the lab runs at most ${MAX_REPLICAS} replicas per Deployment\n`;
      continue;
    }
    if (ctx.world.workloads().scaleDeployment(namespace, name, replicas))
      stdout += `deployment.apps/${name} scaled\n`;
    else stderr += notFound(type, name);
  }
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

const ROLLOUT_HELP = `Manage the rollout of one or many resources.

 Valid resource types include:

  *  deployments
  *  daemonsets
  *  statefulsets

Examples:
  # Rollback to the previous deployment
  kubectl rollout undo deployment/abc

  # Check the rollout status of a daemonset
  kubectl rollout status daemonset/foo

  # Restart a deployment
  kubectl rollout restart deployment/abc

  # Restart deployments with the 'app=nginx' label
  kubectl rollout restart deployment --selector=app=nginx

Available Commands:
  history       View rollout history
  pause         Mark the provided resource as paused
  restart       Restart a resource
  resume        Resume a paused resource
  status        Show the status of the rollout
  undo          Undo a previous rollout

Usage:
  kubectl rollout SUBCOMMAND [options]

Use "kubectl rollout <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`;

/** `kubectl rollout restart|status|history|undo deployment/NAME`. */
export function runRollout(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  flags: RolloutFlags = {},
): CommandResult {
  const [sub, ...rest] = args;
  if (sub === undefined) return { stdout: ROLLOUT_HELP, stderr: '', exitCode: 0 };
  if (sub === 'history') return rolloutHistory(ctx, namespace, rest, flags);
  if (sub === 'undo') return rolloutUndo(ctx, namespace, rest, flags);
  // The lab's Deployments have no spec.paused (its controller would have to hold rollouts).
  if (['pause', 'resume'].includes(sub)) return notModelled(`rollout ${sub}`);
  if (sub === 'status') return rolloutStatus(ctx, namespace, rest);
  if (sub !== 'restart') return fail(`error: unknown command "${sub}" for "kubectl rollout"\n`);
  const found = targets(rest);
  if ('exitCode' in found) return found;
  let stdout = '';
  let stderr = '';
  for (const { type, name } of found) {
    if (type.kind !== 'Deployment') return notModelled(`rollout restart ${type.resource}`);
    if (ctx.world.workloads().restartDeployment(namespace, name))
      stdout += `deployment.apps/${name} restarted\n`;
    else stderr += notFound(type, name);
  }
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

/**
 * `kubectl rollout status deployment/NAME`: kubectl's DeploymentStatusViewer on the
 * Deployment's status (as `kubectl get deployment -o yaml` shows it). The lab's rollouts
 * replace every pod at once and its new pods are ready at once, so a rollout is always
 * finished by the time the command runs; one that is not (pods never ready) would have kubectl
 * watch for ever, which the lab says instead of hanging.
 */
function rolloutStatus(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
): CommandResult {
  const found = targets(args);
  if ('exitCode' in found) return found;
  const { type, name } = found[0]!;
  if (type.kind !== 'Deployment') return notModelled(`rollout status ${type.resource}`);
  const lookup = (n: string) =>
    ctx.world.cluster.deployments.find((x) => x.meta.namespace === namespace && x.meta.name === n);
  // The builder fetches every object first (NotFound), then kubectl wants exactly one.
  const missing = found.filter((f) => lookup(f.name) === undefined);
  if (missing.length > 0) return fail(missing.map((f) => notFound(type, f.name)).join(''));
  if (found.length > 1)
    return fail(`error: rollout status is only supported on individual resources and resource collections, but ${found.length} resources were found\n`); // prettier-ignore
  const d = lookup(name)!;
  const pods = deploymentPods(ctx.world, d).filter((p) => !p.terminating);
  const available = pods.filter((p) => p.ready).length;
  let waiting: string | undefined;
  if (pods.length < d.replicas)
    waiting = `${pods.length} out of ${d.replicas} new replicas have been updated...`;
  else if (available < pods.length)
    waiting = `${available} of ${pods.length} updated replicas are available...`;
  if (waiting === undefined)
    return { stdout: `deployment "${name}" successfully rolled out\n`, stderr: '', exitCode: 0 };
  return {
    stdout: `Waiting for deployment "${name}" rollout to finish: ${waiting}\n`,
    stderr: labNote('kubectl.unmodelled', { what: 'rollout status (waiting for a rollout that cannot progress)' }), // prettier-ignore
    exitCode: 1,
  };
}

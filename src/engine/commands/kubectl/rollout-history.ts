/**
 * `kubectl rollout history` and `kubectl rollout undo` for Deployments, as kubectl v1.32 runs
 * them (pkg/cmd/rollout/rollout_history.go, rollout_undo.go; pkg/polymorphichelpers/history.go
 * DeploymentHistoryViewer, rollback.go DeploymentRollbacker). Both print through a
 * NamePrinter whose "operation" is the text: `deployment.apps/NAME <operation>\n`. Errors are
 * collected per object (the builder's ContinueOnError) and printed after the output.
 */
import type { Deployment, PodTemplate } from '../../model/cluster';
import {
  CHANGE_CAUSE_ANNOTATION,
  replicaSetRevisions,
  type ReplicaSetRevision,
} from '../../model/deployment-revisions';
import { labNote } from '../../model/lab-notes';
import type { CommandContext, CommandResult } from '../registry';
import { goParseInt64 } from './go-strconv';
import { describePodTemplate } from './pod-template';
import type { ResourceType } from './resources';
import { DESCRIBE_TABWRITER, tabwrite } from './tabwriter';
import { parseResourceArgs } from './get';
import { fail, notFound } from './workloads';

export interface RolloutFlags {
  readonly revision?: string | undefined;
  readonly toRevision?: string | undefined;
  readonly dryRun?: string | undefined;
}

/** A pflag Int64 flag's value, with pflag's error worded as the lab's other flags' (runScale). */
function int64Flag(value: string | undefined, flag: string, sub: string): bigint | CommandResult {
  if (value === undefined) return 0n;
  const parsed = goParseInt64(value);
  if (typeof parsed === 'bigint') return parsed;
  return fail(
    `error: invalid argument "${value}" for "--${flag}" flag: strconv.ParseInt: parsing "${value}": ${parsed}\nSee 'kubectl rollout ${sub} --help' for usage.\n`,
  );
}

interface Found {
  readonly deployments: { name: string; d: Deployment }[];
  readonly stderr: string;
}

/**
 * The builder's objects: NotFound for a missing one; then HistoryViewerFor/RollbackerFor,
 * which have nothing for kinds other than Deployment (DaemonSet and StatefulSet, which they
 * do have, are not lab resources).
 */
function resolve(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  what: 'history viewer' | 'rollbacker',
): Found | CommandResult {
  if (args.length === 0) return fail('error: required resource not specified\n');
  const requests = parseResourceArgs(args);
  if ('exitCode' in requests) return requests;
  // ResourceTypeOrNameArgs(true, …): a type without names means every object of it.
  const found = requests.flatMap(({ type, names }) =>
    (names.length > 0 ? names : namesOf(ctx, type, namespace)).map((name) => ({ type, name })),
  );
  const deployments: { name: string; d: Deployment }[] = [];
  let stderr = '';
  for (const { type, name } of found) {
    if (!exists(ctx, type, namespace, name)) stderr += notFound(type, name);
    else if (type.kind !== 'Deployment') {
      const kind = type.group === '' ? type.kind : `${type.kind}.${type.group}`;
      stderr += `error: no ${what} has been implemented for "${kind}"\n`;
    } else {
      const d = ctx.world.cluster.deployments.find(
        (x) => x.meta.namespace === namespace && x.meta.name === name,
      )!;
      deployments.push({ name, d });
    }
  }
  return { deployments, stderr };
}

/** The objects of a type in the namespace, in the API's list order (by name). */
function namesOf(ctx: CommandContext, type: ResourceType, namespace: string): string[] {
  return type
    .list(ctx.world.cluster)
    .filter((i) => !type.namespaced || i.namespace === namespace)
    .map((i) => i.name)
    .sort();
}

function exists(ctx: CommandContext, type: ResourceType, namespace: string, name: string) {
  return type
    .list(ctx.world.cluster)
    .some((i) => i.name === name && (!type.namespaced || i.namespace === namespace));
}

/**
 * The ReplicaSet's spec.template: with its pod-template-hash label, and as history.go's
 * ViewHistory shows it (`withCause`), the ReplicaSet's change-cause added to its annotations.
 */
function revisionTemplate(rs: ReplicaSetRevision, withCause: boolean): PodTemplate | undefined {
  if (rs.template === undefined) return undefined;
  const cause = withCause ? rs.annotations[CHANGE_CAUSE_ANNOTATION] : undefined;
  return {
    ...rs.template,
    labels: { ...rs.template.labels, 'pod-template-hash': rs.templateHash },
    annotations: {
      ...rs.template.annotations,
      ...(cause !== undefined && cause !== '' ? { [CHANGE_CAUSE_ANNOTATION]: cause } : {}),
    },
  };
}

const unknownTemplate = (name: string, revision: number) =>
  labNote('kubectl.revision-template', { name, revision: String(revision) });

/** `kubectl rollout history deployment/NAME [--revision=N]`. */
export function rolloutHistory(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  flags: RolloutFlags,
): CommandResult {
  const revision = int64Flag(flags.revision, 'revision', 'history');
  if (typeof revision !== 'bigint') return revision;
  if (args.length === 0) return fail('error: required resource not specified\n');
  if (revision < 0n) return fail(`error: revision must be a positive integer: ${revision}\n`);
  const found = resolve(ctx, namespace, args, 'history viewer');
  if ('exitCode' in found) return found;
  let stdout = '';
  let stderr = '';
  for (const { name, d } of found.deployments) {
    const all = replicaSetRevisions(d).sort((a, b) => a.revision - b.revision);
    if (revision === 0n) {
      // ViewHistory: a tabwriter(0, 8, 2) table, REVISION ascending; `<none>` for no cause.
      let table = 'REVISION\tCHANGE-CAUSE\n';
      for (const rs of all)
        table += `${rs.revision}\t${rs.annotations[CHANGE_CAUSE_ANNOTATION] || '<none>'}\n`;
      stdout += `deployment.apps/${name} \n${tabwrite(table, DESCRIBE_TABWRITER)}\n`;
      continue;
    }
    const rs = all.find((r) => BigInt(r.revision) === revision);
    if (rs === undefined) {
      stderr += 'error: unable to find the specified revision\n';
      continue;
    }
    const template = revisionTemplate(rs, true);
    if (template === undefined) stderr += unknownTemplate(name, rs.revision);
    // printTemplate: DescribePodTemplate into a plain buffer (no tabwriter).
    else
      stdout += `deployment.apps/${name} with revision #${revision}\n${describePodTemplate(template)}\n`;
  }
  stderr = found.stderr + stderr;
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

type DryRun = 'none' | 'client' | 'server';

/** cmdutil.GetDryRunStrategy for the values the lab takes (not the deprecated booleans). */
function dryRunStrategy(value: string | undefined): DryRun | CommandResult {
  if (value === undefined || value === 'none') return 'none';
  if (value === 'client' || value === 'server') return value;
  if (['true', 'false', 'unchanged'].includes(value))
    return fail(labNote('kubectl.unmodelled', { what: `rollout undo --dry-run=${value}` }));
  return fail(`error: Invalid dry-run value (${value}). Must be "none", "server", or "client".\n`);
}

/**
 * deploymentRevision: the ReplicaSet of `toRevision`, or for 0 the second-highest revision.
 * Returns the error text when there is none.
 */
function revisionToRestore(d: Deployment, toRevision: bigint): ReplicaSetRevision | string {
  const all = replicaSetRevisions(d).sort((a, b) => b.revision - a.revision);
  if (toRevision > 0n)
    return (
      all.find((r) => BigInt(r.revision) === toRevision) ??
      `error: unable to find specified revision ${toRevision} in history\n`
    );
  return all[1] ?? `error: no rollout history found for deployment "${d.meta.name}"\n`;
}

/** `kubectl rollout undo deployment/NAME [--to-revision=N] [--dry-run=client|server]`. */
export function rolloutUndo(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  flags: RolloutFlags,
): CommandResult {
  const toRevision = int64Flag(flags.toRevision, 'to-revision', 'undo');
  if (typeof toRevision !== 'bigint') return toRevision;
  const dryRun = dryRunStrategy(flags.dryRun);
  if (typeof dryRun !== 'string') return dryRun;
  const found = resolve(ctx, namespace, args, 'rollbacker');
  if ('exitCode' in found) return found;
  // PrintFlagsWithDryRunStrategy: the operation gets the dry run's suffix.
  const suffix = { none: '', client: ' (dry run)', server: ' (server dry run)' }[dryRun];
  let stdout = '';
  let stderr = '';
  for (const { name, d } of found.deployments) {
    if (toRevision < 0n) {
      stderr += `error: unable to find specified revision ${toRevision} in history\n`;
      continue;
    }
    const rs = revisionToRestore(d, toRevision);
    if (typeof rs === 'string') {
      stderr += rs;
      continue;
    }
    // Rollback's dry run prints rsForRevision.Spec.Template as it is.
    const template = revisionTemplate(rs, false);
    if (template === undefined) {
      stderr += unknownTemplate(name, rs.revision);
      continue;
    }
    let result: string;
    if (dryRun === 'client') result = describePodTemplate(template);
    // equalIgnoreHash: only the current ReplicaSet has the Deployment's template in the lab.
    else if (rs.current)
      result = `skipped rollback (current template already matches revision ${toRevision})`;
    else {
      if (dryRun === 'none') ctx.world.workloads().rollbackDeployment(namespace, name, rs.revision);
      result = 'rolled back';
    }
    stdout += `deployment.apps/${name} ${result}${suffix}\n`;
  }
  stderr = found.stderr + stderr;
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

/**
 * A Deployment's ReplicaSets with their revisions, as the deployment controller numbers them
 * (kubernetes pkg/controller/deployment/sync.go getNewReplicaSet, util/deployment_util.go
 * SetNewReplicaSetAnnotations): a new template's ReplicaSet gets the highest old revision + 1;
 * a rollback makes an old ReplicaSet current again, which then gets that number too and keeps
 * the one it had in deployment.kubernetes.io/revision-history.
 */
import type { Deployment, OldReplicaSet, PodTemplate } from './cluster';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

/**
 * Annotations the controller never copies from a Deployment to its ReplicaSets, nor a
 * rollback from a ReplicaSet back to its Deployment (deployment_util.go annotationsToSkip;
 * kubectl polymorphichelpers/rollback.go annotationsToSkip).
 */
export const ANNOTATIONS_TO_SKIP: ReadonlySet<string> = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deployment.kubernetes.io/error-selector-overlapping-with',
  'deployment.kubernetes.io/selector-updated-at',
  'deprecated.deployment.rollback.to',
]);

/** The Deployment's annotations a ReplicaSet copies (copyDeploymentAnnotationsToReplicaSet). */
export function copiedAnnotations(
  annotations: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(annotations).filter(([k]) => !ANNOTATIONS_TO_SKIP.has(k)),
  );
}

export interface ReplicaSetRevision {
  readonly templateHash: string;
  readonly createdAt: number;
  readonly revision: number;
  readonly revisionHistory: readonly number[];
  /** spec.template without pod-template-hash (undefined: the lab does not know it). */
  readonly template: PodTemplate | undefined;
  /** The annotations it carries besides the revision and replica counts. */
  readonly annotations: Readonly<Record<string, string>>;
  readonly current: boolean;
}

/** The old ReplicaSet's revision: recorded, or (rollouts only) counted from the oldest. */
function oldRevision(old: readonly OldReplicaSet[], i: number): number {
  return old[i]!.revision ?? old.length - i;
}

export function currentRevision(d: Deployment): number {
  return d.revision ?? (d.oldReplicaSets?.length ?? 0) + 1;
}

/** The current ReplicaSet first, then the old ones (newest first). */
export function replicaSetRevisions(d: Deployment): ReplicaSetRevision[] {
  const old = d.oldReplicaSets ?? [];
  return [
    {
      templateHash: d.templateHash,
      createdAt: d.replicaSetCreatedAt ?? d.meta.createdAt,
      revision: currentRevision(d),
      revisionHistory: d.revisionHistory ?? [],
      template: d.podTemplate,
      // The controller copies the Deployment's annotations onto its new ReplicaSet each sync.
      annotations: copiedAnnotations(d.meta.annotations),
      current: true,
    },
    ...old.map((r, i) => ({
      templateHash: r.templateHash,
      createdAt: r.createdAt,
      revision: oldRevision(old, i),
      revisionHistory: r.revisionHistory ?? [],
      template: r.template,
      annotations: r.annotations ?? {},
      current: false,
    })),
  ];
}

/** Revisions a Deployment keeps: spec.revisionHistoryLimit, which the lab leaves at 10. */
export const REVISION_HISTORY_LIMIT = 10;

/**
 * cleanupDeployment (sync.go): old ReplicaSets beyond the limit are deleted, lowest revision
 * first (ReplicaSetsByRevision). The lab's old ReplicaSets have no active pods left.
 */
export function trimOldReplicaSets(old: readonly OldReplicaSet[]): OldReplicaSet[] {
  if (old.length <= REVISION_HISTORY_LIMIT) return [...old];
  const revisionOf = (r: OldReplicaSet) => r.revision ?? old.length - old.indexOf(r);
  const keep = new Set(
    [...old].sort((a, b) => revisionOf(b) - revisionOf(a)).slice(0, REVISION_HISTORY_LIMIT),
  );
  return old.filter((r) => keep.has(r));
}

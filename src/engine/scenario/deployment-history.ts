/**
 * What the deployment controller keeps of a Deployment's earlier templates: each old
 * ReplicaSet with its revision, its template and the annotations it copied from the Deployment
 * (kubernetes pkg/controller/deployment/sync.go, util/deployment_util.go). `kubectl rollout
 * history` reads them; `kubectl rollout undo` writes one of those templates back.
 */
import type { OldReplicaSet, PodTemplate } from '../model/cluster';
import {
  ANNOTATIONS_TO_SKIP,
  copiedAnnotations,
  trimOldReplicaSets,
} from '../model/deployment-revisions';
import type { DeploymentDraft } from './drafts';
import { NO_LOC } from './report';

/** The Deployment's spec.template, as the ReplicaSet controller stamps pods from it. */
export function templateOf(d: DeploymentDraft): PodTemplate {
  return {
    labels: d.templateLabels,
    annotations: d.templateAnnotations,
    ...(d.template.nodeName !== undefined ? { nodeName: d.template.nodeName } : {}),
    hostNetwork: d.template.hostNetwork,
    containers: d.template.containers,
  };
}

const revisionOf = (d: DeploymentDraft): number =>
  d.revision ?? (d.oldReplicaSets?.length ?? 0) + 1;

/** The current ReplicaSet as it is once a new template has replaced it (scaled to 0). */
function demoted(d: DeploymentDraft): OldReplicaSet {
  return {
    templateHash: d.templateHash,
    createdAt: d.replicaSetCreatedAt ?? d.createdAt ?? 0,
    revision: revisionOf(d),
    ...(d.revisionHistory !== undefined ? { revisionHistory: d.revisionHistory } : {}),
    template: templateOf(d),
    annotations: copiedAnnotations(d.meta.annotations),
  };
}

/** The old ReplicaSets with their revisions written down (legacy entries were counted). */
function numbered(old: readonly OldReplicaSet[]): OldReplicaSet[] {
  return old.map((r, i) => (r.revision !== undefined ? r : { ...r, revision: old.length - i }));
}

/**
 * A new template (`rollout restart`): the current ReplicaSet joins the old ones and the new
 * one gets the highest old revision + 1 (getNewReplicaSet: MaxRevision(oldRSs) + 1).
 */
export function withNewTemplate(
  d: DeploymentDraft,
  template: Pick<DeploymentDraft, 'templateAnnotations' | 'templateHash'>,
  nowSeconds: number,
): DeploymentDraft {
  const old = trimOldReplicaSets([
    demoted(d),
    ...numbered(d.oldReplicaSets ?? []).filter((r) => r.templateHash !== template.templateHash),
  ]);
  const { revisionHistory: _, ...rest } = d;
  return {
    ...rest,
    ...template,
    replicaSetCreatedAt: nowSeconds,
    oldReplicaSets: old,
    revision: Math.max(0, ...old.map((r) => r.revision ?? 0)) + 1,
  };
}

/**
 * `kubectl rollout undo` (kubectl polymorphichelpers/rollback.go) and what the controller makes
 * of it: the Deployment's template becomes the old ReplicaSet's, its annotations the
 * ReplicaSet's (keeping its own of annotationsToSkip); the controller finds that ReplicaSet
 * as the new one (same template: FindNewReplicaSet), so no ReplicaSet is created: the old one
 * scales up again and takes the next revision, recording the one it had in
 * deployment.kubernetes.io/revision-history (SetNewReplicaSetAnnotations). Undefined when the
 * revision is not an old ReplicaSet whose template the lab knows.
 */
export function rolledBack(d: DeploymentDraft, revision: number): DeploymentDraft | undefined {
  const old = numbered(d.oldReplicaSets ?? []);
  const target = old.find((r) => r.revision === revision);
  if (target?.template === undefined) return undefined;
  const rest = trimOldReplicaSets([demoted(d), ...old.filter((r) => r !== target)]);
  const kept = Object.entries(d.meta.annotations).filter(([k]) => ANNOTATIONS_TO_SKIP.has(k));
  const t = target.template;
  return {
    ...d,
    meta: { ...d.meta, annotations: { ...Object.fromEntries(kept), ...target.annotations } },
    templateLabels: t.labels,
    templateAnnotations: t.annotations,
    template: {
      ...(t.nodeName !== undefined ? { nodeName: t.nodeName } : {}),
      nodeNameLoc: NO_LOC,
      hostNetwork: t.hostNetwork,
      containers: t.containers,
    },
    templateHash: target.templateHash,
    replicaSetCreatedAt: target.createdAt,
    oldReplicaSets: rest,
    revision: Math.max(0, ...rest.map((r) => r.revision ?? 0)) + 1,
    revisionHistory: [...(target.revisionHistory ?? []), revision],
  };
}

/**
 * Revisions of a Deployment's ReplicaSets through new templates and rollbacks, as the
 * deployment controller numbers them: kubernetes pkg/controller/deployment/sync.go
 * getNewReplicaSet (new revision = MaxRevision(oldRSs) + 1), util/deployment_util.go
 * SetNewReplicaSetAnnotations (a ReplicaSet made new again keeps its old number in
 * deployment.kubernetes.io/revision-history), cleanupDeployment (revisionHistoryLimit 10,
 * lowest revision first); kubectl polymorphichelpers/rollback.go (the Deployment takes the
 * ReplicaSet's template and annotations, keeping its own annotationsToSkip).
 */
import { describe, expect, it } from 'vitest';
import { replicaSetRevisions } from '../model/deployment-revisions';
import type { Deployment } from '../model/cluster';
import { rolledBack, withNewTemplate } from './deployment-history';
import type { DeploymentDraft } from './drafts';
import { NO_LOC } from './report';

const base: DeploymentDraft = {
  meta: {
    name: 'web',
    namespace: 'default',
    labels: {},
    annotations: {
      'kubernetes.io/change-cause': 'first',
      'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Deployment"}',
    },
    loc: NO_LOC,
    nameLoc: NO_LOC,
  },
  replicas: 2,
  selector: { app: 'web' },
  templateLabels: { app: 'web' },
  templateAnnotations: {},
  template: { nodeNameLoc: NO_LOC, hostNetwork: false, containers: [] },
  templateHash: 'h1',
  createdAt: 100,
};

const restart = (d: DeploymentDraft, hash: string, at: number, cause?: string) => {
  const next = withNewTemplate(
    d,
    { templateAnnotations: { restartedAt: String(at) }, templateHash: hash },
    at,
  );
  if (cause === undefined) return next;
  const annotations = { ...next.meta.annotations, 'kubernetes.io/change-cause': cause };
  return { ...next, meta: { ...next.meta, annotations } };
};

/** The revisions as `kubectl rollout history` lists them (ascending), with their hashes. */
function history(d: DeploymentDraft) {
  const asModel = { ...d, meta: { ...d.meta, uid: '', createdAt: 100 } } as unknown as Deployment;
  return replicaSetRevisions({
    ...asModel,
    podTemplate: { labels: d.templateLabels, annotations: d.templateAnnotations, hostNetwork: false, containers: [] }, // prettier-ignore
  })
    .map((r) => [r.revision, r.templateHash, r.annotations['kubernetes.io/change-cause'] ?? ''])
    .sort((a, b) => Number(a[0]) - Number(b[0]));
}

describe('Deployment revisions', () => {
  it('a new template takes the next revision; the old ReplicaSet keeps its template and cause', () => {
    const d = restart(base, 'h2', 200, 'second');
    expect(d.revision).toBe(2);
    expect(history(d)).toEqual([
      [1, 'h1', 'first'],
      [2, 'h2', 'second'],
    ]);
    expect(d.oldReplicaSets![0]).toMatchObject({
      templateHash: 'h1',
      createdAt: 100,
      revision: 1,
      template: { labels: { app: 'web' }, annotations: {} },
      // copyDeploymentAnnotationsToReplicaSet skips last-applied-configuration.
      annotations: { 'kubernetes.io/change-cause': 'first' },
    });
  });

  it('a rollback makes the old ReplicaSet current with the next revision; its old one goes', () => {
    const three = restart(restart(base, 'h2', 200, 'second'), 'h3', 300, 'third');
    const back = rolledBack(three, 1)!;
    expect(back.templateHash).toBe('h1');
    expect(back.templateAnnotations).toEqual({});
    // The ReplicaSet is not new: it keeps its creation time.
    expect(back.replicaSetCreatedAt).toBe(100);
    expect(back.revision).toBe(4);
    expect(back.revisionHistory).toEqual([1]);
    expect(history(back)).toEqual([
      [2, 'h2', 'second'],
      [3, 'h3', 'third'],
      [4, 'h1', 'first'],
    ]);
    // The Deployment's annotations: its own last-applied-configuration, the rest the RS's.
    expect(back.meta.annotations).toEqual({
      'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Deployment"}',
      'kubernetes.io/change-cause': 'first',
    });
    // Rolling back again to 2, then to 4's ReplicaSet once more: its history grows.
    const again = rolledBack(rolledBack(back, 2)!, 4)!;
    expect(again.revision).toBe(6);
    expect(again.revisionHistory).toEqual([1, 4]);
    expect(history(again).map((r) => r[0])).toEqual([3, 5, 6]);
  });

  it('no rollback to a revision that is not an old ReplicaSet', () => {
    const d = restart(base, 'h2', 200);
    expect(rolledBack(d, 2)).toBeUndefined();
    expect(rolledBack(d, 7)).toBeUndefined();
  });

  it('keeps revisionHistoryLimit (10) old ReplicaSets, dropping the lowest revisions', () => {
    let d = base;
    for (let i = 2; i <= 13; i++) d = restart(d, `h${i}`, i * 100);
    expect(d.revision).toBe(13);
    expect(history(d).map((r) => r[0])).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });
});

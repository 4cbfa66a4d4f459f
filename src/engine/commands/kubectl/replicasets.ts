/**
 * ReplicaSets: the current one of each Deployment (`<deployment>-<pod-template-hash>`) and the
 * old ones a rollout scaled to 0, named as the
 * deployment controller names it. Table: printReplicaSet (NAME DESIRED CURRENT READY AGE; wide:
 * CONTAINERS IMAGES SELECTOR); object: what the deployment controller writes (revision
 * annotations, the pod-template-hash label and selector, the owner reference).
 */
import type { Cluster, Deployment } from '../../model/cluster';
import {
  replicaSetRevisions,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  type ReplicaSetRevision,
} from '../../model/deployment-revisions';
import { humanDuration } from './duration';
import { formatLabels } from './format';
import type { ApiContext } from './objects';
import { metadata, uidFor } from './objects';
import { deploymentObject, deploymentPods } from './objects-workloads';
import type { Item, ResourceType } from './resources';
import type { Json } from './yaml';

const HASH = 'pod-template-hash';

/** The active pods of the Deployment's ReplicaSet whose template hash `d` carries. */
function activePods(ctx: Pick<ApiContext, 'cluster'>, d: Deployment) {
  return deploymentPods(ctx, d).filter(
    (p) => !p.terminating && p.meta.labels[HASH] === d.templateHash,
  );
}

/**
 * The Deployment as one of its ReplicaSets sees it: the current one, or an old one (rolled
 * out of, scaled to 0) — its hash, its template, its creation time, 0 replicas.
 */
function views(d: Deployment): { d: Deployment; rs: ReplicaSetRevision }[] {
  return replicaSetRevisions(d).map((rs) => ({
    d: {
      ...d,
      templateHash: rs.templateHash,
      replicas: rs.current ? d.replicas : 0,
      ...(rs.template !== undefined ? { podTemplate: rs.template } : {}),
      meta: { ...d.meta, createdAt: rs.createdAt },
    },
    rs,
  }));
}

function replicaSetObject(
  ctx: ApiContext,
  d: Deployment,
  rs: ReplicaSetRevision,
): Record<string, Json> {
  const name = `${d.meta.name}-${d.templateHash}`;
  const pods = activePods(ctx, d);
  const ready = pods.filter((p) => p.ready).length;
  const labels = { ...d.selector, [HASH]: d.templateHash };
  const deploySpec = deploymentObject(ctx, d).spec as {
    template: { metadata: Record<string, Json>; spec: Json };
  };
  const meta = {
    ...d.meta,
    name,
    labels,
    // SetNewReplicaSetAnnotations: the Deployment's copied annotations, the revision, and
    // the revisions a rollback took it from.
    annotations: {
      ...rs.annotations,
      'deployment.kubernetes.io/desired-replicas': String(d.replicas),
      'deployment.kubernetes.io/max-replicas': String(d.replicas + Math.ceil(d.replicas * 0.25)),
      [REVISION_ANNOTATION]: String(rs.revision),
      ...(rs.revisionHistory.length > 0
        ? { [REVISION_HISTORY_ANNOTATION]: rs.revisionHistory.join(',') }
        : {}),
    },
    uid: uidFor(`ReplicaSet/${d.meta.namespace}/${name}`),
  };
  const status: Record<string, Json> = {
    fullyLabeledReplicas: pods.length,
    observedGeneration: 1,
    replicas: pods.length,
  };
  if (ready > 0) {
    status.availableReplicas = ready;
    status.readyReplicas = ready;
  }
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: metadata(ctx, meta, {
      generation: 1,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          blockOwnerDeletion: true,
          controller: true,
          kind: 'Deployment',
          name: d.meta.name,
          uid: d.meta.uid,
        },
      ],
    }),
    spec: {
      replicas: d.replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: deploySpec.template.spec },
    },
    status,
  };
}

function replicaSetItem(d: Deployment, rs: ReplicaSetRevision, cluster: Cluster): Item {
  const name = `${d.meta.name}-${d.templateHash}`;
  return {
    name,
    namespace: d.meta.namespace,
    labels: { ...d.selector, [HASH]: d.templateHash },
    createdAt: d.meta.createdAt,
    cells: (ctx) => {
      const pods = activePods({ cluster }, d);
      const containers = d.podTemplate?.containers ?? pods[0]?.containers ?? [];
      return [
        String(d.replicas),
        String(pods.length),
        String(pods.filter((p) => p.ready).length),
        humanDuration(ctx.nowSeconds - d.meta.createdAt),
        containers.map((c) => c.name).join(','),
        containers.map((c) => c.image).join(','),
        formatLabels({ ...d.selector, [HASH]: d.templateHash }),
      ];
    },
    object: (ctx) => replicaSetObject(ctx, d, rs),
  };
}

export const replicaSetType: ResourceType = {
  resource: 'replicasets',
  kind: 'ReplicaSet',
  group: 'apps',
  aliases: ['replicaset', 'rs'],
  namespaced: true,
  columns: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
  wideColumns: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
  list: (c) => c.deployments.flatMap((d) => views(d).map((v) => replicaSetItem(v.d, v.rs, c))),
};

/**
 * ReplicaSets: the current one of each Deployment (`<deployment>-<pod-template-hash>`) and the
 * old ones a rollout scaled to 0, named as the
 * deployment controller names it. Table: printReplicaSet (NAME DESIRED CURRENT READY AGE; wide:
 * CONTAINERS IMAGES SELECTOR); object: what the deployment controller writes (revision
 * annotations, the pod-template-hash label and selector, the owner reference).
 */
import type { Cluster, Deployment } from '../../model/cluster';
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
 * out of, scaled to 0) — its hash, its creation time, 0 replicas.
 */
function views(d: Deployment): { d: Deployment; revision: number }[] {
  const old = d.oldReplicaSets ?? [];
  const current = {
    d: { ...d, meta: { ...d.meta, createdAt: d.replicaSetCreatedAt ?? d.meta.createdAt } },
    revision: old.length + 1,
  };
  return [
    current,
    ...old.map((r, i) => ({
      d: {
        ...d,
        templateHash: r.templateHash,
        replicas: 0,
        meta: { ...d.meta, createdAt: r.createdAt },
      },
      revision: old.length - i,
    })),
  ];
}

function replicaSetObject(ctx: ApiContext, d: Deployment, revision: number): Record<string, Json> {
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
    annotations: {
      'deployment.kubernetes.io/desired-replicas': String(d.replicas),
      'deployment.kubernetes.io/max-replicas': String(d.replicas + Math.ceil(d.replicas * 0.25)),
      'deployment.kubernetes.io/revision': String(revision),
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

function replicaSetItem(d: Deployment, revision: number, cluster: Cluster): Item {
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
    object: (ctx) => replicaSetObject(ctx, d, revision),
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
  list: (c) =>
    c.deployments.flatMap((d) => views(d).map((v) => replicaSetItem(v.d, v.revision, c))),
};

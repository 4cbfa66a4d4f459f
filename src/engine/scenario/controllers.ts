/**
 * The Deployment → ReplicaSet → Pod chain, collapsed to its result: the current ReplicaSet is
 * `<deployment>-<pod-template-hash>` and its pods are `<replicaset>-<5 characters>` with the
 * label pod-template-hash (as the ReplicaSet controller creates them through generateName).
 * Names are derived from hashes, so the same template gives the same pod names every load.
 */
import type { DeploymentDraft, PodDraft } from './drafts';
import { uniqueGeneratedName } from './hash';

export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** generateName keeps at most 58 characters of the base so the name stays within 63. */
function generateBase(prefix: string): string {
  const base = `${prefix}-`;
  return base.length > 58 ? base.slice(0, 58) : base;
}

export function replicaSetName(d: Pick<DeploymentDraft, 'meta' | 'templateHash'>): string {
  return `${d.meta.name}-${d.templateHash}`;
}

/** The pods of a Deployment's current ReplicaSet. `taken` holds pod keys already in use. */
export function deploymentPods(d: DeploymentDraft, taken: Set<string>): PodDraft[] {
  if (d.existingPods) {
    for (const p of d.existingPods) taken.add(`${p.meta.namespace}/${p.meta.name}`);
    return [...d.existingPods];
  }
  const rs = replicaSetName(d);
  const base = generateBase(rs);
  const pods: PodDraft[] = [];
  for (let i = 0; i < d.replicas; i++) {
    const name = uniqueGeneratedName(
      d.meta.namespace,
      base,
      `${d.meta.namespace}/${rs}/${i}`,
      taken,
    );
    pods.push({
      meta: {
        name,
        namespace: d.meta.namespace,
        labels: { ...d.templateLabels, [POD_TEMPLATE_HASH_LABEL]: d.templateHash },
        annotations: d.templateAnnotations,
        loc: d.meta.loc,
        nameLoc: d.meta.nameLoc,
        ...(d.meta.keepSource ? { keepSource: d.meta.keepSource } : {}),
      },
      spec: d.template,
      podIPLoc: d.meta.loc,
      ready: true,
      terminating: false,
      ownerDeployment: d.meta.name,
    });
  }
  return pods;
}

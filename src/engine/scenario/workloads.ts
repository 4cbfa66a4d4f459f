/**
 * What the control plane does after `kubectl scale`, `kubectl delete pod` and
 * `kubectl rollout restart`: pure Cluster → Cluster steps, each re-running the controllers
 * (scheduling, addresses, EndpointSlices) as `kubectl apply` does.
 *
 * - Deleting a pod sets metadata.deletionTimestamp (now + terminationGracePeriodSeconds, as the
 *   API server does): the pod is Terminating; its endpoint turns ready=false, serving=true
 *   (the pod is still Ready), terminating=true (the EndpointSlice controller's conditions).
 * - The ReplicaSet controller counts active pods only (terminating ones do not count), so a
 *   Deployment's pod that is deleted is replaced at once, and a scale-down deletes the pods
 *   getPodsToDelete ranks first (more pods of the ReplicaSet on the same node, then newer).
 * - `rollout restart` writes the kubectl.kubernetes.io/restartedAt annotation into the pod
 *   template: a new template, so a new pod-template-hash and a new ReplicaSet. The rolling
 *   update (maxSurge 25% rounded up, maxUnavailable 25% rounded down) alternates "start a new
 *   pod, wait until it is available, delete an old one"; lab pods are Ready the moment they
 *   start, so every step of the sequence happens at the same virtual instant and the lab
 *   applies the end of the sequence: all new pods Running, all old ones Terminating.
 * - New pods get the node the scheduler stand-in picks (fewest active pods of the same
 *   Deployment, then fewest active pods, then node name) and the next address host-local IPAM
 *   hands out on that node: the first free one after the last it gave, wrapping around
 *   (`lastReserved`, which the caller keeps per node), so a new pod does not reuse the address
 *   of a pod that just went away.
 * - After the grace period the pod is gone: {@link removePods}.
 */
import type { Cluster, Pod } from '../model/cluster';
import { cidrParse, cidrSize, ipFromInt, ipToInt } from '../model/ip';
import { buildCluster } from './build';
import { POD_TEMPLATE_HASH_LABEL, replicaSetName } from './controllers';
import type { DeploymentDraft, Desired, PodDraft } from './drafts';
import { keyOf } from './drafts';
import { desiredFromCluster } from './from-cluster';
import { podTemplateHash, uniqueGeneratedName } from './hash';
import { rolledBack, withNewTemplate } from './deployment-history';
import { Diagnostics, NO_LOC } from './report';

/** The pod spec default (terminationGracePeriodSeconds) the lab applies to every pod. */
export const DEFAULT_GRACE_SECONDS = 30;
export const RESTARTED_AT_ANNOTATION = 'kubectl.kubernetes.io/restartedAt';

export interface WorkloadEnv {
  /** Virtual seconds now (creation times of new objects). */
  readonly nowSeconds: number;
  /** Virtual ms now (seeds the generated names of new pods). */
  readonly nowMs: number;
  /** metadata.deletionTimestamp for pods deleted now (RFC 3339, now + grace period). */
  readonly deletionTimestamp: string;
  /** That grace period, seconds (metadata.deletionGracePeriodSeconds). */
  readonly deletionGracePeriodSeconds: number;
  /** host-local's last reserved address per node (as an integer); updated in place. */
  readonly lastReserved: Map<string, number>;
}

export interface WorkloadResult {
  readonly cluster: Cluster;
  /** namespace/name of pods that started Terminating. */
  readonly terminating: readonly string[];
  /** namespace/name of pods created. */
  readonly created: readonly string[];
}

type Edit = (desired: Desired, changes: Changes) => void;
interface Changes {
  terminating: string[];
  created: string[];
}

function rebuild(cluster: Cluster, env: WorkloadEnv, edit: Edit): WorkloadResult {
  const desired = desiredFromCluster(cluster);
  const changes: Changes = { terminating: [], created: [] };
  edit(desired, changes);
  for (const [i, d] of desired.deployments.entries())
    desired.deployments[i] = reconcile(desired, d, env, changes);
  const next = buildCluster(desired, new Diagnostics(undefined), {
    previous: cluster,
    createdAt: env.nowSeconds,
  });
  return { cluster: next, ...changes };
}

const terminate = (p: PodDraft, env: WorkloadEnv): PodDraft => ({
  ...p,
  meta: {
    ...p.meta,
    deletionTimestamp: env.deletionTimestamp,
    deletionGracePeriodSeconds: env.deletionGracePeriodSeconds,
  },
  terminating: true,
});

const isActive = (p: PodDraft): boolean => !p.terminating;
const hashOf = (p: PodDraft): string | undefined => p.meta.labels[POD_TEMPLATE_HASH_LABEL];

/** Every pod draft of the desired cluster (standalone and owned). */
function allPods(desired: Desired): PodDraft[] {
  return [...desired.pods, ...desired.deployments.flatMap((d) => d.existingPods ?? [])];
}

/**
 * The Deployment and ReplicaSet controllers for one Deployment: old ReplicaSets' active pods
 * are replaced by the current one's (the rolling update, collapsed to its end), and the
 * current ReplicaSet gets exactly `replicas` active pods.
 */
function reconcile(
  desired: Desired,
  d: DeploymentDraft,
  env: WorkloadEnv,
  changes: Changes,
): DeploymentDraft {
  let pods = [...(d.existingPods ?? [])];
  const current = pods.filter((p) => isActive(p) && hashOf(p) === d.templateHash);
  const old = pods.filter((p) => isActive(p) && hashOf(p) !== d.templateHash);
  const excess = Math.max(0, current.length - d.replicas);
  const doomed = new Set([...old, ...rankForDeletion(current, excess)]);
  pods = pods.map((p) => {
    if (!doomed.has(p)) return p;
    changes.terminating.push(keyOf(p.meta));
    return terminate(p, env);
  });
  const missing = Math.max(0, d.replicas - current.length);
  if (missing > 0) {
    const everyPod = allPods(desired);
    const taken = new Set(everyPod.map((p) => keyOf(p.meta)));
    for (let k = 0; k < missing; k++) {
      const pod = newPod(desired, d, env, k, taken, [...everyPod, ...pods]);
      if (pod === undefined) break;
      changes.created.push(keyOf(pod.meta));
      pods.push(pod);
    }
  }
  return { ...d, existingPods: pods };
}

/**
 * getPodsToDelete (pkg/controller/replicaset): all lab pods are scheduled, running and ready,
 * so the rank is: more active pods of the ReplicaSet on the same node first, then the newest.
 * Go's sort is not stable; the lab breaks the remaining ties by name.
 */
function rankForDeletion(active: PodDraft[], count: number): PodDraft[] {
  if (count <= 0) return [];
  const perNode = new Map<string, number>();
  for (const p of active) {
    const n = p.spec.nodeName ?? '';
    perNode.set(n, (perNode.get(n) ?? 0) + 1);
  }
  const colocated = (p: PodDraft) => perNode.get(p.spec.nodeName ?? '') ?? 0;
  return [...active]
    .sort(
      (a, b) =>
        colocated(b) - colocated(a) ||
        (b.createdAt ?? 0) - (a.createdAt ?? 0) ||
        (a.meta.name < b.meta.name ? 1 : a.meta.name > b.meta.name ? -1 : 0),
    )
    .slice(0, count);
}

/** One new pod of the Deployment's current ReplicaSet, scheduled and given an address. */
function newPod(
  desired: Desired,
  d: DeploymentDraft,
  env: WorkloadEnv,
  k: number,
  taken: Set<string>,
  pods: readonly PodDraft[],
): PodDraft | undefined {
  const node = schedule(desired, d, pods);
  if (node === undefined) return undefined;
  const rs = replicaSetName(d);
  const ns = d.meta.namespace;
  const name = uniqueGeneratedName(
    ns,
    `${rs}-`.slice(0, 58),
    `${ns}/${rs}/${env.nowMs}/${k}`,
    taken,
  );
  const podIP = d.template.hostNetwork ? undefined : allocateAddress(desired, node, pods, env);
  if (!d.template.hostNetwork && podIP === undefined) return undefined;
  return {
    meta: {
      name,
      namespace: ns,
      labels: { ...d.templateLabels, [POD_TEMPLATE_HASH_LABEL]: d.templateHash },
      annotations: d.templateAnnotations,
      loc: NO_LOC,
      nameLoc: NO_LOC,
    },
    spec: { ...d.template, nodeName: node },
    ...(podIP !== undefined ? { podIP } : {}),
    podIPLoc: NO_LOC,
    ready: true,
    terminating: false,
    ownerDeployment: d.meta.name,
    createdAt: env.nowSeconds,
  };
}

/** The scheduler stand-in: spread the Deployment's active pods, then all active pods. */
function schedule(
  desired: Desired,
  d: DeploymentDraft,
  pods: readonly PodDraft[],
): string | undefined {
  if (d.template.nodeName) return d.template.nodeName;
  const nodes = desired.nodes
    .filter((n) => d.template.hostNetwork || cidrParse(n.podCIDR) !== undefined)
    .map((n) => n.meta.name)
    .sort();
  const score = (node: string): [number, number] => {
    let mine = 0;
    let all = 0;
    for (const p of pods) {
      if (!isActive(p) || p.spec.nodeName !== node) continue;
      all++;
      if (p.ownerDeployment === d.meta.name && p.meta.namespace === d.meta.namespace) mine++;
    }
    return [mine, all];
  };
  let best: string | undefined;
  let bestScore: [number, number] = [Infinity, Infinity];
  for (const n of nodes) {
    const s = score(n);
    if (s[0] < bestScore[0] || (s[0] === bestScore[0] && s[1] < bestScore[1])) {
      best = n;
      bestScore = s;
    }
  }
  return best;
}

/**
 * host-local: the first free address after the last reserved one (the network address, .1 —
 * cni0 — and the broadcast address are never given), wrapping around. A node's last reserved
 * address starts as the highest address in use there (the scenario's pods were given in order).
 */
function allocateAddress(
  desired: Desired,
  node: string,
  pods: readonly PodDraft[],
  env: WorkloadEnv,
): string | undefined {
  const cidr = cidrParse(desired.nodes.find((n) => n.meta.name === node)?.podCIDR ?? '');
  if (cidr === undefined) return undefined;
  const base = ipToInt(cidr.network);
  const size = cidrSize(cidr);
  const used = new Set<number>();
  for (const p of pods) if (p.podIP !== undefined) used.add(ipToInt(p.podIP) - base);
  let last = env.lastReserved.get(node);
  if (last === undefined) {
    last = 1;
    for (const off of used) if (off > last && off < size - 1) last = off;
  }
  const first = 2;
  const span = size - 3;
  for (let i = 1; i <= span; i++) {
    const off = first + ((last - first + i) % span);
    if (!used.has(off)) {
      env.lastReserved.set(node, off);
      return ipFromInt(base + off);
    }
  }
  return undefined;
}

/**
 * `kubectl delete pod`: the pod starts Terminating; its Deployment, if any, replaces it. A pod
 * already Terminating keeps its deletionTimestamp unless this one is sooner: the API server
 * shortens a graceful deletion (a shorter --grace-period), never extends it.
 */
export function deletePod(cluster: Cluster, key: string, env: WorkloadEnv): WorkloadResult {
  return rebuild(cluster, env, (desired, changes) => {
    const mark = (p: PodDraft): PodDraft => {
      if (keyOf(p.meta) !== key) return p;
      if (p.terminating) {
        // RFC 3339 UTC timestamps of one length: their text order is their time order.
        const was = p.meta.deletionTimestamp;
        const sooner = was !== undefined && env.deletionTimestamp < was;
        return sooner ? terminate(p, env) : p;
      }
      changes.terminating.push(key);
      return terminate(p, env);
    };
    desired.pods = desired.pods.map(mark);
    desired.deployments = desired.deployments.map((d) => ({
      ...d,
      ...(d.existingPods ? { existingPods: d.existingPods.map(mark) } : {}),
    }));
  });
}

/**
 * `kubectl delete deployment NAME`: the Deployment goes, and the garbage collector deletes its
 * ReplicaSets and their pods (background propagation, kubectl's default): each pod is
 * Terminating for its grace period, then gone; nothing replaces it.
 */
export function deleteDeployment(cluster: Cluster, key: string, env: WorkloadEnv): WorkloadResult {
  return rebuild(cluster, env, (desired, changes) => {
    const d = desired.deployments.find((x) => keyOf(x.meta) === key);
    if (d === undefined) return;
    desired.deployments = desired.deployments.filter((x) => x !== d);
    desired.workloads = desired.workloads.filter(
      (w) => !(w.kind === 'Deployment' && w.key === key),
    );
    for (const pod of d.existingPods ?? []) {
      const podKey = keyOf(pod.meta);
      if (!pod.terminating) changes.terminating.push(podKey);
      const { ownerDeployment: _, ...orphan } = pod.terminating ? pod : terminate(pod, env);
      desired.pods.push(orphan);
      desired.workloads.push({ kind: 'Pod', key: podKey });
    }
  });
}

/** `kubectl scale deployment/NAME --replicas=N`. */
export function scaleDeployment(
  cluster: Cluster,
  key: string,
  replicas: number,
  env: WorkloadEnv,
): WorkloadResult {
  return rebuild(cluster, env, (desired) => {
    desired.deployments = desired.deployments.map((d) =>
      keyOf(d.meta) === key ? { ...d, replicas } : d,
    );
  });
}

/** `kubectl rollout restart deployment/NAME`: the template changes, a new ReplicaSet rolls out. */
export function restartDeployment(
  cluster: Cluster,
  key: string,
  restartedAt: string,
  env: WorkloadEnv,
): WorkloadResult {
  return rebuild(cluster, env, (desired) => {
    desired.deployments = desired.deployments.map((d) => {
      if (keyOf(d.meta) !== key) return d;
      const templateAnnotations = {
        ...d.templateAnnotations,
        [RESTARTED_AT_ANNOTATION]: restartedAt,
      };
      // The lab's hash stands in for ComputeHash of the changed template.
      const templateHash = podTemplateHash(
        JSON.stringify([d.templateHash, Object.entries(templateAnnotations).sort()]),
      );
      return withNewTemplate(d, { templateAnnotations, templateHash }, env.nowSeconds);
    });
  });
}

/**
 * `kubectl rollout undo deployment/NAME --to-revision=N` (N an old revision the lab knows the
 * template of): that ReplicaSet becomes current again and rolls out as a restart's does.
 */
export function rollbackDeployment(
  cluster: Cluster,
  key: string,
  revision: number,
  env: WorkloadEnv,
): WorkloadResult {
  return rebuild(cluster, env, (desired) => {
    desired.deployments = desired.deployments.map((d) =>
      keyOf(d.meta) === key ? (rolledBack(d, revision) ?? d) : d,
    );
  });
}

/**
 * `kubectl label pod`: the pod gets `labels`. The ReplicaSet controller then claims pods by its
 * selector (the Deployment's plus pod-template-hash; controller_ref_manager.go ClaimPods): a
 * pod of it whose labels no longer match is released (ReleasePod: no owner, still running)
 * and replaced, and an orphan that now matches the current ReplicaSet is adopted, the excess
 * pod then deleted as a scale-down would.
 */
export function relabelPod(
  cluster: Cluster,
  key: string,
  labels: Readonly<Record<string, string>>,
  env: WorkloadEnv,
): WorkloadResult {
  return rebuild(cluster, env, (desired) => {
    const relabel = (p: PodDraft): PodDraft => ({ ...p, meta: { ...p.meta, labels } });
    const matches = (sel: Readonly<Record<string, string>>) =>
      Object.entries(sel).every(([k, v]) => labels[k] === v);
    const i = desired.pods.findIndex((p) => keyOf(p.meta) === key);
    if (i >= 0) {
      const pod = relabel(desired.pods[i]!);
      const owner = desired.deployments.findIndex(
        (d) =>
          d.meta.namespace === pod.meta.namespace &&
          matches({ ...d.selector, [POD_TEMPLATE_HASH_LABEL]: d.templateHash }),
      );
      const d = desired.deployments[owner];
      if (d === undefined || pod.terminating) {
        desired.pods[i] = pod;
        return;
      }
      desired.pods.splice(i, 1);
      desired.workloads = desired.workloads.filter((w) => !(w.kind === 'Pod' && w.key === key));
      desired.deployments[owner] = { ...d, existingPods: [...(d.existingPods ?? []), { ...pod, ownerDeployment: d.meta.name }] }; // prettier-ignore
      return;
    }
    desired.deployments = desired.deployments.map((d) => {
      const at = (d.existingPods ?? []).findIndex((p) => keyOf(p.meta) === key);
      if (at < 0) return d;
      const was = d.existingPods![at]!;
      const pod = relabel(was);
      const pods = [...d.existingPods!];
      const hash = was.meta.labels[POD_TEMPLATE_HASH_LABEL] ?? d.templateHash;
      if (matches({ ...d.selector, [POD_TEMPLATE_HASH_LABEL]: hash })) {
        pods[at] = pod;
        return { ...d, existingPods: pods };
      }
      // Released: an orphan the ReplicaSet no longer counts (reconcile() replaces it).
      pods.splice(at, 1);
      const { ownerDeployment: _, ...orphan } = pod;
      desired.pods.push(orphan);
      desired.workloads.push({ kind: 'Pod', key });
      return { ...d, existingPods: pods };
    });
  });
}

/** The end of the grace period: the pods are gone and the controllers see it. */
export function removePods(
  cluster: Cluster,
  keys: ReadonlySet<string>,
  env: WorkloadEnv,
): WorkloadResult {
  return rebuild(cluster, env, (desired) => {
    const keep = (p: PodDraft) => !keys.has(keyOf(p.meta));
    desired.pods = desired.pods.filter(keep);
    desired.workloads = desired.workloads.filter((w) => w.kind !== 'Pod' || !keys.has(w.key));
    desired.deployments = desired.deployments.map((d) => ({
      ...d,
      ...(d.existingPods ? { existingPods: d.existingPods.filter(keep) } : {}),
    }));
  });
}

/** Pods as the API server has them, by namespace/name. */
export function podByKey(cluster: Cluster, key: string): Pod | undefined {
  return cluster.pods.find((p) => keyOf(p.meta) === key);
}

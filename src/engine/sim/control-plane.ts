/**
 * The control plane in motion: what follows `kubectl delete pod`, `kubectl scale`,
 * `kubectl rollout restart` and `kubectl rollout undo` as the virtual clock advances.
 *
 * 1. At once: the API server marks the pod Terminating (deletionTimestamp = now + grace
 *    period); the ReplicaSet controller starts replacements; the EndpointSlice controller
 *    marks the endpoint terminating; every node's kube-proxy syncs (scenario/workloads.ts).
 * 2. At the end of the grace period (terminationGracePeriodSeconds, 30 s): the lab's servers,
 *    like a container's PID 1 without a SIGTERM handler, ignored SIGTERM, so kubelet SIGKILLs
 *    them. The kernel closes their sockets (connections send FIN) and kubelet tears down the
 *    pod's sandbox: veth and address are gone.
 *    The lab takes the pod out of the cluster's pod list then (`kubectl get pods` stops
 *    listing it), keeping the EndpointSlices as they were.
 * 3. One second later (the lab's stand-in for kubelet noticing — PLEG relists every second —
 *    and reporting, the API server deleting the object and the EndpointSlice controller
 *    following): the endpoint leaves the EndpointSlice and kube-proxy syncs again (then
 *    cleans UDP conntrack entries). Between 2 and 3 the endpoint still lists an address nobody
 *    answers for. (On a real cluster the pod object goes last; the lab simplifies that order.)
 */
import type { Cluster } from '../model/cluster';
import {
  DEFAULT_GRACE_SECONDS,
  deleteDeployment,
  deletePod,
  relabelPod,
  removePods,
  restartDeployment,
  rollbackDeployment,
  scaleDeployment,
  type WorkloadEnv,
  type WorkloadResult,
} from '../scenario/workloads';
import { closeHostSockets } from './network';
import type { World } from './world';

/** How long after the SIGKILL the endpoint leaves the EndpointSlice (see the module comment). */
export const POD_REMOVAL_DELAY_MS = 1000;

interface PlaneState {
  /** host-local's last reserved address per node. */
  readonly lastReserved: Map<string, number>;
  /** namespace/name → virtual ms the grace period ends. */
  readonly killAt: Map<string, number>;
  /** namespace/name → virtual ms the pod object is removed. */
  readonly removeAt: Map<string, number>;
  /** Force-deleted pods (grace period 0): removed with no delay once killed. */
  readonly forced: Set<string>;
}

const planes = new WeakMap<World, PlaneState>();

function plane(world: World): PlaneState {
  let p = planes.get(world);
  if (p === undefined) {
    p = { lastReserved: new Map(), killAt: new Map(), removeAt: new Map(), forced: new Set() };
    planes.set(world, p);
  }
  return p;
}

/** RFC 3339 in UTC with second precision, as metav1.Time marshals. */
export function rfc3339(unixSeconds: number): string {
  return new Date(Math.floor(unixSeconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function env(world: World, graceSeconds = DEFAULT_GRACE_SECONDS): WorkloadEnv {
  const nowMs = world.clock.now();
  return {
    nowSeconds: world.nowSeconds(),
    nowMs,
    deletionTimestamp: rfc3339(world.wallSeconds() + graceSeconds),
    deletionGracePeriodSeconds: graceSeconds,
    lastReserved: plane(world).lastReserved,
  };
}

function commit(world: World, result: WorkloadResult): WorkloadResult {
  const p = plane(world);
  const due = world.clock.now() + DEFAULT_GRACE_SECONDS * 1000;
  for (const key of result.terminating) if (!p.killAt.has(key)) p.killAt.set(key, due);
  if (result.cluster !== world.cluster) world.setCluster(result.cluster);
  return result;
}

/**
 * `kubectl delete pod NAME -n NS [--grace-period=S | --now | --force]` (the pod exists). Returns
 * the ms until the pod is gone from the lab's pod list (what `kubectl delete` waits for). A
 * pod that was already Terminating keeps its deadline unless this one is sooner (the API server
 * shortens a graceful deletion, never extends it); one the scenario gave as Terminating starts
 * its grace period now. `graceSeconds` 0 (kubectl's --force) deletes the object at once: the
 * lab kills the pod and takes its endpoint out now, with no second of delay (the API object is
 * gone first on a real cluster; its kubelet kills the containers after).
 */
export function deletePodNow(
  world: World,
  namespace: string,
  name: string,
  graceSeconds = DEFAULT_GRACE_SECONDS,
): number {
  const key = `${namespace}/${name}`;
  const p = plane(world);
  const now = world.clock.now();
  const due = now + graceSeconds * 1000;
  const was = p.killAt.get(key);
  commit(world, deletePod(world.cluster, key, env(world, graceSeconds)));
  if (!p.removeAt.has(key)) {
    p.killAt.set(key, was === undefined || due < was ? due : was);
    if (graceSeconds === 0) p.forced.add(key);
  }
  // The lab's pod object goes with its processes (see the module comment).
  return Math.max(0, (p.killAt.get(key) ?? now) - now);
}

/** `kubectl scale deployment/NAME --replicas=N` (the Deployment exists). */
export function scaleDeploymentNow(
  world: World,
  namespace: string,
  name: string,
  replicas: number,
): WorkloadResult {
  return commit(
    world,
    scaleDeployment(world.cluster, `${namespace}/${name}`, replicas, env(world)),
  );
}

/** `kubectl delete deployment NAME` (the Deployment exists): its pods start terminating. */
export function deleteDeploymentNow(world: World, namespace: string, name: string): WorkloadResult {
  return commit(world, deleteDeployment(world.cluster, `${namespace}/${name}`, env(world)));
}

/** `kubectl label pod NAME …` (the pod exists): its new labels, and the ReplicaSet's answer. */
export function relabelPodNow(
  world: World,
  namespace: string,
  name: string,
  labels: Readonly<Record<string, string>>,
): WorkloadResult {
  return commit(world, relabelPod(world.cluster, `${namespace}/${name}`, labels, env(world)));
}

/** `kubectl rollout restart deployment/NAME` (the Deployment exists). */
export function restartDeploymentNow(
  world: World,
  namespace: string,
  name: string,
): WorkloadResult {
  const restartedAt = rfc3339(world.wallSeconds());
  return commit(
    world,
    restartDeployment(world.cluster, `${namespace}/${name}`, restartedAt, env(world)),
  );
}

/** `kubectl rollout undo deployment/NAME` (the Deployment and that revision exist). */
export function rollbackDeploymentNow(
  world: World,
  namespace: string,
  name: string,
  revision: number,
): WorkloadResult {
  return commit(
    world,
    rollbackDeployment(world.cluster, `${namespace}/${name}`, revision, env(world)),
  );
}

/** The next virtual ms at which the control plane acts, if any. */
export function nextControlPlaneEvent(world: World): number | undefined {
  const p = planes.get(world);
  if (p === undefined) return undefined;
  let next: number | undefined;
  for (const t of [...p.killAt.values(), ...p.removeAt.values()])
    if (next === undefined || t < next) next = t;
  return next;
}

/** Runs what is due now: SIGKILLs at the end of grace periods, then removals from the API. */
export function runControlPlaneEvents(world: World): void {
  const p = plane(world);
  const now = world.clock.now();
  const killed = [...p.killAt].filter(([, t]) => t <= now).map(([k]) => k);
  if (killed.length > 0) {
    for (const key of killed) {
      p.killAt.delete(key);
      p.removeAt.set(key, p.forced.delete(key) ? now : now + POD_REMOVAL_DELAY_MS);
      closeHostSockets(world, `pod/${key}`);
    }
    // The sandbox is gone: no veth, no address; the API object and its endpoint stay a moment.
    const gone = new Set(killed);
    const pods = world.cluster.pods.filter(
      (pod) => !gone.has(`${pod.meta.namespace}/${pod.meta.name}`),
    );
    world.setCluster({ ...world.cluster, pods } satisfies Cluster);
  }
  const removed = [...p.removeAt].filter(([, t]) => t <= now).map(([k]) => k);
  if (removed.length > 0) {
    for (const key of removed) p.removeAt.delete(key);
    // The pods are already out of cluster.pods; rebuilding re-runs the controllers without them.
    commit(world, removePods(world.cluster, new Set(removed), env(world)));
  }
}

/** Pods that are Terminating because of a lab command, with when their grace period ends. */
export function terminatingPods(world: World): ReadonlyMap<string, number> {
  return plane(world).killAt;
}

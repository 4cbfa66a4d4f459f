/**
 * applyManifests: `kubectl apply -f` against a running lab cluster. Each object replaces the
 * one with the same kind/namespace/name (or is created); allocation and the controllers re-run
 * over the whole cluster. As on a real API server:
 * - an update may not change a Service's ClusterIP (`may not change once set`), and leaving
 *   clusterIP / nodePort / healthCheckNodePort out keeps the allocated values;
 * - an object the server rejects leaves the old one in place;
 * - component configs and the Lab kind are not API resources (`no matches for kind …`).
 */
import type { Cluster, ObjectMeta, Service } from '../model/cluster';
import type { Diagnostic } from '../model/diagnostic';
import { buildCluster } from './build';
import type { Decoded } from './kinds';
import type { Desired, ServiceDraft } from './drafts';
import { keyOf } from './drafts';
import { desiredFromCluster } from './from-cluster';
import { addToDesired, parseManifests, sortDiagnostics } from './load';
import { Diagnostics, ObjectReport } from './report';

export interface ApplyResultItem {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly action: 'created' | 'configured' | 'unchanged';
}

export interface ApplyResult {
  readonly cluster: Cluster;
  readonly diagnostics: Diagnostic[];
  readonly results: ApplyResultItem[];
}

type ObjectKind = Exclude<
  Decoded['kind'],
  'KubeProxyConfiguration' | 'KubeletConfiguration' | 'Lab'
>;
const LISTS: Readonly<
  Record<ObjectKind, keyof Pick<Desired, 'nodes' | 'pods' | 'deployments' | 'services' | 'slices'>>
> = {
  Node: 'nodes',
  Pod: 'pods',
  Deployment: 'deployments',
  Service: 'services',
  EndpointSlice: 'slices',
};
const API_VERSION: Readonly<Record<string, string>> = {
  KubeProxyConfiguration: 'kubeproxy.config.k8s.io/v1alpha1',
  KubeletConfiguration: 'kubelet.config.k8s.io/v1beta1',
  Lab: 'kube-proxy-lab/v1alpha1',
};

function modelList(
  c: Cluster,
  kind: ObjectKind,
): ReadonlyArray<{ meta: { namespace: string; name: string } }> {
  switch (kind) {
    case 'Node':
      return c.nodes;
    case 'Pod':
      return c.pods;
    case 'Deployment':
      return c.deployments;
    case 'Service':
      return c.services;
    case 'EndpointSlice':
      return c.endpointSlices.filter((s) => !s.managed);
  }
}

type Keyed = { meta: { namespace: string; name: string } };

/** Objects of one kind by namespace/name (the first of a key, as find() would give). */
function byKey(list: ReadonlyArray<Keyed>): Map<string, Keyed> {
  const out = new Map<string, Keyed>();
  for (const o of list) if (!out.has(keyOf(o.meta))) out.set(keyOf(o.meta), o);
  return out;
}

/** One index per cluster and kind, built on first use: lookups stay linear on big applies. */
function clusterIndex(c: Cluster): (kind: ObjectKind) => Map<string, Keyed> {
  const cache = new Map<ObjectKind, Map<string, Keyed>>();
  return (kind) => {
    let m = cache.get(kind);
    if (!m) cache.set(kind, (m = byKey(modelList(c, kind))));
    return m;
  };
}

/** Comparable form of a model object: without where it came from and when it was created. */
function fingerprint(o: { meta: object } | undefined): string {
  if (!o) return '';
  const meta: Record<string, unknown> = { ...o.meta };
  delete meta['source'];
  delete meta['createdAt'];
  return JSON.stringify({ ...o, meta });
}

/** Keeps the allocated values an update leaves out; refuses a changed ClusterIP. */
function mergeService(
  next: ServiceDraft,
  old: Service | undefined,
  diags: Diagnostics,
): ServiceDraft | undefined {
  if (!old || old.type === 'ExternalName' || next.type === 'ExternalName') return next;
  if (next.clusterIP !== undefined && next.clusterIP !== old.clusterIP) {
    const rep = new ObjectReport(diags, next.clusterIPLoc.doc, 'Service', true);
    rep.name = next.meta.name;
    rep.namespace = next.meta.namespace;
    rep.field(next.clusterIPLoc.offset, 'spec.clusterIPs[0]', {
      type: 'invalid',
      value: [next.clusterIP],
      detail: 'may not change once set',
    });
    return undefined;
  }
  const ports = next.ports.map((p) => {
    if (p.nodePort !== 0) return p;
    const was =
      old.ports.find((q) => q.port === p.port && q.protocol === p.protocol)?.nodePort ?? 0;
    const needs =
      next.type === 'NodePort' ||
      (next.type === 'LoadBalancer' && next.allocateLoadBalancerNodePorts);
    return needs && was ? { ...p, nodePort: was } : p;
  });
  const keepHC =
    next.healthCheckNodePort === 0 &&
    next.type === 'LoadBalancer' &&
    next.externalTrafficPolicy === 'Local';
  return {
    ...next,
    clusterIP: old.clusterIP,
    ports,
    healthCheckNodePort: keepHC ? old.healthCheckNodePort : next.healthCheckNodePort,
  };
}

/**
 * Where a key sits in a Desired list (-1: absent), without scanning it per applied object:
 * replace() keeps keys in place and adds only append, so positions are indexed once; a stale
 * one (checked here) falls back to the scan.
 */
const POSITIONS = new WeakMap<Keyed[], { at: Map<string, number>; count: number }>();

function positionOf(list: Keyed[], key: string): number {
  const index = POSITIONS.get(list) ?? { at: new Map<string, number>(), count: 0 };
  POSITIONS.set(list, index);
  for (; index.count < list.length; index.count++) {
    const o = list[index.count];
    if (o && !index.at.has(keyOf(o.meta))) index.at.set(keyOf(o.meta), index.count);
  }
  const i = index.at.get(key);
  if (i === undefined) return -1;
  const o = list[i];
  return o && keyOf(o.meta) === key ? i : list.findIndex((x) => keyOf(x.meta) === key);
}

function replace(desired: Desired, item: Decoded & { kind: ObjectKind }): void {
  const list = desired[LISTS[item.kind]] as Keyed[];
  const key = keyOf(item.draft.meta);
  const i = positionOf(list, key);
  if (i >= 0) {
    list[i] = item.draft;
    return;
  }
  // New objects go through the create path (with its duplicate check and workload order).
  addToDesired(desired, item, new Diagnostics(undefined));
}

function applyInner(cluster: Cluster, text: string, now: number): ApplyResult {
  const parsed = parseManifests(text);
  const diags = parsed.diags;
  const desired = desiredFromCluster(cluster);
  const applied: Array<{
    kind: ObjectKind;
    key: string;
    namespace: string;
    name: string;
    before: string;
  }> = [];
  const oldDesired = desiredFromCluster(cluster);
  const before = clusterIndex(cluster);
  for (const { item } of parsed.decoded) {
    if (
      item.kind === 'KubeProxyConfiguration' ||
      item.kind === 'KubeletConfiguration' ||
      item.kind === 'Lab'
    ) {
      diags.error(
        item.draft.loc,
        `no matches for kind ${JSON.stringify(item.kind)} in version ${JSON.stringify(API_VERSION[item.kind] ?? '')}`,
      );
      continue;
    }
    let obj = item as Decoded & { kind: ObjectKind };
    if (obj.kind === 'Service') {
      const old = before('Service').get(keyOf(obj.draft.meta)) as Service | undefined;
      const merged = mergeService(obj.draft as ServiceDraft, old, diags);
      if (!merged) continue;
      obj = { kind: 'Service', draft: merged };
    }
    const key = keyOf(obj.draft.meta);
    const existing = before(obj.kind).get(key) as { meta: ObjectMeta } | undefined;
    // The object keeps the scenario position it had; the applied text is not the scenario.
    const keepSource = existing?.meta.source;
    const meta = { ...obj.draft.meta, ...(keepSource ? { keepSource } : {}) };
    replace(desired, { ...obj, draft: { ...obj.draft, meta } } as Decoded & { kind: ObjectKind });
    applied.push({
      kind: obj.kind,
      key,
      namespace: obj.draft.meta.namespace,
      name: obj.draft.meta.name,
      before: fingerprint(existing),
    });
  }
  const appliedKeys = new Set(applied.map((a) => `${a.kind}/${a.key}`));
  let next = buildCluster(desired, diags, {
    previous: cluster,
    createdAt: now,
    lines: parsed.lines,
    applied: appliedKeys,
  });
  // An object the build rejected (allocation, unknown node…) must leave the old one in place.
  const built = clusterIndex(next);
  const rejected = new Set(applied.filter((a) => !built(a.kind).has(a.key)));
  if (rejected.size > 0) {
    for (const r of rejected) {
      const list = desired[LISTS[r.kind]] as Array<{ meta: { namespace: string; name: string } }>;
      const old = (
        oldDesired[LISTS[r.kind]] as Array<{ meta: { namespace: string; name: string } }>
      ).find((o) => keyOf(o.meta) === r.key);
      const i = list.findIndex((o) => keyOf(o.meta) === r.key);
      if (i >= 0 && old) list[i] = old;
      else if (i >= 0) list.splice(i, 1);
    }
    next = buildCluster(desired, new Diagnostics(undefined), {
      previous: cluster,
      createdAt: now,
      lines: parsed.lines,
      applied: appliedKeys,
    });
  }
  const results: ApplyResultItem[] = [];
  const final = clusterIndex(next);
  for (const a of applied) {
    if (rejected.has(a)) continue;
    const after = fingerprint(final(a.kind).get(a.key));
    const action = !a.before ? 'created' : a.before === after ? 'unchanged' : 'configured';
    results.push({
      kind: a.kind,
      ...(a.kind === 'Node' ? {} : { namespace: a.namespace }),
      name: a.name,
      action,
    });
  }
  return { cluster: next, diagnostics: sortDiagnostics(diags.list), results };
}

export function applyManifests(cluster: Cluster, text: string, nowSeconds: number): ApplyResult {
  try {
    return applyInner(cluster, text, nowSeconds);
  } catch (err) {
    const diags = new Diagnostics(undefined);
    diags.error(
      { doc: -1, offset: -1 },
      `internal error while applying: ${err instanceof Error ? err.message : String(err)}`,
    );
    return { cluster, diagnostics: diags.list, results: [] };
  }
}

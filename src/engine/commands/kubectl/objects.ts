/**
 * Cluster objects as the API server returns them (what `kubectl get -o yaml|json` prints):
 * apiVersion/kind, metadata with creationTimestamp/resourceVersion/uid, spec with the defaults
 * the API server fills in (clusterIPs, ipFamilies [IPv4], ipFamilyPolicy SingleStack,
 * internalTrafficPolicy, sessionAffinity, allocateLoadBalancerNodePorts…), and status.
 * managedFields are left out, as kubectl hides them by default (--show-managed-fields=false).
 * Deterministic: resourceVersions are derived from uids, timestamps from the lab clock.
 */
import type { Cluster, EndpointSlice, ObjectMeta, Service } from '../../model/cluster';
import { hashBytes } from '../../routing/topology';
import type { Json } from './yaml';

export interface ApiContext {
  readonly cluster: Cluster;
  /** Unix seconds of lab clock 0. */
  readonly epochSeconds: number;
}

/** RFC 3339 in UTC with second precision, as metav1.Time marshals. */
export function rfc3339(unixSeconds: number): string {
  return new Date(Math.floor(unixSeconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const creationTimestamp = (ctx: ApiContext, meta: Pick<ObjectMeta, 'createdAt'>): string =>
  rfc3339(ctx.epochSeconds + meta.createdAt);

/** A plausible etcd revision, stable for an object (the lab does not count writes). */
export function resourceVersionOf(uid: string): string {
  const b = hashBytes(`rv:${uid}`, 3);
  return String(1000 + ((((b[0] ?? 0) << 16) | ((b[1] ?? 0) << 8) | (b[2] ?? 0)) % 900000));
}

/** A version-4 UUID derived from a string (for objects the model has no uid for). */
export function uidFor(seed: string): string {
  const b = hashBytes(`uid:${seed}`, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const nonEmpty = (r: Readonly<Record<string, string>>): boolean => Object.keys(r).length > 0;

/** metadata as the API server returns it; `extra` adds generateName, ownerReferences, … */
export function metadata(
  ctx: ApiContext,
  meta: ObjectMeta,
  extra: Record<string, Json> = {},
  namespaced = true,
): Record<string, Json> {
  const out: Record<string, Json> = {
    creationTimestamp: creationTimestamp(ctx, meta),
    name: meta.name,
    resourceVersion: resourceVersionOf(meta.uid),
    uid: meta.uid,
    ...extra,
  };
  if (namespaced) out.namespace = meta.namespace;
  const annotations = {
    ...(extra.annotations as Record<string, string> | undefined),
    ...meta.annotations,
  };
  if (nonEmpty(annotations)) out.annotations = annotations;
  if (nonEmpty(meta.labels)) out.labels = { ...meta.labels };
  if (meta.deletionTimestamp !== undefined) out.deletionTimestamp = meta.deletionTimestamp;
  return out;
}

export function serviceObject(ctx: ApiContext, svc: Service): Record<string, Json> {
  const spec: Record<string, Json> = { sessionAffinity: svc.sessionAffinity, type: svc.type };
  if (svc.type !== 'ExternalName') {
    spec.clusterIP = svc.clusterIP;
    spec.clusterIPs = [svc.clusterIP];
    spec.internalTrafficPolicy = svc.internalTrafficPolicy;
    spec.ipFamilies = ['IPv4'];
    spec.ipFamilyPolicy = 'SingleStack';
  } else if (svc.externalName !== undefined) spec.externalName = svc.externalName;
  if (svc.type === 'NodePort' || svc.type === 'LoadBalancer')
    spec.externalTrafficPolicy = svc.externalTrafficPolicy;
  if (svc.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts = true;
  if (svc.healthCheckNodePort !== 0) spec.healthCheckNodePort = svc.healthCheckNodePort;
  if (svc.externalIPs.length > 0) spec.externalIPs = [...svc.externalIPs];
  if (svc.loadBalancerSourceRanges.length > 0)
    spec.loadBalancerSourceRanges = [...svc.loadBalancerSourceRanges];
  if (svc.ports.length > 0) {
    spec.ports = svc.ports.map((p) => {
      const port: Record<string, Json> = {
        port: p.port,
        protocol: p.protocol,
        targetPort: p.targetPort,
      };
      if (p.name !== '') port.name = p.name;
      if (p.nodePort !== 0) port.nodePort = p.nodePort;
      return port;
    });
  }
  if (svc.selector !== undefined) spec.selector = { ...svc.selector };
  if (svc.sessionAffinity === 'ClientIP')
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: svc.sessionAffinityTimeout } };
  const ingress = svc.loadBalancerIngress.map((i): Json => ({
    ip: i.ip,
    ipMode: i.ipMode ?? 'VIP',
  }));
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadata(ctx, svc.meta),
    spec,
    status: { loadBalancer: ingress.length > 0 ? { ingress } : {} },
  };
}

export function endpointSliceObject(ctx: ApiContext, slice: EndpointSlice): Record<string, Json> {
  const svc = ctx.cluster.services.find(
    (s) => s.meta.namespace === slice.meta.namespace && s.meta.name === slice.serviceName,
  );
  const extra: Record<string, Json> = {};
  if (slice.managed && svc !== undefined) {
    // What the endpointslice controller sets: generateName "<service>-", generation, owner.
    extra.generateName = `${slice.serviceName}-`;
    extra.generation = 1;
    extra.ownerReferences = [
      {
        apiVersion: 'v1',
        blockOwnerDeletion: true,
        controller: true,
        kind: 'Service',
        name: svc.meta.name,
        uid: svc.meta.uid,
      },
    ];
  }
  const endpoints = slice.endpoints.map((e) => {
    const ep: Record<string, Json> = {
      addresses: [...e.addresses],
      conditions: {
        ready: e.conditions.ready,
        serving: e.conditions.serving,
        terminating: e.conditions.terminating,
      },
    };
    if (e.nodeName !== undefined) ep.nodeName = e.nodeName;
    if (e.zone !== undefined) ep.zone = e.zone;
    if (e.targetRef !== undefined) {
      const ref = e.targetRef;
      const pod = ctx.cluster.pods.find(
        (p) => p.meta.namespace === ref.namespace && p.meta.name === ref.name,
      );
      ep.targetRef = {
        kind: ref.kind,
        name: ref.name,
        namespace: ref.namespace,
        ...(pod ? { uid: pod.meta.uid } : {}),
      };
    }
    return ep;
  });
  const obj: Record<string, Json> = {
    addressType: slice.addressType,
    apiVersion: 'discovery.k8s.io/v1',
    endpoints: endpoints.length > 0 ? endpoints : null,
    kind: 'EndpointSlice',
    metadata: metadata(ctx, slice.meta, extra),
    ports: slice.ports.map((p) => ({ name: p.name, port: p.port, protocol: p.protocol })),
  };
  if (slice.ports.length === 0) obj.ports = null;
  return obj;
}

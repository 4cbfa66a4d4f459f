/**
 * The EndpointSlice controller (pkg/controller/endpointslice), for Services with a selector:
 *
 * - pods in the Service's namespace whose labels match the selector, that have an address
 *   (podutil.ShouldPodBeInEndpoints; terminating pods stay in, as the
 *   EndpointSliceTerminatingCondition feature has it since 1.26);
 * - conditions: ready = pod Ready and not terminating (or publishNotReadyAddresses),
 *   serving = pod Ready, terminating = deletionTimestamp set;
 * - a named targetPort resolves per pod to the container port with that name and protocol
 *   (podutil.FindPort); a pod without it has no entry for that port, and pods are grouped into
 *   one slice per distinct resolved port set (the reconciler's port-map key), at most 100
 *   endpoints per slice;
 * - a Service that selects nothing still gets one empty placeholder slice;
 * - labels: the Service's own, plus kubernetes.io/service-name and
 *   endpointslice.kubernetes.io/managed-by (and service.kubernetes.io/headless when headless).
 * Services without a selector, ExternalName Services, and Services the scenario already gives
 * slices for are left alone.
 */
import type {
  ClusterNode,
  Endpoint,
  EndpointPort,
  EndpointSlice,
  Pod,
  Service,
} from '../model/cluster';
import { SERVICE_NAME_LABEL } from './decode-endpointslice';
import { uidFor, uniqueGeneratedName } from './hash';

export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const MANAGED_BY_CONTROLLER = 'endpointslice-controller.k8s.io';
const MAX_ENDPOINTS_PER_SLICE = 100;
const ZONE_LABEL = 'topology.kubernetes.io/zone';

export function matchesSelector(
  selector: Readonly<Record<string, string>>,
  labels: Readonly<Record<string, string>>,
): boolean {
  return Object.entries(selector).every(
    ([k, v]) => Object.prototype.hasOwnProperty.call(labels, k) && labels[k] === v,
  );
}

/** podutil.FindPort: a number is used as is; a name must match a container port and protocol. */
export function findPort(pod: Pod, target: number | string, protocol: string): number | undefined {
  if (typeof target === 'number') return target;
  for (const c of pod.containers) {
    for (const p of c.ports)
      if (p.name === target && p.protocol === protocol) return p.containerPort;
  }
  return undefined;
}

export interface SliceContext {
  readonly nodes: readonly ClusterNode[];
  readonly pods: readonly Pod[];
  /** Services given slices by the scenario (namespace/name). */
  readonly userSliced: ReadonlySet<string>;
  /** createdAt of slices that existed before, by namespace/name. */
  readonly previousCreatedAt: ReadonlyMap<string, number>;
  readonly createdAt: number;
  readonly publishNotReady: (svc: Service) => boolean;
}

/**
 * Pods with an address by namespace, and by namespace plus one `label=value`: a Service only
 * looks at the pods that have its selector's rarest pair instead of at every pod (10,000
 * Services × 10,000 pods). Lists keep the pods' order.
 */
class PodIndex {
  private readonly byNamespace = new Map<string, Pod[]>();
  private readonly byLabel = new Map<string, Pod[]>();

  constructor(pods: readonly Pod[]) {
    for (const pod of pods) {
      if (!pod.podIP) continue;
      const ns = pod.meta.namespace;
      push(this.byNamespace, ns, pod);
      for (const [k, v] of Object.entries(pod.meta.labels))
        push(this.byLabel, labelKey(ns, k, v), pod);
    }
  }

  candidates(ns: string, selector: Readonly<Record<string, string>>): readonly Pod[] {
    let best = this.byNamespace.get(ns) ?? [];
    for (const [k, v] of Object.entries(selector)) {
      const list = this.byLabel.get(labelKey(ns, k, v)) ?? [];
      if (list.length < best.length) best = list;
    }
    return best;
  }
}

function labelKey(ns: string, k: string, v: string): string {
  return JSON.stringify([ns, k, v]);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function controllerSlices(services: readonly Service[], ctx: SliceContext): EndpointSlice[] {
  const zones = new Map(ctx.nodes.map((n) => [n.meta.name, n.meta.labels[ZONE_LABEL]]));
  const index = new PodIndex(ctx.pods);
  const out: EndpointSlice[] = [];
  const taken = new Set<string>();
  for (const svc of services) {
    const ns = svc.meta.namespace;
    if (
      !svc.selector ||
      svc.type === 'ExternalName' ||
      ctx.userSliced.has(`${ns}/${svc.meta.name}`)
    )
      continue;
    const selector = svc.selector;
    const groups = new Map<string, { ports: EndpointPort[]; endpoints: Endpoint[] }>();
    for (const pod of index.candidates(ns, selector)) {
      if (pod.meta.namespace !== ns || !pod.podIP || !matchesSelector(selector, pod.meta.labels))
        continue;
      const ports: EndpointPort[] = [];
      for (const sp of svc.ports) {
        const port = findPort(pod, sp.targetPort, sp.protocol);
        if (port !== undefined) ports.push({ name: sp.name, port, protocol: sp.protocol });
      }
      const key = JSON.stringify(ports);
      const group = groups.get(key) ?? { ports, endpoints: [] };
      groups.set(key, group);
      const publish = ctx.publishNotReady(svc);
      const zone = zones.get(pod.nodeName);
      group.endpoints.push({
        addresses: [pod.podIP],
        conditions: {
          ready: publish || (pod.ready && !pod.terminating),
          serving: pod.ready,
          terminating: pod.terminating,
        },
        ...(pod.nodeName ? { nodeName: pod.nodeName } : {}),
        ...(zone ? { zone } : {}),
        targetRef: { kind: 'Pod', name: pod.meta.name, namespace: ns },
      });
    }
    if (groups.size === 0) groups.set('[]', { ports: [], endpoints: [] });
    for (const [key, group] of groups) {
      for (
        let chunk = 0;
        chunk * MAX_ENDPOINTS_PER_SLICE < Math.max(group.endpoints.length, 1);
        chunk++
      ) {
        const endpoints = group.endpoints.slice(
          chunk * MAX_ENDPOINTS_PER_SLICE,
          (chunk + 1) * MAX_ENDPOINTS_PER_SLICE,
        );
        out.push(makeSlice(svc, key, chunk, group.ports, endpoints, taken, ctx));
      }
    }
  }
  return out;
}

function makeSlice(
  svc: Service,
  portKey: string,
  chunk: number,
  ports: readonly EndpointPort[],
  endpoints: readonly Endpoint[],
  taken: Set<string>,
  ctx: SliceContext,
): EndpointSlice {
  const ns = svc.meta.namespace;
  const base = `${svc.meta.name}-`.slice(0, 58);
  const seed = `EndpointSlice/${ns}/${svc.meta.name}/${portKey}/${chunk}`;
  const name = uniqueGeneratedName(ns, base, seed, taken);
  const labels: Record<string, string> = { ...svc.meta.labels };
  delete labels['service.kubernetes.io/headless'];
  labels[SERVICE_NAME_LABEL] = svc.meta.name;
  labels[MANAGED_BY_LABEL] = MANAGED_BY_CONTROLLER;
  if (svc.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
  return {
    meta: {
      name,
      namespace: ns,
      labels,
      annotations: {},
      uid: uidFor('EndpointSlice', ns, name),
      createdAt: ctx.previousCreatedAt.get(`${ns}/${name}`) ?? ctx.createdAt,
    },
    serviceName: svc.meta.name,
    addressType: 'IPv4',
    endpoints,
    ports,
    managed: true,
  };
}

/**
 * What decides a partial sync: kube-proxy's ServiceChangeTracker and EndpointsChangeTracker
 * report the Services (namespace/name) whose ServicePortInfos or EndpointSlices changed
 * since the last sync: `UpdatedServices` (change-detection.ts says what counts as a change).
 *
 * Comparing every Service's data on every sync is what made syncs slow, so the tracker keeps
 * per-Service state ("units") and only looks at what can have changed: Cluster objects are
 * immutable, so a unit whose Service and slice objects are the very same as last time is
 * unchanged, and only units with replaced objects are compared (an equal replacement, e.g.
 * from the scenario loader re-running its controllers, is not a change).
 *
 * The tracker also owns each service port's endpoints and the global port order, so that an
 * unchanged Service costs nothing beyond a few identity checks.
 */
import type { Cluster, EndpointSlice, Service } from '../../model/cluster';
import { endpointsFromSlices, type EndpointInfo } from '../endpoints';
import {
  compareServicePorts,
  serviceDerivation,
  servicePortKey,
  type ServicePortInfo,
} from '../service-port';
import { sameServicePorts, sameSliceData, serviceKeyOf, sliceKeyOf } from './change-detection';
import { EMPTY_GROUP, regroup, type Group, type Regrouping } from './object-groups';
import type { PortFragment } from './service-fragment';

export interface PortState {
  /** namespace/name: the unit of UpdatedServices. */
  readonly unitKey: string;
  readonly info: ServicePortInfo;
  /** The Service object and port index it came from: cluster order breaks sort ties. */
  svc: Service;
  portIndex: number;
  endpoints: readonly EndpointInfo[];
  /** The rendered port (owned by the service section); stale once in `rerender`. */
  fragment: PortFragment | undefined;
  /** Index in the port order (owned by the service section). */
  position: number;
}

export interface TrackerUpdate {
  /** UpdatedServices: namespace/names added, removed or changed since the last update. */
  readonly updated: ReadonlySet<string>;
  /** Every service port, in kube-proxy's order (S, then protocol); a new array when it changed. */
  readonly ports: readonly PortState[];
  /** Ports to render: new ones, and those whose endpoints changed. */
  readonly rerender: readonly PortState[];
  /** Fragments of ports that are gone (their chains may now be stale). */
  readonly released: readonly PortFragment[];
  /** Endpoints over all service ports (large-cluster mode). */
  readonly totalEndpoints: number;
}

/** Everything kube-proxy watches for one namespace/name. */
interface Unit {
  /** Non-skipped Services with ports, and all EndpointSlices, in cluster order. */
  services: Group<Service>;
  slices: Group<EndpointSlice>;
  ports: PortState[];
}

/** What one update found, gathered across namespace/names. */
interface Changes {
  readonly updated: Set<string>;
  readonly released: PortFragment[];
  readonly rerender: PortState[];
  readonly added: PortState[];
  readonly dropped: Set<PortState>;
}

const sameElements = <T>(a: readonly T[], b: readonly T[]): boolean =>
  a === b || (a.length === b.length && a.every((x, i) => x === b[i]));

/** A unit's service ports (service-port order, cluster order on ties), without endpoints. */
function portEntries(
  services: readonly Service[],
): { info: ServicePortInfo; svc: Service; portIndex: number }[] {
  const entries = services.flatMap((svc) => {
    const d = serviceDerivation(svc);
    return d.infos.map((info, i) => ({ info, svc, portIndex: d.portIndexes[i]! }));
  });
  return services.length > 1
    ? entries.sort((a, b) => compareServicePorts(a.info, b.info))
    : entries;
}

const NO_ENDPOINTS: readonly EndpointInfo[] = [];

/** A key's new group, or (when that side was not regrouped or not for this key) its old one. */
function groupFor<T>(
  r: Regrouping<T> | undefined,
  key: string,
  kept: Group<T> | undefined,
): Group<T> {
  return r?.groups.get(key) ?? (r?.complete ? EMPTY_GROUP : (kept ?? EMPTY_GROUP));
}

export class ServiceChangeTracker {
  private readonly units = new Map<string, Unit>();
  private order: PortState[] = [];
  private lastServices: readonly Service[] = [];
  private lastSlices: readonly EndpointSlice[] = [];
  private totalEndpoints = 0;

  constructor(private readonly nodeName: string) {}

  update(cluster: Pick<Cluster, 'services' | 'endpointSlices'>): TrackerUpdate {
    const acc: Changes = {
      updated: new Set(),
      released: [],
      rerender: [],
      added: [],
      dropped: new Set(),
    };
    const svcRegroup = regroup(
      this.lastServices,
      cluster.services,
      serviceKeyOf,
      (key) => this.units.get(key)?.services,
    );
    const sliceRegroup = regroup(
      this.lastSlices,
      cluster.endpointSlices,
      sliceKeyOf,
      (key) => this.units.get(key)?.slices,
    );
    this.lastServices = cluster.services;
    this.lastSlices = cluster.endpointSlices;

    if (svcRegroup || sliceRegroup) {
      // The keys that may have changed; a side that was not regrouped keeps its groups.
      const keys = new Set([
        ...(svcRegroup?.groups.keys() ?? []),
        ...(sliceRegroup?.groups.keys() ?? []),
      ]);
      if (svcRegroup?.complete || sliceRegroup?.complete) {
        for (const key of this.units.keys()) keys.add(key);
      }
      for (const key of keys) {
        const unit = this.units.get(key);
        const services = groupFor(svcRegroup, key, unit?.services);
        const slices = groupFor(sliceRegroup, key, unit?.slices);
        this.reconcile(key, unit, services, slices, acc);
      }
      // The Services list changed: ports may have come or gone, or moved in cluster order
      // (which breaks ties). Sort again; the previous order is nearly sorted, which TimSort
      // takes in about n steps.
      if (svcRegroup) {
        const kept = this.order.filter((p) => !acc.dropped.has(p));
        this.order = sortPorts([...kept, ...acc.added], cluster.services);
      }
    }
    const { updated, rerender, released } = acc;
    return { updated, ports: this.order, rerender, released, totalEndpoints: this.totalEndpoints };
  }

  /** The current service ports of these namespace/names. */
  portsOf(keys: Iterable<string>): PortState[] {
    return [...keys].flatMap((key) => this.units.get(key)?.ports ?? []);
  }

  /** Brings one namespace/name up to date with its current Services and slices. */
  private reconcile(
    key: string,
    unit: Unit | undefined,
    services: Group<Service>,
    slices: Group<EndpointSlice>,
    acc: Changes,
  ): void {
    const sameServices = unit !== undefined && sameElements(unit.services.items, services.items);
    const sameSlices = unit !== undefined && sameElements(unit.slices.items, slices.items);
    const servicesChanged =
      !sameServices && (!unit || !sameServicePorts(unit.services.items, services.items));
    const slicesChanged = !sameSlices && (!unit || !sameSliceData(unit.slices.items, slices.items));
    if (servicesChanged || slicesChanged) acc.updated.add(key);
    const gone = services.items.length === 0 && slices.items.length === 0;

    if (unit && (servicesChanged || gone)) {
      for (const port of unit.ports) {
        acc.dropped.add(port);
        this.totalEndpoints -= port.endpoints.length;
        if (port.fragment) acc.released.push(port.fragment);
      }
    }
    if (gone) {
      this.units.delete(key);
      return;
    }
    if (!unit || servicesChanged) {
      const ports = this.newPorts(key, services.items, slices.items);
      this.units.set(key, { services, slices, ports });
      for (const port of ports) this.totalEndpoints += port.endpoints.length;
      acc.added.push(...ports);
      acc.rerender.push(...ports);
      return;
    }
    // Same ServicePortInfos: keep the port states (and their fragments unless the
    // endpoints changed), pointing them at the current objects for tie-breaking.
    if (!sameServices) {
      const [only] = services.items;
      if (services.items.length === 1) for (const port of unit.ports) port.svc = only!;
      else {
        portEntries(services.items).forEach((e, i) => {
          const port = unit.ports[i]!;
          port.svc = e.svc;
          port.portIndex = e.portIndex;
        });
      }
    }
    if (slicesChanged) {
      const endpoints = endpointsFromSlices(slices.items, this.nodeName);
      for (const port of unit.ports) {
        const now = endpointsOf(endpoints, key, port.info);
        this.totalEndpoints += now.length - port.endpoints.length;
        port.endpoints = now;
        acc.rerender.push(port);
      }
    }
    // Always take the new groups: their positions refer to the new lists.
    unit.services = services;
    unit.slices = slices;
  }

  private newPorts(
    key: string,
    services: readonly Service[],
    slices: readonly EndpointSlice[],
  ): PortState[] {
    const entries = portEntries(services);
    const endpoints = entries.length > 0 ? endpointsFromSlices(slices, this.nodeName) : undefined;
    return entries.map(({ info, svc, portIndex }) => ({
      unitKey: key,
      info,
      svc,
      portIndex,
      endpoints: endpoints ? endpointsOf(endpoints, key, info) : NO_ENDPOINTS,
      fragment: undefined,
      position: -1,
    }));
  }
}

/** The slice port must match the service port's name and protocol (`endpointsFor`). */
function endpointsOf(
  map: ReadonlyMap<string, readonly EndpointInfo[]>,
  key: string,
  info: ServicePortInfo,
): readonly EndpointInfo[] {
  return map.get(servicePortKey(key, info.portName, info.protocol)) ?? NO_ENDPOINTS;
}

/** Service-port order; equal S and protocol keep cluster order (Service, then port). */
function sortPorts(ports: PortState[], services: readonly Service[]): PortState[] {
  let clusterIndex: Map<Service, number> | undefined;
  const indexOf = (svc: Service): number => {
    if (!clusterIndex) {
      clusterIndex = new Map();
      services.forEach((s, i) => {
        if (!clusterIndex!.has(s)) clusterIndex!.set(s, i);
      });
    }
    return clusterIndex.get(svc) ?? -1;
  };
  return ports.sort(
    (a, b) =>
      compareServicePorts(a.info, b.info) ||
      (a.svc === b.svc ? 0 : indexOf(a.svc) - indexOf(b.svc)) ||
      a.portIndex - b.portIndex,
  );
}

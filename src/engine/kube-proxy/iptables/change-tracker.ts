/**
 * What decides a partial sync: kube-proxy's ServiceChangeTracker and EndpointsChangeTracker
 * (pkg/proxy/servicechangetracker.go, endpointschangetracker.go) report the Services
 * (namespace/name) whose ServicePortInfos (compared with DeepEqual) or EndpointSlices
 * (`esDataChanged`) changed since the last sync: `UpdatedServices`. The lab compares
 * fingerprints of the same data between consecutive syncs.
 */
import type { Cluster } from '../../model/cluster';
import { compareStrings, type ServicePortInfo } from '../service-port';

export type Fingerprints = ReadonlyMap<string, string>;

export function serviceFingerprints(
  cluster: Pick<Cluster, 'endpointSlices'>,
  services: readonly ServicePortInfo[],
): Fingerprints {
  const parts = new Map<string, unknown[]>();
  const add = (key: string, value: unknown): void => {
    const list = parts.get(key);
    if (list) list.push(value);
    else parts.set(key, [value]);
  };
  for (const svc of services) add(svc.serviceKey, svc);
  const slices = [...cluster.endpointSlices].sort((a, b) =>
    compareStrings(a.meta.name, b.meta.name),
  );
  for (const s of slices) {
    const { name, labels } = s.meta;
    add(`${s.meta.namespace}/${s.serviceName}`, {
      name,
      labels,
      ports: s.ports,
      endpoints: s.endpoints,
    });
  }
  return new Map([...parts].map(([key, list]) => [key, JSON.stringify(list)]));
}

/** Services added, removed or changed between two syncs. */
export function updatedServices(before: Fingerprints, after: Fingerprints): Set<string> {
  const out = new Set<string>();
  for (const [key, value] of after) if (before.get(key) !== value) out.add(key);
  for (const key of before.keys()) if (!after.has(key)) out.add(key);
  return out;
}

/**
 * When a Service's data counts as changed (kube-proxy's `UpdatedServices`): its
 * ServicePortInfos differ (servicechangetracker.go compares them with DeepEqual), or its
 * EndpointSlices do (endpointslicecache.go `esDataChanged`: ports and endpoints, here also
 * the slice's name and labels). The lab defines "differ" as "differ once written as JSON"
 * (ServicePortInfos in service-port order, slices in name order), and compares without
 * writing any JSON: the tracker runs this for every replaced object, and the scenario loader
 * replaces every object on each change.
 */
import type { EndpointSlice, Service } from '../../model/cluster';
import {
  compareServicePorts,
  compareStrings,
  serviceDerivation,
  shouldSkipService,
} from '../service-port';

/** namespace/name of a Service kube-proxy programs (one with ports, not skipped). */
export const serviceKeyOf = (svc: Service): string | undefined =>
  svc.ports.length === 0 || shouldSkipService(svc)
    ? undefined
    : `${svc.meta.namespace}/${svc.meta.name}`;

const sliceKeys = new WeakMap<EndpointSlice, string>();

/** namespace/name of the Service a slice belongs to (cached: slices are read on every sync). */
export function sliceKeyOf(slice: EndpointSlice): string {
  let key = sliceKeys.get(slice);
  if (key === undefined) {
    sliceKeys.set(slice, (key = `${slice.meta.namespace}/${slice.serviceName}`));
  }
  return key;
}

/** The ServicePortInfos of these Services (in cluster order) equal those of `after`. */
export function sameServicePorts(before: readonly Service[], after: readonly Service[]): boolean {
  // Equal inputs give equal ServicePortInfos; most replaced Services are equal copies
  // (metadata such as the source line aside), and this spares deriving them.
  if (before.length === after.length && before.every((s, i) => sameServiceInputs(s, after[i]!))) {
    return true;
  }
  return jsonEqual(sortedInfos(before), sortedInfos(after));
}

/** The slices' data (name, labels, ports, endpoints; in name order) equals that of `after`. */
export function sameSliceData(
  before: readonly EndpointSlice[],
  after: readonly EndpointSlice[],
): boolean {
  if (before.length !== after.length) return false;
  const a = byName(before);
  const b = byName(after);
  return a.every((s, i) => {
    const t = b[i]!;
    return (
      s.meta.name === t.meta.name &&
      jsonEqual(s.meta.labels, t.meta.labels) &&
      jsonEqual(s.ports, t.ports) &&
      jsonEqual(s.endpoints, t.endpoints)
    );
  });
}

/** Everything ServicePortInfos are built from: the spec, and the name and labels. */
function sameServiceInputs(a: Service, b: Service): boolean {
  if (a === b) return true;
  const { meta: ma, ...specA } = a;
  const { meta: mb, ...specB } = b;
  return (
    ma.namespace === mb.namespace &&
    ma.name === mb.name &&
    jsonEqual(ma.labels, mb.labels) &&
    jsonEqual(specA, specB)
  );
}

/** A stable sort of the per-Service (sorted) lists keeps cluster order on ties, as kube-proxy's order does. */
const sortedInfos = (services: readonly Service[]): unknown[] =>
  services.flatMap((s) => serviceDerivation(s).infos).sort(compareServicePorts);

const byName = (slices: readonly EndpointSlice[]): readonly EndpointSlice[] =>
  slices.length < 2 ? slices : [...slices].sort((a, b) => compareStrings(a.meta.name, b.meta.name));

/**
 * `JSON.stringify(a) === JSON.stringify(b)` for plain data, without building the strings:
 * same keys in the same order (undefined-valued ones left out), same array lengths, and
 * leaves that print the same. Written with plain loops: it visits every endpoint.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // Primitives that differ can still print alike (NaN, Infinity and null).
    return JSON.stringify(a) === JSON.stringify(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      // An undefined element prints as null.
      if (!jsonEqual(a[i] === undefined ? null : a[i], b[i] === undefined ? null : b[i])) {
        return false;
      }
    }
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  for (let i = 0, j = 0; ; i++, j++) {
    while (i < ka.length && ra[ka[i]!] === undefined) i++;
    while (j < kb.length && rb[kb[j]!] === undefined) j++;
    if (i === ka.length || j === kb.length) return i === ka.length && j === kb.length;
    if (ka[i] !== kb[j] || !jsonEqual(ra[ka[i]!], rb[kb[j]!])) return false;
  }
}

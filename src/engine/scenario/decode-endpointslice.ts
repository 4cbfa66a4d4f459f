/**
 * discovery.k8s.io/v1 EndpointSlice, validated as pkg/apis/discovery/validation does. Written
 * slices are how a scenario gives endpoints to a Service without a selector (default/kubernetes
 * → the API server's address) or stages endpoint states by hand (not ready, terminating).
 *
 * Condition defaults follow the API's documented meaning, which kube-proxy applies: an unset
 * `ready` is treated as ready, an unset `serving` as equal to `ready`, an unset `terminating`
 * as false.
 */
import type { Endpoint, EndpointPort, Protocol } from '../model/cluster';
import { decodeMeta } from './decode-meta';
import { PROTOCOLS } from './decode-pod';
import type { SliceDraft } from './drafts';
import { listMaps } from './reader';
import type { MapReader } from './reader';
import type { ObjectReport } from './report';
import { dns1123Label, dns1123Subdomain, ipAddress, portNum } from './validate-common';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];

export function decodeEndpointSlice(root: MapReader): SliceDraft | undefined {
  const rep = root.rep;
  const meta = decodeMeta(root, { namespaced: true, nameRule: dns1123Subdomain });
  const addressType = root.str('addressType');
  if (!addressType) rep.field(root.anchor, 'addressType', { type: 'required' });
  else if (!ADDRESS_TYPES.includes(addressType.value)) {
    rep.field(addressType.start, 'addressType', {
      type: 'notSupported',
      value: addressType.value,
      supported: ADDRESS_TYPES,
    });
  } else if (addressType.value !== 'IPv4') {
    rep.field(addressType.start, 'addressType', {
      type: 'invalid',
      value: addressType.value,
      detail: 'the lab models an IPv4 single-stack cluster: only IPv4 slices are supported',
    });
  }
  const endpoints = listMaps(rep, root.list('endpoints')).map((e) => decodeEndpoint(rep, e));
  const ports: EndpointPort[] = [];
  const names = new Set<string>();
  for (const p of listMaps(rep, root.list('ports'))) {
    const name = p.str('name');
    const port = p.int('port');
    const protocol = p.str('protocol');
    p.ignore('appProtocol');
    p.finish();
    const n = name?.value ?? '';
    if (n) {
      for (const msg of dns1123Label(n))
        rep.field(name?.start ?? p.anchor, `${p.path}.name`, {
          type: 'invalid',
          value: n,
          detail: msg,
        });
    }
    if (names.has(n))
      rep.field(name?.start ?? p.anchor, `${p.path}.name`, { type: 'duplicate', value: n });
    names.add(n);
    const proto = protocol?.value ?? 'TCP';
    if (!PROTOCOLS.includes(proto as Protocol)) {
      rep.field(protocol?.start ?? p.anchor, `${p.path}.protocol`, {
        type: 'notSupported',
        value: proto,
        supported: PROTOCOLS,
      });
    }
    if (!port) {
      // A nil port means "all ports" in the API; kube-proxy cannot program that, so the lab
      // skips it as kube-proxy does.
      rep.warn(
        p.anchor,
        `${p.path}.port is not set: kube-proxy ignores this port`,
        `${p.path}.port`,
      );
      continue;
    }
    for (const msg of portNum(port.value))
      rep.field(port.start, `${p.path}.port`, { type: 'invalid', value: port.value, detail: msg });
    ports.push({ name: n, port: port.value, protocol: proto as Protocol });
  }
  const serviceName = meta?.labels[SERVICE_NAME_LABEL];
  if (!serviceName) {
    rep.warn(
      root.anchor,
      `EndpointSlice has no ${SERVICE_NAME_LABEL} label: kube-proxy ignores it`,
    );
  }
  root.finish();
  if (rep.errors > 0) return undefined;
  return {
    meta,
    serviceName: serviceName ?? '',
    addressType: 'IPv4',
    endpoints: endpoints.filter((e): e is Endpoint => e !== undefined),
    ports,
  };
}

function decodeEndpoint(rep: ObjectReport, e: MapReader): Endpoint | undefined {
  const before = rep.errors;
  const addresses = e.strList('addresses') ?? [];
  if (addresses.length === 0) {
    rep.field(e.anchor, `${e.path}.addresses`, {
      type: 'required',
      detail: 'must contain at least 1 address',
    });
  }
  addresses.forEach((a, i) => {
    const errs = ipAddress(a.value);
    // IsValidIPv4Address's single message for IPv4 slices.
    if (errs.length)
      rep.field(a.start, `${e.path}.addresses[${i}]`, {
        type: 'invalid',
        value: a.value,
        detail: 'must be a valid IPv4 address',
      });
  });
  const cond = e.map('conditions');
  const ready = cond?.bool('ready')?.value ?? true;
  const serving = cond?.bool('serving')?.value ?? ready;
  const terminating = cond?.bool('terminating')?.value ?? false;
  cond?.finish();
  const nodeName = e.str('nodeName');
  if (nodeName) {
    for (const msg of dns1123Subdomain(nodeName.value)) {
      rep.field(nodeName.start, `${e.path}.nodeName`, {
        type: 'invalid',
        value: nodeName.value,
        detail: msg,
      });
    }
  }
  const zone = e.str('zone');
  const ref = e.map('targetRef');
  const kind = ref?.str('kind');
  const name = ref?.str('name');
  const namespace = ref?.str('namespace');
  ref?.ignore('uid', 'apiVersion', 'resourceVersion', 'fieldPath');
  ref?.finish();
  e.ignore('hostname', 'hints', 'deprecatedTopology');
  e.finish();
  if (rep.errors > before) return undefined;
  return {
    addresses: addresses.map((a) => a.value),
    conditions: { ready, serving, terminating },
    ...(nodeName ? { nodeName: nodeName.value } : {}),
    ...(zone ? { zone: zone.value } : {}),
    ...(ref && name
      ? {
          targetRef: {
            kind: kind?.value ?? 'Pod',
            name: name.value,
            namespace: namespace?.value ?? '',
          },
        }
      : {}),
  };
}

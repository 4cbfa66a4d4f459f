/**
 * The hashes Kubernetes sorts Endpoints by (pkg/api/v1/endpoints SortSubsets: ports and subsets
 * by the MD5 of hashutil.DeepHashObject's dump, k8s.io/utils/dump ForHash).
 */
import { md5 } from '@noble/hashes/legacy.js';
import { utf8Encode } from '../../kube-proxy/hash';
import type { EndpointsAddress, EndpointsPort, EndpointsSubset } from './endpoints';

// go-spew's `%#v` of the core/v1 types with ForHash's settings (pointers followed, no
// addresses): strings unquoted, nil slices and pointers `<nil>`. Checked against go-spew 1.1.1
// (endpoints.test.ts has the dumps and digests Go printed).
const spewString = (s: string | undefined) =>
  s === undefined ? '(*string)<nil>' : `(*string)${s}`;

export function spewPort(p: EndpointsPort): string {
  return `(v1.EndpointPort){Name:(string)${p.name} Port:(int32)${p.port} Protocol:(v1.Protocol)${p.protocol} AppProtocol:(*string)<nil>}`;
}

function spewAddressFields(a: EndpointsAddress): string {
  const ref = a.targetRef;
  const target =
    ref === undefined
      ? '(*v1.ObjectReference)<nil>'
      : `(*v1.ObjectReference){Kind:(string)${ref.kind} Namespace:(string)${ref.namespace} Name:(string)${ref.name} UID:(types.UID)${ref.uid} APIVersion:(string) ResourceVersion:(string) FieldPath:(string)}`;
  return `{IP:(string)${a.ip} Hostname:(string) NodeName:${spewString(a.nodeName)} TargetRef:${target}}`;
}

const spewList = <T>(type: string, list: readonly T[], item: (x: T) => string): string =>
  list.length === 0 ? `([]${type})<nil>` : `([]${type})[${list.map(item).join(' ')}]`;

export function spewSubset(s: EndpointsSubset): string {
  return (
    `(v1.EndpointSubset){Addresses:${spewList('v1.EndpointAddress', s.addresses, spewAddressFields)} ` +
    `NotReadyAddresses:${spewList('v1.EndpointAddress', s.notReadyAddresses, spewAddressFields)} ` +
    `Ports:${spewList('v1.EndpointPort', s.ports, (p) => spewPort(p).slice('(v1.EndpointPort)'.length))}}`
  );
}

/** The hex MD5 of a dump: the hashes compare as bytes, which hex digits compare alike. */
export function md5Hex(text: string): string {
  return Array.from(md5(utf8Encode(text)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function byHash<T>(list: readonly T[], dump: (x: T) => string): T[] {
  const keyed = list.map((x) => ({ x, h: md5Hex(dump(x)) }));
  keyed.sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
  return keyed.map((k) => k.x);
}

/**
 * v1 Endpoints as the endpoints controller packs and sorts them. Expected dumps and digests:
 * printed by Go 1.19 with go-spew 1.1.1 (Debian golang-go, golang-github-davecgh-go-spew-dev)
 * under k8s.io/utils/dump ForHash's ConfigState (Indent " ", SortKeys, DisableMethods, SpewKeys,
 * DisablePointerAddresses, DisableCapacities), `%#v` of structs declared like core/v1's
 * EndpointPort, EndpointAddress, ObjectReference (UID as types.UID) and EndpointSubset, then
 * crypto/md5. Packing and ordering: kubernetes pkg/api/v1/endpoints util.go (RepackSubsets,
 * SortSubsets, LessEndpointAddress); the cell: pkg/printers/internalversion printers.go
 * formatEndpoints.
 */
import { describe, expect, it } from 'vitest';
import {
  formatEndpoints,
  repackSubsets,
  type EndpointsAddress,
  type EndpointsSubset,
} from './endpoints';
import { md5Hex, spewPort, spewSubset } from './endpoints-hash';

const GO_PORTS: readonly [string, number, string, string][] = [
  ['dns', 53, 'UDP', '3e9daf8e22f0b0da6aaa1a1b052ee929'],
  ['dns-tcp', 53, 'TCP', '3b6a791b41850c40c712b5cc585449ae'],
  ['metrics', 9153, 'TCP', '76a75f39dbd6b3fab90a4598c77a8984'],
  ['', 8080, 'TCP', 'ca90e29ee3665e5029fabda7c226b84c'],
  ['http', 8080, 'TCP', 'fc51ca7087ce52e70c38709727f8f0b6'],
];

const pod = (ip: string, node: string, name: string, uidTail: string): EndpointsAddress => ({
  ip,
  nodeName: node,
  targetRef: {
    kind: 'Pod',
    namespace: 'default',
    name,
    uid: `0b6c3d5e-1111-4a2b-8c3d-00000000000${uidTail}`,
  },
});
const web1 = pod('10.244.0.4', 'node-1', 'web-1', '1');
const web2 = pod('10.244.1.2', 'node-2', 'web-2', '2');
const http = { name: 'http', port: 8080, protocol: 'TCP' };
const metrics = { name: 'metrics', port: 9090, protocol: 'TCP' };

describe('the go-spew dumps the controller hashes', () => {
  it('dumps an EndpointPort as Go does, and its MD5 is Go’s', () => {
    expect(spewPort({ name: 'dns', port: 53, protocol: 'UDP' })).toBe(
      '(v1.EndpointPort){Name:(string)dns Port:(int32)53 Protocol:(v1.Protocol)UDP AppProtocol:(*string)<nil>}',
    );
    for (const [name, port, protocol, digest] of GO_PORTS)
      expect(md5Hex(spewPort({ name, port, protocol }))).toBe(digest);
  });

  it('dumps subsets: pointers followed, nil lists <nil>', () => {
    const both: EndpointsSubset = { addresses: [web1, web2], notReadyAddresses: [], ports: [http] };
    expect(md5Hex(spewSubset(both))).toBe('7c72846882d30fad627057075cee6c8e');
    const split: EndpointsSubset = {
      addresses: [web1],
      notReadyAddresses: [web2],
      ports: [metrics],
    };
    expect(md5Hex(spewSubset(split))).toBe('4b653df54dbb376f389f5a250e06ac97');
    const bare: EndpointsSubset = {
      addresses: [],
      notReadyAddresses: [{ ip: '192.168.1.10' }],
      ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
    };
    expect(spewSubset(bare)).toBe(
      '(v1.EndpointSubset){Addresses:([]v1.EndpointAddress)<nil> NotReadyAddresses:([]v1.EndpointAddress)[{IP:(string)192.168.1.10 Hostname:(string) NodeName:(*string)<nil> TargetRef:(*v1.ObjectReference)<nil>}] Ports:([]v1.EndpointPort)[{Name:(string)https Port:(int32)6443 Protocol:(v1.Protocol)TCP AppProtocol:(*string)<nil>}]}',
    );
    expect(md5Hex(spewSubset(bare))).toBe('aa3c1d9065f514fb9a6c261634e45d67');
  });
});

describe('RepackSubsets and SortSubsets', () => {
  it('orders ports by digest: kube-dns is dns-tcp, dns, metrics', () => {
    const entries = [
      { name: 'dns', port: 53, protocol: 'UDP' },
      { name: 'dns-tcp', port: 53, protocol: 'TCP' },
      { name: 'metrics', port: 9153, protocol: 'TCP' },
    ].flatMap((port) => [web2, web1].map((addr) => ({ addr, port, ready: true })));
    const [subset, ...rest] = repackSubsets(entries);
    expect(rest).toEqual([]);
    expect(subset?.ports.map((p) => p.name)).toEqual(['dns-tcp', 'dns', 'metrics']);
    expect(subset?.addresses.map((a) => a.ip)).toEqual(['10.244.0.4', '10.244.1.2']);
    expect(formatEndpoints([subset!])).toBe(
      '10.244.0.4:53,10.244.1.2:53,10.244.0.4:53 + 3 more...',
    );
  });

  it('splits ports whose addresses differ, and orders the subsets by digest', () => {
    // web-2 has no container port `metrics`, and is not ready: it serves http only.
    const subsets = repackSubsets([
      { addr: web1, port: http, ready: true },
      { addr: web2, port: http, ready: true },
      { addr: web1, port: metrics, ready: true },
      { addr: web2, port: metrics, ready: false },
    ]);
    // 4b65… (metrics) sorts before 7c72… (http).
    expect(subsets.map((s) => s.ports.map((p) => p.name))).toEqual([['metrics'], ['http']]);
    expect(subsets[0]?.notReadyAddresses).toEqual([web2]);
    // Only ready addresses are listed: web-2 once, for http.
    expect(formatEndpoints(subsets)).toBe('10.244.0.4:9090,10.244.0.4:8080,10.244.1.2:8080');
  });

  it('sorts addresses as bytes (10.244.0.10 before 10.244.0.2); not ready wins', () => {
    const a = { ...web1, ip: '10.244.0.2' };
    const b = { ...web2, ip: '10.244.0.10' };
    const [s] = repackSubsets([
      { addr: a, port: http, ready: true },
      { addr: b, port: http, ready: true },
      { addr: b, port: http, ready: false },
    ]);
    expect(s?.addresses.map((x) => x.ip)).toEqual(['10.244.0.2']);
    expect(s?.notReadyAddresses.map((x) => x.ip)).toEqual(['10.244.0.10']);
  });

  it('keeps addresses without ports (headless, no ports) in one subset with no ports', () => {
    const subsets = repackSubsets([
      { addr: web2, port: undefined, ready: true },
      { addr: web1, port: undefined, ready: true },
    ]);
    expect(subsets).toEqual([{ addresses: [web1, web2], notReadyAddresses: [], ports: [] }]);
    expect(formatEndpoints(subsets)).toBe('10.244.0.4,10.244.1.2');
  });
});

describe('formatEndpoints', () => {
  it('<none> without subsets, nothing when no address is ready', () => {
    expect(formatEndpoints([])).toBe('<none>');
    expect(formatEndpoints([{ addresses: [], notReadyAddresses: [web1], ports: [http] }])).toBe('');
  });
});

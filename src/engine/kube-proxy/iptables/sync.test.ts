/**
 * Sync bookkeeping (pkg/proxy/iptables/proxier.go syncProxyRules): full vs partial syncs,
 * UpdatedServices granularity, stale-chain deletion and the SyncResult statistics.
 */
import { describe, expect, it } from 'vitest';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  slicePort,
  upstreamProxierOptions,
} from '../testing/fixtures';
import { declaredChains } from '../testing/iptables-dump';
import { createIptablesProxier } from './proxier';

const svc1 = service('ns1', 'svc1', '172.30.0.41');
const svc2 = service('ns2', 'svc2', '172.30.0.42', { ports: [port('a', 80), port('b', 81)] });
const slices = [
  slice('ns1', 'svc1', [endpoint('10.180.0.1')]),
  slice('ns2', 'svc2', [endpoint('10.180.0.2')], [slicePort('a', 80), slicePort('b', 81)]),
];
const TOP = ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING', 'KUBE-MARK-MASQ'];

describe('full and partial syncs', () => {
  it('the first sync is full; an unchanged cluster then writes only the top-level chains', () => {
    const proxier = createIptablesProxier(upstreamProxierOptions());
    const first = proxier.sync(cluster([svc1, svc2], slices));
    expect(first.full).toBe(true);
    expect(first.jumpRulesEnsured).toBe(true);
    expect(first.servicesWritten).toEqual(['ns1/svc1', 'ns2/svc2']);
    expect(first.chainsWritten).toHaveLength(6); // 3 SVC + 3 SEP
    const second = proxier.sync(cluster([svc1, svc2], slices));
    expect(second.full).toBe(false);
    expect(second.jumpRulesEnsured).toBe(false);
    expect(declaredChains(second.restoreInput, 'nat')).toEqual(TOP);
    expect(second.chainsWritten).toEqual([]);
    // The nat rule total still counts the skipped service chains (kube-proxy's metric).
    expect(second.natRulesTotal).toBe(first.natRulesTotal);
    expect(second.natRules).toBeLessThan(first.natRules);
  });

  it('a change rewrites every port of that Service (UpdatedServices is per namespace/name)', () => {
    const proxier = createIptablesProxier(upstreamProxierOptions());
    proxier.sync(cluster([svc1, svc2], slices));
    const changed = [
      slices[0]!,
      slice('ns2', 'svc2', [endpoint('10.180.0.2')], [slicePort('a', 80), slicePort('b', 82)]),
    ];
    const out = proxier.sync(cluster([svc1, svc2], changed));
    expect(out.servicesWritten).toEqual(['ns2/svc2']);
    expect(out.chainsWritten.filter((c) => c.startsWith('KUBE-SVC-'))).toHaveLength(2);
    expect(out.chainsDeleted).toHaveLength(1); // the SEP for 10.180.0.2:81
  });

  it('a Service spec change alone (a new NodePort) rewrites that Service', () => {
    const proxier = createIptablesProxier(upstreamProxierOptions());
    proxier.sync(cluster([svc1, svc2], slices));
    const np = service('ns1', 'svc1', '172.30.0.41', {
      type: 'NodePort',
      ports: [port('p80', 80, { nodePort: 30080 })],
    });
    const out = proxier.sync(cluster([np, svc2], slices));
    expect(out.servicesWritten).toEqual(['ns1/svc1']);
    expect(out.chainsWritten[0]).toBe('KUBE-EXT-XPGD46QRK7WJZT7O');
  });

  it('forceFullSync (canary gone) and the hourly period make the next sync full', () => {
    const proxier = createIptablesProxier(upstreamProxierOptions());
    const c = cluster([svc1], slices);
    proxier.sync(c, { now: 0 });
    expect(proxier.sync(c, { now: 1000 }).full).toBe(false);
    proxier.forceFullSync();
    expect(proxier.sync(c, { now: 2000 }).full).toBe(true);
    expect(proxier.sync(c, { now: 2000 + 3600_000 }).full).toBe(false);
    expect(proxier.sync(c, { now: 2001 + 3600_000 }).full).toBe(true);
  });

  it('deletes stale chains found in the kernel (existingNatChains), ignoring chains it does not own', () => {
    const proxier = createIptablesProxier(upstreamProxierOptions());
    const out = proxier.sync(cluster([svc1], slices), {
      existingNatChains: [
        'KUBE-SVC-AAAAAAAAAAAAAAAA',
        'KUBE-SEP-SXIVWICOYRO3J4NJ',
        'MY-CHAIN',
        'KUBE-MARK-DROP',
      ],
    });
    expect(out.chainsDeleted).toEqual(['KUBE-SVC-AAAAAAAAAAAAAAAA']);
    const nat = out.restoreInput.split('*nat\n')[1] ?? '';
    // The stale declaration follows the service chains; its -X precedes the nodeports tail rule.
    expect(declaredChains(out.restoreInput, 'nat').at(-1)).toBe('KUBE-SVC-AAAAAAAAAAAAAAAA');
    expect(nat).toMatch(
      /-X KUBE-SVC-AAAAAAAAAAAAAAAA\n-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports/,
    );
    expect(proxier.natChains()).toEqual(
      [
        ...TOP,
        'KUBE-SEP-SXIVWICOYRO3J4NJ',
        'KUBE-SVC-XPGD46QRK7WJZT7O',
        'KUBE-MARK-DROP',
        'MY-CHAIN',
      ].sort(),
    );
  });

  it('counts services without local endpoints (sync_proxy_rules_no_local_endpoints_total)', () => {
    const proxier = createIptablesProxier(upstreamProxierOptions());
    const local = service('ns1', 'svc1', '172.30.0.41', {
      internalTrafficPolicy: 'Local',
      externalTrafficPolicy: 'Local',
      type: 'NodePort',
      ports: [port('p80', 80, { nodePort: 30001 })],
    });
    const out = proxier.sync(
      cluster([local], [slice('ns1', 'svc1', [endpoint('10.180.0.1', { node: 'host1' })])]),
    );
    expect([out.noLocalEndpointsInternal, out.noLocalEndpointsExternal]).toEqual([1, 1]);
  });
});

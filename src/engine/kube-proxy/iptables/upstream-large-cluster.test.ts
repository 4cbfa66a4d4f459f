/**
 * Large-cluster mode, ported from pkg/proxy/iptables/proxier_test.go
 * TestSyncProxyRulesLargeClusterMode: above largeClusterEndpointsThreshold (1000) endpoints
 * the SEP and SVC→SEP comments go, and stale chains are deleted once per syncPeriod.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointSlice } from '../../model/cluster';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  slicePort,
  upstreamProxierOptions,
} from '../testing/fixtures';
import { createIptablesProxier } from './proxier';

describe('upstream TestSyncProxyRulesLargeClusterMode', () => {
  const sepLines = (input: string): string[] =>
    input.split('\n').filter((l) => l.startsWith('-A KUBE-SEP-') && l.includes('-j DNAT'));
  const many = (prefix: string, p: number): EndpointSlice[] => {
    const ips = Array.from(
      { length: 499 },
      (_, i) => `${prefix}.${i % 256}.${Math.floor(i / 256)}`,
    );
    const n = prefix === '10.0' ? 1 : 2;
    return [
      slice(
        `ns${n}`,
        `svc${n}`,
        ips.map((ip) => endpoint(ip)),
        [slicePort(`p${p}`, p)],
      ),
    ];
  };
  const services = [
    service('ns1', 'svc1', '172.30.0.41'),
    service('ns2', 'svc2', '172.30.0.42', { ports: [port('p8080', 8080)] }),
    service('ns3', 'svc3', '172.30.0.43', { ports: [port('p8081', 8081)] }),
  ];
  const svc3Slice = slice(
    'ns3',
    'svc3',
    ['203.0.113.4', '203.0.113.8', '203.0.113.12'].map((ip) => endpoint(ip)),
    [slicePort('p8081', 8081)],
  );

  it('drops SEP/SVC→SEP comments above 1000 endpoints and throttles stale-chain cleanup', () => {
    const proxier = createIptablesProxier(
      upstreamProxierOptions({}, { masqueradeAll: true, syncPeriodSeconds: 30 }),
    );
    let slices = [...many('10.0', 80), ...many('10.1', 8080)];
    let now = 0;
    let out = proxier.sync(cluster(services, slices), { now });
    let seps = sepLines(out.restoreInput);
    expect(out.largeClusterMode).toBe(false);
    expect(seps).toHaveLength(998);
    expect(seps.find((l) => l.endsWith(' 10.0.0.0:80'))).toBe(
      '-A KUBE-SEP-DKGQUZGBKLTPAR56 -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.0.0.0:80',
    );

    // 1001 endpoints: large-cluster mode; the partial sync writes only svc3, without comments.
    slices = [...slices, svc3Slice];
    out = proxier.sync(cluster(services, slices), { now: (now += 1000) });
    seps = sepLines(out.restoreInput);
    expect(out.largeClusterMode).toBe(true);
    expect(seps).toHaveLength(3);
    expect(seps.find((l) => l.endsWith(' 203.0.113.4:8081'))).toBe(
      '-A KUBE-SEP-RUVVH7YV3PHQBDOS -m tcp -p tcp -j DNAT --to-destination 203.0.113.4:8081',
    );
    // The cluster-IP comments in KUBE-SERVICES stay.
    expect(out.restoreInput).toContain('--comment "ns3/svc3:p8081 cluster IP"');
    expect(out.restoreInput).not.toContain('ns3/svc3:p8081 ->');

    // A forced full sync rewrites every service without comments.
    proxier.forceFullSync();
    out = proxier.sync(cluster(services, slices), { now: (now += 1000) });
    seps = sepLines(out.restoreInput);
    expect(seps).toHaveLength(1001);
    expect(seps.filter((l) => l.includes('--comment'))).toEqual([]);
    expect(seps.find((l) => l.endsWith(' 10.0.0.0:80'))).toBe(
      '-A KUBE-SEP-DKGQUZGBKLTPAR56 -m tcp -p tcp -j DNAT --to-destination 10.0.0.0:80',
    );

    // Add svc4 …
    const svc4 = service('ns4', 'svc4', '172.30.0.44', { ports: [port('p8082', 8082)] });
    const svc4Slice = slice('ns4', 'svc4', [endpoint('10.4.0.1')], [slicePort('p8082', 8082)]);
    out = proxier.sync(cluster([...services, svc4], [...slices, svc4Slice]), {
      now: (now += 1000),
    });
    expect(sepLines(out.restoreInput)).toEqual([
      '-A KUBE-SEP-SU5STNODRYEWJAUF -m tcp -p tcp -j DNAT --to-destination 10.4.0.1:8082',
    ]);

    // … delete it right after a cleanup: its chains are not deleted yet …
    out = proxier.sync(cluster(services, slices), { now: (now += 1000) });
    expect(sepLines(out.restoreInput)).toEqual([]);
    expect(out.restoreInput).not.toContain('-X ');

    // … but once syncPeriod has passed since the last cleanup they are.
    out = proxier.sync(cluster(services, slices), { now: now + 30_001 });
    expect(out.chainsDeleted).toEqual(['KUBE-SEP-SU5STNODRYEWJAUF', 'KUBE-SVC-EBDQOQU5SJFXRIL3']);
    expect(out.restoreInput).toContain('-X KUBE-SVC-EBDQOQU5SJFXRIL3\n');
    expect(out.restoreInput).toContain('-X KUBE-SEP-SU5STNODRYEWJAUF\n');
  });
});

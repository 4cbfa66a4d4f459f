import { describe, expect, it } from 'vitest';
import { buildEndpointsMap, categorizeEndpoints, endpointsFor } from './endpoints';
import { buildServicePorts, servicePortNameString } from './service-port';
import { cluster, endpoint, port, service, slice, TEST_NODE } from './testing/fixtures';

function categorize(svcPatch: Parameters<typeof service>[3], eps: ReturnType<typeof endpoint>[]) {
  const c = cluster([service('ns1', 'svc1', '172.30.0.41', svcPatch)], [slice('ns1', 'svc1', eps)]);
  const [info] = buildServicePorts(c);
  if (!info) throw new Error('no service port');
  const all = endpointsFor(buildEndpointsMap(c, TEST_NODE), info);
  const r = categorizeEndpoints(all, info);
  const ips = (list: readonly { ip: string }[]): string[] => list.map((e) => e.ip);
  return {
    cluster: ips(r.clusterEndpoints),
    local: ips(r.localEndpoints),
    all: ips(r.allReachableEndpoints),
    has: r.hasEndpoints,
  };
}

const nodePort = { type: 'NodePort' as const, ports: [port('p80', 80, { nodePort: 30001 })] };

describe('servicePortNameString (ServicePortName.String)', () => {
  it('omits the colon for unnamed ports', () => {
    expect(servicePortNameString('ns', 'svc', 'http')).toBe('ns/svc:http');
    expect(servicePortNameString('ns', 'svc', '')).toBe('ns/svc');
  });
});

describe('categorizeEndpoints (pkg/proxy/topology.go CategorizeEndpoints)', () => {
  const local = endpoint('10.0.0.1', { node: TEST_NODE });
  const remote = endpoint('10.0.0.2', { node: 'other' });
  const noNode = endpoint('10.0.0.3');

  it('iTP/eTP Cluster: all Ready endpoints, no local list', () => {
    expect(categorize({}, [local, remote, noNode])).toEqual({
      cluster: ['10.0.0.1', '10.0.0.2', '10.0.0.3'],
      local: [],
      all: ['10.0.0.1', '10.0.0.2', '10.0.0.3'],
      has: true,
    });
  });

  it('iTP Local on a ClusterIP service: only the local list (an unset nodeName is remote)', () => {
    expect(categorize({ internalTrafficPolicy: 'Local' }, [local, remote, noNode])).toEqual({
      cluster: [],
      local: ['10.0.0.1'],
      all: ['10.0.0.1'],
      has: true,
    });
    expect(categorize({ internalTrafficPolicy: 'Local' }, [remote]).has).toBe(true);
  });

  it('eTP Local on an externally accessible service: both lists', () => {
    expect(categorize({ ...nodePort, externalTrafficPolicy: 'Local' }, [local, remote])).toEqual({
      cluster: ['10.0.0.1', '10.0.0.2'],
      local: ['10.0.0.1'],
      all: ['10.0.0.1', '10.0.0.2'],
      has: true,
    });
  });

  it('eTP Local is ignored when the service is not externally accessible', () => {
    expect(categorize({ externalTrafficPolicy: 'Local' }, [local, remote]).local).toEqual([]);
  });

  it('falls back to serving+terminating endpoints, separately for cluster and local', () => {
    const readyRemote = remote;
    const termLocal = endpoint('10.0.0.1', {
      node: TEST_NODE,
      ready: false,
      serving: true,
      terminating: true,
    });
    expect(
      categorize({ ...nodePort, externalTrafficPolicy: 'Local' }, [termLocal, readyRemote]),
    ).toEqual({
      cluster: ['10.0.0.2'],
      local: ['10.0.0.1'],
      all: ['10.0.0.1', '10.0.0.2'],
      has: true,
    });
  });

  it('ignores endpoints that are neither ready nor serving', () => {
    const dead = endpoint('10.0.0.9', { ready: false, serving: false, terminating: true });
    expect(categorize({}, [dead])).toEqual({ cluster: [], local: [], all: [], has: false });
  });
});

describe('buildEndpointsMap (endpointslicecache)', () => {
  it('prefers a non-terminating copy of a duplicated endpoint', () => {
    const c = cluster(
      [service('ns1', 'svc1', '172.30.0.41')],
      [
        slice(
          'ns1',
          'svc1',
          [endpoint('10.0.0.1', { ready: false, serving: true, terminating: true })],
          undefined,
          'a',
        ),
        slice('ns1', 'svc1', [endpoint('10.0.0.1')], undefined, 'b'),
      ],
    );
    const [info] = buildServicePorts(c);
    expect(endpointsFor(buildEndpointsMap(c, TEST_NODE), info!)).toMatchObject([
      { endpoint: '10.0.0.1:80', ready: true },
    ]);
  });
});

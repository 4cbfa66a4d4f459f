/**
 * cni0's fdb (./bridge-fdb.ts) against net/bridge/br_fdb.c: learning (br_fdb_update), ageing
 * (br_fdb_cleanup after BR_DEFAULT_AGEING_TIME) and deletion with the port
 * (br_fdb_delete_by_port).
 */
import { describe, expect, it } from 'vitest';
import { FDB_AGEING_MS, fdbLearn, fdbPort, podMac } from './bridge-fdb';
import { podByIp } from './bridge-ports';
import { labWorld } from './test-fixtures';

describe("cni0's fdb", () => {
  const world = labWorld();
  const cluster = world.cluster;
  const bp = podByIp(cluster, 'node-1', '10.244.0.2')!;
  const mac = podMac(bp.pod);

  it('ages entries after 300 s (ageing_time 30000 centiseconds)', () => {
    expect(FDB_AGEING_MS).toBe(300_000);
  });

  it('knows a MAC on the port it was learned on until it ages out', () => {
    expect(fdbPort(world, cluster, 'node-1', mac, 0)).toBeUndefined();
    fdbLearn(world, 'node-1', bp.pod, bp.port, 1_000);
    expect(fdbPort(world, cluster, 'node-1', mac, 1_000 + FDB_AGEING_MS - 1)?.port).toBe(bp.port);
    expect(fdbPort(world, cluster, 'node-1', mac, 1_000 + FDB_AGEING_MS)).toBeUndefined();
    // Gone for good: an aged entry is deleted, not revived by a later lookup.
    expect(fdbPort(world, cluster, 'node-1', mac, 1_000)).toBeUndefined();
  });

  it('forgets a MAC whose port no longer leads to it (the pod and its veth deleted)', () => {
    fdbLearn(world, 'node-1', bp.pod, bp.port, 0);
    expect(fdbPort(world, cluster, 'node-1', mac, 1)?.port).toBe(bp.port);
    const without = { ...cluster, pods: cluster.pods.filter((p) => p !== bp.pod) };
    expect(fdbPort(world, without, 'node-1', mac, 1)).toBeUndefined();
    // A new pod at the same address (another sandbox, another MAC) is not that MAC.
    fdbLearn(world, 'node-1', bp.pod, bp.port, 0);
    const again = { ...bp.pod, meta: { ...bp.pod.meta, createdAt: bp.pod.meta.createdAt + 60 } };
    const recreated = { ...cluster, pods: [...without.pods, again] };
    expect(fdbPort(world, recreated, 'node-1', mac, 1)).toBeUndefined();
  });

  it('follows the entry to another port after a lookup remembered the pod', () => {
    fdbLearn(world, 'node-1', bp.pod, bp.port, 0);
    expect(fdbPort(world, cluster, 'node-1', mac, 1)?.port).toBe(bp.port);
    // The MAC seen on another port (br_fdb_update moves the entry): that port leads elsewhere.
    fdbLearn(world, 'node-1', bp.pod, 'veth-elsewhere', 2);
    expect(fdbPort(world, cluster, 'node-1', mac, 3)).toBeUndefined();
    // Learned again on its own port, in the same Cluster: found again.
    fdbLearn(world, 'node-1', bp.pod, bp.port, 4);
    expect(fdbPort(world, cluster, 'node-1', mac, 5)?.port).toBe(bp.port);
  });

  it('gives each pod object its own MAC', () => {
    expect(podMac(bp.pod)).toBe(mac);
    expect(podMac({ ...bp.pod, meta: { ...bp.pod.meta, createdAt: 1 } })).not.toBe(mac);
  });
});

/**
 * Nodes' kernels boot when the lab first looks at them: a world whose nodes were looked at
 * only at the end ends up exactly as one whose nodes were looked at after every change.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../model/cluster';
import { iptablesSave } from '../netfilter';
import { DEFAULT_SCENARIO, loadScenario } from '../scenario';
import { generateScaleScenario } from '../testing/scale-scenario';
import { World } from './world';

const WEB = `apiVersion: v1
kind: Service
metadata:
  name: extra
  namespace: default
spec:
  type: NodePort
  selector: { app: web }
  ports:
  - port: 8080
    targetPort: 80
    nodePort: 30999
`;

/** Everything the tools show of a node's kernel, sync history included. */
function snapshot(world: World) {
  return [...world.kernels].map(([name, k]) => ({
    name,
    save: iptablesSave(k.netfilter, { counters: true, nowEpochSeconds: 0 }).stdout,
    ops: k.ops,
    lastSync: k.lastSync,
    lastRestoreError: k.lastRestoreError,
    sysctls: k.sysctls,
  }));
}

/** Runs the same changes on a world looked at after each one and on one looked at once. */
function compare(cluster: Cluster, steps: ((w: World) => void)[]) {
  const eager = new World(cluster, { recordKernelOps: true });
  const lazy = new World(cluster, { recordKernelOps: true });
  void eager.kernels;
  for (const step of steps) {
    step(eager);
    void eager.kernels;
    step(lazy);
  }
  expect(snapshot(lazy)).toEqual(snapshot(eager));
  expect(snapshot(lazy).length).toBe(2);
}

describe('lazy node kernels', () => {
  it('the default scenario after applies reads the same on both nodes', () => {
    const { cluster } = loadScenario(DEFAULT_SCENARIO);
    compare(cluster, [
      (w) => void w.apply(WEB),
      (w) => w.advance(5000),
      (w) => void w.apply(WEB.replace('30999', '30998')),
      (w) => w.setCluster({ ...w.cluster, services: w.cluster.services.slice(1) }),
    ]);
  });

  it('a large cluster (delayed stale-chain cleanup) reads the same on both nodes', () => {
    const { cluster } = loadScenario(generateScaleScenario(120));
    const drop = (n: number) => (w: World) =>
      w.setCluster({ ...w.cluster, services: w.cluster.services.slice(n) });
    compare(cluster, [drop(1), (w) => w.advance(1000), drop(2), (w) => w.advance(40_000), drop(1)]);
  });

  it('a node nobody looked at has not booted; looking at it boots it', () => {
    const { world } = World.fromScenario(DEFAULT_SCENARIO);
    const names = world.cluster.nodes.map((n) => n.meta.name);
    expect(world.kernel(names[0]!)?.lastSync?.full).toBe(true);
    expect([...world.kernels.keys()]).toEqual(names);
    expect(world.kernel('no-such-node')).toBeUndefined();
  });
});

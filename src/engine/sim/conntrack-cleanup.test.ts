/**
 * kube-proxy's conntrack cleanup after a sync (pkg/proxy/conntrack/cleanup.go, v1.31+), on
 * the built-in scenario plus a UDP echo Deployment behind a ClusterIP and a NodePort:
 * UDP entries whose backend is not a serving endpoint are deleted (as a userspace request),
 * TCP entries never; a Service without serving endpoints is left alone; the cleanup runs only
 * when an EndpointSlice change touched a Service with UDP ports.
 */
import { describe, expect, it } from 'vitest';
import { nodeConntrack } from '../datapath';
import { DEFAULT_SCENARIO } from '../scenario';
import {
  cleanStaleEntries,
  conntrackCleanupRequired,
  isStaleUdpEntry,
  KUBE_PROXY_NETLINK_PORTID,
} from './conntrack-cleanup';
import { deletePodNow, scaleDeploymentNow } from './control-plane';
import { flowControls } from './flows';
import { advanceNetwork, traceSince, traceCursor } from './network';
import { World } from './world';

const ECHO = `apiVersion: apps/v1
kind: Deployment
metadata: { name: echo, namespace: default }
spec:
  replicas: 2
  selector: { matchLabels: { app: echo } }
  template:
    metadata: { labels: { app: echo } }
    spec:
      containers:
      - name: echo
        image: registry.k8s.io/e2e-test-images/agnhost:2.53
        ports: [{ name: echo, containerPort: 5353, protocol: UDP }]
---
apiVersion: v1
kind: Service
metadata: { name: echo, namespace: default }
spec:
  type: NodePort
  clusterIP: 10.96.1.53
  selector: { app: echo }
  ports: [{ port: 5353, protocol: UDP, targetPort: echo, nodePort: 30053 }]
`;

function lab() {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const applied = world.apply(ECHO);
  expect(applied.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const client = flowControls(world, { kind: 'pod', namespace: 'default', name: 'client' });
  return { world, client };
}

/** The pod that answered a lab flow (`NAME (IP:PORT/udp): …` or the web line). */
const answeredBy = (text: string) => /^(\S+) \((10\.244\.\d+\.\d+):/.exec(text)?.slice(1) ?? [];

const entriesOn = (world: World, node: string) =>
  Object.values(nodeConntrack(world, node).entries).map((e) => ({
    proto: e.orig.proto,
    dst: e.orig.dst,
    backend: e.reply.src,
  }));

/** Keeps the flow alive across `ms` (a datagram every 10 s refreshes the entry). */
function keepSending(world: World, send: () => void, ms: number) {
  const end = world.clock.now() + ms;
  while (world.clock.now() + 10_000 < end) {
    advanceNetwork(world, world.clock.now() + 10_000);
    send();
  }
  advanceNetwork(world, end);
}

describe('kube-proxy conntrack cleanup', () => {
  it('deletes the UDP entry of a removed endpoint, once it is no longer serving; the next datagram is re-balanced', () => {
    const { world, client } = lab();
    expect(client.open('q', 'udp', '10.96.1.53', 5353).ok).toBe(true);
    const [pod, ip] = answeredBy(client.send('q', 'hi', undefined).text);
    expect(ip).toMatch(/^10\.244\./);
    const node = world.cluster.pods.find((p) => p.meta.name === pod)!.nodeName;
    deletePodNow(world, 'default', pod!);
    // Terminating but serving: kept, and still answered by that pod.
    expect(entriesOn(world, 'node-1')).toContainEqual({
      proto: 'udp',
      dst: '10.96.1.53',
      backend: ip,
    });
    expect(answeredBy(client.send('q', 'still', undefined).text)[0]).toBe(pod);
    const cursor = traceCursor(world);
    keepSending(world, () => void client.send('q', 'x', 500), 31_500);
    expect(world.cluster.pods.some((p) => p.meta.name === pod)).toBe(false);
    expect(entriesOn(world, 'node-1').some((e) => e.backend === ip)).toBe(false);
    // The deletion is kube-proxy's netlink request: [DESTROY] with its port id, and a trace step.
    const events = nodeConntrack(world, 'node-1').events.filter(
      (e) => e.type === 'DESTROY' && e.reply.src === ip,
    );
    expect(events.map((e) => e.portid)).toEqual([KUBE_PROXY_NETLINK_PORTID]);
    const steps = traceSince(world, cursor).filter(
      (s) => s.kind === 'conntrack' && s.why.id === 'kube-proxy.conntrack.cleanup',
    );
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ packetId: 0, event: 'destroy', at: { host: 'node-1' } });
    // Re-balanced to a live pod.
    const [again] = answeredBy(client.send('q', 'back', undefined).text);
    expect(again).toBeDefined();
    expect(again).not.toBe(pod);
    expect(node).toBeDefined();
  });

  it('never deletes TCP entries', () => {
    const { world, client } = lab();
    expect(client.open('t', 'tcp', '10.96.1.1', 80).ok).toBe(true);
    const [pod, ip] = answeredBy(client.send('t', undefined, undefined).text);
    deletePodNow(world, 'default', pod!);
    advanceNetwork(world, world.clock.now() + 32_000);
    expect(world.cluster.pods.some((p) => p.meta.name === pod)).toBe(false);
    expect(entriesOn(world, 'node-1')).toContainEqual({
      proto: 'tcp',
      dst: '10.96.1.1',
      backend: ip,
    });
  });

  it('a NodePort entry from outside goes too', () => {
    const { world } = lab();
    const laptop = flowControls(world, { kind: 'external', name: 'laptop' });
    expect(laptop.open('n', 'udp', '192.168.1.11', 30053).ok).toBe(true);
    const [pod, ip] = answeredBy(laptop.send('n', 'hi', undefined).text);
    expect(
      entriesOn(world, 'node-2').some((e) => e.dst === '192.168.1.11' && e.backend === ip),
    ).toBe(true);
    deletePodNow(world, 'default', pod!);
    keepSending(world, () => void laptop.send('n', 'x', 500), 31_500);
    expect(entriesOn(world, 'node-2').some((e) => e.backend === ip)).toBe(false);
  });

  it('leaves a Service without serving endpoints alone, and cleans when it gets endpoints again', () => {
    const { world, client } = lab();
    client.open('q', 'udp', '10.96.1.53', 5353);
    const [, ip] = answeredBy(client.send('q', 'hi', undefined).text);
    scaleDeploymentNow(world, 'default', 'echo', 0);
    keepSending(world, () => void client.send('q', 'x', 500), 31_500);
    expect(world.cluster.pods.some((p) => p.meta.labels['app'] === 'echo')).toBe(false);
    // "a Service without endpoints does not require to clean the conntrack entries"
    expect(entriesOn(world, 'node-1')).toContainEqual({
      proto: 'udp',
      dst: '10.96.1.53',
      backend: ip,
    });
    scaleDeploymentNow(world, 'default', 'echo', 1);
    expect(entriesOn(world, 'node-1').some((e) => e.dst === '10.96.1.53')).toBe(false);
    expect(answeredBy(client.send('q', 'back', undefined).text)[0]).toMatch(/^echo-/);
  });

  it('runs only when an EndpointSlice change touched a Service with UDP ports', () => {
    const { world } = lab();
    const before = world.cluster;
    scaleDeploymentNow(world, 'default', 'web', 4);
    expect(conntrackCleanupRequired(before, world.cluster)).toBe(false);
    const mid = world.cluster;
    scaleDeploymentNow(world, 'default', 'echo', 3);
    expect(conntrackCleanupRequired(mid, world.cluster)).toBe(true);
    expect(conntrackCleanupRequired(world.cluster, world.cluster)).toBe(false);
    // With nothing stale, a cleanup deletes nothing.
    expect(cleanStaleEntries(world, 'node-1', world.cluster)).toEqual([]);
  });

  it('records its filters for replay on a real node, the same on nodes booted early or late', () => {
    const scenario = (w: World) => w.apply(ECHO);
    const eager = World.fromScenario(DEFAULT_SCENARIO, { recordKernelOps: true }).world;
    const lazy = World.fromScenario(DEFAULT_SCENARIO, { recordKernelOps: true }).world;
    void eager.kernels;
    for (const w of [eager, lazy]) {
      scenario(w);
      scaleDeploymentNow(w, 'default', 'echo', 1);
    }
    const cleanups = (w: World) =>
      (w.kernel('node-2')?.ops ?? []).filter((op) => 'conntrackCleanup' in op);
    const last = cleanups(eager).at(-1);
    const filters = last !== undefined && 'conntrackCleanup' in last ? last.conntrackCleanup : [];
    // Every UDP service port with serving endpoints: kube-dns's and echo's (with its NodePort).
    expect(filters.map((f) => [f.frontends, f.nodePort])).toEqual([
      [['10.96.1.53:5353'], 30053],
      [['10.96.0.10:53'], 0],
    ]);
    expect(cleanups(lazy)).toEqual(cleanups(eager));
    const echo = filters[0]!.serving;
    expect(echo.length).toBeGreaterThan(0);
    expect(echo.some((ep) => isStaleUdpEntry(filters, '10.96.1.53', 5353, ep))).toBe(false);
    expect(isStaleUdpEntry(filters, '10.96.1.53', 5353, '10.244.9.9:5353')).toBe(true);
    expect(isStaleUdpEntry(filters, '192.168.1.10', 30053, '10.244.9.9:5353')).toBe(true);
    expect(isStaleUdpEntry(filters, '10.96.1.54', 5353, '10.244.9.9:5353')).toBe(false);
  });
});

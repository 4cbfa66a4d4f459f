/**
 * The load-distribution loop of the bench (issue 3), shared by its two hosts: Node
 * (bench/connections.ts, in a process of its own) and a Web Worker in headless Chromium
 * (bench/connections-worker.ts), where the web lab runs the engine. Same engine, same scenario,
 * same seed: both hosts give the same spread per pod, and only the time differs.
 */
import { flowControls, loadServiceIP, type World } from '../src/engine';

export interface LoadLoop {
  /** Wall time of the whole loop, ms. */
  readonly ms: number;
  /** Wall time of the first 1,000 connections (or all, when fewer): JIT warm-up is in them. */
  readonly firstThousandMs: number;
  /** Answers per pod, by pod name, in the order the pods first answered. */
  readonly perPod: ReadonlyMap<string, number>;
  readonly failed: number;
}

/**
 * `count` TCP connections from the client pod, each to one of the `services` Services in turn
 * (open, one HTTP request, close), every packet through the nodes' kernels (bridge, iptables,
 * conntrack, NAT) and the pods' socket layers. `now` is the host's millisecond clock.
 */
export function runConnections(
  world: World,
  services: number,
  count: number,
  start: number,
  now: () => number,
): LoadLoop {
  const client = flowControls(world, { kind: 'pod', namespace: 'default', name: 'client' });
  const perPod = new Map<string, number>();
  let failed = 0;
  const t = now();
  let firstThousandMs = NaN;
  for (let i = 0; i < count; i++) {
    if (i === 1_000) firstThousandMs = now() - t;
    const name = `c${start + i}`;
    const opened = client.open(name, 'tcp', loadServiceIP((start + i) % services), 80);
    const answer = opened.ok ? client.send(name, undefined, 1000) : opened;
    const pod = answer.ok ? /^(\S+) /.exec(answer.text)?.[1] : undefined;
    if (pod === undefined) failed++;
    else perPod.set(pod, (perPod.get(pod) ?? 0) + 1);
    if (opened.ok) client.close(name);
  }
  const ms = now() - t;
  return {
    ms,
    firstThousandMs: Number.isNaN(firstThousandMs) ? ms : firstThousandMs,
    perPod,
    failed,
  };
}

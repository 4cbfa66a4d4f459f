/**
 * kube-proxy's own HTTP servers on a node (cmd/kube-proxy/app/server.go serveMetrics,
 * pkg/proxy/healthcheck/proxy_health.go, v1.31–v1.33): `/proxyMode` on 127.0.0.1:10249 (the
 * textbook's "which mode is kube-proxy in?"), `/healthz` and `/livez` on 0.0.0.0:10256, with
 * Go's time.Time String() in the JSON; tests/kernel/ss.test.ts checks the listeners' sockets
 * against the kernel.
 */
import { describe, expect, it } from 'vitest';
import { runBlocks } from '../helpers/cli-run';
import { goTimeString } from '../../src/engine/hosts/apps/kube-proxy-http';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';

describe("kube-proxy's HTTP servers", () => {
  it('answers /proxyMode with the mode, on the node only (127.0.0.1)', async () => {
    const [mode, fromPod] = await runBlocks(
      [
        'node-1$ curl -s 127.0.0.1:10249/proxyMode; echo',
        'pod/client$ curl -s -m 2 192.168.1.10:10249/proxyMode; echo rc=$?',
      ].join('\n'),
    );
    expect(mode).toBe('iptables\n');
    // Connection refused: nothing listens on the node's own address.
    expect(fromPod).toBe('rc=7\n');
    const ipvs = DEFAULT_SCENARIO.replace(/^mode: iptables /m, 'mode: ipvs ');
    expect(ipvs).not.toBe(DEFAULT_SCENARIO);
    const [inIpvs] = await runBlocks('node-2$ curl -s localhost:10249/proxyMode; echo', {
      scenario: ipvs,
    });
    expect(inIpvs).toBe('ipvs\n');
  });

  it('answers /healthz and /livez on 10256 with Go’s times, and 404 elsewhere', async () => {
    const [head, healthz, livez, missing, ok] = await runBlocks(
      [
        'node-1$ curl -sI localhost:10256/healthz',
        'node-1$ sleep 1.25; curl -s localhost:10256/healthz; echo',
        'pod/client$ curl -s 192.168.1.11:10256/livez; echo',
        'node-1$ curl -s localhost:10256/metrics',
        'node-1$ curl -s localhost:10249/healthz; echo',
      ].join('\n'),
    );
    // (curl prints header names in bold on a terminal)
    expect(head?.replaceAll('\x1b[1m', '').replaceAll('\x1b[0m', '')).toMatch(/^HTTP\/1\.1 200 OK\r\nContent-Type: application\/json\r\nX-Content-Type-Options: nosniff\r\nDate: .+ GMT\r\nContent-Length: \d+\r\n/); // prettier-ignore
    // The built-in cluster is 10 days old when the lab starts; kube-proxy started with it.
    expect(healthz).toBe(
      '{"lastUpdated": "2026-03-12 08:00:01.25 +0000 UTC m=+864001.250000000","currentTime": "2026-03-12 08:00:01.25 +0000 UTC m=+864001.250000000", "nodeEligible": true}\n',
    );
    expect(livez).toMatch(/^\{"lastUpdated": "[^"]+","currentTime": "[^"]+"\}\n$/);
    expect(missing).toBe('404 page not found\n');
    expect(ok).toBe('ok\n');
  });

  it('prints times as Go’s time.Time String() does', () => {
    expect(goTimeString(Date.UTC(2026, 11, 5, 11, 19, 40, 737), 25)).toBe(
      '2026-12-05 11:19:40.737 +0000 UTC m=+0.025000000',
    );
    expect(goTimeString(Date.UTC(2026, 0, 2, 3, 4, 5, 0), 3_600_000)).toBe(
      '2026-01-02 03:04:05 +0000 UTC m=+3600.000000000',
    );
    expect(goTimeString(Date.UTC(2026, 0, 2, 3, 4, 5, 500), 1500)).toBe(
      '2026-01-02 03:04:05.5 +0000 UTC m=+1.500000000',
    );
  });
});

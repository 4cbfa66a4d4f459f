/**
 * kube-proxy's own HTTP servers on a node, as v1.31–v1.33 answer (cmd/kube-proxy/app/server.go
 * serveMetrics; pkg/proxy/healthcheck/proxy_health.go), at their default addresses:
 *
 * - 127.0.0.1:10249: `/proxyMode` → the mode (`iptables`, no newline; an unset mode is
 *   iptables on Linux, platformApplyDefaults), `/healthz` and `/healthz/ping` → `ok`;
 *   `/metrics`, `/metrics/slis` and `/configz` exist, but the lab does not model what they
 *   hold, and its answer says so;
 * - 0.0.0.0:10256: `/healthz` → `{"lastUpdated": T,"currentTime": T, "nodeEligible": true}`
 *   and `/livez` → `{"lastUpdated": T,"currentTime": T}` (application/json): 200, since the
 *   lab's kube-proxy syncs at once and is never behind, so lastUpdated is now;
 * - any other path: Go's `404 page not found`.
 *
 * The handlers set Content-Type and X-Content-Type-Options; net/http then adds Date and
 * Content-Length, in that order. T is Go's time.Time.String() of time.Now(): the wall clock
 * (nanoseconds, trailing zeros cut), `+0000 UTC`, and the monotonic reading since the process
 * started, `m=+SECONDS.NANOSECONDS`; the lab's kube-proxy started with the cluster.
 */
import { civilFromUnixMs } from '../../model/civil-time';
import type { Cluster } from '../../model/cluster';
import { labNote } from '../../model/lab-notes';
import { payloadBytes } from '../net';
import { httpDate } from '../output/time';
import type { HttpResponse, ParsedRequest } from './http';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Go's time.Time.String() of a time.Now() taken `uptimeMs` after the process started. */
export function goTimeString(unixMs: number, uptimeMs: number): string {
  const t = civilFromUnixMs(unixMs);
  const ms = ((unixMs % 1000) + 1000) % 1000;
  const frac = ms === 0 ? '' : `.${pad(ms, 3).replace(/0+$/, '')}`;
  const wall = `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${frac}`; // prettier-ignore
  const mono = `${Math.floor(uptimeMs / 1000)}.${pad((uptimeMs % 1000) * 1_000_000, 9)}`;
  return `${wall} +0000 UTC m=+${mono}`;
}

function respond(status: 200 | 404, type: string, body: string, unixMs: number): HttpResponse {
  return {
    status,
    reason: status === 200 ? 'OK' : 'Not Found',
    version: 'HTTP/1.1',
    headers: [
      `Content-Type: ${type}`,
      'X-Content-Type-Options: nosniff',
      `Date: ${httpDate(unixMs)}`,
      `Content-Length: ${payloadBytes({ kind: 'text', text: body }, 'tcp')}`,
    ],
    body,
  };
}

const TEXT = 'text/plain; charset=utf-8';

/** The answer of kube-proxy's server on `port` (10249 or 10256) to `req`. */
export function kubeProxyResponse(
  req: ParsedRequest,
  port: number,
  ctx: { readonly cluster: Cluster; readonly epochSeconds: number; readonly now: number },
): HttpResponse {
  const q = req.path.indexOf('?');
  const path = q < 0 ? req.path : req.path.slice(0, q);
  const unixMs = ctx.epochSeconds * 1000 + ctx.now;
  if (port === 10249) {
    if (path === '/proxyMode') return respond(200, TEXT, ctx.cluster.kubeProxy.mode, unixMs);
    if (path === '/healthz' || path === '/healthz/ping') return respond(200, TEXT, 'ok', unixMs);
    if (path === '/metrics' || path === '/metrics/slis' || path === '/configz')
      return respond(200, TEXT, labNote('kube-proxy.endpoint', { path }), unixMs);
  } else if (path === '/healthz' || path === '/livez') {
    // Lab time 0 is the cluster's creation, when its kube-proxy started.
    const now = goTimeString(unixMs, ctx.now);
    const body =
      path === '/healthz'
        ? `{"lastUpdated": ${JSON.stringify(now)},"currentTime": ${JSON.stringify(now)}, "nodeEligible": true}`
        : `{"lastUpdated": ${JSON.stringify(now)},"currentTime": ${JSON.stringify(now)}}`;
    return respond(200, 'application/json', body, unixMs);
  }
  return respond(404, TEXT, '404 page not found\n', unixMs);
}

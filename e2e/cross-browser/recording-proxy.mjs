/**
 * An HTTP proxy for a browser whose driver reports neither requests nor console messages
 * (classic WebDriver): the browser sends every request through it, so it records each one and
 * passes on only those to the lab's own server (`vite preview`); anything else is refused and
 * kept as "foreign". Into the lab's HTML it puts, first in <head>, a script that keeps the
 * page's console.error calls, uncaught errors, failed loads, unhandled rejections and worker
 * errors in `window.__smokeErrors`, where the test reads them.
 */
import { createServer, request } from 'node:http';

const CAPTURE = `<script>(() => {
  const errors = (window.__smokeErrors = []);
  const keep = (what) => errors.push(String(what));
  const consoleError = console.error;
  console.error = function (...args) {
    keep('console.error: ' + args.map(String).join(' '));
    return consoleError.apply(this, args);
  };
  addEventListener('error', (e) => keep('error: ' + (e.message || (e.target && (e.target.src || e.target.href)) || 'a resource failed')), true);
  addEventListener('unhandledrejection', (e) => keep('unhandled rejection: ' + String(e.reason)));
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener('error', (e) => keep('worker error: ' + (e.message || 'failed to load')));
    }
  };
})();</script>`;

/** Starts the proxy in front of `target` (http://127.0.0.1:PORT); resolves to its handle. */
export async function startRecordingProxy(target) {
  const origin = new URL(target);
  const requests = [];
  const foreign = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url, target); // absolute-form from a proxied browser
    requests.push(url.href);
    if (url.host !== origin.host) {
      foreign.push(url.href);
      res.writeHead(502, { 'content-type': 'text/plain' }).end('refused: not the lab');
      return;
    }
    const headers = { ...req.headers, host: origin.host };
    delete headers['accept-encoding']; // plain bodies, so the HTML can be edited
    delete headers['proxy-connection'];
    const upstream = request(
      {
        host: origin.hostname,
        port: origin.port,
        method: req.method,
        path: url.pathname + url.search,
        headers,
      },
      (up) => {
        const isHtml = String(up.headers['content-type'] ?? '').startsWith('text/html');
        if (!isHtml) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        const chunks = [];
        up.on('data', (c) => chunks.push(c));
        up.on('end', () => {
          const html = Buffer.concat(chunks).toString('utf8').replace('<head>', `<head>${CAPTURE}`);
          const out = { ...up.headers };
          delete out['content-length'];
          delete out['etag'];
          res.writeHead(up.statusCode ?? 502, out).end(html);
        });
      },
    );
    upstream.on('error', (err) => res.writeHead(502).end(String(err)));
    req.pipe(upstream);
  });
  // HTTPS through a proxy starts with CONNECT: never to the lab, so always foreign.
  server.on('connect', (req, socket) => {
    requests.push(`https://${req.url}`);
    foreign.push(`https://${req.url}`);
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    address: `127.0.0.1:${server.address().port}`,
    requests,
    foreign,
    close: () => new Promise((r) => server.close(r)),
  };
}

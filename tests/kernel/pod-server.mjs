/**
 * The pods' servers for the cluster differential tests, run inside a pod's network namespace
 * (`ip netns exec NS node pod-server.mjs SPEC`). They answer as the engine's pod applications
 * do (src/engine/hosts/apps/servers.ts), so that the answers can be compared line for line:
 *
 * - `http` on each TCP containerPort: `GET /` gets one line naming the pod, the address it was
 *   reached at and the peer it saw (`web-1 (10.244.0.4:8080): you are 10.244.0.5:51234`), with
 *   Go net/http's headers (Date, Content-Length, Content-Type); keep-alive, closes on EOF;
 * - `udp-echo` on each UDP containerPort: `NAME (ADDR:PORT/udp): you are IP:PORT, you sent: X`;
 * - `dns` on CoreDNS's 53 (UDP and TCP): A records of `SVC.NS.svc.cluster.local.` from the
 *   spec's table, NXDOMAIN otherwise. A stand-in, not CoreDNS: it shapes its replies as the
 *   engine's CoreDNS model does (aa, no ra, the query's OPT record echoed, names written out
 *   uncompressed), so that captures can compare the kernel's part (addresses, ports, the ICMP
 *   error quoting the reply) — they are no evidence about CoreDNS itself.
 *
 * SPEC (JSON): { name, addr, ttlSeconds, ports: [{ proto, port, app }], records: { fqdn: ip } }.
 * The process exits by itself after ttlSeconds: a bounded life even if the test dies.
 */
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

const spec = JSON.parse(process.argv[2] ?? '{}');
setTimeout(() => process.exit(0), (spec.ttlSeconds ?? 120) * 1000).unref();

function httpAnswer(sock, text) {
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r\n/.exec(text);
  if (m === null) {
    sock.end(
      'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request',
    );
    return;
  }
  const path = (m[2] ?? '/').split('?')[0];
  const local = `${sock.localAddress}:${sock.localPort}`;
  const peer = `${sock.remoteAddress}:${sock.remotePort}`;
  const body =
    path === '/'
      ? `${spec.name} (${local}): you are ${peer}\n`
      : path === '/hostname'
        ? spec.name
        : path === '/clientip'
          ? peer
          : undefined;
  const date = `Date: ${new Date().toUTCString()}`;
  if (body === undefined) {
    const t = '404 page not found\n';
    sock.write(
      `HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n${date}\r\nContent-Length: ${t.length}\r\n\r\n${t}`,
    );
    return;
  }
  sock.write(
    `HTTP/1.1 200 OK\r\n${date}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}`,
  );
}

/** A DNS response to `query` (RFC 1035 §4.1): the question echoed, one A record or NXDOMAIN. */
function dnsAnswer(query) {
  const arcount = query.length >= 12 ? query.readUInt16BE(10) : 0;
  if (query.length < 12) return undefined;
  let i = 12;
  const labels = [];
  while (i < query.length && query[i] !== 0) {
    labels.push(query.subarray(i + 1, i + 1 + query[i]).toString('latin1'));
    i += 1 + query[i];
  }
  const qEnd = i + 5;
  if (qEnd > query.length) return undefined;
  const qtype = query.readUInt16BE(i + 1);
  const fqdn = `${labels.join('.').toLowerCase()}.`;
  const ip = qtype === 1 ? spec.records?.[fqdn] : undefined;
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  // QR, opcode 0, AA, RD copied; no RA; RCODE 0 or 3 (NXDOMAIN).
  header[2] = 0x84 | (query[2] & 0x01);
  header[3] = ip === undefined ? 3 : 0;
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(ip === undefined ? 0 : 1, 6);
  // The query's additional section (dig's OPT record with its COOKIE) is echoed as is.
  header.writeUInt16BE(arcount, 10);
  const question = query.subarray(12, qEnd);
  const additional = query.subarray(qEnd);
  if (ip === undefined) return Buffer.concat([header, question, additional]);
  const name = query.subarray(12, i + 1);
  const rr = Buffer.alloc(14);
  rr.writeUInt16BE(1, 0);
  rr.writeUInt16BE(1, 2);
  rr.writeUInt32BE(30, 4);
  rr.writeUInt16BE(4, 8);
  ip.split('.').forEach((b, k) => (rr[10 + k] = Number(b)));
  return Buffer.concat([header, question, name, rr, additional]);
}

let pending = 0;
const ready = () => --pending === 0 && console.log('ready');

for (const { proto, port, app } of spec.ports ?? []) {
  pending++;
  if (proto === 'tcp') {
    const server = createServer((sock) => {
      let buf = Buffer.alloc(0);
      sock.on('error', () => undefined);
      sock.on('data', (d) => {
        buf = Buffer.concat([buf, d]);
        if (app === 'dns') {
          while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
            const answer = dnsAnswer(buf.subarray(2, 2 + buf.readUInt16BE(0)));
            buf = buf.subarray(2 + buf.readUInt16BE(0));
            if (answer === undefined) continue;
            const len = Buffer.alloc(2);
            len.writeUInt16BE(answer.length);
            sock.write(Buffer.concat([len, answer]));
          }
          return;
        }
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        httpAnswer(sock, buf.subarray(0, end + 4).toString('latin1'));
        buf = buf.subarray(end + 4);
      });
    });
    server.listen(port, '0.0.0.0', ready);
  } else {
    const sock = createSocket('udp4');
    sock.on('message', (msg, from) => {
      if (app === 'dns') {
        const answer = dnsAnswer(msg);
        if (answer !== undefined) sock.send(answer, from.port, from.address);
        return;
      }
      const said = msg.toString('utf8').replace(/\n$/, '');
      const line = `${spec.name} (${spec.addr}:${port}/udp): you are ${from.address}:${from.port}, you sent: ${said}\n`;
      sock.send(line, from.port, from.address);
    });
    // Bound to the pod's address, so the answer names the address it was reached at.
    sock.bind(port, spec.addr, ready);
  }
}
if (pending === 0) console.log('ready');

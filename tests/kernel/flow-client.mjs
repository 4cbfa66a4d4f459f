/**
 * The client side of `lab flow` on the kernel, for the experiments' differential tests: one
 * process per namespace (`ip netns exec NS node flow-client.mjs TTL_SECONDS`) holding the named
 * flows' real sockets, driven by one JSON request per stdin line, one JSON answer per stdout
 * line. It behaves as the client program the lab's `lab flow` describes
 * (src/engine/sim/flows.ts): it keeps what the socket reported (the peer's end of stream, the
 * error that ended the connection) and, on `send`, writes and reads the first answer.
 *
 *   {"op":"open","name":N,"proto":"tcp"|"udp","addr":A,"port":P,"waitMs":W}
 *       → {"ok":true,"local":"IP:PORT"} | {"ok":false,"errno":E}
 *   {"op":"send","name":N,"payload":TEXT,"http":BOOL,"waitMs":W}
 *       → {"stage":"write","errno":E} | {"stage":"read","eof":true} | {"stage":"read","errno":E}
 *         | {"data":TEXT} | {"timeout":true}
 *   {"op":"close","name":N} → {"ok":true}
 *   {"op":"list"} → {"flows":[{"name","proto","local","remote","open"}]}
 *
 * TCP sockets are half-open capable (allowHalfOpen): the peer's FIN leaves the socket in
 * CLOSE_WAIT, writable, as a C client that does not close would. The process exits by itself
 * after TTL_SECONDS: a bounded life even if the test dies.
 */
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

setTimeout(() => process.exit(0), Number(process.argv[2] ?? 120) * 1000).unref();

/** name → { proto, socket, remote, local, eof, error, open, listener } */
const flows = new Map();

function answer(obj) {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

function openTcp(req) {
  const socket = connect({ host: req.addr, port: req.port, allowHalfOpen: true });
  const flow = { proto: 'tcp', socket, remote: `${req.addr}:${req.port}`, local: '-' };
  flow.eof = false;
  flow.open = true;
  flow.listener = undefined;
  let settled = false;
  const timer = setTimeout(() => {
    settled = true;
    socket.destroy();
    answer({ ok: false, errno: 'ETIMEDOUT' });
  }, req.waitMs);
  socket.on('connect', () => {
    clearTimeout(timer);
    if (settled) return;
    settled = true;
    flow.local = `${socket.localAddress}:${socket.localPort}`;
    flows.set(req.name, flow);
    answer({ ok: true, local: flow.local });
  });
  socket.on('data', (d) => flow.listener?.({ data: d.toString('latin1') }));
  socket.on('end', () => {
    flow.eof = true;
    flow.listener?.({ eof: true });
  });
  socket.on('error', (e) => {
    if (!settled) {
      clearTimeout(timer);
      settled = true;
      answer({ ok: false, errno: e.code });
      return;
    }
    flow.error = e.code;
    flow.listener?.({ errno: e.code });
  });
  socket.on('close', () => (flow.open = false));
}

function openUdp(req) {
  const socket = createSocket('udp4');
  const flow = { proto: 'udp', socket, remote: `${req.addr}:${req.port}`, local: '-' };
  flow.eof = false;
  flow.open = true;
  socket.on('message', (m) => flow.listener?.({ data: m.toString('utf8') }));
  socket.on('error', (e) => flow.listener?.({ errno: e.code }));
  socket.connect(req.port, req.addr, (err) => {
    if (err) return answer({ ok: false, errno: err.code });
    const a = socket.address();
    flow.local = `${a.address}:${a.port}`;
    flows.set(req.name, flow);
    answer({ ok: true, local: flow.local });
  });
}

/** An HTTP response is complete once its headers and Content-Length bytes of body arrived. */
function httpComplete(text) {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const m = /\r\nContent-Length: (\d+)\r\n/i.exec(text.slice(0, end + 2));
  return m === null || text.length - end - 4 >= Number(m[1]);
}

function send(req) {
  const flow = flows.get(req.name);
  if (flow === undefined) return answer({ stage: 'open', errno: 'ENOENT' });
  if (flow.error !== undefined)
    return answer({ stage: 'write', errno: flow.error === 'ECONNRESET' ? 'EPIPE' : flow.error });
  const eofBefore = flow.eof;
  let timer;
  let finished = false;
  const finish = (obj) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    flow.listener = undefined;
    answer(obj);
  };
  const listen = listenFor(req, finish);
  timer = setTimeout(() => finish({ timeout: true }), req.waitMs);
  // write(): an error the kernel holds for the socket (ETIMEDOUT once it gave up…) fails it.
  const written = (err) => {
    if (err) finish({ stage: 'write', errno: err.code });
    else if (eofBefore) finish({ stage: 'read', eof: true });
  };
  if (flow.proto === 'tcp') {
    if (flow.socket.destroyed) return finish({ stage: 'write', errno: flow.error ?? 'EPIPE' });
    if (!eofBefore) flow.listener = listen;
    flow.socket.write(req.payload, written);
  } else {
    flow.listener = listen;
    flow.socket.send(req.payload);
  }
}

function listenFor(req, finish) {
  let got = '';
  return (ev) => {
    if (ev.data !== undefined) {
      got += ev.data;
      if (!req.http || httpComplete(got)) finish({ data: got });
    } else if (ev.eof) finish({ stage: 'read', eof: true });
    else finish({ stage: 'read', errno: ev.errno });
  };
}

function close(req) {
  const flow = flows.get(req.name);
  flows.delete(req.name);
  if (flow?.proto === 'tcp') flow.socket.destroy();
  else flow?.socket.close();
  answer({ ok: flow !== undefined });
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  if (req.op === 'open') (req.proto === 'tcp' ? openTcp : openUdp)(req);
  else if (req.op === 'send') send(req);
  else if (req.op === 'close') close(req);
  else if (req.op === 'list')
    answer({
      flows: [...flows].map(([name, f]) => ({
        name,
        proto: f.proto,
        local: f.local,
        remote: f.remote,
        open: f.open && !f.socket.destroyed,
      })),
    });
});
process.stdin.on('end', () => process.exit(0));
answer({ ready: true });

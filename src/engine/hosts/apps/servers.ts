/**
 * The server applications behind the listeners: each reacts to its sockets' events at once (the
 * lab gives applications no processing time).
 *
 * - `http`: the web pods (Go net/http): one response per request, keep-alive (HTTP/1.0 or
 *   `Connection: close` → close after answering); a line that is not HTTP gets Go's
 *   `400 Bad Request` and the connection closes; EOF from the client → close.
 * - `tls`: kube-apiserver on 6443 and kubelet on 10250: plain HTTP gets Go's "Client sent an
 *   HTTP request to an HTTPS server." (HTTP/1.0 400), anything else is closed.
 * - `dns`: CoreDNS on 53/udp and 53/tcp (./dns/coredns.ts). On TCP, miekg/dns serveTCPConn
 *   gives a connection's first read CoreDNS's read timeout and each later one its idle timeout,
 *   and closes the connection when a read fails: bytes that are not a DNS message (curl's
 *   request) leave the reader waiting for the rest of the "message" its first two bytes
 *   announced, until the deadline closes the connection with a FIN (curl: `Empty reply`).
 * - `udp-echo`: a UDP containerPort answers each datagram with one line naming the pod, the
 *   address it was reached at and the peer it saw, then what the peer sent:
 *   `web-…-g2952 (10.244.1.3:5353/udp): you are 10.244.0.5:40001, you sent: hello`.
 */
import { corednsAnswer, soaSerial } from '../dns/coredns';
import type { Op } from '../net';
import { tcpClose, tcpWrite } from '../tcp-user';
import type { HostStack, Payload, SocketEvent, TcpSocket, UdpSocket } from '../types';
import { udpSend } from '../udp';
import { unixMs } from '../output/time';
import { kubeProxyResponse } from './kube-proxy-http';
import {
  parseRequest,
  headResponse,
  responseText,
  tlsPlainHttpResponse,
  webResponse,
} from './http';

const GO_BAD_REQUEST =
  'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request';

function text(p: Payload | undefined): string {
  return p?.kind === 'text' ? p.text : '';
}

function httpData(
  op: Op,
  stack: HostStack,
  sock: TcpSocket,
  name: string,
  p: Payload | undefined,
  kubeProxy = false,
): void {
  const req = parseRequest(text(p));
  if (req === undefined) {
    tcpWrite(op, stack, sock, { kind: 'text', text: GO_BAD_REQUEST });
    tcpClose(op, stack, sock);
    return;
  }
  const local = `${sock.local.addr}:${sock.local.port}`;
  const peer = sock.remote === undefined ? '' : `${sock.remote.addr}:${sock.remote.port}`;
  const res = kubeProxy
    ? kubeProxyResponse(req, sock.local.port, op.ctx)
    : webResponse(req, { name, local, peer }, unixMs(op.ctx.epochSeconds, op.ctx.now));
  const sent = req.method === 'HEAD' ? headResponse(res) : res;
  tcpWrite(op, stack, sock, { kind: 'text', text: responseText(sent) });
  const close =
    req.headers['connection']?.toLowerCase() === 'close' ||
    (req.version === 'HTTP/1.0' && req.headers['connection']?.toLowerCase() !== 'keep-alive');
  if (close) tcpClose(op, stack, sock);
}

function dnsReply(op: Op, p: Payload | undefined): Payload | undefined {
  if (p?.kind !== 'dns' || p.message.qr) return undefined;
  const serial = soaSerial(op.ctx.cluster, op.ctx.epochSeconds);
  return {
    kind: 'dns',
    message: corednsAnswer(op.ctx.cluster, p.message, { rng: op.ctx.rng, serial }),
  };
}

/**
 * CoreDNS's TCP timeouts (core/dnsserver/server.go NewServer, since CoreDNS 1.10.1; the lab's
 * pods run 1.11.3; the `timeouts` plugin would change them): ReadTimeout for a connection's
 * first query, IdleTimeout for each one after.
 */
export const COREDNS_READ_TIMEOUT_MS = 3_000;
export const COREDNS_IDLE_TIMEOUT_MS = 10_000;

function dnsTcp(op: Op, stack: HostStack, sock: TcpSocket, ev: SocketEvent): void {
  if (ev.kind === 'accepted') sock.readDeadline = op.ctx.now + COREDNS_READ_TIMEOUT_MS;
  else if (ev.kind === 'deadline') tcpClose(op, stack, sock);
  else if (ev.kind === 'data' && !sock.readStalled) {
    if (ev.data?.kind !== 'dns') {
      // Not a DNS message: its first two bytes read as a length the rest never reaches.
      sock.readStalled = true;
      return;
    }
    // A response instead of a query is read and dropped (MsgAcceptFunc), no answer.
    const reply = dnsReply(op, ev.data);
    if (reply !== undefined) tcpWrite(op, stack, sock, reply);
    sock.readDeadline = op.ctx.now + COREDNS_IDLE_TIMEOUT_MS;
  }
}

function tcpApp(
  op: Op,
  stack: HostStack,
  sock: TcpSocket,
  ev: SocketEvent,
  app: string,
  name: string,
) {
  if (ev.kind === 'eof') {
    sock.readDeadline = undefined;
    return tcpClose(op, stack, sock);
  }
  if (app === 'dns') return dnsTcp(op, stack, sock, ev);
  if (ev.kind !== 'data') return;
  if (app === 'http') return httpData(op, stack, sock, name, ev.data);
  if (app === 'kube-proxy') return httpData(op, stack, sock, name, ev.data, true);
  if (app === 'tls') {
    if (parseRequest(text(ev.data)) !== undefined)
      tcpWrite(op, stack, sock, { kind: 'text', text: responseText(tlsPlainHttpResponse()) });
    return tcpClose(op, stack, sock);
  }
}

function udpApp(
  op: Op,
  stack: HostStack,
  sock: UdpSocket,
  ev: SocketEvent,
  app: string,
  name: string,
) {
  if ((ev.kind !== 'data' && ev.kind !== 'unexpected-source') || ev.from === undefined) return;
  if (app === 'dns') {
    const reply = dnsReply(op, ev.data);
    if (reply !== undefined) udpSend(op, stack, sock, reply, ev.from, ev.to?.addr);
    return;
  }
  if (app === 'udp-echo') {
    const said = text(ev.data).replace(/\n$/, '');
    const local = `${ev.to?.addr ?? sock.local.addr}:${sock.local.port}`;
    const line = `${name} (${local}/udp): you are ${ev.from.addr}:${ev.from.port}, you sent: ${said}\n`;
    udpSend(op, stack, sock, { kind: 'text', text: line }, ev.from, ev.to?.addr);
  }
}

/** Runs the application that owns the socket of `ev`, if any. */
export function appEvent(op: Op, stack: HostStack, ev: SocketEvent): void {
  if (ev.owner.kind !== 'app') return;
  const sock = stack.sockets.find((s) => s.id === ev.socket);
  if (sock === undefined) return;
  if (sock.proto === 'tcp') tcpApp(op, stack, sock, ev, ev.owner.app, ev.owner.name);
  else udpApp(op, stack, sock, ev, ev.owner.app, ev.owner.name);
}

/**
 * The kernel finds a TCP segment's connection in a hash table (inet_lookup_established); the
 * lab's socket table is a plain list, so a host holding thousands of connections (TIME_WAIT
 * after a load run) would scan it for every segment. This index maps a connection's 4-tuple to
 * its socket, beside the list (a WeakMap on the list: the state stays plain data). It is built
 * from the list on first use and kept by addSocket/removeSocket; a lookup that misses scans
 * the list, so a socket added some other way is still found (and indexed then).
 */
import type { HostStack, Socket, TcpSocket } from './types';

const indexes = new WeakMap<Socket[], Map<string, TcpSocket>>();

const key = (localAddr: string, localPort: number, remoteAddr: string, remotePort: number) =>
  `${localAddr}:${localPort}>${remoteAddr}:${remotePort}`;

function indexOf(stack: HostStack): Map<string, TcpSocket> {
  let index = indexes.get(stack.sockets);
  if (index === undefined) {
    index = new Map();
    for (const s of stack.sockets) {
      if (s.proto === 'tcp' && s.remote !== undefined)
        index.set(key(s.local.addr, s.local.port, s.remote.addr, s.remote.port), s);
    }
    indexes.set(stack.sockets, index);
  }
  return index;
}

/**
 * How many TCP sockets use each local port (connect() asks for every ephemeral port it tries,
 * and a client in a load run holds thousands of TIME_WAIT sockets). Kept by addSocket and
 * removeSocket; `length` notices the list changed some other way (UDP sockets are pushed
 * directly), and then the counts are rebuilt.
 */
interface TcpPorts {
  readonly counts: Map<number, number>;
  length: number;
}

const tcpPorts = new WeakMap<Socket[], TcpPorts>();

function tcpPortsOf(stack: HostStack): TcpPorts {
  let ports = tcpPorts.get(stack.sockets);
  if (ports === undefined || ports.length !== stack.sockets.length) {
    ports = { counts: new Map(), length: stack.sockets.length };
    for (const s of stack.sockets) if (s.proto === 'tcp') countPort(ports, s.local.port, 1);
    tcpPorts.set(stack.sockets, ports);
  }
  return ports;
}

function countPort(ports: TcpPorts, port: number, delta: number): void {
  const n = (ports.counts.get(port) ?? 0) + delta;
  if (n > 0) ports.counts.set(port, n);
  else ports.counts.delete(port);
}

/** Whether a TCP socket of the host (any state: listening, connected, TIME_WAIT) has `port`. */
export function tcpPortInUse(stack: HostStack, port: number): boolean {
  return tcpPortsOf(stack).counts.has(port);
}

/** Appends a socket to the host's table. */
export function addSocket(stack: HostStack, sock: Socket): void {
  const ports = tcpPorts.get(stack.sockets);
  if (ports !== undefined && ports.length === stack.sockets.length) {
    ports.length++;
    if (sock.proto === 'tcp') countPort(ports, sock.local.port, 1);
  }
  stack.sockets.push(sock);
  const index = indexes.get(stack.sockets);
  if (index !== undefined && sock.proto === 'tcp' && sock.remote !== undefined)
    index.set(key(sock.local.addr, sock.local.port, sock.remote.addr, sock.remote.port), sock);
}

/** Takes a socket out of the host's table. */
export function removeSocket(stack: HostStack, sock: { readonly id: number }): void {
  const i = stack.sockets.findIndex((s) => s.id === sock.id);
  if (i < 0) return;
  const ports = tcpPorts.get(stack.sockets);
  const [gone] = stack.sockets.splice(i, 1);
  if (ports !== undefined && ports.length === stack.sockets.length + 1) {
    ports.length--;
    if (gone?.proto === 'tcp') countPort(ports, gone.local.port, -1);
  }
  const index = indexes.get(stack.sockets);
  if (index !== undefined && gone?.proto === 'tcp' && gone.remote !== undefined) {
    const k = key(gone.local.addr, gone.local.port, gone.remote.addr, gone.remote.port);
    if (index.get(k) === gone) index.delete(k);
  }
}

/** The connected TCP socket with this 4-tuple (local = the segment's destination). */
export function findTcpConnection(
  stack: HostStack,
  localAddr: string,
  localPort: number,
  remoteAddr: string,
  remotePort: number,
): TcpSocket | undefined {
  const index = indexOf(stack);
  const k = key(localAddr, localPort, remoteAddr, remotePort);
  const hit = index.get(k);
  if (hit !== undefined) return hit;
  for (const s of stack.sockets) {
    if (
      s.proto === 'tcp' &&
      s.remote !== undefined &&
      s.local.addr === localAddr &&
      s.local.port === localPort &&
      s.remote.addr === remoteAddr &&
      s.remote.port === remotePort
    ) {
      index.set(k, s);
      return s;
    }
  }
  return undefined;
}

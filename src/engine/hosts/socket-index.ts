/**
 * The kernel finds a TCP segment's connection in a hash table (inet_lookup_established); the
 * lab's socket table is a plain list, so a host holding thousands of connections (TIME_WAIT
 * after a load run) would scan it for every segment. This index maps a connection's 4-tuple to
 * its socket, beside the list (a WeakMap on the list: the state stays plain data). It is built
 * from the list on first use and kept by addSocket/removeSocket; a lookup that misses scans
 * the list, so a socket added some other way is still found (and indexed then).
 */
import type { HostStack, SockAddr, Socket, TcpSocket } from './types';

/**
 * Local address → remote address → both ports packed into one integer → socket. Nested by the
 * addresses the segment already holds, so a lookup builds no key string (every segment asks).
 */
type ConnIndex = Map<string, Map<string, Map<number, TcpSocket>>>;

const indexes = new WeakMap<Socket[], ConnIndex>();

const ports = (localPort: number, remotePort: number) => localPort * 65536 + remotePort;

function indexGet(
  index: ConnIndex,
  localAddr: string,
  localPort: number,
  remoteAddr: string,
  remotePort: number,
): TcpSocket | undefined {
  return index.get(localAddr)?.get(remoteAddr)?.get(ports(localPort, remotePort));
}

function indexSet(index: ConnIndex, s: TcpSocket & { remote: SockAddr }): void {
  let byRemote = index.get(s.local.addr);
  if (byRemote === undefined) index.set(s.local.addr, (byRemote = new Map()));
  let byPorts = byRemote.get(s.remote.addr);
  if (byPorts === undefined) byRemote.set(s.remote.addr, (byPorts = new Map()));
  byPorts.set(ports(s.local.port, s.remote.port), s);
}

/** Takes `s` out of the index if it is the socket indexed under its 4-tuple. */
function indexDelete(index: ConnIndex, s: TcpSocket & { remote: SockAddr }): void {
  const byRemote = index.get(s.local.addr);
  const byPorts = byRemote?.get(s.remote.addr);
  const k = ports(s.local.port, s.remote.port);
  if (byPorts?.get(k) !== s) return;
  byPorts.delete(k);
  if (byPorts.size > 0) return;
  byRemote!.delete(s.remote.addr);
  if (byRemote!.size === 0) index.delete(s.local.addr);
}

function indexOf(stack: HostStack): ConnIndex {
  let index = indexes.get(stack.sockets);
  if (index === undefined) {
    index = new Map();
    for (const s of stack.sockets) if (s.proto === 'tcp' && hasRemote(s)) indexSet(index, s);
    indexes.set(stack.sockets, index);
  }
  return index;
}

function hasRemote(s: TcpSocket): s is TcpSocket & { remote: SockAddr } {
  return s.remote !== undefined;
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
  if (index !== undefined && sock.proto === 'tcp' && hasRemote(sock)) indexSet(index, sock);
}

/** Takes a socket out of the host's table. */
export function removeSocket(stack: HostStack, sock: { readonly id: number }): void {
  const i = stack.sockets.findIndex((s) => s.id === sock.id);
  if (i < 0) return;
  const ports = tcpPorts.get(stack.sockets);
  const [gone] = stack.sockets.splice(i, 1);
  if (gone !== undefined) forget(stack, ports, gone);
}

/**
 * Takes the sockets with these ids out of the host's table in one pass, keeping the order of
 * the others: what removeSocket() does for each, in list order. Removing them one by one moves
 * the rest of the list each time, and a client that ran 10,000 connections sees all of its
 * TIME_WAIT sockets end at once.
 */
export function removeSockets(stack: HostStack, ids: ReadonlySet<number>): void {
  if (ids.size === 0) return;
  const list = stack.sockets;
  const ports = tcpPorts.get(list);
  const left = new Set(ids);
  let kept = 0;
  for (let i = 0; i < list.length; i++) {
    const s = list[i]!;
    // The first socket with the id goes, as removeSocket's findIndex would take it.
    if (left.delete(s.id)) forget(stack, ports, s, list.length - i + kept - 1);
    else list[kept++] = s;
  }
  list.length = kept;
}

/**
 * Keeps the port counts and the connection index in step with a socket leaving the list.
 * `lengthAfter`: the list's length once the socket is out (now, for removeSocket).
 */
function forget(
  stack: HostStack,
  ports: TcpPorts | undefined,
  gone: Socket,
  lengthAfter = stack.sockets.length,
): void {
  if (ports !== undefined && ports.length === lengthAfter + 1) {
    ports.length--;
    if (gone.proto === 'tcp') countPort(ports, gone.local.port, -1);
  }
  const index = indexes.get(stack.sockets);
  if (index !== undefined && gone.proto === 'tcp' && hasRemote(gone)) indexDelete(index, gone);
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
  const hit = indexGet(index, localAddr, localPort, remoteAddr, remotePort);
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
      indexSet(index, s as TcpSocket & { remote: SockAddr });
      return s;
    }
  }
  return undefined;
}

/**
 * The lab's named long-lived flows (`lab flow open|send|close|list`): a client socket a
 * learner keeps open across commands, so that a rolling update can happen under it. The socket
 * is an ordinary one of the host's socket layer (connect(), write(), read(), close()); the
 * lab's command only names it and says what a client program reading it would see.
 *
 * - TCP: `send` writes the text (default: an HTTP/1.1 keep-alive `GET /`, whose answer is shown
 *   as its body) and reads: the answer, EOF (the peer closed), or the error the kernel reports
 *   (ECONNRESET after a RST, ETIMEDOUT after tcp_retries2 retransmissions, EHOSTUNREACH).
 *   Without -w it waits as long as the kernel keeps the connection (a blocking read()).
 * - UDP: a connected socket (like a resolver's); `send` sends one datagram and waits -w seconds
 *   (default 2) for the answer; an ICMP port unreachable shows as ECONNREFUSED.
 */
import type { HostRef } from '../routing/topology';
import {
  closeSocket,
  curlRequest,
  hostKey,
  nextWakeup,
  openTcp,
  openUdp,
  parseResponse,
  sendData,
  stackFor,
  strerror,
  type SocketEvent,
} from '../hosts';
import type { FlowOutcome, FlowSummary } from '../commands/registry';
import { labNote, type LabNoteId } from '../model/lab-notes';
import { nextControlPlaneEvent } from './control-plane';
import { advanceNetwork, socketLayer } from './network';
import type { World } from './world';

/** A blocking wait ends here at the latest (the kernel gives up on data after ~15 minutes). */
const MAX_WAIT_MS = 3_600_000;
const UDP_DEFAULT_WAIT_MS = 2000;

interface Flow {
  readonly name: string;
  readonly proto: 'tcp' | 'udp';
  readonly socket: number;
  readonly remote: { readonly addr: string; readonly port: number };
  /** Events not read yet. */
  readonly unread: SocketEvent[];
  /** The peer closed (a FIN was received). */
  eof: boolean;
  /** The connection ended with this errno (reset, timeout…). */
  error?: string;
  closed: boolean;
}

interface FlowState {
  readonly byHost: Map<string, Map<string, Flow>>;
  readonly bySocket: Map<number, Flow>;
}

const states = new WeakMap<World, FlowState>();

function state(world: World): FlowState {
  let s = states.get(world);
  if (s === undefined) {
    const created: FlowState = { byHost: new Map(), bySocket: new Map() };
    socketLayer(world).setTap((events) => {
      for (const ev of events) {
        const flow = created.bySocket.get(ev.socket);
        if (flow === undefined) continue;
        flow.unread.push(ev);
        // What later reads return at once: the end of stream, or the error that ended it.
        if (ev.kind === 'eof') flow.eof = true;
        if (flow.proto === 'tcp' && (ev.kind === 'reset' || ev.kind === 'timeout'))
          flow.error = ev.errno ?? 'ECONNRESET';
      }
    });
    states.set(world, (s = created));
  }
  return s;
}

/** Runs the world forward until `done()` or `deadline` (virtual ms), timer by timer. */
function waitUntil(world: World, done: () => boolean, deadline: number): boolean {
  for (let guard = 0; guard < 100_000 && !done(); guard++) {
    const hosts = socketLayer(world).hosts;
    const a = nextWakeup(hosts);
    const b = nextControlPlaneEvent(world);
    const next = a === undefined ? b : b === undefined ? a : Math.min(a, b);
    if (next === undefined || next > deadline) {
      if (deadline < Infinity) advanceNetwork(world, deadline);
      return done();
    }
    advanceNetwork(world, Math.max(next, world.clock.now()));
  }
  return done();
}

const fail = (text: string): FlowOutcome => ({ ok: false, text });
/** One of the lab's flow messages (model/lab-notes.ts), as a failed outcome's text. */
const failNote = (id: LabNoteId, params: Readonly<Record<string, string | number>>) =>
  fail(labNote(id, params).trimEnd());

/** Takes the unread events: the first answer, end of stream or error decides. */
function readOutcome(flow: Flow, request: 'http' | 'raw'): FlowOutcome | undefined {
  while (flow.unread.length > 0) {
    const ev = flow.unread.shift()!;
    if (ev.kind === 'data' || ev.kind === 'unexpected-source') {
      if (ev.kind === 'unexpected-source') continue;
      const text = ev.data?.kind === 'text' ? ev.data.text : '';
      if (request === 'http') {
        const res = parseResponse(text);
        if (res !== undefined)
          return { ok: true, text: res.body.endsWith('\n') ? res.body : `${res.body}\n` };
      }
      return { ok: true, text };
    }
    if (ev.kind === 'eof') {
      return failNote('flow.eof', { name: flow.name });
    }
    if (
      ev.errno !== undefined &&
      ['reset', 'timeout', 'unreachable', 'refused'].includes(ev.kind)
    ) {
      return failNote('flow.read', { name: flow.name, error: strerror(ev.errno) });
    }
  }
  return undefined;
}

export function flowControls(world: World, host: HostRef) {
  const key = hostKey(host);
  const flowsHere = (): Map<string, Flow> => {
    const s = state(world);
    let m = s.byHost.get(key);
    if (m === undefined) s.byHost.set(key, (m = new Map()));
    return m;
  };

  function open(name: string, proto: 'tcp' | 'udp', addr: string, port: number): FlowOutcome {
    const s = state(world);
    const existing = flowsHere().get(name);
    if (existing !== undefined && !existing.closed) return failNote('flow.exists', { name });
    const layer = socketLayer(world);
    const opened =
      proto === 'tcp'
        ? openTcp(layer.hosts, key, addr, port, layer.ctx())
        : openUdp(layer.hosts, key, layer.ctx(), { connect: { addr, port } });
    if (opened.socket === undefined)
      return failNote('flow.socket', { name, error: strerror(opened.errno ?? 'ENODEV') });
    const flow: Flow = {
      name,
      proto,
      socket: opened.socket.id,
      remote: { addr, port },
      unread: [],
      eof: false,
      closed: false,
    };
    s.bySocket.set(flow.socket, flow);
    flowsHere().set(name, flow);
    layer.carry(opened);
    if (proto === 'tcp') {
      const settled = () => flow.unread.some((e) => e.kind !== 'data');
      waitUntil(world, settled, Infinity);
      const ev = flow.unread.shift();
      if (ev?.kind !== 'connected') {
        flow.closed = true;
        flowsHere().delete(name);
        s.bySocket.delete(flow.socket);
        const why = strerror(ev?.errno ?? 'ETIMEDOUT');
        return failNote('flow.connect', { name, addr, port, proto: 'tcp', error: why });
      }
    }
    return { ok: true, text: `${summaryLine(summary(flow))}\n` };
  }

  function send(name: string, text: string | undefined, waitMs: number | undefined): FlowOutcome {
    const flow = flowsHere().get(name);
    if (flow === undefined || flow.closed) return failNote('flow.none', { name });
    // A connection that ended: write() fails (EPIPE after a reset, else the pending error).
    if (flow.error !== undefined)
      return failNote('flow.write', {
        name,
        error: strerror(flow.error === 'ECONNRESET' ? 'EPIPE' : flow.error),
      });
    const layer = socketLayer(world);
    const request: 'http' | 'raw' = flow.proto === 'tcp' && text === undefined ? 'http' : 'raw';
    const payload =
      request === 'http'
        ? curlRequest(flow.remote.addr, flow.remote.port, '/')
        : `${text ?? 'hello'}\n`;
    // An end of stream that arrived before this write is what the read returns at once.
    const eofBefore = flow.eof;
    flow.unread.length = 0;
    const sent = sendData(layer.hosts, flow.socket, { kind: 'text', text: payload }, layer.ctx());
    layer.carry(sent);
    if (sent.errno !== undefined)
      return failNote('flow.write', { name, error: strerror(sent.errno) });
    if (eofBefore) return failNote('flow.eof', { name });
    const limit = waitMs ?? (flow.proto === 'udp' ? UDP_DEFAULT_WAIT_MS : MAX_WAIT_MS);
    const deadline = world.clock.now() + limit;
    let outcome: FlowOutcome | undefined;
    waitUntil(world, () => (outcome ??= readOutcome(flow, request)) !== undefined, deadline);
    return outcome ?? failNote('flow.timeout', { name, seconds: limit / 1000 });
  }

  function close(name: string): FlowOutcome {
    const flow = flowsHere().get(name);
    if (flow === undefined || flow.closed) return failNote('flow.none', { name });
    const layer = socketLayer(world);
    layer.carry(closeSocket(layer.hosts, flow.socket, layer.ctx()));
    flow.closed = true;
    flowsHere().delete(name);
    state(world).bySocket.delete(flow.socket);
    return { ok: true, text: '' };
  }

  function summary(flow: Flow): FlowSummary {
    const stack = stackFor(socketLayer(world).hosts, key);
    const sock = stack === undefined ? undefined : newestWithId(stack.sockets, flow.socket);
    const local = sock === undefined ? '-' : `${sock.local.addr}:${sock.local.port}`;
    const state = sock === undefined ? 'CLOSED' : sock.proto === 'tcp' ? sock.state : 'CONNECTED';
    return {
      name: flow.name,
      proto: flow.proto,
      local,
      remote: `${flow.remote.addr}:${flow.remote.port}`,
      state,
    };
  }

  return {
    open,
    send,
    close,
    list: (): FlowSummary[] => [...flowsHere().values()].map(summary),
  };
}

/** The socket with this id, searched from the end: a flow's socket is among the newest. */
function newestWithId<T extends { readonly id: number }>(list: readonly T[], id: number) {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.id === id) return list[i];
  return undefined;
}

/** `NAME tcp 10.244.0.5:40000 -> 10.96.0.10:80 ESTABLISHED`. */
export function summaryLine(s: FlowSummary): string {
  return `${s.name} ${s.proto} ${s.local} -> ${s.remote} ${s.state}`;
}

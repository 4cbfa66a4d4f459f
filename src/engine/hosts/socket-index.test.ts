/**
 * The connection index finds what a scan of the socket list finds, for any sequence of sockets
 * added and removed through it, pushed to the list behind its back, and looked up (the index
 * is built on the first lookup, so lookups come before and after changes).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT_RANGE, DEFAULT_TCP_SYSCTLS } from './build';
import {
  addSocket,
  findTcpConnection,
  removeSocket,
  removeSockets,
  tcpPortInUse,
} from './socket-index';
import type { HostStack, Socket, TcpSocket } from './types';

const addr = fc.constantFrom('10.244.1.5', '10.244.2.7', '10.96.0.10');
const port = fc.constantFrom(80, 443, 32768, 65535, 0);
const quad = fc.record({ la: addr, lp: port, ra: addr, rp: port });
type Quad = { la: string; lp: number; ra: string; rp: number };

type Op =
  | { kind: 'add'; q: Quad; direct: boolean }
  | { kind: 'remove'; pick: number }
  | { kind: 'removeMany'; picks: number[] }
  | { kind: 'find'; q: Quad };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), q: quad, direct: fc.boolean() }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('removeMany' as const),
    picks: fc.array(fc.nat(), { maxLength: 6 }),
  }),
  fc.record({ kind: fc.constant('find' as const), q: quad }),
);

function socket(id: number, q: Quad): TcpSocket {
  return {
    id,
    proto: 'tcp',
    local: { addr: q.la, port: q.lp },
    remote: { addr: q.ra, port: q.rp },
  } as TcpSocket;
}

function emptyStack(): HostStack {
  return {
    key: 'h',
    label: 'h',
    addresses: [],
    routes: [],
    sockets: [],
    portRange: DEFAULT_PORT_RANGE,
    sysctl: DEFAULT_TCP_SYSCTLS,
  } as HostStack;
}

function scan(stack: HostStack, q: Quad): Socket | undefined {
  return stack.sockets.find(
    (s) =>
      s.proto === 'tcp' &&
      s.remote !== undefined &&
      s.local.addr === q.la &&
      s.local.port === q.lp &&
      s.remote.addr === q.ra &&
      s.remote.port === q.rp,
  );
}

describe('socket index', () => {
  it('finds what a scan finds', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const stack = emptyStack();
        let id = 1;
        for (const o of ops) {
          if (o.kind === 'add') {
            // A 4-tuple names one connection (the kernel refuses a second).
            if (scan(stack, o.q) !== undefined) continue;
            const s = socket(id++, o.q);
            if (o.direct) stack.sockets.push(s);
            else addSocket(stack, s);
          } else if (o.kind === 'remove') {
            const s = stack.sockets[o.pick % Math.max(1, stack.sockets.length)];
            if (s !== undefined) removeSocket(stack, s);
          } else if (o.kind === 'removeMany') {
            const n = Math.max(1, stack.sockets.length);
            const ids = new Set(o.picks.map((p) => stack.sockets[p % n]?.id ?? -1));
            removeSockets(stack, ids);
          }
          const q = o.kind === 'find' ? o.q : o.kind === 'add' ? o.q : undefined;
          if (q === undefined) continue;
          expect(findTcpConnection(stack, q.la, q.lp, q.ra, q.rp)).toBe(scan(stack, q));
          expect(tcpPortInUse(stack, q.lp)).toBe(stack.sockets.some((s) => s.local.port === q.lp));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('removes a batch of sockets as removeSocket removes each in list order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ q: quad, direct: fc.boolean() }), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.array(quad, { maxLength: 8 }),
        (adds, picks, probes) => {
          const make = () => {
            const stack = emptyStack();
            adds.forEach((a, i) => {
              // A 4-tuple names one connection (the kernel refuses a second).
              if (scan(stack, a.q) !== undefined) return;
              const s = socket(i + 1, a.q);
              if (a.direct) stack.sockets.push(s);
              else addSocket(stack, s);
            });
            // Build the index and the port counts before the removal, as a run has them.
            for (const p of probes) findTcpConnection(stack, p.la, p.lp, p.ra, p.rp);
            tcpPortInUse(stack, 80);
            return stack;
          };
          const one = make();
          const batch = make();
          const n = Math.max(1, adds.length);
          const ids = new Set(picks.map((p) => (p % n) + 1));
          for (const s of [...one.sockets]) if (ids.has(s.id)) removeSocket(one, s);
          removeSockets(batch, ids);
          expect(batch.sockets.map((s) => s.id)).toEqual(one.sockets.map((s) => s.id));
          for (const p of [...probes, ...adds.map((a) => a.q)]) {
            expect(findTcpConnection(batch, p.la, p.lp, p.ra, p.rp)).toBe(scan(batch, p));
            expect(tcpPortInUse(batch, p.lp)).toBe(tcpPortInUse(one, p.lp));
            expect(tcpPortInUse(batch, p.lp)).toBe(
              batch.sockets.some((s) => s.local.port === p.lp),
            );
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

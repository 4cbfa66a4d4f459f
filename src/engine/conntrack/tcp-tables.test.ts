/**
 * tcp_valid_flags[] as a bit-set table and the per-state timeout as a switch answer what the
 * key string and the record of every state's timeout answered: for every flag combination, and
 * every state under any timeouts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TCP_STATES, type CtTimeouts, type TcpState } from './model';
import { tcpFlagsValid, timeoutFor } from './tcp';
import type { TcpFlags } from './tuple';

function validByKey(f: TcpFlags): boolean {
  const key = `${f.syn ? 'S' : ''}${f.rst ? 'R' : ''}${f.fin ? 'F' : ''}${f.ack ? 'A' : ''}${f.urg ? 'U' : ''}`;
  return ['S', 'SU', 'SA', 'R', 'RA', 'FA', 'FAU', 'A', 'AU'].includes(key);
}

function timeoutByRecord(t: CtTimeouts, s: TcpState): number {
  const byState: Record<TcpState, number> = {
    NONE: t.tcpSynSent,
    SYN_SENT: t.tcpSynSent,
    SYN_RECV: t.tcpSynRecv,
    ESTABLISHED: t.tcpEstablished,
    FIN_WAIT: t.tcpFinWait,
    CLOSE_WAIT: t.tcpCloseWait,
    LAST_ACK: t.tcpLastAck,
    TIME_WAIT: t.tcpTimeWait,
    CLOSE: t.tcpClose,
    SYN_SENT2: t.tcpSynSent2,
  };
  return byState[s];
}

describe('TCP tracker tables', () => {
  it('valid flag combinations: as the key list', () => {
    const names = ['syn', 'ack', 'fin', 'rst', 'psh', 'urg'] as const;
    for (let bits = 0; bits < 1 << names.length; bits++) {
      const f: { [K in (typeof names)[number]]?: boolean } = {};
      names.forEach((n, i) => {
        if (bits & (1 << i)) f[n] = true;
        // Absent and false read the same.
        else if (bits % 3 === 0) f[n] = false;
      });
      expect(tcpFlagsValid(f)).toBe(validByKey(f));
    }
  });

  it('timeout per state: as the record', () => {
    const timeouts = fc.record({
      tcpSynSent: fc.nat(),
      tcpSynRecv: fc.nat(),
      tcpEstablished: fc.nat(),
      tcpFinWait: fc.nat(),
      tcpCloseWait: fc.nat(),
      tcpLastAck: fc.nat(),
      tcpTimeWait: fc.nat(),
      tcpClose: fc.nat(),
      tcpSynSent2: fc.nat(),
    });
    fc.assert(
      fc.property(timeouts, fc.constantFrom(...TCP_STATES), (t, s) => {
        const all = t as unknown as CtTimeouts;
        expect(timeoutFor(all, s)).toBe(timeoutByRecord(all, s));
      }),
      { numRuns: 1000 },
    );
  });
});

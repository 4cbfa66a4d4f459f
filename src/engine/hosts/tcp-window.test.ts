import { describe, expect, it } from 'vitest';
import { selectWindow, seqAdd, SYN_WINDOW, SYNACK_WINDOW } from './tcp-segment';
import type { TcpSocket } from './types';

/** The fields tcp_select_window() reads, right after the handshake (rcv_wup = rcv_nxt). */
function socket(active: boolean, isn: number): TcpSocket {
  const rcvNxt = seqAdd(isn, 1);
  const fields = { active, rcvWnd: active ? SYN_WINDOW : SYNACK_WINDOW, rcvWup: rcvNxt, rcvNxt };
  return fields as unknown as TcpSocket;
}

function receive(sock: TcpSocket, bytes: number): void {
  sock.rcvNxt = seqAdd(sock.rcvNxt, bytes);
}

describe('the advertised window (tcp_select_window)', () => {
  it('active opener: 502 until data comes in, then 501 after every answer (kernel captures)', () => {
    const s = socket(true, 0xfffffff0); // rcv_nxt wraps round 2^32 on the way
    // The SYN offered 64240: what is open of it, rounded up to the scale (2^7), is 502.
    expect(selectWindow(s)).toBe(502);
    expect(selectWindow(s)).toBe(502);
    // A 148-byte answer: 64256 - 148 is still open, less than the 501 × 128 offered.
    receive(s, 148);
    expect(selectWindow(s)).toBe(501);
    // Experiment 07, line 37: after the second answer the kernel still says 501.
    receive(s, 148);
    expect(selectWindow(s)).toBe(501);
    // The application reads at once: the window does not shrink with the bytes received.
    receive(s, 20_000);
    expect(selectWindow(s)).toBe(501);
  });

  it('passive opener: 509 after the first request and after the next', () => {
    const s = socket(false, 1_000_000);
    receive(s, 73);
    expect(selectWindow(s)).toBe(509);
    receive(s, 73);
    expect(selectWindow(s)).toBe(509);
  });

  it('never takes back what was offered: an open window above the offer is rounded up', () => {
    const s = socket(false, 5);
    // The SYN-ACK offered 65160 and nothing came in: 65160 / 128 rounded up.
    expect(selectWindow(s)).toBe(510);
    expect(s.rcvWnd).toBe(510 * 128);
    receive(s, 200);
    // 65280 - 200 = 65080 still open, less than 509 × 128 = 65152 offered.
    expect(selectWindow(s)).toBe(509);
    expect(s.rcvWup).toBe(s.rcvNxt);
  });
});

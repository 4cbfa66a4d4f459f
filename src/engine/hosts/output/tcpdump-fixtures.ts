/**
 * Helpers of the tcpdump golden tests: packets rebuilt from the absolute values of real tcpdump
 * lines, and the formatter's lines for them.
 */
import type { HostPacket, Payload, TcpOptions } from '../types';
import { createTcpdumpState, tcpdumpLine } from './tcpdump';

export const DAY = 1_796_169_600; // 2026-12-02T00:00:00Z
export const at = (hms: string) => {
  const [h, m, s] = hms.split(':').map(Number) as [number, number, number];
  return (h * 3600 + m * 60 + s) * 1000;
};

export function tcp(
  src: string,
  dst: string,
  flags: string,
  seq: number,
  ack: number | undefined,
  win: number,
  options?: TcpOptions,
  data?: Payload,
): HostPacket {
  const [sa, sp] = src.split(':') as [string, string];
  const [da, dp] = dst.split(':') as [string, string];
  const len = data === undefined ? 0 : data.kind === 'text' ? data.text.length : 72;
  return {
    src: sa,
    dst: da,
    proto: 'tcp',
    sport: Number(sp),
    dport: Number(dp),
    tcpFlags: flags,
    length: 52 + len,
    mark: 0,
    seq,
    ...(ack === undefined ? {} : { ack }),
    win,
    ...(options === undefined ? {} : { tcpOptions: options }),
    ...(data === undefined ? {} : { payload: len, data }),
  };
}

export const syn = (val: number, ecr: number, wscale = 7, mss = 1460): TcpOptions => ({
  mss,
  sackOK: true,
  ts: { val, ecr },
  wscale,
});
export const ts = (val: number, ecr: number): TcpOptions => ({ ts: { val, ecr } });

/** [golden line, formatted line] for each row, through one capture's state. */
export function format(rows: readonly (readonly [string, HostPacket])[]): [string, string][] {
  const state = createTcpdumpState();
  return rows.map(([line, packet]) => {
    const time = line.slice(0, 15);
    const labMs = at(time.slice(0, 8)) + Number(time.slice(9)) / 1000;
    return [line, tcpdumpLine(state, packet, { epochSeconds: DAY, labMs })];
  });
}

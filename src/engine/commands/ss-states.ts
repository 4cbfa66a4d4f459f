/**
 * ss's socket states as the bit set misc/ss.c keeps (SS_UNKNOWN = 0 … SS_CLOSING = 11, SS_ALL
 * includes SS_UNKNOWN), the names `state`/`exclude` take (scan_state(): case-insensitive, with
 * the groups all, connected, synchronized, bucket and big), and the defaults each kind of
 * socket brings when no state is asked for (default_dbs: TCP SS_CONN, UDP established only).
 */

/** The state names ss prints, by their bit. */
const BITS: Readonly<Record<string, number>> = {
  ESTAB: 1,
  'SYN-SENT': 2,
  'SYN-RECV': 3,
  'FIN-WAIT-1': 4,
  'FIN-WAIT-2': 5,
  'TIME-WAIT': 6,
  UNCONN: 7,
  'CLOSE-WAIT': 8,
  'LAST-ACK': 9,
  LISTEN: 10,
  CLOSING: 11,
};

/** The bit of a state as ss prints it (`ESTAB`, `TIME-WAIT`…). */
export const stateBit = (printed: string): number => 1 << (BITS[printed] ?? 0);

const bits = (...printed: string[]) => printed.reduce((m, p) => m | stateBit(p), 0);

export const SS_ALL = (1 << 12) - 1;
export const SS_CONN = SS_ALL & ~bits('LISTEN', 'UNCONN', 'TIME-WAIT', 'SYN-RECV');
export const SS_LISTENING = bits('LISTEN', 'UNCONN');
export const SS_UDP_DEFAULT = bits('ESTAB');

/** The long names scan_state() compares with (sstate_namel). */
const LONG_NAMES: Readonly<Record<string, string>> = {
  established: 'ESTAB',
  'syn-sent': 'SYN-SENT',
  'syn-recv': 'SYN-RECV',
  'fin-wait-1': 'FIN-WAIT-1',
  'fin-wait-2': 'FIN-WAIT-2',
  'time-wait': 'TIME-WAIT',
  unconnected: 'UNCONN',
  'close-wait': 'CLOSE-WAIT',
  'last-ack': 'LAST-ACK',
  listening: 'LISTEN',
  closing: 'CLOSING',
};

/** scan_state(): the bits a state name stands for, or undefined for a wrong name. */
export function scanState(name: string): number | undefined {
  const n = name.toLowerCase();
  if (n === 'close' || n === 'closed') return bits('UNCONN');
  if (n === 'syn-rcv') return bits('SYN-RECV');
  if (n === 'all') return SS_ALL;
  if (n === 'connected') return SS_ALL & ~bits('UNCONN', 'LISTEN');
  if (n === 'synchronized') return SS_ALL & ~bits('UNCONN', 'LISTEN', 'SYN-SENT');
  if (n === 'bucket') return bits('SYN-RECV', 'TIME-WAIT');
  if (n === 'big') return SS_ALL & ~bits('SYN-RECV', 'TIME-WAIT');
  if (n === 'unknown') return 1;
  const printed = LONG_NAMES[n];
  return printed === undefined ? undefined : stateBit(printed);
}

/** How many states a set holds (ss hides its State column when it is one). */
export function stateCount(states: number): number {
  let n = 0;
  for (let s = states; s !== 0; s &= s - 1) n++;
  return n;
}

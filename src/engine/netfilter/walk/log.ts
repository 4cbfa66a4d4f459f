/**
 * The packet dump the LOG target (and legacy TRACE) writes to the kernel log:
 * nf_log_syslog.c nf_log_dump_packet_common() + dump_ipv4_packet(). The walk has no link layer,
 * IP ID, TOS or TCP sequence numbers, so MAC= is left out and ID/TOS/WINDOW print as 0.
 */
import type { Packet } from './types';

/** TCP flag names in the order the kernel prints them. */
const TCP_FLAGS = [
  ['cwr', 'CWR'],
  ['ece', 'ECE'],
  ['urg', 'URG'],
  ['ack', 'ACK'],
  ['psh', 'PSH'],
  ['rst', 'RST'],
  ['syn', 'SYN'],
  ['fin', 'FIN'],
] as const;

/** `IN=… OUT=… [PHYSIN=… PHYSOUT=…] SRC=… … [MARK=0x…]` (without the prefix). */
export function packetDump(p: Packet): string {
  let t = `IN=${p.inIface ?? ''} OUT=${p.outIface ?? ''} `;
  // PHYSIN/PHYSOUT only when the bridge port differs from the device (br_netfilter packets).
  if (p.physIn !== undefined && p.physIn !== p.inIface) t += `PHYSIN=${p.physIn} `;
  if (p.physOut !== undefined && p.physOut !== p.outIface) t += `PHYSOUT=${p.physOut} `;
  t += `SRC=${p.src} DST=${p.dst} `;
  t += `LEN=${p.length} TOS=0x00 PREC=0x00 TTL=${p.ttl ?? 64} ID=0 `;
  const frag = p.fragOffset ?? 0;
  if (frag !== 0) t += `FRAG:${frag} `;
  switch (p.protocol) {
    case 'tcp': {
      t += 'PROTO=TCP ';
      if (frag !== 0) break;
      t += `SPT=${p.sport ?? 0} DPT=${p.dport ?? 0} WINDOW=0 RES=0x00 `;
      for (const [k, name] of TCP_FLAGS) if (p.tcpFlags?.[k]) t += `${name} `;
      t += 'URGP=0 ';
      break;
    }
    case 'udp':
      t += 'PROTO=UDP ';
      // The UDP length: the IP total length minus a 20-byte header without options.
      if (frag === 0) t += `SPT=${p.sport ?? 0} DPT=${p.dport ?? 0} LEN=${p.length - 20} `;
      break;
    case 'sctp':
      t += 'PROTO=SCTP ';
      if (frag === 0) t += `SPT=${p.sport ?? 0} DPT=${p.dport ?? 0} `;
      break;
    case 'icmp':
      t += 'PROTO=ICMP ';
      if (frag === 0) t += `TYPE=${p.icmpType ?? 0} CODE=${p.icmpCode ?? 0} `;
      break;
  }
  if (p.mark !== 0) t += `MARK=0x${(p.mark >>> 0).toString(16)} `;
  return t.trimEnd();
}

/** A LOG target line: the prefix (as given, usually ending in a space) and the dump. */
export function logLine(prefix: string, p: Packet): string {
  return prefix + packetDump(p);
}

/** A legacy `-j TRACE` line: `TRACE: nat:KUBE-SERVICES:rule:7 IN=…`. */
export function traceLine(trace: string, p: Packet): string {
  return `TRACE: ${trace} ${packetDump(p)}`;
}

/**
 * tcpdump 4.99 lines (`tcpdump -n`, bookworm) for the lab's packets; formats checked against the
 * real tcpdump on veth captures (golden tests), rules from print-tcp.c, print-domain.c, print-icmp.c:
 *
 * - TCP: `HH:MM:SS.uuuuuu IP 10.244.0.5.51234 > 10.96.0.20.80: Flags [S], seq 123, win 64240,
 *   options [mss 1460,sackOK,TS val … ecr 0,nop,wscale 7], length 0`. Sequence numbers are
 *   relative once tcpdump has seen a packet with ACK set for the connection (a SYN-ACK or, for a
 *   refused connection, the RST-ACK print absolute numbers and set the base); `-S` keeps them
 *   absolute. That memory is the `TcpdumpState` the caller keeps per capture.
 * - HTTP on ports 80 and 8080 adds `: HTTP: <first line>`; DNS on port 53 is decoded
 *   (`12345+ [1au] A? web.default.svc.cluster.local. (70)`, `12345*- 1/0/1 A 10.96.0.20 (115)`;
 *   over TCP after `length N ` without a colon); other UDP: `UDP, length N`.
 * - ICMP errors: `ICMP 10.96.0.10 udp port 53 unreachable, length 106`.
 * - With `-i any`, each line carries the interface and direction: `eth0  In  IP …`.
 * - `-e` prints the link-level header instead of `IP`: on an Ethernet device (print-ether.c)
 *   `SRC > DST, ethertype IPv4 (0x0800), length FRAME: …` (FRAME = 14 + the IP length; a veth
 *   does not pad short frames); with `-i any` (print-sll.c, LINUX_SLL2) `ifindex N SRC ethertype
 *   IPv4 (0x0800), length 20 + the IP length: …`, the source MAC only. Without -n each MAC is
 *   followed by its OUI's name from tcpdump's oui.c, which names 00:00:00 (lo) "Ethernet" and
 *   no locally administered or QEMU (52:54:00) prefix, the only others the lab's devices have:
 *   `(oui Unknown)`. Seen with tcpdump 4.99.3 on veth, lo and `any` captures.
 */
import type { DnsMessage, RData } from '../dns/message';
import { dnsWireSize, rdataText } from '../dns/message';
import { ipToInt } from '../../model/ip';
import type { HostPacket, TcpOptions } from '../types';
import { portName } from './services';
import { tcpdumpTime, unixMs } from './time';

/** What tcpdump remembers between lines: the sequence bases of TCP conversations. */
export interface TcpdumpState {
  readonly conversations: Record<string, { seq: number; ack: number }>;
}

export function createTcpdumpState(): TcpdumpState {
  return { conversations: {} };
}

export interface TcpdumpOptions {
  /** `-S`: absolute sequence numbers. */
  readonly absolute?: boolean;
  /** `-i any`: the interface and direction column. */
  readonly any?: { readonly iface: string; readonly direction: 'In' | 'Out' | 'P' | 'M' };
  /** Without -n: ports by their /etc/services names (`10.96.0.10.domain`). */
  readonly names?: boolean;
  /**
   * `-e`: the frame's MACs (`dst` is not printed with `-i any`) and, with `-i any`, the
   * capturing interface's ifindex.
   */
  readonly link?: { readonly src: string; readonly dst: string; readonly ifindex: number };
}

/** etheraddr_string(): the MAC, and without -n its OUI's name (see the header comment). */
function macText(mac: string, names: boolean): string {
  if (!names) return mac;
  return `${mac} (oui ${mac.startsWith('00:00:00:') ? 'Ethernet' : 'Unknown'})`;
}

/** What -e prints where `IP ` would stand (print-ether.c, print-sll.c sll2_print()). */
function linkText(packet: HostPacket, opts: TcpdumpOptions): string {
  const link = opts.link;
  if (link === undefined) return 'IP ';
  const names = opts.names === true;
  if (opts.any !== undefined)
    return `ifindex ${link.ifindex} ${macText(link.src, names)} ethertype IPv4 (0x0800), length ${packet.length + 20}: `; // prettier-ignore
  return `${macText(link.src, names)} > ${macText(link.dst, names)}, ethertype IPv4 (0x0800), length ${packet.length + 14}: `; // prettier-ignore
}

const RCODE_TEXT: Readonly<Record<string, string>> = {
  NOERROR: '',
  FORMERR: ' FormErr',
  SERVFAIL: ' ServFail',
  NXDOMAIN: ' NXDomain',
  NOTIMP: ' NotImp',
  REFUSED: ' Refused',
};

/** print-domain.c ns_print at the default verbosity. */
export function dnsSummary(m: DnsMessage): string {
  const ar = m.additional.length + (m.edns === undefined ? 0 : 1);
  const size = ` (${dnsWireSize(m)})`;
  if (!m.qr) {
    let s = `${m.id}${m.rd ? '+' : ''}${m.cd ? '%' : ''}`;
    if (m.answer.length > 0) s += ` [${m.answer.length}a]`;
    if (m.authority.length > 0) s += ` [${m.authority.length}n]`;
    if (ar > 0) s += ` [${ar}au]`;
    const q = m.question[0];
    return `${s}${q === undefined ? '' : ` ${q.type}? ${q.name}`}${size}`;
  }
  let s = `${m.id}${RCODE_TEXT[m.rcode] ?? ''}${m.aa ? '*' : ''}${m.ra ? '' : '-'}${m.tc ? '|' : ''}${m.ad ? '$' : ''}`;
  s += ` ${m.answer.length}/${m.authority.length}/${ar}`;
  s += m.answer.map((rr) => ` ${rr.data.type} ${answerText(rr.data)}`).join(',');
  return s + size;
}

/** ns_rprint()'s data: an SRV is `target:port priority weight` (print-domain.c T_SRV). */
function answerText(d: RData): string {
  return d.type === 'SRV' ? `${d.target}:${d.port} ${d.priority} ${d.weight}` : rdataText(d);
}

function optionsText(o: TcpOptions): string {
  const parts: string[] = [];
  if (o.mss !== undefined) parts.push(`mss ${o.mss}`);
  if (o.sackOK === true) parts.push('sackOK');
  if (o.ts !== undefined) {
    if (o.mss === undefined) parts.push('nop', 'nop');
    parts.push(`TS val ${o.ts.val} ecr ${o.ts.ecr}`);
  }
  if (o.wscale !== undefined) parts.push('nop', `wscale ${o.wscale}`);
  return parts.join(',');
}

function isHttpPort(p: HostPacket): boolean {
  return [80, 8080].includes(p.sport ?? 0) || [80, 8080].includes(p.dport ?? 0);
}

function isDnsPort(p: HostPacket): boolean {
  return p.sport === 53 || p.dport === 53;
}

function tcpText(state: TcpdumpState, p: HostPacket, absolute: boolean): string {
  const flags = p.tcpFlags ?? '';
  const len = p.payload ?? 0;
  let seq = (p.seq ?? 0) >>> 0;
  let ack = (p.ack ?? 0) >>> 0;
  if (!absolute && flags.includes('.')) {
    const a = ipToInt(p.src);
    const b = ipToInt(p.dst);
    const rev = a > b || (a === b && (p.sport ?? 0) > (p.dport ?? 0));
    const key = rev
      ? `${p.dst}:${p.dport}-${p.src}:${p.sport}`
      : `${p.src}:${p.sport}-${p.dst}:${p.dport}`;
    const th = state.conversations[key];
    if (th === undefined || flags.includes('S')) {
      state.conversations[key] = rev
        ? { ack: seq, seq: (ack - 1) >>> 0 }
        : { seq, ack: (ack - 1) >>> 0 };
    } else if (rev) {
      seq = (seq - th.ack) >>> 0;
      ack = (ack - th.seq) >>> 0;
    } else {
      seq = (seq - th.seq) >>> 0;
      ack = (ack - th.ack) >>> 0;
    }
  }
  let s = `Flags [${flags}]`;
  if (len > 0 || /[SFR]/.test(flags)) s += `, seq ${seq}${len > 0 ? `:${(seq + len) >>> 0}` : ''}`;
  if (flags.includes('.')) s += `, ack ${ack}`;
  s += `, win ${p.win ?? 0}`;
  if (p.tcpOptions !== undefined) s += `, options [${optionsText(p.tcpOptions)}]`;
  s += `, length ${len}`;
  if (len > 0 && p.data?.kind === 'dns' && isDnsPort(p)) s += ` ${dnsSummary(p.data.message)}`;
  else if (len > 0 && p.data?.kind === 'text' && isHttpPort(p)) {
    const first = p.data.text.split('\r\n')[0] ?? '';
    if (
      /^(GET|HEAD|POST|PUT|DELETE|OPTIONS|PATCH) \S+ HTTP\/1\.[01]$|^HTTP\/1\.[01] \d{3}/.test(
        first,
      )
    )
      s += `: HTTP: ${first}`;
  }
  return s;
}

const UNREACH: Readonly<Record<number, (dst: string) => string>> = {
  0: (d) => `net ${d} unreachable`,
  1: (d) => `host ${d} unreachable`,
  9: (d) => `net ${d} unreachable - admin prohibited`,
  10: (d) => `host ${d} unreachable - admin prohibited`,
  13: (d) => `host ${d} unreachable - admin prohibited filter`,
};

function icmpText(p: HostPacket, names: boolean): string {
  const icmpLen = p.length - 20;
  const inner = p.inner;
  if (p.icmp?.type === 3 && inner !== undefined) {
    const what =
      p.icmp.code === 3
        ? `${inner.dst} ${inner.proto} port ${names && inner.proto !== 'icmp' ? portName(inner.proto, inner.dport ?? 0) : (inner.dport ?? 0)} unreachable`
        : (UNREACH[p.icmp.code]?.(inner.dst) ?? `${inner.dst} unreachable - code ${p.icmp.code}`);
    return `ICMP ${what}, length ${icmpLen}`;
  }
  if (p.icmp?.type === 8 || p.icmp?.type === 0) {
    const what = p.icmp.type === 8 ? 'request' : 'reply';
    return `ICMP echo ${what}, id ${p.icmp.id ?? 0}, seq ${p.seq ?? 0}, length ${icmpLen}`;
  }
  return `ICMP type-#${p.icmp?.type ?? 0}, length ${icmpLen}`;
}

/** One tcpdump line for `packet` seen at lab time `labMs`. */
export function tcpdumpLine(
  state: TcpdumpState,
  packet: HostPacket,
  clock: { readonly epochSeconds: number; readonly labMs: number },
  opts: TcpdumpOptions = {},
): string {
  const time = tcpdumpTime(unixMs(clock.epochSeconds, clock.labMs));
  // print-sll.c: the interface name in a 5-wide column, the direction in a 3-wide one.
  const any =
    opts.any === undefined ? '' : `${opts.any.iface.padEnd(5)} ${opts.any.direction.padEnd(3)} `;
  const head = `${time} ${any}${linkText(packet, opts)}`;
  if (packet.proto === 'icmp')
    return `${head}${packet.src} > ${packet.dst}: ${icmpText(packet, opts.names === true)}`;
  const port = (p: number | undefined): string =>
    opts.names === true ? portName(packet.proto === 'udp' ? 'udp' : 'tcp', p ?? 0) : String(p ?? 0);
  const ends = `${packet.src}.${port(packet.sport)} > ${packet.dst}.${port(packet.dport)}: `;
  if (packet.proto === 'tcp') return head + ends + tcpText(state, packet, opts.absolute === true);
  if (packet.data?.kind === 'dns' && isDnsPort(packet))
    return head + ends + dnsSummary(packet.data.message);
  return `${head}${ends}UDP, length ${packet.payload ?? packet.length - 28}`;
}

/**
 * The part of a rule iptables keeps in struct ipt_ip (`-s`, `-d`, `-i`, `-o`, `-p`, `-f`),
 * checked before any match extension: ip_tables.c ip_packet_match() (iptables-nft turns these
 * into payload/meta comparisons with the same meaning).
 */
import { ipToInt, prefixMask } from '../../model/ip';
import type { AddrSpec, IfaceSpec, Rule } from '../types';
import type { L4Protocol, Packet } from './types';

/** IPPROTO_* numbers of the protocols the walk models. */
export const PROTOCOL_NUMBERS: { readonly [K in L4Protocol]: number } = {
  icmp: 1,
  tcp: 6,
  udp: 17,
  sctp: 132,
};

/**
 * Dotted quad → unsigned integer, memoised: a walk through a large KUBE-SERVICES compares the
 * same few addresses with thousands of rules. The memo is cleared when it grows large.
 */
const parsed = new Map<string, number>();
/** The last two addresses asked for (a packet's source and destination, rule after rule). */
let lastA = '';
let lastAValue = 0;
let lastB = '';
let lastBValue = 0;
export function ipValue(ip: string): number {
  if (ip === lastA) return lastAValue;
  if (ip === lastB) return lastBValue;
  let v = parsed.get(ip);
  if (v === undefined) {
    if (parsed.size >= 65536) parsed.clear();
    v = ipToInt(ip);
    parsed.set(ip, v);
  }
  lastB = lastA;
  lastBValue = lastAValue;
  lastA = ip;
  lastAValue = v;
  return v;
}

/** `(addr & smsk) != src` with IPT_INV_SRCIP/DSTIP: the address spec holds the network address. */
export function addrMatches(spec: AddrSpec | undefined, ip: string): boolean {
  if (spec === undefined) return true;
  let net = networks.get(spec);
  if (net === undefined) networks.set(spec, (net = ipToInt(spec.addr)));
  const hit = (ipValue(ip) & prefixMask(spec.prefix)) >>> 0 === net;
  return hit !== spec.invert;
}

/** A rule's address as an integer, computed once per rule rather than once per packet. */
const networks = new WeakMap<AddrSpec, number>();

/**
 * ifname_compare_aligned() against the name/mask xtables_parse_interface() built: `eth+` compares
 * only the prefix (a lone `+` matches every device, and no device); other names compare in full,
 * the terminating NUL included. A packet without the device compares as the empty name.
 */
export function ifaceNameMatches(pattern: string, name: string | undefined): boolean {
  const dev = name ?? '';
  if (pattern.endsWith('+')) return dev.startsWith(pattern.slice(0, -1));
  return dev === pattern;
}

function ifaceMatches(spec: IfaceSpec | undefined, name: string | undefined): boolean {
  if (spec === undefined) return true;
  return ifaceNameMatches(spec.name, name) !== spec.invert;
}

/** A non-first fragment (fragoff != 0): L4 headers are not there for the matches to read. */
export function isFragment(packet: Packet): boolean {
  return (packet.fragOffset ?? 0) !== 0;
}

/** ip_packet_match(): addresses, devices, protocol, fragment flag, in that order. */
export function ipHeaderMatches(rule: Rule, packet: Packet): boolean {
  if (!addrMatches(rule.src, packet.src) || !addrMatches(rule.dst, packet.dst)) return false;
  if (!ifaceMatches(rule.inIface, packet.inIface)) return false;
  if (!ifaceMatches(rule.outIface, packet.outIface)) return false;
  const proto = rule.protocol;
  // `-p all` (0) is stored as no protocol; a protocol of 0 would match everything anyway.
  if (proto !== undefined && proto.num !== 0) {
    if ((PROTOCOL_NUMBERS[packet.protocol] === proto.num) === proto.invert) return false;
  }
  // IPT_F_FRAG: the rule wants a non-first fragment (`-f`), or not one (`! -f`).
  if (rule.fragment !== undefined && isFragment(packet) === rule.fragment.invert) return false;
  return true;
}

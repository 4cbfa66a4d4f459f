/**
 * IP protocol names: libxtables' xtables_chain_protos[] first, then the node's /etc/protocols
 * (Debian netbase), as xtables_parse_protocol() and proto_to_name() consult them.
 */
import { XtError } from './errors';
import { strtoui } from './ext';

/** xtables_chain_protos[] (in its order; the first name of a number wins when printing). */
const CHAIN_PROTOS: readonly (readonly [string, number])[] = [
  ['tcp', 6],
  ['sctp', 132],
  ['udp', 17],
  ['udplite', 136],
  ['icmp', 1],
  ['ipv6-icmp', 58],
  ['icmpv6', 58],
  ['esp', 50],
  ['ah', 51],
  ['mobility-header', 135],
  ['ipv6-mh', 135],
  ['mh', 135],
  ['all', 0],
];

/** /etc/protocols: "number:name" (the official name; aliases are upper-case variants). */
const ETC_PROTOCOLS =
  '0:ip 1:icmp 2:igmp 3:ggp 4:ipencap 5:st 6:tcp 8:egp 9:igp 12:pup 17:udp 20:hmp 22:xns-idp ' +
  '27:rdp 29:iso-tp4 33:dccp 36:xtp 37:ddp 38:idpr-cmtp 41:ipv6 43:ipv6-route 44:ipv6-frag 45:idrp ' +
  '46:rsvp 47:gre 50:esp 51:ah 57:skip 58:ipv6-icmp 59:ipv6-nonxt 60:ipv6-opts 73:rspf 81:vmtp ' +
  '88:eigrp 89:ospf 93:ax.25 94:ipip 97:etherip 98:encap 103:pim 108:ipcomp 112:vrrp 115:l2tp ' +
  '124:isis 132:sctp 133:fc 135:mobility-header 136:udplite 137:mpls-in-ip 138:manet 139:hip ' +
  '140:shim6 141:wesp 142:rohc 143:ethernet';

const BY_NUMBER = new Map<number, string>();
const BY_NAME = new Map<string, number>();
for (const entry of ETC_PROTOCOLS.split(' ')) {
  const [num = '', name = ''] = entry.split(':');
  BY_NUMBER.set(Number(num), name);
  BY_NAME.set(name, Number(num));
}
// The hopopt alias of 0 in /etc/protocols.
BY_NAME.set('hopopt', 0);

/** xtables_parse_protocol() after do_parse() lower-cased the argument. */
export function parseProtocol(text: string): number {
  const s = text.toLowerCase();
  const n = strtoui(s, 0, 255);
  if (n !== undefined) return n;
  if (s === 'all') return 0;
  const builtin = CHAIN_PROTOS.find(([name]) => name === s);
  if (builtin !== undefined) return builtin[1];
  const known = BY_NAME.get(s);
  if (known !== undefined) return known;
  throw XtError.param(`unknown protocol "${s}" specified`);
}

/** proto_to_name(proto, nolookup): xtables_chain_protos[], then getprotobynumber() unless nolookup. */
export function protocolName(num: number, nolookup = false): string | undefined {
  const builtin = CHAIN_PROTOS.find(([, n]) => n === num);
  if (builtin !== undefined) return builtin[0];
  return num === 0 || nolookup ? undefined : BY_NUMBER.get(num);
}

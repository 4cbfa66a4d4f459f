/**
 * A small DNS message model (RFC 1035 + EDNS(0), RFC 6891): what the lab's resolvers send and
 * CoreDNS answers, with the exact wire size (dig's `MSG SIZE  rcvd:`, tcpdump's `(115)`).
 *
 * Names are absolute, with the trailing dot, as the resolvers put them on the wire. Sizes are
 * computed without name compression: CoreDNS's `request.Scrub` turns compression off for replies
 * that fit the client's buffer (and only turns it on above 1480 bytes over UDP/IPv4), and a query
 * has a single name. Sizes of compressed messages are not modelled.
 */

export type RRType = 'A' | 'NS' | 'CNAME' | 'SOA' | 'PTR' | 'TXT' | 'AAAA' | 'SRV' | 'ANY';

/** RR type codes (IANA "Resource Record (RR) TYPEs"). */
export const RR_TYPE_CODE: Readonly<Record<RRType, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  ANY: 255,
};

export type Rcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';

export const RCODE_VALUE: Readonly<Record<Rcode, number>> = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
};

export type RData =
  | { readonly type: 'A'; readonly address: string }
  | { readonly type: 'AAAA'; readonly address: string }
  | { readonly type: 'CNAME'; readonly target: string }
  | { readonly type: 'PTR'; readonly target: string }
  | { readonly type: 'NS'; readonly target: string }
  | {
      readonly type: 'SOA';
      readonly mname: string;
      readonly rname: string;
      readonly serial: number;
      readonly refresh: number;
      readonly retry: number;
      readonly expire: number;
      readonly minimum: number;
    }
  | {
      readonly type: 'SRV';
      readonly priority: number;
      readonly weight: number;
      readonly port: number;
      readonly target: string;
    };

export interface ResourceRecord {
  readonly name: string;
  readonly ttl: number;
  readonly data: RData;
}

export interface DnsQuestion {
  readonly name: string;
  readonly type: RRType;
}

/** The OPT pseudo-RR: advertised UDP payload size and the COOKIE option (hex, RFC 7873). */
export interface Edns {
  readonly udpSize: number;
  readonly cookie?: string;
}

export interface DnsMessage {
  readonly id: number;
  readonly qr: boolean;
  readonly aa: boolean;
  readonly tc: boolean;
  readonly rd: boolean;
  readonly ra: boolean;
  readonly ad: boolean;
  readonly cd: boolean;
  readonly rcode: Rcode;
  readonly question: readonly DnsQuestion[];
  readonly answer: readonly ResourceRecord[];
  readonly authority: readonly ResourceRecord[];
  /** Additional records other than OPT. */
  readonly additional: readonly ResourceRecord[];
  readonly edns?: Edns;
}

/** `web.default.svc.cluster.local` → `web.default.svc.cluster.local.` (the root stays `.`). */
export function fqdn(name: string): string {
  return name.endsWith('.') ? name : `${name}.`;
}

/** Wire length of an uncompressed name: a length byte per label plus the root's zero byte. */
export function nameWireLength(name: string): number {
  const labels = fqdn(name)
    .split('.')
    .filter((l) => l !== '');
  return labels.reduce((n, l) => n + 1 + l.length, 1);
}

function rdataLength(d: RData): number {
  switch (d.type) {
    case 'A':
      return 4;
    case 'AAAA':
      return 16;
    case 'CNAME':
    case 'PTR':
    case 'NS':
      return nameWireLength(d.target);
    case 'SOA':
      return nameWireLength(d.mname) + nameWireLength(d.rname) + 20;
    case 'SRV':
      return 6 + nameWireLength(d.target);
  }
}

function rrLength(rr: ResourceRecord): number {
  return nameWireLength(rr.name) + 10 + rdataLength(rr.data);
}

/** OPT RR: root name (1) + type, class, TTL, RDLENGTH (10) + options (4-byte header each). */
function optLength(e: Edns): number {
  return 11 + (e.cookie === undefined ? 0 : 4 + e.cookie.length / 2);
}

/** The message's size on the wire (uncompressed), as dig and tcpdump report it. */
export function dnsWireSize(m: DnsMessage): number {
  let n = 12;
  for (const q of m.question) n += nameWireLength(q.name) + 4;
  for (const rr of [...m.answer, ...m.authority, ...m.additional]) n += rrLength(rr);
  if (m.edns !== undefined) n += optLength(m.edns);
  return n;
}

/** A query as stub resolvers send it (glibc, nslookup: no EDNS; dig adds OPT and a cookie). */
export function dnsQuery(
  id: number,
  name: string,
  type: RRType,
  opts: { readonly edns?: Edns; readonly ad?: boolean } = {},
): DnsMessage {
  return {
    id,
    qr: false,
    aa: false,
    tc: false,
    rd: true,
    ra: false,
    ad: opts.ad ?? false,
    cd: false,
    rcode: 'NOERROR',
    question: [{ name: fqdn(name), type }],
    answer: [],
    authority: [],
    additional: [],
    ...(opts.edns === undefined ? {} : { edns: opts.edns }),
  };
}

/** The text of an RR's data as BIND prints it (dig's last column, nslookup's value). */
export function rdataText(d: RData): string {
  switch (d.type) {
    case 'A':
    case 'AAAA':
      return d.address;
    case 'CNAME':
    case 'PTR':
    case 'NS':
      return d.target;
    case 'SOA':
      return `${d.mname} ${d.rname} ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}`;
    case 'SRV':
      return `${d.priority} ${d.weight} ${d.port} ${d.target}`;
  }
}

/** dig's query-type and query-class words, as BIND 9.18's libdns reads them. */

/**
 * The type mnemonics dns_rdatatype_fromtext() knows in BIND 9.18.49 (lib/dns/rdata/…/NAME_N.c
 * and the meta types), besides TYPEnnn.
 */
const BIND_TYPES = new Set(
  (
    'A A6 AAAA AFSDB AMTRELAY APL ATMA AVC BRID CAA CDNSKEY CDS CERT CNAME CSYNC DHCID DLV DNAME ' +
    'DNSKEY DOA DS DSYNC EID EUI48 EUI64 GPOS HHIT HINFO HIP HTTPS IPSECKEY ISDN KEY KEYDATA KX ' +
    'L32 L64 LOC LP MB MD MF MG MINFO MR MX NAPTR NID NIMLOC NINFO NS NSAP NSAP-PTR NSEC NSEC3 ' +
    'NSEC3PARAM NULL NXT OPENPGPKEY OPT PTR PX RESINFO RKEY RP RRSIG RT SIG SINK SMIMEA SOA SPF ' +
    'SRV SSHFP SVCB TA TALINK TKEY TLSA TSIG TXT URI WALLET WKS X25 ZONEMD ANY AXFR IXFR MAILA MAILB'
  ).split(' '),
);

/** dns_rdatatype_fromtext(): the type `word` names (upper case), or undefined. */
export function typeWord(word: string): string | undefined {
  const upper = word.toUpperCase();
  if (BIND_TYPES.has(upper)) return upper;
  const m = /^TYPE(\d{1,5})$/.exec(upper);
  return m !== null && Number(m[1]) <= 0xffff ? upper : undefined;
}

/** dns_rdataclass_fromtext(): the class `word` names (upper case), or undefined. */
export function classWord(word: string): string | undefined {
  const upper = word.toUpperCase();
  if (['IN', 'CH', 'CHAOS', 'HS', 'HESIOD', 'NONE', 'ANY'].includes(upper)) return upper;
  const m = /^CLASS(\d{1,5})$/.exec(upper);
  return m !== null && Number(m[1]) <= 0xffff ? upper : undefined;
}

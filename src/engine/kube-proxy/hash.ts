/**
 * Chain-name hashing exactly as kube-proxy does it: SHA-256 of a string, encoded with
 * RFC 4648 base32 (standard alphabet, padded — Go's `base32.StdEncoding`), truncated.
 *
 * - iptables (pkg/proxy/iptables/proxier.go `portProtoHash`,
 *   `servicePortEndpointChainName`): first 16 characters of
 *   base32(sha256(S + protocol [+ endpoint])), where S is `ServicePortName.String()`
 *   and protocol is lowercase (`tcp`, `udp`, `sctp`).
 * - nftables (pkg/proxy/nftables/proxier.go `hashAndTruncate`): first 8 characters of
 *   the same encoding, then `-`, then the name itself.
 *
 * Pure and synchronous (no WebCrypto, no node:crypto) so the engine can run anywhere.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** SHA-256 (FIPS 180-4) of a byte string. */
export function sha256(message: Uint8Array): Uint8Array {
  const bitLength = message.length * 8;
  // Message + 0x80 + zero padding + 64-bit big-endian length, to a multiple of 64 bytes.
  const total = Math.ceil((message.length + 9) / 64) * 64;
  const data = new Uint8Array(total);
  data.set(message);
  data[message.length] = 0x80;
  const view = new DataView(data.buffer);
  view.setUint32(total - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(total - 4, bitLength >>> 0);

  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < total; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const w15 = w[t - 15] ?? 0;
      const w2 = w[t - 2] ?? 0;
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
      w[t] = ((w[t - 16] ?? 0) + s0 + (w[t - 7] ?? 0) + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!];
    for (let t = 0; t < 64; t++) {
      const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + s1 + ch + (K[t] ?? 0) + (w[t] ?? 0)) >>> 0;
      const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    const add = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = ((h[i] ?? 0) + (add[i] ?? 0)) >>> 0;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i] ?? 0);
  return out;
}

/** UTF-8 bytes of a string (Go's `[]byte(s)`); TextEncoder is not in the engine's ES2022 lib. */
export function utf8Encode(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else
      bytes.push(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 63),
        0x80 | ((cp >> 6) & 63),
        0x80 | (cp & 63),
      );
  }
  return Uint8Array.from(bytes);
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, standard alphabet, `=`-padded (Go's `base32.StdEncoding.EncodeToString`). */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

function hashBase32(text: string): string {
  return base32Encode(sha256(utf8Encode(text)));
}

/** kube-proxy's lowercase protocol string (`strings.ToLower(string(protocol))`). */
function protoLower(protocol: string): string {
  return protocol.toLowerCase();
}

export type ServiceChainPrefix = 'KUBE-SVC-' | 'KUBE-SVL-' | 'KUBE-EXT-' | 'KUBE-FW-';

/** The 16-character hash shared by a service port's SVC/SVL/EXT/FW chains (`portProtoHash`). */
export function portProtoHash(servicePortName: string, protocol: string): string {
  return hashBase32(servicePortName + protoLower(protocol)).slice(0, 16);
}

/** e.g. `servicePortChainName('KUBE-SVC-', 'ns1/svc1:p80', 'TCP')` → `KUBE-SVC-XPGD46QRK7WJZT7O`. */
export function servicePortChainName(
  prefix: ServiceChainPrefix,
  servicePortName: string,
  protocol: string,
): string {
  return prefix + portProtoHash(servicePortName, protocol);
}

/** `KUBE-SEP-` + base32(sha256(S + protocol + "ip:port"))[:16] (`servicePortEndpointChainName`). */
export function endpointChainName(
  servicePortName: string,
  protocol: string,
  endpoint: string,
): string {
  return 'KUBE-SEP-' + hashBase32(servicePortName + protoLower(protocol) + endpoint).slice(0, 16);
}

/** knftables.NameLengthMax (256) minus the longest prefix (16): nftables `chainNameBaseLengthMax`. */
const NFT_CHAIN_NAME_BASE_MAX = 240;

/** nftables `hashAndTruncate`: `HASH8-name`, cut to 240 characters with a `...` tail. */
export function nftHashAndTruncate(name: string): string {
  const full = hashBase32(name).slice(0, 8) + '-' + name;
  return full.length > NFT_CHAIN_NAME_BASE_MAX
    ? full.slice(0, NFT_CHAIN_NAME_BASE_MAX - 3) + '...'
    : full;
}

/** nftables `servicePortChainNameBase`: `HASH8-ns/svc/proto/portName`. */
export function nftServicePortChainNameBase(
  namespace: string,
  name: string,
  protocol: string,
  portName: string,
): string {
  return nftHashAndTruncate(`${namespace}/${name}/${protoLower(protocol)}/${portName}`);
}

/** nftables `servicePortEndpointChainNameBase`: `HASH8-ns/svc/proto/portName__ip/port` (IPv6 `:` → `.`). */
export function nftEndpointChainNameBase(
  namespace: string,
  name: string,
  protocol: string,
  portName: string,
  endpoint: string,
): string {
  const colon = endpoint.lastIndexOf(':');
  const ip = endpoint
    .slice(0, colon)
    .replace(/^\[|\]$/g, '')
    .replaceAll(':', '.');
  const port = endpoint.slice(colon + 1);
  return nftHashAndTruncate(
    `${namespace}/${name}/${protoLower(protocol)}/${portName}__${ip}/${port}`,
  );
}

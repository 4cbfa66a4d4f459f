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

// Int32Array: values above 2^31 read from a Uint32Array are doubles, which slows `compress`.
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// Scratch state shared by every hash: the engine is single-threaded and `compress` does not
// re-enter, so reusing these keeps hashing allocation-free (chain names are hashed ~100k
// times per full sync of a large cluster).
const W = new Int32Array(64);
const H = new Int32Array(8);

function resetState(): void {
  H[0] = 0x6a09e667;
  H[1] = 0xbb67ae85;
  H[2] = 0x3c6ef372;
  H[3] = 0xa54ff53a;
  H[4] = 0x510e527f;
  H[5] = 0x9b05688c;
  H[6] = 0x1f83d9ab;
  H[7] = 0x5be0cd19;
}

/** One SHA-256 compression of the block in W[0..15] into H (int32 arithmetic, `| 0` wraps). */
function compress(): void {
  for (let t = 16; t < 64; t++) {
    const w15 = W[t - 15]!;
    const w2 = W[t - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
  }
  let a = H[0]!;
  let b = H[1]!;
  let c = H[2]!;
  let d = H[3]!;
  let e = H[4]!;
  let f = H[5]!;
  let g = H[6]!;
  let h = H[7]!;
  for (let t = 0; t < 64; t++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + s1 + ch + K[t]! + W[t]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + s0 + maj) | 0;
  }
  H[0] = (H[0]! + a) | 0;
  H[1] = (H[1]! + b) | 0;
  H[2] = (H[2]! + c) | 0;
  H[3] = (H[3]! + d) | 0;
  H[4] = (H[4]! + e) | 0;
  H[5] = (H[5]! + f) | 0;
  H[6] = (H[6]! + g) | 0;
  H[7] = (H[7]! + h) | 0;
}

/** SHA-256 (FIPS 180-4) of a byte string. */
export function sha256(message: Uint8Array): Uint8Array {
  // Message + 0x80 + zero padding + 64-bit big-endian length, to a multiple of 64 bytes.
  const total = Math.ceil((message.length + 9) / 64) * 64;
  const data = new Uint8Array(total);
  data.set(message);
  data[message.length] = 0x80;
  const view = new DataView(data.buffer);
  const bitLength = message.length * 8;
  view.setUint32(total - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(total - 4, bitLength >>> 0);
  resetState();
  for (let block = 0; block < total; block += 64) {
    for (let t = 0; t < 16; t++) W[t] = view.getInt32(block + t * 4);
    compress();
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setInt32(i * 4, H[i]!);
  return out;
}

/**
 * H after hashing `text` when it is ASCII and fits one block (≤ 55 bytes, as chain-name
 * inputs do): the bytes go straight into W, no buffers. False (H untouched) otherwise.
 */
function sha256ShortAscii(text: string): boolean {
  const n = text.length;
  if (n > 55) return false;
  W.fill(0, 0, 16);
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return false;
    W[i >> 2] = W[i >> 2]! | (code << (24 - 8 * (i & 3)));
  }
  W[n >> 2] = W[n >> 2]! | (0x80 << (24 - 8 * (n & 3)));
  W[15] = n * 8;
  resetState();
  compress();
  return true;
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

const BASE32_CODES = Array.from(BASE32_ALPHABET, (ch) => ch.charCodeAt(0));

/** Appends the 4 base32 characters of a 20-bit group. */
function pushBase32Of20(codes: number[], group: number): void {
  codes.push(
    BASE32_CODES[group >>> 15]!,
    BASE32_CODES[(group >>> 10) & 31]!,
    BASE32_CODES[(group >>> 5) & 31]!,
    BASE32_CODES[group & 31]!,
  );
}

/**
 * `prefix` + the first 16 characters of base32(sha256(text)) (every caller truncates to 16
 * or fewer). Built as one flat string of its own, whatever the text: chain names end up as
 * Map keys and in many lines, a `+`-built name would be a rope of three strings, and the
 * restore keeps these names without copying them (sharedFlatName()).
 */
function hashedName(prefix: string, text: string): string {
  const codes: number[] = [];
  for (let i = 0; i < prefix.length; i++) codes.push(prefix.charCodeAt(i));
  if (!sha256ShortAscii(text)) {
    const hash = base32Encode(sha256(utf8Encode(text)));
    for (let i = 0; i < 16; i++) codes.push(hash.charCodeAt(i));
    return String.fromCharCode(...codes);
  }
  // 16 characters = 80 bits: H0, H1 and the top half of H2, as four 20-bit groups.
  const h0 = H[0]!;
  const h1 = H[1]!;
  const h2 = H[2]!;
  pushBase32Of20(codes, h0 >>> 12);
  pushBase32Of20(codes, ((h0 & 0xfff) << 8) | (h1 >>> 24));
  pushBase32Of20(codes, (h1 >>> 4) & 0xfffff);
  pushBase32Of20(codes, ((h1 & 0xf) << 16) | (h2 >>> 16));
  return String.fromCharCode(...codes);
}

/** kube-proxy's lowercase protocol string (`strings.ToLower(string(protocol))`). */
function protoLower(protocol: string): string {
  return protocol.toLowerCase();
}

export type ServiceChainPrefix = 'KUBE-SVC-' | 'KUBE-SVL-' | 'KUBE-EXT-' | 'KUBE-FW-';

/** The 16-character hash shared by a service port's SVC/SVL/EXT/FW chains (`portProtoHash`). */
export function portProtoHash(servicePortName: string, protocol: string): string {
  return hashedName('', servicePortName + protoLower(protocol));
}

/** e.g. `servicePortChainName('KUBE-SVC-', 'ns1/svc1:p80', 'TCP')` → `KUBE-SVC-XPGD46QRK7WJZT7O`. */
export function servicePortChainName(
  prefix: ServiceChainPrefix,
  servicePortName: string,
  protocol: string,
): string {
  return hashedName(prefix, servicePortName + protoLower(protocol));
}

/**
 * `KUBE-SEP-` + base32(sha256(S + protocol + "ip:port"))[:16] (`servicePortEndpointChainName`),
 * as a flat string of its own.
 */
export function endpointChainName(
  servicePortName: string,
  protocol: string,
  endpoint: string,
): string {
  return hashedName('KUBE-SEP-', servicePortName + protoLower(protocol) + endpoint);
}

/** knftables.NameLengthMax (256) minus the longest prefix (16): nftables `chainNameBaseLengthMax`. */
const NFT_CHAIN_NAME_BASE_MAX = 240;

/** nftables `hashAndTruncate`: `HASH8-name`, cut to 240 characters with a `...` tail. */
export function nftHashAndTruncate(name: string): string {
  const full = hashedName('', name).slice(0, 8) + '-' + name;
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

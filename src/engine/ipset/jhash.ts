/**
 * include/linux/jhash.h jhash2() (Bob Jenkins' lookup3 over u32 words): the hash ipset's
 * hash:* types use to place an element in a bucket (ip_set_hash_gen.h HKEY).
 */
const rol32 = (x: number, s: number): number => ((x << s) | (x >>> (32 - s))) >>> 0;

export function jhash2(k: readonly number[], initval: number): number {
  let a = (0xdeadbeef + (k.length << 2) + initval) >>> 0;
  let b = a;
  let c = a;
  let i = 0;
  let length = k.length;
  while (length > 3) {
    a = (a + k[i]!) >>> 0;
    b = (b + k[i + 1]!) >>> 0;
    c = (c + k[i + 2]!) >>> 0;
    // __jhash_mix
    a = (a - c) >>> 0;
    a = (a ^ rol32(c, 4)) >>> 0;
    c = (c + b) >>> 0;
    b = (b - a) >>> 0;
    b = (b ^ rol32(a, 6)) >>> 0;
    a = (a + c) >>> 0;
    c = (c - b) >>> 0;
    c = (c ^ rol32(b, 8)) >>> 0;
    b = (b + a) >>> 0;
    a = (a - c) >>> 0;
    a = (a ^ rol32(c, 16)) >>> 0;
    c = (c + b) >>> 0;
    b = (b - a) >>> 0;
    b = (b ^ rol32(a, 19)) >>> 0;
    a = (a + c) >>> 0;
    c = (c - b) >>> 0;
    c = (c ^ rol32(b, 4)) >>> 0;
    b = (b + a) >>> 0;
    length -= 3;
    i += 3;
  }
  if (length === 0) return c;
  if (length === 3) c = (c + k[i + 2]!) >>> 0;
  if (length >= 2) b = (b + k[i + 1]!) >>> 0;
  a = (a + k[i]!) >>> 0;
  // __jhash_final
  c = (c ^ b) >>> 0;
  c = (c - rol32(b, 14)) >>> 0;
  a = (a ^ c) >>> 0;
  a = (a - rol32(c, 11)) >>> 0;
  b = (b ^ a) >>> 0;
  b = (b - rol32(a, 25)) >>> 0;
  c = (c ^ b) >>> 0;
  c = (c - rol32(b, 16)) >>> 0;
  a = (a ^ c) >>> 0;
  a = (a - rol32(c, 4)) >>> 0;
  b = (b ^ a) >>> 0;
  b = (b - rol32(a, 14)) >>> 0;
  c = (c ^ b) >>> 0;
  c = (c - rol32(b, 24)) >>> 0;
  return c;
}

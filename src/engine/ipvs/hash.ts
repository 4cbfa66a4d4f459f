/**
 * The hash functions IPVS schedulers use, bit for bit: include/linux/hash.h hash_32() (sh),
 * the multiplicative hash of ip_vs_dh.c, and lib/siphash.c hsiphash() as 64-bit kernels build
 * it (SipHash-1-3 truncated to 32 bits; mh). Inputs are host-order u32 values.
 */

/** include/linux/hash.h GOLDEN_RATIO_32. */
const GOLDEN_RATIO_32 = 0x61c88647;

/** hash_32(val, bits): the top `bits` bits of val * GOLDEN_RATIO_32 (mod 2^32). */
export function hash32(val: number, bits: number): number {
  return Math.imul(val >>> 0, GOLDEN_RATIO_32) >>> (32 - bits);
}

/** ip_vs_dh_hashkey(): (ntohl(addr) * 2654435761UL) & mask. Only the low bits matter. */
export function multiplicativeHash(val: number, mask: number): number {
  return Math.imul(val >>> 0, 2654435761 >>> 0) & mask;
}

const M64 = (1n << 64n) - 1n;
const rol64 = (x: bigint, b: bigint): bigint => ((x << b) | (x >> (64n - b))) & M64;

/**
 * hsiphash(&v, 4, key) on a 64-bit kernel (lib/siphash.c: HSIPROUND = SIPROUND, HPREAMBLE =
 * PREAMBLE, one 4-byte tail word, then HPOSTAMBLE with three finalisation rounds); `key` is the
 * two 64-bit words of hsiphash_key_t. Returns the u32 the function returns.
 */
export function hsiphashU32(value: number, key: readonly [bigint, bigint]): number {
  let v0 = 0x736f6d6570736575n ^ key[0];
  let v1 = 0x646f72616e646f6dn ^ key[1];
  let v2 = 0x6c7967656e657261n ^ key[0];
  let v3 = 0x7465646279746573n ^ key[1];
  const round = (): void => {
    v0 = (v0 + v1) & M64;
    v1 = rol64(v1, 13n);
    v1 ^= v0;
    v0 = rol64(v0, 32n);
    v2 = (v2 + v3) & M64;
    v3 = rol64(v3, 16n);
    v3 ^= v2;
    v0 = (v0 + v3) & M64;
    v3 = rol64(v3, 21n);
    v3 ^= v0;
    v2 = (v2 + v1) & M64;
    v1 = rol64(v1, 17n);
    v1 ^= v2;
    v2 = rol64(v2, 32n);
  };
  // b = len << 56 | the 4 bytes little-endian (le32_to_cpup of the u32 as stored on x86).
  const b = (4n << 56n) | BigInt(value >>> 0);
  v3 ^= b;
  round();
  v0 ^= b;
  v2 ^= 0xffn;
  round();
  round();
  round();
  return Number((v0 ^ v1 ^ v2 ^ v3) & 0xffffffffn);
}

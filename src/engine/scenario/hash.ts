/**
 * Deterministic stand-ins for the names and ids Kubernetes generates.
 *
 * - pod-template-hash: the Deployment controller's ComputeHash is FNV-32a over the pod
 *   template, printed in decimal, then each digit mapped through SafeEncodeString's alphabet
 *   (k8s.io/apimachinery/pkg/util/rand). Digits '0'–'9' (bytes 48–57) land on
 *   alphabet[byte % 27], which is why real hashes only use `4 5 6 7 8 9 b c d f` and are 8–10
 *   characters long (e.g. `7d4b9c8f6`). The lab hashes a canonical JSON of the template
 *   instead of Go's object dump, so values differ from a real cluster's but look the same.
 * - The 5-character suffix of generated names (ReplicaSet pods, EndpointSlices): the API
 *   server draws it at random from the same alphabet; the lab derives it from a hash.
 * - uids: a version-4-shaped UUID derived from kind/namespace/name.
 */

/** k8s.io/apimachinery/pkg/util/rand's alphabet: no vowels, no confusable characters. */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text` (Go hashes a string's bytes). */
export function fnv1a32(text: string): number {
  return fnvUpdate(FNV_OFFSET, text) >>> 0;
}

/** The FNV-1a state `h` after hashing the UTF-8 bytes of `text` too (FNV is a stream hash). */
function fnvUpdate(h: number, text: string): number {
  // Hot when loading thousands of objects (uids, names): no closure, no string iterator.
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    if (cp < 0x80) h = Math.imul(h ^ cp, 0x01000193);
    else if (cp < 0x800) {
      h = Math.imul(h ^ (0xc0 | (cp >> 6)), 0x01000193);
      h = Math.imul(h ^ (0x80 | (cp & 63)), 0x01000193);
    } else if (cp < 0x10000) {
      h = Math.imul(h ^ (0xe0 | (cp >> 12)), 0x01000193);
      h = Math.imul(h ^ (0x80 | ((cp >> 6) & 63)), 0x01000193);
      h = Math.imul(h ^ (0x80 | (cp & 63)), 0x01000193);
    } else {
      h = Math.imul(h ^ (0xf0 | (cp >> 18)), 0x01000193);
      h = Math.imul(h ^ (0x80 | ((cp >> 12) & 63)), 0x01000193);
      h = Math.imul(h ^ (0x80 | ((cp >> 6) & 63)), 0x01000193);
      h = Math.imul(h ^ (0x80 | (cp & 63)), 0x01000193);
    }
  }
  return h;
}

/** rand.SafeEncodeString: each byte → SAFE_ALPHABET[byte % 27]. */
export function safeEncodeString(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    out += SAFE_ALPHABET.charAt(text.charCodeAt(i) % SAFE_ALPHABET.length);
  }
  return out;
}

/** ComputeHash's output shape for a template fingerprint. */
export function podTemplateHash(canonicalTemplate: string): string {
  return safeEncodeString(String(fnv1a32(canonicalTemplate)));
}

/** Five characters of SAFE_ALPHABET derived from `seed` (retry with attempt 1, 2… on a clash). */
export function generatedSuffix(seed: string, attempt: number): string {
  // Mix twice so consecutive seeds (pod 0, pod 1…) do not share leading characters.
  let h = fnv1a32(`${seed}#${attempt}`);
  h = fnv1a32(`${h}:${seed}`);
  let out = '';
  for (let i = 0; i < 5; i++) {
    out += SAFE_ALPHABET.charAt(h % SAFE_ALPHABET.length);
    h = Math.floor(h / SAFE_ALPHABET.length);
  }
  return out;
}

/**
 * `base` + a generated suffix that is not in `taken` (namespace-qualified keys), as the API
 * server retries a generateName clash. Adds the new key to `taken`.
 */
export function uniqueGeneratedName(
  namespace: string,
  base: string,
  seed: string,
  taken: Set<string>,
): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const name = base + generatedSuffix(seed, attempt);
    if (!taken.has(`${namespace}/${name}`)) {
      taken.add(`${namespace}/${name}`);
      return name;
    }
  }
  // 27^5 names per base: unreachable with the lab's object caps.
  throw new Error(`no free generated name for ${base}`);
}

/** The FNV-1a states after `1|`, `2|`, `3|`, `4|`: the prefixes of uidFor()'s four hashes. */
const UID_PREFIXES = [1, 2, 3, 4].map((k) => fnvUpdate(FNV_OFFSET, `${k}|`));

const HEX = '0123456789abcdef';

/** `(h >>> 0).toString(16).padStart(8, '0')`, without the number-to-string machinery. */
function hex8(h: number): string {
  let out = '';
  for (let shift = 28; shift >= 0; shift -= 4) out += HEX.charAt((h >>> shift) & 15);
  return out;
}

/** A stable, UUID-shaped uid for an object (kubectl get -o yaml shows one). */
export function uidFor(kind: string, namespace: string, name: string): string {
  // fnv1a32(`${k}|${base}`) for k = 1…4: the base is hashed on from each prefix's state.
  const base = `${kind}/${namespace}/${name}`;
  const hex =
    hex8(fnvUpdate(UID_PREFIXES[0]!, base)) +
    hex8(fnvUpdate(UID_PREFIXES[1]!, base)) +
    hex8(fnvUpdate(UID_PREFIXES[2]!, base)) +
    hex8(fnvUpdate(UID_PREFIXES[3]!, base));
  const variant = '89ab'.charAt(parseInt(hex.charAt(16), 16) & 3);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

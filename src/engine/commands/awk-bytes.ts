/**
 * mawk counts bytes, not characters (length("é") is 2, substr can cut one in half): the lab
 * runs awk over "byte strings", one UTF-8 byte per JavaScript character, and decodes what it
 * prints the way a terminal would. TextEncoder/TextDecoder are not in the engine's ES2022 lib
 * (it runs without the DOM's or Node's globals), so the two conversions are written out here,
 * as the WHATWG Encoding Standard defines them (what TextEncoder and TextDecoder do).
 */

const NON_ASCII = /[\u0080-\uffff]/;

/** UTF-8 "encode": each code point's bytes; a lone surrogate as U+FFFD's (EF BF BD). */
export function toBytes(s: string): string {
  if (!NON_ASCII.test(s)) return s;
  let out = '';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) out += ch;
    else if (cp < 0x800) out += String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000)
      out += String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else
      out += String.fromCharCode(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 63),
        0x80 | ((cp >> 6) & 63),
        0x80 | (cp & 63),
      );
  }
  return out;
}

/**
 * UTF-8 "decode" with replacement: each maximal subpart of an ill-formed sequence becomes one
 * U+FFFD (the Encoding Standard's UTF-8 decoder, as a terminal shows a cut character).
 */
export function fromBytes(s: string): string {
  if (!NON_ASCII.test(s)) return s;
  const out: number[] = [];
  let needed = 0;
  let seen = 0;
  let cp = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = 0; i < s.length; i++) {
    const b = s.charCodeAt(i) & 0xff;
    if (needed === 0) {
      if (b <= 0x7f) out.push(b);
      else if (b >= 0xc2 && b <= 0xdf) [needed, cp] = [1, b & 0x1f];
      else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
        [needed, cp] = [2, b & 0xf];
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
        [needed, cp] = [3, b & 0x7];
      } else out.push(0xfffd);
      continue;
    }
    if (b < lower || b > upper) {
      // The sequence ends here: one U+FFFD for it, and this byte starts afresh.
      [needed, seen, cp, lower, upper] = [0, 0, 0, 0x80, 0xbf];
      out.push(0xfffd);
      i--;
      continue;
    }
    [lower, upper] = [0x80, 0xbf];
    cp = (cp << 6) | (b & 0x3f);
    if (++seen === needed) {
      out.push(cp);
      [needed, seen, cp] = [0, 0, 0];
    }
  }
  if (needed !== 0) out.push(0xfffd);
  let text = '';
  for (let i = 0; i < out.length; i += 4096)
    text += String.fromCodePoint(...out.slice(i, i + 4096));
  return text;
}

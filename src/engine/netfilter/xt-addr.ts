/**
 * IPv4 addresses and masks as libxtables reads them (iptables 1.8.9 libxtables/xtables.c), for
 * `-s`/`-d` and the extensions that take an address (iprange, recent --mask, ipvs --vaddr):
 *
 * - __numeric_to_ipaddr(): up to three dot-separated parts and a last one, each read by
 *   xtables_strtoui() in base 0 (ext.ts strtoui(): `010` is octal 8, `0x10` is 16); fewer
 *   than four parts is a network address, the missing bytes zero (`10.1` is 10.1.0.0, not
 *   inet_aton's 10.0.0.1). The text is first copied into a 20-byte buffer: only its first 19
 *   characters are read.
 * - parse_ipmask(): a mask in that dotted form (all four parts) or a prefix length 0–32, again
 *   in base 0; "invalid mask `M' specified" otherwise.
 * - ipparse_hostnetwork(): a number, else a network name (getnetbyname: /etc/networks), else a
 *   host name (gethostbyname: /etc/hosts); "host/network `N' not found" otherwise. The lab's
 *   node knows the names of a Debian node's /etc/networks and /etc/hosts (format.ts) and
 *   resolves nothing over DNS.
 */
import { ipFromInt } from '../model/ip';
import { XtError } from './errors';
import { strtoui } from './ext';

/** __numeric_to_ipaddr(): the address, or undefined when `dotted` is not numeric. */
function numericToIpaddr(dotted: string, isMask: boolean): string | undefined {
  // strncpy(buf, dotted, sizeof(buf) - 1) into char buf[20].
  let p = dotted.slice(0, 19);
  const bytes = [0, 0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const dot = p.indexOf('.');
    if (dot < 0) {
      if (isMask) return undefined;
      // "autocomplete, this is a network address"
      const v = strtoui(p, 0, 255);
      if (v === undefined) return undefined;
      bytes[i] = v;
      return bytes.join('.');
    }
    const v = strtoui(p.slice(0, dot), 0, 255);
    if (v === undefined) return undefined;
    bytes[i] = v;
    p = p.slice(dot + 1);
  }
  const last = strtoui(p, 0, 255);
  if (last === undefined) return undefined;
  bytes[3] = last;
  return bytes.join('.');
}

/** xtables_numeric_to_ipaddr(). */
export function xtNumericToIpaddr(dotted: string): string | undefined {
  return numericToIpaddr(dotted, false);
}

/** /etc/networks and /etc/hosts of a Debian node, as getnetbyname and gethostbyname read them. */
const NETWORK_NAMES: Readonly<Record<string, string>> = {
  default: '0.0.0.0',
  loopback: '127.0.0.0',
  'link-local': '169.254.0.0',
};
const HOST_NAMES: Readonly<Record<string, string>> = { localhost: '127.0.0.1' };

/** ipparse_hostnetwork() for one name: its address, or the real tool's error. */
export function xtHostNetwork(name: string): string {
  const addr =
    xtNumericToIpaddr(name) ??
    (Object.hasOwn(NETWORK_NAMES, name) ? NETWORK_NAMES[name] : undefined) ??
    (Object.hasOwn(HOST_NAMES, name) ? HOST_NAMES[name] : undefined);
  if (addr === undefined) throw XtError.param(`host/network \`${name}' not found`);
  return addr;
}

/** A mask: its prefix length when its bits are contiguous, else the dotted mask itself. */
export type XtMask = { readonly prefix: number } | { readonly dotted: string };

/** parse_ipmask() of the text after the last `/`. */
export function xtParseIpmask(mask: string): XtMask {
  const dotted = numericToIpaddr(mask, true);
  if (dotted !== undefined) {
    const bits = dotted.split('.').reduce((v, b) => v * 256 + Number(b), 0);
    for (let p = 0; p <= 32; p++) {
      if ((p === 0 ? 0 : (0xffffffff << (32 - p)) >>> 0) === bits) return { prefix: p };
    }
    return { dotted: ipFromInt(bits) };
  }
  const bits = strtoui(mask, 0, 32);
  if (bits === undefined) throw XtError.param(`invalid mask \`${mask}' specified`);
  return { prefix: bits };
}

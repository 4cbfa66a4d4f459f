/**
 * Number formats and match fragments kube-proxy's iptables proxier writes.
 */
import type { KubeProxyConfig } from '../../model/cluster';
import { cidrParse, cidrToString } from '../../model/ip';

/**
 * Go's `fmt.Sprintf("%.<prec>f", x)`: the exact decimal value of the double, rounded to
 * `prec` digits, ties to even (strconv). JS `toFixed` rounds ties away from zero, which
 * differs for exactly representable midpoints such as 1/2048.
 */
export function formatFixedGo(x: number, prec: number): string {
  if (!Number.isFinite(x) || x < 0) throw new RangeError(`formatFixedGo: unsupported ${x}`);
  // Decompose the double exactly: x = mantissa * 2^exp.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) exp = -1074;
  else {
    mantissa |= 1n << 52n;
    exp = biased - 1075;
  }
  const scale = 10n ** BigInt(prec);
  let q: bigint;
  if (exp >= 0) q = (mantissa << BigInt(exp)) * scale;
  else {
    const den = 1n << BigInt(-exp);
    const num = mantissa * scale;
    q = num / den;
    const twiceRem = (num % den) * 2n;
    if (twiceRem > den || (twiceRem === den && q % 2n === 1n)) q += 1n;
  }
  const digits = q.toString().padStart(prec + 1, '0');
  const intPart = digits.slice(0, digits.length - prec);
  return prec === 0 ? intPart : `${intPart}.${digits.slice(digits.length - prec)}`;
}

const probabilities = new Map<number, string>();

/**
 * `computeProbability(n)`: `fmt.Sprintf("%0.10f", 1.0/float64(n))`. Memoised: the exact
 * (BigInt) formatting is slow and every service's ladder asks for the same few values.
 */
export function computeProbability(n: number): string {
  let text = probabilities.get(n);
  if (text === undefined) probabilities.set(n, (text = formatFixedGo(1 / n, 10)));
  return text;
}

/**
 * The masquerade mark `1 << masqueradeBit` formatted with Go's `%#08x`: the zero padding
 * applies to the digits (8 of them) and `0x` is added in front, giving `0x00004000`.
 */
export function masqueradeMark(masqueradeBit: number): string {
  const value = 2 ** masqueradeBit;
  return '0x' + value.toString(16).padStart(8, '0');
}

/**
 * pkg/proxy/util/localdetector.go: iptables fragments that match traffic from local pods.
 * `ifLocal` empty = the no-op detector (`IsImplemented()` false).
 */
export interface LocalDetector {
  readonly ifLocal: readonly string[];
  readonly ifNotLocal: readonly string[];
}

export const NO_OP_DETECTOR: LocalDetector = { ifLocal: [], ifNotLocal: [] };

export function detectorImplemented(d: LocalDetector): boolean {
  return d.ifLocal.length > 0;
}

/** First IPv4 CIDR of a comma-separated list, printed as Go's `IPNet.String()`. */
function firstIPv4Cidr(list: string): string | undefined {
  for (const part of list.split(',')) {
    const cidr = cidrParse(part.trim(), { allowHostBits: true });
    if (cidr) return cidrToString(cidr);
  }
  return undefined;
}

/**
 * cmd/kube-proxy/app/server_linux.go `getLocalDetectors` for the IPv4 family:
 * ClusterCIDR → `-s <first clusterCIDR>`; NodeCIDR → `-s <node podCIDR>`; BridgeInterface →
 * `-i <bridge>`; InterfaceNamePrefix → `-i <prefix>+`. A mode without its input (no
 * clusterCIDR, no podCIDR) yields the no-op detector, as kube-proxy does.
 */
export function localDetectorFor(config: KubeProxyConfig, podCIDR: string): LocalDetector {
  switch (config.detectLocalMode) {
    case 'ClusterCIDR':
    case 'NodeCIDR': {
      const cidr = firstIPv4Cidr(
        config.detectLocalMode === 'ClusterCIDR' ? config.clusterCIDR : podCIDR,
      );
      return cidr ? { ifLocal: ['-s', cidr], ifNotLocal: ['!', '-s', cidr] } : NO_OP_DETECTOR;
    }
    case 'BridgeInterface':
      return config.bridgeInterface === ''
        ? NO_OP_DETECTOR
        : {
            ifLocal: ['-i', config.bridgeInterface],
            ifNotLocal: ['!', '-i', config.bridgeInterface],
          };
    case 'InterfaceNamePrefix': {
      const prefix = config.interfaceNamePrefix;
      return prefix === ''
        ? NO_OP_DETECTOR
        : { ifLocal: ['-i', `${prefix}+`], ifNotLocal: ['!', '-i', `${prefix}+`] };
    }
  }
}

/**
 * `--nodeport-addresses` (pkg/proxy/util/nodeport_addresses.go `NewNodePortAddresses`,
 * `GetNodeIPs`, and the `primary` rewrite in cmd/kube-proxy/app/server.go), IPv4 family.
 */
import { cidrContains, cidrParse, type Cidr } from '../model/ip';

export interface NodePortAddresses {
  /** No IPv4 CIDR given, or `0.0.0.0/0` among them: NodePorts on every local address. */
  readonly matchAll: boolean;
  readonly cidrs: readonly Cidr[];
  /** Some CIDR covers 127.0.0.0 (or is a loopback network): localhost NodePorts stay possible. */
  readonly containsIPv4Loopback: boolean;
}

const isLoopback = (ip: string): boolean => ip.startsWith('127.');

/**
 * `primary` is replaced by `<nodeIP>/32` (when the node IP is not loopback); CIDRs of the
 * other family or that do not parse are ignored; an empty IPv4 list means `0.0.0.0/0`.
 */
export function nodePortAddressesFor(
  configured: readonly string[],
  nodeIP: string | undefined,
): NodePortAddresses {
  let strings = [...configured];
  if (strings.length === 1 && strings[0] === 'primary') {
    strings = nodeIP !== undefined && !isLoopback(nodeIP) ? [`${nodeIP}/32`] : [];
  }
  const parsed: { text: string; cidr: Cidr }[] = [];
  for (const text of strings) {
    const cidr = cidrParse(text.trim(), { allowHostBits: true });
    if (cidr) parsed.push({ text: text.trim(), cidr });
  }
  if (parsed.length === 0) {
    parsed.push({ text: '0.0.0.0/0', cidr: { network: '0.0.0.0', prefix: 0 } });
  }
  let containsIPv4Loopback = false;
  const cidrs: Cidr[] = [];
  for (const { text, cidr } of parsed) {
    if (isLoopback(cidr.network) || cidrContains(cidr, '127.0.0.0')) containsIPv4Loopback = true;
    // IsZeroCIDR compares the string: "0.0.0.0/0" makes everything else irrelevant.
    if (text === '0.0.0.0/0') {
      return { matchAll: true, cidrs: [cidr], containsIPv4Loopback };
    }
    cidrs.push(cidr);
  }
  return { matchAll: false, cidrs, containsIPv4Loopback };
}

/**
 * `GetNodeIPs`: the node's interface addresses inside the CIDRs, deduplicated. kube-proxy
 * returns them in Go map order (random); the lab keeps the order of `interfaceAddrs`.
 */
export function nodePortIPs(npa: NodePortAddresses, interfaceAddrs: readonly string[]): string[] {
  const out: string[] = [];
  for (const cidr of npa.cidrs) {
    for (const ip of interfaceAddrs) {
      if (cidrContains(cidr, ip) && !out.includes(ip)) out.push(ip);
    }
  }
  const order = (ip: string): number => interfaceAddrs.indexOf(ip);
  return out.sort((a, b) => order(a) - order(b));
}

export { isLoopback as ipIsLoopback };

/**
 * The IPv4 extensions iptables 1.8.9 ships (Debian's iptables package: libxt_*, libipt_*) that
 * the lab does not model. Naming one gets the lab's "not modelled" note instead of the error
 * iptables gives for a name it does not know (`Couldn't load match`, `Chain 'X' does not
 * exist`), which a real node would never print for them.
 */
import { notModelled, type XtError } from './errors';

const MATCHES = new Set([
  'ah', 'bpf', 'cgroup', 'cluster', 'connbytes', 'connlabel', 'connlimit', 'connmark', 'cpu',
  'dccp', 'devgroup', 'dscp', 'ecn', 'esp', 'hashlimit', 'helper', 'ipcomp', 'length',
  'mac', 'osf', 'owner', 'pkttype', 'policy', 'quota', 'rateest', 'realm', 'rpfilter', 'socket',
  'string', 'tcpmss', 'time', 'tos', 'ttl', 'u32',
]); // prettier-ignore

const TARGETS = new Set([
  'AUDIT', 'CHECKSUM', 'CLASSIFY', 'CLUSTERIP', 'CONNSECMARK', 'DSCP', 'ECN', 'HMARK',
  'IDLETIMER', 'LED', 'NETMAP', 'NFLOG', 'NFQUEUE', 'RATEEST', 'SECMARK', 'SET', 'SYNPROXY',
  'TCPMSS', 'TCPOPTSTRIP', 'TEE', 'TOS', 'TPROXY', 'TTL',
]); // prettier-ignore

/** The note for a real match the lab does not model, or undefined. */
export function unmodelledMatch(name: string): XtError | undefined {
  return MATCHES.has(name) ? notModelled('iptables.match', { name }) : undefined;
}

/** The note for a real target the lab does not model, or undefined. */
export function unmodelledTarget(name: string): XtError | undefined {
  return TARGETS.has(name) ? notModelled('iptables.target', { name }) : undefined;
}

/** A real target's name, modelled or not (a chain may not take it). */
export function isUnmodelledTarget(name: string): boolean {
  return TARGETS.has(name);
}

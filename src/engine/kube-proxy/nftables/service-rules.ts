/**
 * The body of syncProxyRules' service loop (pkg/proxy/nftables/proxier.go, v1.33) for one
 * service port: its map/set elements (every sync; unchanged ones cost nothing) and, when the
 * Service or its endpoints changed (or on a full sync), its own chains: `service-…` (Cluster
 * policy), `local-…` (Local policy), `external-…`, `firewall-…`, one `endpoint-…` per endpoint,
 * and the `affinity-…` sets of ClientIP session affinity.
 */
import { categorizeEndpoints, type EndpointInfo } from '../endpoints';
import { nftEndpointChainNameBase, nftServicePortChainNameBase } from '../hash';
import {
  externallyAccessible,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type ServicePortInfo,
} from '../service-port';
import { cidrContains, cidrParse } from '../../model/ip';
import { ensureChain, type Containers } from './setup';
import type { Transaction } from './tx';

export interface ServiceEnv {
  readonly masqueradeAll: boolean;
  /** `ip saddr 10.244.0.0/16`-style local-traffic detector fragments; undefined when not implemented. */
  readonly ifLocal?: string;
  readonly ifNotLocal?: string;
  readonly nodeIP: string | undefined;
}

export interface PortRender {
  /** Chains this port uses (active chains). */
  readonly chains: string[];
  readonly affinitySets: string[];
  readonly noLocalInternal: boolean;
  readonly noLocalExternal: boolean;
}

const proto = (info: ServicePortInfo) => info.protocol.toLowerCase();

// Chain names hash with SHA-256; a ServicePortInfo lives as long as its Service object, so
// its endpoints' names are computed once.
const endpointNameCache = new WeakMap<ServicePortInfo, Map<string, EndpointNames>>();

interface EndpointNames {
  readonly chain: string;
  readonly affinity: string;
}

function endpointNames(info: ServicePortInfo, ep: EndpointInfo): EndpointNames {
  let byEndpoint = endpointNameCache.get(info);
  if (byEndpoint === undefined) endpointNameCache.set(info, (byEndpoint = new Map()));
  let names = byEndpoint.get(ep.endpoint);
  if (names === undefined) {
    const base = nftEndpointChainNameBase(
      info.namespace,
      info.name,
      info.protocol,
      info.portName,
      ep.endpoint,
    );
    names = { chain: `endpoint-${base}`, affinity: `affinity-${base}` };
    byEndpoint.set(ep.endpoint, names);
  }
  return names;
}

const serviceBaseCache = new WeakMap<ServicePortInfo, string>();

function serviceBase(info: ServicePortInfo): string {
  let base = serviceBaseCache.get(info);
  if (base === undefined) {
    base = nftServicePortChainNameBase(info.namespace, info.name, info.protocol, info.portName);
    serviceBaseCache.set(info, base);
  }
  return base;
}

/** writeServiceToEndpointRules: affinity lookups, then the numgen dispatch. */
function writeServiceToEndpointRules(
  tx: Transaction,
  info: ServicePortInfo,
  chain: string,
  endpoints: readonly EndpointInfo[],
): void {
  if (info.sessionAffinityClientIP) {
    for (const ep of endpoints) {
      const n = endpointNames(info, ep);
      tx.addRule(chain, `ip saddr @${n.affinity} goto ${n.chain}`);
    }
  }
  const elements = endpoints.map((ep, i) => `${i} : goto ${endpointNames(info, ep).chain}`);
  tx.addRule(chain, `numgen random mod ${endpoints.length} vmap { ${elements.join(' , ')} }`);
}

export function writeServicePort(
  tx: Transaction,
  c: Containers,
  env: ServiceEnv,
  info: ServicePortInfo,
  allEndpoints: readonly EndpointInfo[],
  /** The Service and its endpoints are unchanged since the last sync (partial sync). */
  skipServiceUpdate: boolean,
  created: Set<string>,
): PortRender {
  const p = proto(info);
  const port = String(info.port);
  const base = serviceBase(info);
  const clusterPolicyChain = `service-${base}`;
  const localPolicyChain = `local-${base}`;
  const externalTrafficChain = `external-${base}`;
  const fwChain = `firewall-${base}`;
  const chains: string[] = [];
  const affinitySets: string[] = [];
  const ensure = (chain: string) => {
    chains.push(chain);
    if (!skipServiceUpdate) ensureChain(tx, created, chain);
    else created.add(chain);
  };

  const cat = categorizeEndpoints(allEndpoints, info);
  const { clusterEndpoints, localEndpoints, hasEndpoints } = cat;
  for (const ep of cat.allReachableEndpoints) {
    const n = endpointNames(info, ep);
    ensure(n.chain);
    if (info.sessionAffinityClientIP) affinitySets.push(n.affinity);
  }
  const usesClusterPolicyChain = clusterEndpoints.length > 0 && usesClusterEndpoints(info);
  if (usesClusterPolicyChain) ensure(clusterPolicyChain);
  const usesLocalPolicyChain = localEndpoints.length > 0 && usesLocalEndpoints(info);
  if (usesLocalPolicyChain) ensure(localPolicyChain);

  let internalTrafficChain = clusterPolicyChain;
  let hasInternalEndpoints = hasEndpoints;
  if (info.internalPolicyLocal) {
    internalTrafficChain = localPolicyChain;
    if (localEndpoints.length === 0) hasInternalEndpoints = false;
  }
  let externalPolicyChain = clusterPolicyChain;
  let hasExternalEndpoints = hasEndpoints;
  if (info.externalPolicyLocal) {
    externalPolicyChain = localPolicyChain;
    if (localEndpoints.length === 0) hasExternalEndpoints = false;
  }
  const usesExternalTrafficChain = hasEndpoints && externallyAccessible(info);
  if (usesExternalTrafficChain) ensure(externalTrafficChain);

  let internalVerdict = '';
  let externalVerdict = '';
  let noLocalInternal = false;
  let noLocalExternal = false;
  if (!hasEndpoints) {
    internalVerdict = 'goto reject-chain';
    externalVerdict = 'goto reject-chain';
  } else {
    if (!hasInternalEndpoints) {
      internalVerdict = 'drop';
      noLocalInternal = true;
    }
    if (!hasExternalEndpoints) {
      externalVerdict = 'drop';
      noLocalExternal = true;
    }
  }

  // Elements: the ClusterIP, external IPs, LB IPs, the NodePort.
  c.clusterIPs.ensure(tx, { key: [info.clusterIP] });
  if (hasInternalEndpoints) {
    c.serviceIPs.ensure(tx, {
      key: [info.clusterIP, p, port],
      value: `goto ${internalTrafficChain}`,
    });
  } else {
    c.noEndpointServices.ensure(tx, {
      key: [info.clusterIP, p, port],
      value: internalVerdict,
      comment: info.nameString,
    });
  }
  for (const ip of info.externalIPs) {
    if (hasEndpoints)
      c.serviceIPs.ensure(tx, { key: [ip, p, port], value: `goto ${externalTrafficChain}` });
    if (!hasExternalEndpoints)
      c.noEndpointServices.ensure(tx, {
        key: [ip, p, port],
        value: externalVerdict,
        comment: info.nameString,
      });
  }
  const usesFWChain = info.loadBalancerVIPs.length > 0 && info.loadBalancerSourceRanges.length > 0;
  if (usesFWChain) ensure(fwChain);
  for (const ip of info.loadBalancerVIPs) {
    if (hasEndpoints)
      c.serviceIPs.ensure(tx, { key: [ip, p, port], value: `goto ${externalTrafficChain}` });
    if (usesFWChain) c.firewallIPs.ensure(tx, { key: [ip, p, port], value: `goto ${fwChain}` });
  }
  if (!hasExternalEndpoints) {
    for (const ip of info.loadBalancerVIPs)
      c.noEndpointServices.ensure(tx, {
        key: [ip, p, port],
        value: externalVerdict,
        comment: info.nameString,
      });
  }
  if (info.nodePort !== 0) {
    const key = [p, String(info.nodePort)];
    if (hasEndpoints) c.serviceNodePorts.ensure(tx, { key, value: `goto ${externalTrafficChain}` });
    if (!hasExternalEndpoints)
      c.noEndpointNodePorts.ensure(tx, { key, value: externalVerdict, comment: info.nameString });
  }

  const result = { chains, affinitySets, noLocalInternal, noLocalExternal };
  if (skipServiceUpdate) return result;

  if (usesFWChain) {
    // The node's own requests to a VIP-like LB IP loop back with the VIP as source.
    const sources = [...info.loadBalancerSourceRanges];
    if (env.nodeIP !== undefined && sourcesContain(sources, env.nodeIP))
      sources.push(...info.loadBalancerVIPs);
    tx.addRule(fwChain, `ip saddr != { ${sources.join(' , ')} } drop`);
  }

  if (hasInternalEndpoints) {
    if (env.masqueradeAll) {
      tx.addRule(
        internalTrafficChain,
        `ip daddr ${info.clusterIP} ${p} dport ${port} jump mark-for-masquerade`,
      );
    } else if (env.ifNotLocal !== undefined) {
      tx.addRule(
        internalTrafficChain,
        `ip daddr ${info.clusterIP} ${env.ifNotLocal} jump mark-for-masquerade`,
      );
    }
  }

  if (usesExternalTrafficChain) {
    if (!info.externalPolicyLocal) {
      tx.addRule(externalTrafficChain, 'jump mark-for-masquerade');
    } else {
      if (env.ifLocal !== undefined)
        tx.addRule(
          externalTrafficChain,
          `${env.ifLocal} goto ${clusterPolicyChain}`,
          'short-circuit pod traffic',
        );
      tx.addRule(
        externalTrafficChain,
        'fib saddr type local jump mark-for-masquerade',
        'masquerade local traffic',
      );
      tx.addRule(
        externalTrafficChain,
        `fib saddr type local goto ${clusterPolicyChain}`,
        'short-circuit local traffic',
      );
    }
    if (hasExternalEndpoints) tx.addRule(externalTrafficChain, `goto ${externalPolicyChain}`);
  }

  // Affinity sets must exist before the rules that name them (nft resolves @set when it reads
  // the rule), so they are written ahead of the service chains' rules.
  if (info.sessionAffinityClientIP) {
    for (const ep of cat.allReachableEndpoints) {
      tx.addSet('set', endpointNames(info, ep).affinity, 'ipv4_addr', {
        flags: 'dynamic,timeout',
        timeoutSeconds: info.stickyMaxAgeSeconds,
      });
    }
  }

  if (usesClusterPolicyChain)
    writeServiceToEndpointRules(tx, info, clusterPolicyChain, clusterEndpoints);
  if (usesLocalPolicyChain) writeServiceToEndpointRules(tx, info, localPolicyChain, localEndpoints);

  for (const ep of cat.allReachableEndpoints) {
    const n = endpointNames(info, ep);
    tx.addRule(n.chain, `ip saddr ${ep.ip} jump mark-for-masquerade`);
    if (info.sessionAffinityClientIP) tx.addRule(n.chain, `update @${n.affinity} { ip saddr }`);
    tx.addRule(n.chain, `meta l4proto ${p} dnat to ${ep.endpoint}`);
  }
  return result;
}

function sourcesContain(cidrs: readonly string[], ip: string): boolean {
  return cidrs.some((text) => {
    const cidr = cidrParse(text, { allowHostBits: true });
    return cidr !== undefined && cidrContains(cidr, ip);
  });
}

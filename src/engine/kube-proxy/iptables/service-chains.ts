/**
 * A service port's own nat chains (KUBE-SVC/SVL/EXT/FW/SEP), the second half of the service
 * loop in pkg/proxy/iptables/proxier.go `syncProxyRules`, plus `writeServiceToEndpointRules`.
 * On partial syncs kube-proxy writes these into a discarding buffer when neither the
 * Service nor its EndpointSlices changed; the lab renders them into their own buffers
 * (ctx.svcNatChains / ctx.svcNatRules) and the proxier decides whether to emit them.
 */
import { cidrContains, cidrParse } from '../../model/ip';
import type { CategorizedEndpoints, EndpointInfo } from '../endpoints';
import { sharedFlatName } from '../../netfilter/parse-cache';
import { endpointChainName } from '../hash';
import type { ServicePortInfo } from '../service-port';
import { computeProbability, detectorImplemented } from './format';
import { chainLine } from './line-buffer';
import {
  clusterIPParse,
  declaredChain,
  endpointDnatParse,
  hairpinParse,
  ladderParse,
} from './prebuilt-rules';
import {
  commentArgs as c,
  q,
  type ServicePolicy,
  type ServiceRulesContext,
} from './service-policy';

const MASQ = 'KUBE-MARK-MASQ';

/** `appendServiceCommentLocked`: large-cluster mode drops the SEP and SVC→SEP comments. */
function elidable(ctx: ServiceRulesContext, text: string): string[] {
  return ctx.largeClusterMode ? [] : c(text);
}

/** `:CHAIN - [0:0]`, with the chain it declares for the restore (prebuilt-rules.ts). */
function declare(ctx: ServiceRulesContext, chain: string): void {
  ctx.svcNatChains.writeParsed(declaredChain(chain), chainLine(chain));
  ctx.declaredChains.push(chain);
}

/**
 * KUBE-SEP names of one service port, each hashed once although up to three rules use it;
 * each the one string object the restore's parses and tables hold of that name (sharedFlatName():
 * the rules built with the lines, prebuilt-rules.ts, then look it up by identity).
 */
function sepNamer(svc: ServicePortInfo): (ep: EndpointInfo) => string {
  const proto = svc.protocol.toLowerCase();
  const names = new Map<string, string>();
  return (ep) => {
    let name = names.get(ep.endpoint);
    if (name === undefined) {
      name = sharedFlatName(endpointChainName(svc.nameString, proto, ep.endpoint));
      names.set(ep.endpoint, name);
    }
    return name;
  };
}

export function writeServiceChains(
  ctx: ServiceRulesContext,
  svc: ServicePortInfo,
  p: ServicePolicy,
  eps: CategorizedEndpoints,
  clusterIPMatch: readonly string[],
): void {
  const rules = ctx.svcNatRules;
  const { S, externalTrafficChain: ext } = p;
  const sepName = sepNamer(svc);
  const protocol = svc.protocol.toLowerCase();

  // Internal traffic: masquerade off-cluster sources reaching the ClusterIP (they may be
  // bounced off-node, e.g. via a static route for the service range).
  if (p.hasInternalEndpoints) {
    const comment = `${S} cluster IP`;
    const args = [...c(q(comment)), ...clusterIPMatch];
    const chain = p.internalTrafficChain;
    const masq = (notLocal: readonly string[]) =>
      clusterIPParse({ chain, comment, protocol, clusterIP: svc.clusterIP, port: svc.port, notLocal, target: MASQ }); // prettier-ignore
    if (ctx.masqueradeAll) {
      rules.writeParsed(masq([]), '-A', chain, args, '-j', MASQ);
    } else if (detectorImplemented(ctx.detector)) {
      const notLocal = ctx.detector.ifNotLocal;
      rules.writeParsed(masq(notLocal), '-A', chain, args, notLocal, '-j', MASQ);
    }
  }

  // External destinations all jump to KUBE-EXT, which then applies eTP.
  if (p.usesExternalTrafficChain) {
    declare(ctx, ext);
    if (!svc.externalPolicyLocal) {
      // Endpoints may be on other nodes: masquerade so replies come back through us.
      rules.write('-A', ext, c(q(`masquerade traffic for ${S} external destinations`)), '-j', MASQ);
    } else {
      if (detectorImplemented(ctx.detector)) {
        // Pod → external IP of a service behaves as if it went out to the LB and back:
        // all cluster endpoints, no traffic policy, no masquerade.
        const comment = c(q(`pod traffic for ${S} external destinations`));
        rules.write('-A', ext, comment, ctx.detector.ifLocal, '-j', p.clusterPolicyChain);
      }
      // Node-originated traffic to a local VIP has that VIP as source: masquerade it.
      const local = ['-m', 'addrtype', '--src-type', 'LOCAL'];
      const masq = c(q(`masquerade LOCAL traffic for ${S} external destinations`));
      rules.write('-A', ext, masq, local, '-j', MASQ);
      const route = c(q(`route LOCAL traffic for ${S} external destinations`));
      rules.write('-A', ext, route, local, '-j', p.clusterPolicyChain);
    }
    // Anything else falls through to the policy chain (or, without local endpoints under
    // eTP Local, leaves un-DNATed and meets the filter DROP).
    if (p.hasExternalEndpoints) rules.write('-A', ext, '-j', p.externalPolicyChain);
  }

  // KUBE-FW: loadBalancerSourceRanges (only meaningful for source-preserving VIP LBs).
  if (p.usesFWChain) {
    declare(ctx, p.fwChain);
    const head = ['-A', p.fwChain, ...c(q(`${S} loadbalancer IP`))];
    let allowFromNode = false;
    for (const cidr of svc.loadBalancerSourceRanges) {
      rules.write(head, '-s', cidr, '-j', ext);
      const parsed = cidrParse(cidr, { allowHostBits: true });
      if (parsed && ctx.nodeIP !== undefined && cidrContains(parsed, ctx.nodeIP)) {
        allowFromNode = true;
      }
    }
    // A VIP bound on the node: the node's own requests loop back with the VIP as source.
    if (allowFromNode) {
      for (const lbip of svc.loadBalancerVIPs) rules.write(head, '-s', lbip, '-j', ext);
    }
    // What reaches the end was not DNATed; KUBE-PROXY-FIREWALL drops it in filter.
    const other = c(q(`other traffic to ${S} will be dropped by KUBE-PROXY-FIREWALL`));
    rules.write('-A', p.fwChain, other);
  }

  if (p.usesClusterPolicyChain) {
    declare(ctx, p.clusterPolicyChain);
    writeServiceToEndpointRules(ctx, svc, p.clusterPolicyChain, eps.clusterEndpoints, sepName);
  }
  if (p.usesLocalPolicyChain) {
    declare(ctx, p.localPolicyChain);
    writeServiceToEndpointRules(ctx, svc, p.localPolicyChain, eps.localEndpoints, sepName);
  }

  // One chain per reachable endpoint. (The most frequent lines: built as single strings,
  // with their parses for the restore, see prebuilt-rules.ts.)
  const commentText = ctx.largeClusterMode ? undefined : S;
  const comment = commentText === undefined ? '' : ` -m comment --comment ${commentText}`;
  const proto = p.protoArgs.join(' ');
  for (const ep of eps.allReachableEndpoints) {
    const sep = sepName(ep);
    declare(ctx, sep);
    // Hairpin: a pod reaching itself through the service is masqueraded.
    const hairpin = hairpinParse(sep, commentText, ep.ip, MASQ);
    rules.writeParsed(hairpin, `-A ${sep}${comment} -s ${ep.ip} -j ${MASQ}`);
    const dnat = `-j DNAT --to-destination ${ep.endpoint}`;
    if (svc.sessionAffinityClientIP) {
      rules.write(`-A ${sep}${comment} -m recent --name ${sep} --set ${proto} ${dnat}`);
    } else {
      const parse = endpointDnatParse(sep, commentText, protocol, ep.endpoint);
      rules.writeParsed(parse, `-A ${sep}${comment} ${proto} ${dnat}`);
    }
  }
}

/** `writeServiceToEndpointRules`: ClientIP affinity checks first, then the probability ladder. */
function writeServiceToEndpointRules(
  ctx: ServiceRulesContext,
  svc: ServicePortInfo,
  chain: string,
  endpoints: readonly EndpointInfo[],
  sepName: (ep: EndpointInfo) => string,
): void {
  const S = svc.nameString;
  const rules = ctx.svcNatRules;
  if (svc.sessionAffinityClientIP) {
    for (const ep of endpoints) {
      const sep = sepName(ep);
      const seconds = String(svc.stickyMaxAgeSeconds);
      const recent = ['-m', 'recent', '--name', sep, '--rcheck', '--seconds', seconds, '--reap'];
      rules.write('-A', chain, elidable(ctx, q(`${S} -> ${ep.endpoint}`)), recent, '-j', sep);
    }
  }
  const n = endpoints.length;
  endpoints.forEach((ep, i) => {
    const sep = sepName(ep);
    const commentText = ctx.largeClusterMode ? undefined : `${S} -> ${ep.endpoint}`;
    const comment = commentText === undefined ? '' : ` -m comment --comment "${commentText}"`;
    // Rule i matches with probability 1/(n-i), so each endpoint gets 1/n overall; the last
    // (or only) rule always matches.
    const probability = i < n - 1 ? computeProbability(n - i) : undefined;
    const stat =
      probability === undefined ? '' : ` -m statistic --mode random --probability ${probability}`;
    const parse = ladderParse(chain, commentText, probability, sep);
    rules.writeParsed(parse, `-A ${chain}${comment}${stat} -j ${sep}`);
  });
}

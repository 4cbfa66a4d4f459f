/**
 * The per-service-port decisions at the top of kube-proxy's service loop
 * (pkg/proxy/iptables/proxier.go `syncProxyRules`): which chains a service port uses, and
 * what the filter table does when the relevant endpoints are missing.
 */
import type { CategorizedEndpoints } from '../endpoints';
import { portProtoHash } from '../hash';
import { externallyAccessible, type ServicePortInfo } from '../service-port';
import type { LocalDetector } from './format';
import type { LineBuffer } from './line-buffer';

export interface ServiceRulesContext {
  /** Lines for the top-level chains, which every sync rewrites. */
  readonly filterRules: LineBuffer;
  readonly natRules: LineBuffer;
  /** The service port's own chains, which partial syncs write only for changed Services. */
  readonly svcNatChains: LineBuffer;
  readonly svcNatRules: LineBuffer;
  /** Receives every per-service nat chain declared, in order (the chains that must exist). */
  readonly declaredChains: string[];
  readonly masqueradeAll: boolean;
  readonly detector: LocalDetector;
  /** The node IP (KUBE-FW allows the LB VIPs as sources when a range contains it). */
  readonly nodeIP: string | undefined;
  /** localhostNodePorts && IPv4 && the localhost_nps_accepted_pkts counter exists. */
  readonly localhostNodePortCounter: boolean;
  readonly largeClusterMode: boolean;
}

export interface ServicePolicy {
  /** `ServicePortName.String()`. */
  readonly S: string;
  /** `-m proto -p proto`. */
  readonly protoArgs: readonly string[];
  readonly clusterPolicyChain: string;
  readonly localPolicyChain: string;
  readonly externalTrafficChain: string;
  readonly fwChain: string;
  readonly usesClusterPolicyChain: boolean;
  readonly usesLocalPolicyChain: boolean;
  /** KUBE-SVC, or KUBE-SVL with iTP Local. */
  readonly internalTrafficChain: string;
  /** What KUBE-EXT finally jumps to: KUBE-SVC, or KUBE-SVL with eTP Local. */
  readonly externalPolicyChain: string;
  readonly hasEndpoints: boolean;
  readonly hasInternalEndpoints: boolean;
  readonly hasExternalEndpoints: boolean;
  readonly usesExternalTrafficChain: boolean;
  readonly usesFWChain: boolean;
  /** REJECT (no endpoints at all) or DROP (no local endpoints); '' when not needed. */
  readonly internalFilterTarget: string;
  readonly internalFilterComment: string;
  readonly externalFilterTarget: string;
  readonly externalFilterComment: string;
}

/** kube-proxy writes most comments pre-quoted with `"…"` (no escaping). */
export const q = (text: string): string => `"${text}"`;

export const commentArgs = (text: string): string[] => ['-m', 'comment', '--comment', text];

export function servicePolicy(svc: ServicePortInfo, eps: CategorizedEndpoints): ServicePolicy {
  const S = svc.nameString;
  const proto = svc.protocol.toLowerCase();
  const { clusterEndpoints, localEndpoints, hasEndpoints } = eps;
  // SVC, SVL, EXT and FW share one hash (`servicePortChainName` with four prefixes).
  const hash = portProtoHash(S, proto);
  const clusterPolicyChain = 'KUBE-SVC-' + hash;
  const localPolicyChain = 'KUBE-SVL-' + hash;

  let internalTrafficChain = clusterPolicyChain;
  let hasInternalEndpoints = hasEndpoints;
  if (svc.internalPolicyLocal) {
    internalTrafficChain = localPolicyChain;
    if (localEndpoints.length === 0) hasInternalEndpoints = false;
  }
  let externalPolicyChain = clusterPolicyChain;
  let hasExternalEndpoints = hasEndpoints;
  if (svc.externalPolicyLocal) {
    externalPolicyChain = localPolicyChain;
    if (localEndpoints.length === 0) hasExternalEndpoints = false;
  }

  let internalFilterTarget = '';
  let internalFilterComment = '';
  let externalFilterTarget = '';
  let externalFilterComment = '';
  if (!hasEndpoints) {
    // No chains at all in nat: only filter rules rejecting the service's addresses.
    internalFilterTarget = externalFilterTarget = 'REJECT';
    internalFilterComment = externalFilterComment = q(`${S} has no endpoints`);
  } else {
    if (!hasInternalEndpoints) {
      // iTP Local without local endpoints: ClusterIP traffic is dropped.
      internalFilterTarget = 'DROP';
      internalFilterComment = q(`${S} has no local endpoints`);
    }
    if (!hasExternalEndpoints) {
      // eTP Local without local endpoints: external traffic that was not short-circuited.
      externalFilterTarget = 'DROP';
      externalFilterComment = q(`${S} has no local endpoints`);
    }
  }

  return {
    S,
    protoArgs: ['-m', proto, '-p', proto],
    clusterPolicyChain,
    localPolicyChain,
    externalTrafficChain: 'KUBE-EXT-' + hash,
    fwChain: 'KUBE-FW-' + hash,
    // CategorizeEndpoints leaves a list empty when its policy is never used.
    usesClusterPolicyChain: clusterEndpoints.length > 0,
    usesLocalPolicyChain: localEndpoints.length > 0,
    internalTrafficChain,
    externalPolicyChain,
    hasEndpoints,
    hasInternalEndpoints,
    hasExternalEndpoints,
    // hasEndpoints, not hasExternalEndpoints: the short-circuit rules for local traffic
    // are needed even when no endpoint serves external traffic.
    usesExternalTrafficChain: hasEndpoints && externallyAccessible(svc),
    usesFWChain:
      hasEndpoints && svc.loadBalancerVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0,
    internalFilterTarget,
    internalFilterComment,
    externalFilterTarget,
    externalFilterComment,
  };
}

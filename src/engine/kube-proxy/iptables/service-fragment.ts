/**
 * One service port's contribution to a restore input, rendered once and reused by later
 * syncs while the port's Service and endpoints stay unchanged. kube-proxy re-runs its whole
 * service loop on every sync (writing unchanged services' own chains into a discarding
 * buffer); the result of that loop is a pure function of the ServicePortInfo, its endpoints,
 * large-cluster mode and the proxier's configuration, so caching it changes no byte.
 */
import { categorizeEndpoints, type EndpointInfo } from '../endpoints';
import type { ServicePortInfo } from '../service-port';
import type { LocalDetector } from './format';
import { LineBuffer, type RenderedLines } from './line-buffer';
import { writeServicePortRules, type ServiceRulesContext } from './service-rules';

/** The proxier-wide inputs of the service loop. */
export interface FragmentEnv {
  readonly masqueradeAll: boolean;
  readonly detector: LocalDetector;
  readonly nodeIP: string | undefined;
  readonly localhostNodePortCounter: boolean;
}

export interface PortFragment {
  /** Only the own-chain rules depend on it (large-cluster mode drops SEP comments). */
  readonly largeClusterMode: boolean;
  /** Lines for the top-level filter chains (KUBE-SERVICES, KUBE-EXTERNAL-SERVICES, …). */
  readonly filterRules: RenderedLines;
  /** Lines for nat KUBE-SERVICES / KUBE-NODEPORTS. */
  readonly natRules: RenderedLines;
  /** The port's own chains (SVC/SVL/EXT/FW/SEP) in declaration order: all must exist. */
  readonly chains: readonly string[];
  /** Their `:CHAIN - [0:0]` declarations and their rules. */
  readonly chainDeclarations: RenderedLines;
  readonly chainRules: RenderedLines;
  readonly noLocalEndpointsInternal: boolean;
  readonly noLocalEndpointsExternal: boolean;
}

export function renderPortFragment(
  env: FragmentEnv,
  info: ServicePortInfo,
  endpoints: readonly EndpointInfo[],
  largeClusterMode: boolean,
): PortFragment {
  const ctx: ServiceRulesContext = {
    ...env,
    filterRules: new LineBuffer(),
    natRules: new LineBuffer(),
    svcNatChains: new LineBuffer(),
    svcNatRules: new LineBuffer(),
    declaredChains: [],
    largeClusterMode,
  };
  const outcome = writeServicePortRules(ctx, info, categorizeEndpoints(endpoints, info));
  return {
    largeClusterMode,
    filterRules: ctx.filterRules.rendered(),
    // Kept by ServiceSection and handed over as ranges of its joined text.
    natRules: ctx.natRules.renderedKept(),
    chains: ctx.declaredChains,
    chainDeclarations: ctx.svcNatChains.rendered(),
    chainRules: ctx.svcNatRules.rendered(),
    ...outcome,
  };
}

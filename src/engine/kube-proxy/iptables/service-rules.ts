/**
 * The per-service-port part of pkg/proxy/iptables/proxier.go `syncProxyRules` that lands in
 * top-level chains (always rewritten): nat KUBE-SERVICES / KUBE-NODEPORTS and filter
 * KUBE-SERVICES / KUBE-EXTERNAL-SERVICES / KUBE-PROXY-FIREWALL / KUBE-NODEPORTS. Lines are
 * written in kube-proxy's order and spelling; the service's own chains follow
 * (service-chains.ts).
 */
import type { CategorizedEndpoints } from '../endpoints';
import type { ServicePortInfo } from '../service-port';
import { clusterIPParse } from './prebuilt-rules';
import { writeServiceChains } from './service-chains';
import { commentArgs as c, q, servicePolicy, type ServiceRulesContext } from './service-policy';

export type { ServiceRulesContext } from './service-policy';

export interface ServiceRulesOutcome {
  readonly noLocalEndpointsInternal: boolean;
  readonly noLocalEndpointsExternal: boolean;
}

export function writeServicePortRules(
  ctx: ServiceRulesContext,
  svc: ServicePortInfo,
  eps: CategorizedEndpoints,
): ServiceRulesOutcome {
  const { filterRules, natRules } = ctx;
  const p = servicePolicy(svc, eps);
  const { S, protoArgs } = p;
  const port = String(svc.port);
  const loadBalancerTrafficChain = p.usesFWChain ? p.fwChain : p.externalTrafficChain;

  // Capture the clusterIP.
  const clusterIPMatch = [...protoArgs, '-d', svc.clusterIP, '--dport', port];
  if (p.hasInternalEndpoints) {
    const text = `${S} cluster IP`;
    const target = p.internalTrafficChain;
    // With its parse for the restore (prebuilt-rules.ts).
    const parse = clusterIPParse({ chain: 'KUBE-SERVICES', comment: text, protocol: svc.protocol.toLowerCase(), clusterIP: svc.clusterIP, port: svc.port, notLocal: [], target }); // prettier-ignore
    natRules.writeParsed(parse, '-A', 'KUBE-SERVICES', c(q(text)), clusterIPMatch, '-j', target);
  } else {
    const comment = c(p.internalFilterComment);
    filterRules.write('-A', 'KUBE-SERVICES', comment, clusterIPMatch, '-j', p.internalFilterTarget);
  }

  // Capture externalIPs.
  for (const externalIP of svc.externalIPs) {
    const match = [...protoArgs, '-d', externalIP, '--dport', port];
    if (p.hasEndpoints) {
      const comment = c(q(`${S} external IP`));
      natRules.write('-A', 'KUBE-SERVICES', comment, match, '-j', p.externalTrafficChain);
    }
    if (!p.hasExternalEndpoints) {
      // No endpoints at all (REJECT), or none for external traffic (DROP what the EXT
      // chain did not short-circuit).
      const comment = c(p.externalFilterComment);
      filterRules.write(
        '-A',
        'KUBE-EXTERNAL-SERVICES',
        comment,
        match,
        '-j',
        p.externalFilterTarget,
      );
    }
  }

  // Capture load-balancer ingress.
  for (const lbip of svc.loadBalancerVIPs) {
    const match = [...protoArgs, '-d', lbip, '--dport', port];
    if (p.hasEndpoints) {
      const comment = c(q(`${S} loadbalancer IP`));
      natRules.write('-A', 'KUBE-SERVICES', comment, match, '-j', loadBalancerTrafficChain);
    }
    if (p.usesFWChain) {
      const comment = c(q(`${S} traffic not accepted by ${p.fwChain}`));
      filterRules.write('-A', 'KUBE-PROXY-FIREWALL', comment, match, '-j', 'DROP');
    }
  }
  if (!p.hasExternalEndpoints) {
    for (const lbip of svc.loadBalancerVIPs) {
      const match = [...protoArgs, '-d', lbip, '--dport', port];
      const comment = c(p.externalFilterComment);
      filterRules.write(
        '-A',
        'KUBE-EXTERNAL-SERVICES',
        comment,
        match,
        '-j',
        p.externalFilterTarget,
      );
    }
  }

  // Capture nodeports. For better or worse, NodePorts ignore loadBalancerSourceRanges.
  if (svc.nodePort !== 0) {
    const nodePort = String(svc.nodePort);
    if (p.hasEndpoints) {
      // The comment here is the bare S (kube-proxy does not quote it).
      if (ctx.localhostNodePortCounter) {
        const counter = ['-m', 'nfacct', '--nfacct-name', 'localhost_nps_accepted_pkts'];
        const match = [...protoArgs, '-d', '127.0.0.0/8', '--dport', nodePort, ...counter];
        natRules.write('-A', 'KUBE-NODEPORTS', c(S), match, '-j', p.externalTrafficChain);
      }
      const match = [...protoArgs, '--dport', nodePort];
      natRules.write('-A', 'KUBE-NODEPORTS', c(S), match, '-j', p.externalTrafficChain);
    }
    if (!p.hasExternalEndpoints) {
      const match = ['-m', 'addrtype', '--dst-type', 'LOCAL', ...protoArgs, '--dport', nodePort];
      const comment = c(p.externalFilterComment);
      filterRules.write(
        '-A',
        'KUBE-EXTERNAL-SERVICES',
        comment,
        match,
        '-j',
        p.externalFilterTarget,
      );
    }
  }

  // Capture healthCheckNodePorts, whether or not this node has local endpoints.
  if (svc.healthCheckNodePort !== 0) {
    const comment = c(q(`${S} health check node port`));
    const match = ['-m', 'tcp', '-p', 'tcp', '--dport', String(svc.healthCheckNodePort)];
    filterRules.write('-A', 'KUBE-NODEPORTS', comment, match, '-j', 'ACCEPT');
  }

  writeServiceChains(ctx, svc, p, eps, clusterIPMatch);

  return {
    noLocalEndpointsInternal: p.hasEndpoints && !p.hasInternalEndpoints,
    noLocalEndpointsExternal: p.hasEndpoints && !p.hasExternalEndpoints,
  };
}

/**
 * Service defaulting (SetDefaults_Service, pkg/apis/core/v1/defaults.go) and validation
 * (ValidateService, pkg/apis/core/validation/validation.go), in the order the API server runs
 * them. Allocation errors (ClusterIP / NodePort already taken or out of range) come later, from
 * allocate.ts, as the registry's allocator reports them after validation.
 */
import type { ServiceType, TrafficPolicy } from '../model/cluster';
import type { RawService } from './decode-service';
import { validateLabels } from './decode-meta';
import type { ServiceDraft } from './drafts';
import { validateClusterIPs, validatePorts } from './validate-service-fields';
import { cidr, dns1123Subdomain, ipAddress, nonSpecialIP } from './validate-common';

const TYPES: readonly ServiceType[] = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const POLICIES: readonly TrafficPolicy[] = ['Cluster', 'Local'];
/** core.MaxClientIPServiceAffinitySeconds and the v1 default. */
export const MAX_AFFINITY_SECONDS = 86400;
export const DEFAULT_AFFINITY_SECONDS = 10800;

export function validateService(s: RawService): ServiceDraft | undefined {
  const rep = s.rep;
  const doc = rep.doc;
  const type = (s.type?.value ?? 'ClusterIP') as ServiceType;
  const typeKnown = TYPES.includes(type);
  // The strategy syncs clusterIP and clusterIPs: either one may be written.
  const clusterIP = s.clusterIP?.value || s.clusterIPs?.[0]?.value || undefined;
  const clusterIPAt = s.clusterIP?.start ?? s.clusterIPs?.[0]?.start ?? s.specAnchor;
  const headless = clusterIP === 'None';

  if (s.ports.length === 0 && !headless && type !== 'ExternalName') {
    rep.field(s.portsAnchor, 'spec.ports', { type: 'required' });
  }
  if (headless && (type === 'LoadBalancer' || type === 'NodePort')) {
    rep.field(clusterIPAt, 'spec.clusterIPs[0]', {
      type: 'invalid',
      value: 'None',
      detail: `may not be set to 'None' for ${type} services`,
    });
  }
  if (type === 'ExternalName') {
    if (clusterIP !== undefined) {
      rep.field(clusterIPAt, 'spec.clusterIPs', {
        type: 'forbidden',
        detail: 'may not be set for ExternalName services',
      });
    }
    // The value (a CNAME) may end with a dot to mark it fully qualified.
    const cname = (s.externalName?.value ?? '').replace(/\.$/, '');
    if (!cname) rep.field(s.externalNameAnchor, 'spec.externalName', { type: 'required' });
    for (const msg of cname ? dns1123Subdomain(cname) : []) {
      rep.field(s.externalName?.start ?? s.externalNameAnchor, 'spec.externalName', {
        type: 'invalid',
        value: cname,
        detail: msg,
      });
    }
  }

  const ports = validatePorts(s, type);
  if (s.selector) validateLabels(rep, s.selector.value, 'spec.selector', s.selector.start);

  const affinity = s.sessionAffinity?.value ?? 'None';
  if (affinity !== 'None' && affinity !== 'ClientIP') {
    rep.field(s.sessionAffinity?.start ?? s.specAnchor, 'spec.sessionAffinity', {
      type: 'notSupported',
      value: affinity,
      supported: ['ClientIP', 'None'],
    });
  }
  const timeout = s.sessionAffinityConfig?.timeout?.value ?? DEFAULT_AFFINITY_SECONDS;
  if (affinity === 'None' && s.sessionAffinityConfig) {
    rep.field(s.sessionAffinityConfig.anchor, 'spec.sessionAffinityConfig', {
      type: 'forbidden',
      detail: 'must not be set when session affinity is None',
    });
  } else if (affinity === 'ClientIP' && (timeout <= 0 || timeout > MAX_AFFINITY_SECONDS)) {
    rep.field(
      s.sessionAffinityConfig?.timeout?.start ?? s.specAnchor,
      'spec.sessionAffinityConfig.clientIP.timeoutSeconds',
      {
        type: 'invalid',
        value: timeout,
        detail: `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`,
      },
    );
  }

  validateClusterIPs(s, type, clusterIP, clusterIPAt);
  s.externalIPs.forEach((ip, i) => {
    const errs = ipAddress(ip.value);
    const more = errs.length ? errs : nonSpecialIP(ip.value);
    for (const msg of more)
      rep.field(ip.start, `spec.externalIPs[${i}]`, {
        type: 'invalid',
        value: ip.value,
        detail: msg,
      });
  });
  if (!typeKnown) {
    rep.field(s.type?.start ?? s.specAnchor, 'spec.type', {
      type: 'notSupported',
      value: type,
      supported: TYPES,
    });
  }
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort !== 0) {
        rep.field(p.nodePortLoc.offset, `spec.ports[${i}].nodePort`, {
          type: 'forbidden',
          detail: "may not be used when `type` is 'ClusterIP'",
        });
      }
    });
  }
  const seenNodePorts = new Set<string>();
  const seenPorts = new Set<string>();
  ports.forEach((p, i) => {
    const np = `${p.protocol}/${p.nodePort}`;
    if (p.nodePort !== 0 && seenNodePorts.has(np)) {
      rep.field(p.nodePortLoc.offset, `spec.ports[${i}].nodePort`, {
        type: 'duplicate',
        value: p.nodePort,
      });
    }
    seenNodePorts.add(np);
    const key = `${p.protocol}/${p.port}`;
    if (seenPorts.has(key)) {
      // The API server prints the internal core.ServicePort key it deduplicates on.
      const value = {
        Name: '',
        Protocol: p.protocol,
        AppProtocol: null,
        Port: p.port,
        TargetPort: 0,
        NodePort: 0,
      };
      rep.field(s.ports[i]?.anchor ?? s.portsAnchor, `spec.ports[${i}]`, {
        type: 'duplicate',
        value,
      });
    }
    seenPorts.add(key);
  });

  if (s.loadBalancerSourceRanges.length > 0) {
    if (type !== 'LoadBalancer') {
      rep.field(s.loadBalancerSourceRangesAnchor, 'spec.LoadBalancerSourceRanges', {
        type: 'forbidden',
        detail: "may only be used when `type` is 'LoadBalancer'",
      });
    }
    s.loadBalancerSourceRanges.forEach((r, i) => {
      // Space padding is tolerated for historical reasons (the old annotation form).
      for (const msg of cidr(r.value.trim())) {
        rep.field(r.start, `spec.LoadBalancerSourceRanges[${i}]`, {
          type: 'invalid',
          value: r.value.trim(),
          detail: msg,
        });
      }
    });
  }
  if (s.allocateLoadBalancerNodePorts && type !== 'LoadBalancer') {
    rep.field(s.allocateLoadBalancerNodePorts.start, 'spec.allocateLoadBalancerNodePorts', {
      type: 'forbidden',
      detail: "may only be used when `type` is 'LoadBalancer'",
    });
  }

  // apiservice.ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with externalIPs.
  const external =
    type === 'NodePort' ||
    type === 'LoadBalancer' ||
    (type === 'ClusterIP' && s.externalIPs.length > 0);
  const etp = s.externalTrafficPolicy;
  if (etp && !external) {
    rep.field(etp.start, 'spec.externalTrafficPolicy', {
      type: 'invalid',
      value: etp.value,
      detail: 'may only be set for externally-accessible services',
    });
  } else if (etp && !POLICIES.includes(etp.value as TrafficPolicy)) {
    rep.field(etp.start, 'spec.externalTrafficPolicy', {
      type: 'notSupported',
      value: etp.value,
      supported: POLICIES,
    });
  }
  const needsHealthCheck = type === 'LoadBalancer' && etp?.value === 'Local';
  const hc = s.healthCheckNodePort;
  if (hc && hc.value !== 0 && !needsHealthCheck) {
    rep.field(hc.start, 'spec.healthCheckNodePort', {
      type: 'invalid',
      value: hc.value,
      detail:
        "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    });
  }
  const itp = s.internalTrafficPolicy;
  if (itp && !POLICIES.includes(itp.value as TrafficPolicy)) {
    rep.field(itp.start, 'spec.internalTrafficPolicy', {
      type: 'notSupported',
      value: itp.value,
      supported: POLICIES,
    });
  }
  if (s.ingress.length > 0 && type !== 'LoadBalancer') {
    rep.warn(
      s.specAnchor,
      'status.loadBalancer.ingress is ignored: the Service is not of type LoadBalancer',
    );
  }
  if (rep.errors > 0) return undefined;
  return {
    meta: s.meta,
    type,
    ...(clusterIP !== undefined ? { clusterIP } : {}),
    clusterIPLoc: { doc, offset: clusterIPAt },
    ports,
    ...(s.selector && Object.keys(s.selector.value).length > 0
      ? { selector: s.selector.value }
      : {}),
    externalIPs: s.externalIPs.map((f) => f.value),
    ...(type === 'ExternalName' && s.externalName ? { externalName: s.externalName.value } : {}),
    loadBalancerIngress: type === 'LoadBalancer' ? s.ingress : [],
    loadBalancerSourceRanges: s.loadBalancerSourceRanges.map((f) => f.value.trim()),
    // kube-proxy ignores the external policy of a Service nobody reaches from outside; the
    // model keeps the API's zero value as Cluster so consumers need no special case.
    externalTrafficPolicy: (etp?.value as TrafficPolicy | undefined) ?? 'Cluster',
    internalTrafficPolicy: (itp?.value as TrafficPolicy | undefined) ?? 'Cluster',
    sessionAffinity: affinity as 'None' | 'ClientIP',
    sessionAffinityTimeout: affinity === 'ClientIP' ? timeout : DEFAULT_AFFINITY_SECONDS,
    healthCheckNodePort: needsHealthCheck ? (hc?.value ?? 0) : 0,
    healthCheckNodePortLoc: { doc, offset: hc?.start ?? s.specAnchor },
    allocateLoadBalancerNodePorts:
      type === 'LoadBalancer' && (s.allocateLoadBalancerNodePorts?.value ?? true),
    publishNotReadyAddresses: s.publishNotReadyAddresses?.value ?? false,
  };
}

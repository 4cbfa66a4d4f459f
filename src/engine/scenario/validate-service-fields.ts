/**
 * The per-port and ClusterIP parts of ValidateService (validateServicePort,
 * ValidateServiceClusterIPsRelatedFields) and the port defaulting of SetDefaults_Service.
 */
import type { Protocol, ServiceType } from '../model/cluster';
import { PROTOCOLS } from './decode-pod';
import type { RawService } from './decode-service';
import type { ServicePortDraft } from './drafts';
import { dns1123Label, ipAddress, portName, portNum } from './validate-common';

export function validatePorts(s: RawService, type: ServiceType): ServicePortDraft[] {
  const rep = s.rep;
  const names = new Set<string>();
  return s.ports.map((p, i) => {
    const path = `spec.ports[${i}]`;
    const name = p.name?.value ?? '';
    if (s.ports.length > 1 && !name) rep.field(p.anchor, `${path}.name`, { type: 'required' });
    else if (name) {
      for (const msg of dns1123Label(name))
        rep.field(p.name?.start ?? p.anchor, `${path}.name`, {
          type: 'invalid',
          value: name,
          detail: msg,
        });
      if (names.has(name))
        rep.field(p.name?.start ?? p.anchor, `${path}.name`, { type: 'duplicate', value: name });
      names.add(name);
    }
    const port = p.port?.value ?? 0;
    for (const msg of portNum(port))
      rep.field(p.port?.start ?? p.anchor, `${path}.port`, {
        type: 'invalid',
        value: port,
        detail: msg,
      });
    const protocol = p.protocol?.value ?? 'TCP';
    if (!PROTOCOLS.includes(protocol as Protocol)) {
      rep.field(p.protocol?.start ?? p.anchor, `${path}.protocol`, {
        type: 'notSupported',
        value: protocol,
        supported: PROTOCOLS,
      });
    }
    // SetDefaults_Service: an unset (0 or "") targetPort is the port itself.
    const tp = p.targetPort?.value;
    const defaulted = tp === undefined || tp === 0 || tp === '';
    const targetPort = defaulted ? port : tp;
    const tpAt = (defaulted ? p.port?.start : p.targetPort?.start) ?? p.anchor;
    const tpErrs = typeof targetPort === 'number' ? portNum(targetPort) : portName(targetPort);
    for (const msg of tpErrs)
      rep.field(tpAt, `${path}.targetPort`, { type: 'invalid', value: targetPort, detail: msg });
    return {
      name,
      protocol: protocol as Protocol,
      port,
      targetPort,
      // ExternalName Services never get NodePorts; the registry drops any given.
      nodePort: type === 'ExternalName' ? 0 : (p.nodePort?.value ?? 0),
      nodePortLoc: { doc: rep.doc, offset: p.nodePort?.start ?? p.anchor },
    };
  });
}

export function validateClusterIPs(
  s: RawService,
  type: ServiceType,
  clusterIP: string | undefined,
  at: number,
): void {
  const rep = s.rep;
  if (type === 'ExternalName') return;
  const list = s.clusterIPs ?? [];
  if (s.clusterIP?.value && list.length > 0 && list[0]?.value !== s.clusterIP.value) {
    rep.field(s.clusterIPsAnchor, 'spec.clusterIPs', {
      type: 'invalid',
      value: list.map((f) => f.value),
      detail: 'first value must match `clusterIP`',
    });
  }
  if (list.length > 1) {
    rep.field(s.clusterIPsAnchor, 'spec.clusterIPs', {
      type: 'invalid',
      value: list.map((f) => f.value),
      detail: 'may specify no more than one IP for each IP family',
    });
  }
  if (clusterIP && clusterIP !== 'None') {
    for (const msg of ipAddress(clusterIP))
      rep.field(at, 'spec.clusterIPs[0]', { type: 'invalid', value: clusterIP, detail: msg });
  }
  s.ipFamilies.forEach((f, i) => {
    if (f.value === 'IPv6') {
      rep.field(f.start, `spec.ipFamilies[${i}]`, {
        type: 'invalid',
        value: f.value,
        detail: 'not configured on this cluster (the lab models an IPv4 single-stack cluster)',
      });
    } else if (f.value !== 'IPv4') {
      rep.field(f.start, `spec.ipFamilies[${i}]`, {
        type: 'notSupported',
        value: f.value,
        supported: ['IPv4', 'IPv6'],
      });
    }
  });
  const policy = s.ipFamilyPolicy;
  const policies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
  if (policy && !policies.includes(policy.value)) {
    rep.field(policy.start, 'spec.ipFamilyPolicy', {
      type: 'notSupported',
      value: policy.value,
      supported: policies,
    });
  } else if (policy?.value === 'RequireDualStack') {
    rep.field(policy.start, 'spec.ipFamilyPolicy', {
      type: 'invalid',
      value: policy.value,
      detail: 'this cluster is not configured for dual-stack services',
    });
  }
}

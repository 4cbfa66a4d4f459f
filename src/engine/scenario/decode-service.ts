/**
 * v1 Service: reads the manifest into positioned raw fields; validate-service.ts applies the
 * API server's defaulting and validation to them.
 */
import type { LoadBalancerIngress } from '../model/cluster';
import { decodeMeta } from './decode-meta';
import type { MetaDraft, ServiceDraft } from './drafts';
import { listMaps } from './reader';
import type { Field, MapReader } from './reader';
import type { ObjectReport } from './report';
import { dns1035Label, ipAddress } from './validate-common';
import { validateService } from './validate-service';

export interface RawServicePort {
  readonly path: string;
  readonly anchor: number;
  readonly name?: Field<string>;
  readonly protocol?: Field<string>;
  readonly port?: Field<number>;
  readonly targetPort?: Field<number | string>;
  readonly nodePort?: Field<number>;
}

export interface RawService {
  readonly rep: ObjectReport;
  readonly meta: MetaDraft;
  readonly specAnchor: number;
  readonly type?: Field<string>;
  readonly clusterIP?: Field<string>;
  readonly clusterIPs?: ReadonlyArray<Field<string>>;
  readonly clusterIPsAnchor: number;
  readonly ports: readonly RawServicePort[];
  readonly portsAnchor: number;
  readonly selector?: Field<Record<string, string>>;
  readonly externalIPs: ReadonlyArray<Field<string>>;
  readonly externalName?: Field<string>;
  readonly externalNameAnchor: number;
  readonly sessionAffinity?: Field<string>;
  readonly sessionAffinityConfig?: { readonly anchor: number; readonly timeout?: Field<number> };
  readonly externalTrafficPolicy?: Field<string>;
  readonly internalTrafficPolicy?: Field<string>;
  readonly healthCheckNodePort?: Field<number>;
  readonly loadBalancerSourceRanges: ReadonlyArray<Field<string>>;
  readonly loadBalancerSourceRangesAnchor: number;
  readonly allocateLoadBalancerNodePorts?: Field<boolean>;
  readonly publishNotReadyAddresses?: Field<boolean>;
  readonly ipFamilies: ReadonlyArray<Field<string>>;
  readonly ipFamilyPolicy?: Field<string>;
  readonly ingress: readonly LoadBalancerIngress[];
}

export function decodeService(root: MapReader): ServiceDraft | undefined {
  const rep = root.rep;
  const meta = decodeMeta(root, { namespaced: true, nameRule: dns1035Label });
  const spec = root.map('spec');
  const specAnchor = spec?.anchor ?? root.anchor;
  const ports: RawServicePort[] = listMaps(rep, spec?.list('ports')).map((p) => {
    const raw: RawServicePort = {
      path: p.path,
      anchor: p.anchor,
      ...opt('name', p.str('name')),
      ...opt('protocol', p.str('protocol')),
      ...opt('port', p.int('port')),
      ...opt('targetPort', p.intOrString('targetPort')),
      ...opt('nodePort', p.int('nodePort')),
    };
    p.ignore('appProtocol');
    p.finish();
    return raw;
  });
  const affinityConfig = spec?.map('sessionAffinityConfig');
  const clientIP = affinityConfig?.map('clientIP');
  const timeout = clientIP?.int('timeoutSeconds');
  clientIP?.finish();
  affinityConfig?.finish();

  const raw: RawService = {
    rep,
    meta,
    specAnchor,
    ...opt('type', spec?.str('type')),
    ...opt('clusterIP', spec?.str('clusterIP')),
    ...opt('clusterIPs', spec?.strList('clusterIPs')),
    clusterIPsAnchor: spec?.keyStart('clusterIPs') ?? specAnchor,
    ports,
    portsAnchor: spec?.keyStart('ports') ?? specAnchor,
    ...opt('selector', spec?.strMap('selector')),
    externalIPs: spec?.strList('externalIPs') ?? [],
    ...opt('externalName', spec?.str('externalName')),
    externalNameAnchor: spec?.keyStart('externalName') ?? specAnchor,
    ...opt('sessionAffinity', spec?.str('sessionAffinity')),
    ...(affinityConfig
      ? { sessionAffinityConfig: { anchor: affinityConfig.anchor, ...opt('timeout', timeout) } }
      : {}),
    ...opt('externalTrafficPolicy', spec?.str('externalTrafficPolicy')),
    ...opt('internalTrafficPolicy', spec?.str('internalTrafficPolicy')),
    ...opt('healthCheckNodePort', spec?.int('healthCheckNodePort')),
    loadBalancerSourceRanges: spec?.strList('loadBalancerSourceRanges') ?? [],
    loadBalancerSourceRangesAnchor: spec?.keyStart('loadBalancerSourceRanges') ?? specAnchor,
    ...opt('allocateLoadBalancerNodePorts', spec?.bool('allocateLoadBalancerNodePorts')),
    ...opt('publishNotReadyAddresses', spec?.bool('publishNotReadyAddresses')),
    ipFamilies: spec?.strList('ipFamilies') ?? [],
    ...opt('ipFamilyPolicy', spec?.str('ipFamilyPolicy')),
    ingress: decodeIngress(rep, root),
  };
  spec?.ignore('loadBalancerIP', 'loadBalancerClass', 'trafficDistribution');
  spec?.finish();
  root.finish();
  return validateService(raw);
}

function decodeIngress(rep: ObjectReport, root: MapReader): LoadBalancerIngress[] {
  const status = root.map('status');
  const lb = status?.map('loadBalancer');
  const out: LoadBalancerIngress[] = [];
  for (const ing of listMaps(rep, lb?.list('ingress'))) {
    const ip = ing.str('ip');
    const ipMode = ing.str('ipMode');
    ing.ignore('hostname', 'ports');
    ing.finish();
    if (ip) {
      for (const msg of ipAddress(ip.value)) {
        rep.field(ip.start, `${ing.path}.ip`, { type: 'invalid', value: ip.value, detail: msg });
      }
    }
    if (ipMode && !ip) {
      rep.field(ipMode.start, `${ing.path}.ipMode`, {
        type: 'forbidden',
        detail: 'may not be specified when `ip` is not set',
      });
    } else if (ipMode && ipMode.value !== 'VIP' && ipMode.value !== 'Proxy') {
      rep.field(ipMode.start, `${ing.path}.ipMode`, {
        type: 'notSupported',
        value: ipMode.value,
        supported: ['Proxy', 'VIP'],
      });
    }
    // A hostname-only ingress (some cloud LBs) gives kube-proxy nothing to program.
    // ipMode defaults to VIP when ip is set (LoadBalancerIPMode, GA in 1.32).
    if (ip) out.push({ ip: ip.value, ipMode: ipMode?.value === 'Proxy' ? 'Proxy' : 'VIP' });
  }
  lb?.finish();
  status?.ignore('conditions');
  status?.finish();
  return out;
}

/** `{ key: value }` when value is defined, `{}` otherwise (exactOptionalPropertyTypes). */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

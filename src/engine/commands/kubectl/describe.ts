/**
 * `kubectl describe service` (kubectl pkg/describe/describe.go describeService): `Key:\tvalue`
 * lines through tabwriter(minwidth 0, tabwidth 8, padding 2), the Endpoints line from the
 * service's EndpointSlices (formatEndpointSlices: ready endpoints only, `ip:port` per matching
 * port name, at most 3 then ` + N more...`), and `Events:  <none>` (the lab records no events).
 * Several services are separated by a blank line.
 */
import type { Cluster, Service } from '../../model/cluster';
import type { CommandResult } from '../registry';
import { endpointsObjects, type EndpointsObject } from './endpoints';
import { formatLabels } from './format';
import { resolveResourceType } from './resources';
import { DESCRIBE_TABWRITER, tabwrite } from './tabwriter';
import { unmodelledTypeNote } from './unmodelled-types';
import { labNote } from '../../model/lab-notes';

function multiline(
  title: string,
  values: Readonly<Record<string, string>>,
  separator: string,
): string {
  const keys = Object.keys(values)
    .filter((k) => k !== 'kubectl.kubernetes.io/last-applied-configuration')
    .sort();
  if (keys.length === 0) return `${title}:\t<none>\n`;
  return keys
    .map((k, i) => {
      const value = (values[k] ?? '').replace(/\n$/, '');
      const head = i === 0 ? `${title}:\t` : '\t';
      if (separator === ': ' && (value.length + k.length + 2 > 140 || value.includes('\n'))) {
        return `${head}${k}:\n${value
          .split('\n')
          .map((s) => `\t  ${s.length > 138 ? `${s.slice(0, 138)}...` : s}\n`)
          .join('')}`;
      }
      return `${head}${k}${separator}${value}\n`;
    })
    .join('');
}

function endpointsFor(cluster: Cluster, svc: Service, portName: string): string {
  const slices = cluster.endpointSlices.filter(
    (s) => s.meta.namespace === svc.meta.namespace && s.serviceName === svc.meta.name,
  );
  if (slices.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  for (const slice of slices) {
    for (const port of slice.ports) {
      if (port.name !== portName) continue;
      for (const ep of slice.endpoints) {
        if (!ep.conditions.ready) continue;
        if (list.length < 3) list.push(`${ep.addresses[0] ?? ''}:${port.port}`);
        count++;
      }
    }
  }
  return count > 3 ? `${list.join(',')} + ${count - 3} more...` : list.join(',');
}

export function describeService(cluster: Cluster, svc: Service): string {
  let s = `Name:\t${svc.meta.name}\nNamespace:\t${svc.meta.namespace}\n`;
  s += multiline('Labels', svc.meta.labels, '=');
  s += multiline('Annotations', svc.meta.annotations, ': ');
  s += `Selector:\t${formatLabels(svc.selector)}\nType:\t${svc.type}\n`;
  if (svc.type !== 'ExternalName') s += 'IP Family Policy:\tSingleStack\nIP Families:\tIPv4\n';
  else s += 'IP Families:\t<none>\n';
  s += `IP:\t${svc.type === 'ExternalName' ? '' : svc.clusterIP}\n`;
  s += `IPs:\t${svc.type === 'ExternalName' ? '<none>' : svc.clusterIP}\n`;
  if (svc.externalIPs.length > 0) s += `External IPs:\t${svc.externalIPs.join(',')}\n`;
  if (svc.externalName !== undefined && svc.externalName !== '')
    s += `External Name:\t${svc.externalName}\n`;
  if (svc.loadBalancerIngress.length > 0) {
    s += `LoadBalancer Ingress:\t${svc.loadBalancerIngress.map((i) => `${i.ip} (${i.ipMode ?? 'VIP'})`).join(', ')}\n`;
  }
  for (const p of svc.ports) {
    const name = p.name === '' ? '<unset>' : p.name;
    s += `Port:\t${name}\t${p.port}/${p.protocol}\n`;
    s += `TargetPort:\t${p.targetPort}/${p.protocol}\n`;
    if (p.nodePort !== 0) s += `NodePort:\t${name}\t${p.nodePort}/${p.protocol}\n`;
    s += `Endpoints:\t${endpointsFor(cluster, svc, p.name)}\n`;
  }
  s += `Session Affinity:\t${svc.sessionAffinity}\n`;
  if (svc.type === 'NodePort' || svc.type === 'LoadBalancer')
    s += `External Traffic Policy:\t${svc.externalTrafficPolicy}\n`;
  if (svc.type !== 'ExternalName') s += `Internal Traffic Policy:\t${svc.internalTrafficPolicy}\n`;
  if (svc.healthCheckNodePort !== 0) s += `HealthCheck NodePort:\t${svc.healthCheckNodePort}\n`;
  if (svc.loadBalancerSourceRanges.length > 0)
    s += `LoadBalancer Source Ranges:\t${svc.loadBalancerSourceRanges.join(',')}\n`;
  s += 'Events:\t<none>\n';
  return tabwrite(s, DESCRIBE_TABWRITER);
}

export function runDescribe(
  cluster: Cluster,
  namespace: string,
  args: readonly string[],
): CommandResult {
  if (args.length === 0) {
    return {
      stdout: '',
      stderr:
        'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n',
      exitCode: 1,
    };
  }
  let typed = args[0] ?? '';
  let names = args.slice(1);
  if (typed.includes('/')) {
    names = [typed.slice(typed.indexOf('/') + 1), ...names];
    typed = typed.slice(0, typed.indexOf('/'));
  }
  const type = resolveResourceType(typed);
  if (type === undefined)
    return {
      stdout: '',
      stderr:
        unmodelledTypeNote('describe', typed) ??
        `error: the server doesn't have a resource type "${typed}"\n`,
      exitCode: 1,
    };
  const describers: Readonly<Record<string, () => readonly Described[]>> = {
    services: () => cluster.services.map((svc) => ({ meta: svc.meta, text: () => describeService(cluster, svc) })), // prettier-ignore
    endpoints: () => endpointsObjects(cluster).map((ep) => ({ meta: ep.service.meta, text: () => describeEndpoints(ep) })), // prettier-ignore
  };
  const describer = describers[type.resource];
  if (describer === undefined) {
    return {
      stdout: '',
      stderr: labNote('kubectl.describe', { type: type.resource }),
      exitCode: 1,
    };
  }
  const inNs = describer()
    .filter((d) => d.meta.namespace === namespace)
    .sort((a, b) => (a.meta.name < b.meta.name ? -1 : 1));
  const chosen: Described[] = [];
  let stderr = '';
  if (names.length === 0) for (const object of inNs) chosen.push(object);
  for (const n of names) {
    const d = inNs.find((x) => x.meta.name === n);
    if (d === undefined)
      stderr += `Error from server (NotFound): ${type.resource} "${n}" not found\n`;
    else chosen.push(d);
  }
  if (names.length === 0 && chosen.length === 0)
    return { stdout: '', stderr: `No resources found in ${namespace} namespace.\n`, exitCode: 0 };
  const stdout = chosen.map((d) => d.text()).join('\n\n');
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

interface Described {
  readonly meta: { readonly name: string; readonly namespace: string };
  text(): string;
}

/**
 * describeEndpoints: each subset's ready and not-ready addresses (`<none>` when empty) and its
 * ports (`<unset>` for an unnamed one), a blank line after each subset.
 */
function describeEndpoints(ep: EndpointsObject): string {
  let s = `Name:\t${ep.service.meta.name}\nNamespace:\t${ep.service.meta.namespace}\n`;
  s += multiline('Labels', ep.labels, '=');
  s += multiline('Annotations', ep.annotations, ': ');
  s += 'Subsets:\n';
  for (const subset of ep.subsets) {
    const list = (a: readonly { ip: string }[]) => a.map((x) => x.ip).join(',') || '<none>';
    s += `  Addresses:\t${list(subset.addresses)}\n`;
    s += `  NotReadyAddresses:\t${list(subset.notReadyAddresses)}\n`;
    if (subset.ports.length > 0) {
      s += '  Ports:\n    Name\tPort\tProtocol\n    ----\t----\t--------\n';
      for (const p of subset.ports) s += `    ${p.name || '<unset>'}\t${p.port}\t${p.protocol}\n`;
    }
    s += '\n';
  }
  s += 'Events:\t<none>\n';
  return tabwrite(s, DESCRIBE_TABWRITER);
}

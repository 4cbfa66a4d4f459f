/**
 * `kubectl expose deployment|pod|service NAME`: a new Service from an object's selector and
 * ports, as kubectl v1.30–v1.32 builds it (pkg/cmd/expose/expose.go createService, with
 * polymorphichelpers' selector, ports and protocols for the object), then created through the
 * API server (the lab's apply: its validation, allocation and controllers).
 *
 * - Selector: `--selector`, else a Deployment's matchLabels, a Pod's labels, a Service's
 *   selector. Labels: `--labels`, else the exposed object's own metadata.labels.
 * - Ports: `--port` (comma-separated), else every containerPort of every container (numbers
 *   once), or a Service's ports. One port is unnamed; several are `port-1`, `port-2`…; a
 *   number with two protocols becomes `port-N-tcp` and `port-N-udp`. targetPort is
 *   `--target-port` for every port, else the port itself. Protocol: `--protocol`, else the
 *   containerPort's, else TCP.
 * - Prints `service/NAME exposed`; the API server's refusals as kubectl prints them.
 */
import type { Cluster, Protocol } from '../../model/cluster';
import { labNote } from '../../model/lab-notes';
import type { CommandContext, CommandResult } from '../registry';
import { apiErrorsText } from './apply';
import { notFound, targets } from './workloads';

export interface ExposeFlags {
  readonly port?: string | undefined;
  readonly targetPort?: string | undefined;
  readonly protocol?: string | undefined;
  readonly name?: string | undefined;
  readonly type?: string | undefined;
  readonly externalIP?: string | undefined;
  readonly selector?: string | undefined;
  readonly labels?: string | undefined;
  readonly sessionAffinity?: string | undefined;
  readonly clusterIP?: string | undefined;
  /** A flag kubectl has that the lab does not model (`--dry-run`, `-o`…). */
  readonly unmodelled?: string | undefined;
}

const fail = (message: string): CommandResult => ({ stdout: '', stderr: message, exitCode: 1 });

interface Source {
  readonly labels: Readonly<Record<string, string>>;
  readonly selector: Readonly<Record<string, string>> | string;
  /** [port, protocol] in the order the object lists them. */
  readonly ports: readonly (readonly [number, Protocol])[];
}

/** What kubectl reads from the object (polymorphichelpers), or the reason it cannot. */
function source(
  cluster: Cluster,
  kind: string,
  namespace: string,
  name: string,
): Source | undefined {
  // prettier-ignore
  const inNs = <T extends { meta: { namespace: string; name: string } }>(list: readonly T[]) =>
    list.find((o) => o.meta.namespace === namespace && o.meta.name === name);
  const containerPorts = (
    cs: readonly { ports: readonly { containerPort: number; protocol: Protocol }[] }[],
  ) =>
    // prettier-ignore
    cs.flatMap((c) => c.ports.map((p) => [p.containerPort, p.protocol] as const));
  if (kind === 'Deployment') {
    const d = inNs(cluster.deployments);
    if (d === undefined) return undefined;
    const pod = cluster.pods.find((p) => p.meta.namespace === namespace && p.ownerDeployment === name); // prettier-ignore
    const containers = d.podTemplate?.containers ?? pod?.containers ?? [];
    const selector = Object.keys(d.selector).length === 0 ? 'invalid deployment: no selectors, therefore cannot be exposed' : d.selector; // prettier-ignore
    return { labels: d.meta.labels, selector, ports: containerPorts(containers) };
  }
  if (kind === 'Pod') {
    const p = inNs(cluster.pods);
    if (p === undefined) return undefined;
    const selector = Object.keys(p.meta.labels).length === 0 ? 'the pod has no labels and cannot be exposed' : p.meta.labels; // prettier-ignore
    return { labels: p.meta.labels, selector, ports: containerPorts(p.containers) };
  }
  const s = inNs(cluster.services);
  if (s === undefined) return undefined;
  const selector = s.selector === undefined || Object.keys(s.selector).length === 0 ? 'the service has no pod selector set' : s.selector; // prettier-ignore
  return { labels: s.meta.labels, selector, ports: s.ports.map((p) => [p.port, p.protocol] as const) }; // prettier-ignore
}

/** `k=v,k2=v2` as kubectl's --labels / --selector take it; undefined when malformed. */
function labelMap(spec: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of spec.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

/** Go's strconv.Atoi: an optional sign and decimal digits. */
function atoi(text: string): number | CommandResult {
  if (!/^[+-]?\d+$/.test(text) || Math.abs(Number(text)) > 2 ** 63)
    return fail(`error: strconv.Atoi: parsing ${JSON.stringify(text)}: ${/^[+-]?\d+$/.test(text) ? 'value out of range' : 'invalid syntax'}\n`); // prettier-ignore
  return Number(text);
}

interface PortSpec {
  name?: string;
  port: number;
  protocol: Protocol;
  targetPort: number | string;
}

/** The Service's ports (createService). */
function servicePorts(flags: ExposeFlags, src: Source): PortSpec[] | CommandResult {
  let numbers: number[];
  if (flags.port !== undefined && flags.port !== '') {
    numbers = [];
    for (const text of flags.port.split(',')) {
      const n = atoi(text);
      if (typeof n !== 'number') return n;
      numbers.push(n);
    }
  } else numbers = [...new Set(src.ports.map(([n]) => n))];
  const protocols = new Map<number, Protocol[]>();
  for (const [n, proto] of src.ports) {
    const list = protocols.get(n) ?? [];
    if (!list.includes(proto)) list.push(proto);
    protocols.set(n, list);
  }
  const target = flags.targetPort;
  const targetPort = (port: number): number | string =>
    target === undefined || target === '' ? port : /^-?\d+$/.test(target) ? Number(target) : target; // prettier-ignore
  const ports: PortSpec[] = [];
  numbers.forEach((port, i) => {
    const name = numbers.length > 1 ? `port-${i + 1}` : undefined;
    const given = flags.protocol !== undefined && flags.protocol !== '' ? [flags.protocol as Protocol] : undefined; // prettier-ignore
    const found = given ?? protocols.get(port) ?? ['TCP'];
    for (const protocol of found) {
      const split = found.length > 1 ? `port-${i + 1}-${protocol.toLowerCase()}` : name;
      ports.push({ ...(split !== undefined ? { name: split } : {}), port, protocol, targetPort: targetPort(port) }); // prettier-ignore
    }
  });
  return ports;
}

export function runExpose(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  flags: ExposeFlags,
): CommandResult {
  if (flags.unmodelled !== undefined)
    return fail(labNote('kubectl.unmodelled', { what: `expose ${flags.unmodelled}` }));
  const found = targets(args);
  if ('exitCode' in found) return found;
  let stdout = '';
  let stderr = '';
  for (const { type, name } of found) {
    if (!['Deployment', 'Pod', 'Service'].includes(type.kind)) {
      stderr += `error: cannot expose a ${type.group === '' ? type.kind : `${type.kind}.${type.group}`}\n`; // prettier-ignore
      continue;
    }
    const src = source(ctx.world.cluster, type.kind, namespace, name);
    if (src === undefined) {
      stderr += notFound(type, name);
      continue;
    }
    const made = createService(ctx, namespace, name, flags, src);
    stdout += made.stdout;
    stderr += made.stderr;
  }
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

function createService(
  ctx: CommandContext,
  namespace: string,
  from: string,
  flags: ExposeFlags,
  src: Source,
): CommandResult {
  const given = flags.selector !== undefined && flags.selector !== '' ? labelMap(flags.selector) : src.selector; // prettier-ignore
  if (given === undefined) return fail(`error: unexpected label spec: ${flags.selector ?? ''}\n`); // prettier-ignore
  if (typeof given === 'string')
    return fail(`error: couldn't retrieve selectors via --selector flag or introspection: ${given}\n`); // prettier-ignore
  const labels = flags.labels !== undefined && flags.labels !== '' ? labelMap(flags.labels) : src.labels; // prettier-ignore
  if (labels === undefined) return fail(`error: unexpected label spec: ${flags.labels ?? ''}\n`);
  const affinity = flags.sessionAffinity;
  if (affinity !== undefined && affinity !== '' && affinity !== 'None' && affinity !== 'ClientIP')
    return fail(`error: unknown session affinity: ${affinity}\n`);
  const ports = servicePorts(flags, src);
  if (!Array.isArray(ports)) return ports;
  if (ports.length === 0 && flags.clusterIP !== 'None')
    return fail("error: couldn't find port via --port flag or introspection\n");
  const name = flags.name !== undefined && flags.name !== '' ? flags.name : from.slice(0, 63);
  if (
    ctx.world.cluster.services.some((s) => s.meta.namespace === namespace && s.meta.name === name)
  )
    // prettier-ignore
    return fail(`Error from server (AlreadyExists): services "${name}" already exists\n`);
  const spec: Record<string, unknown> = { ports, selector: given };
  if (flags.type !== undefined && flags.type !== '') spec.type = flags.type;
  if (flags.externalIP !== undefined && flags.externalIP !== '') spec.externalIPs = [flags.externalIP]; // prettier-ignore
  if (affinity !== undefined && affinity !== '') spec.sessionAffinity = affinity;
  if (flags.clusterIP !== undefined && flags.clusterIP !== '') spec.clusterIP = flags.clusterIP;
  const metadata = { name, namespace, ...(Object.keys(labels).length > 0 ? { labels } : {}) };
  // JSON is YAML: the object goes to the API server as `kubectl apply` sends one.
  const object = { apiVersion: 'v1', kind: 'Service', metadata, spec };
  const result = ctx.world.applyManifests(JSON.stringify(object));
  if (result.errors.length > 0) return fail(apiErrorsText(result.errors));
  return { stdout: `service/${name} exposed\n`, stderr: '', exitCode: 0 };
}

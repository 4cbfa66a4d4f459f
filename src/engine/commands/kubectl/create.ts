/**
 * `kubectl create deployment NAME --image=IMAGE [--replicas=N] [--port=P]` and
 * `kubectl create service clusterip|nodeport|loadbalancer|externalname NAME [--tcp=P[:T]]…`,
 * as kubectl v1.30–v1.32 builds the objects (pkg/cmd/create/create_deployment.go,
 * create_service.go) and the API server creates them (the lab's apply: validation,
 * allocation, the controllers; kube-proxy follows).
 *
 * - Deployment: labels, selector and template labels `app: NAME`; one container per image,
 *   named after the image (last path element, tag and digest cut; `_` or `.` become `-` with
 *   a suffix, which kubectl draws at random and the lab derives from the seed); `--port` on
 *   the first container only.
 * - Service: labels and selector `app: NAME`; one TCP port per `--tcp`, named after it (`80-8080`).
 */
import { generatedSuffix } from '../../scenario/hash';
import { labNote } from '../../model/lab-notes';
import type { CommandContext, CommandResult } from '../registry';

export interface CreateFlags {
  readonly images: readonly string[];
  readonly replicas?: string | undefined;
  readonly port?: string | undefined;
  readonly tcp: readonly string[];
  readonly clusterIP?: string | undefined;
  readonly nodePort?: string | undefined;
  readonly externalName?: string | undefined;
  /** The flags given, to refuse those the subcommand does not have (cobra: unknown flag). */
  readonly given: ReadonlySet<string>;
  /** A flag kubectl has that the lab does not model (`-f`, `--dry-run`, `-o`…). */
  readonly unmodelled?: string | undefined;
}

const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });
const created = (what: string): CommandResult => ({ stdout: `${what} created\n`, stderr: '', exitCode: 0 }); // prettier-ignore

/** Each subcommand's own flags (the rest are cobra's "unknown flag"). */
const OWN: Readonly<Record<string, readonly string[]>> = {
  deployment: ['image', 'replicas', 'port'],
  clusterip: ['tcp', 'clusterip'],
  nodeport: ['tcp', 'node-port'],
  loadbalancer: ['tcp'],
  externalname: ['tcp', 'external-name'],
};
const ALL = ['image', 'replicas', 'port', 'tcp', 'clusterip', 'node-port', 'external-name'];
const SERVICE_TYPES: Readonly<Record<string, string>> = {
  clusterip: 'ClusterIP',
  nodeport: 'NodePort',
  loadbalancer: 'LoadBalancer',
  externalname: 'ExternalName',
};

/** The API server's Invalid, as `create` wraps it: `Kind "name" is invalid: cause` or `[a, b]`. */
function invalid(errors: readonly string[], kind: string, name: string): string {
  const causes = errors.map((e) => e.replace(/\n$/, '').replace(/^The \S+ "[^"]*" is invalid: /, '')); // prettier-ignore
  const text = causes.length === 1 ? causes[0]! : `[${causes.join(', ')}]`;
  return `${kind} "${name}" is invalid: ${text}`;
}

/** pflag's Int32 flag parsing error, as cobra prints it. */
function intFlag(value: string | undefined, flag: string, sub: string): number | CommandResult {
  if (value === undefined) return NaN;
  if (/^[+-]?\d+$/.test(value) && Math.abs(Number(value)) <= 2147483647) return Number(value);
  const why = /^[+-]?\d+$/.test(value) ? 'value out of range' : 'invalid syntax';
  return fail(`error: invalid argument "${value}" for "${flag}" flag: strconv.ParseInt: parsing "${value}": ${why}\nSee 'kubectl create ${sub} --help' for usage.\n`); // prettier-ignore
}

/** The container name kubectl derives from an image. */
function containerName(image: string, seed: string): string {
  let name = image.slice(image.lastIndexOf('/') + 1);
  name = name.split(':')[0]!.split('@')[0]!;
  if (!/[_.]/.test(name)) return name;
  return `${name.replace(/[_.]/g, '-')}-${generatedSuffix(seed, 0)}`;
}

export function runCreate(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  flags: CreateFlags,
): CommandResult {
  const [what, ...rest] = args;
  if (flags.unmodelled !== undefined)
    return fail(labNote('kubectl.unmodelled', { what: `create ${flags.unmodelled}` }));
  const kind = what === 'deploy' ? 'deployment' : what === 'svc' ? 'service' : what;
  if (kind === 'deployment') return createDeployment(ctx, namespace, rest, flags);
  if (kind === 'service' && rest[0] !== undefined && rest[0] in SERVICE_TYPES)
    return createService(ctx, namespace, rest[0], rest.slice(1), flags);
  const named = what === undefined ? 'create' : kind === 'service' && rest[0] !== undefined ? `create service ${rest[0]}` : `create ${what}`; // prettier-ignore
  return fail(labNote('kubectl.unmodelled', { what: named }));
}

function unknownFlag(
  flags: CreateFlags,
  sub: string,
  own: readonly string[],
): CommandResult | undefined {
  // prettier-ignore
  const other = ALL.find((f) => flags.given.has(f) && !own.includes(f));
  if (other === undefined) return undefined;
  return fail(`error: unknown flag: --${other}\nSee 'kubectl create ${sub} --help' for usage.\n`);
}

function createDeployment(
  ctx: CommandContext,
  namespace: string,
  names: readonly string[],
  flags: CreateFlags,
): CommandResult {
  const bad = unknownFlag(flags, 'deployment', OWN.deployment!);
  if (bad !== undefined) return bad;
  if (flags.images.length === 0) return fail('error: required flag(s) "image" not set\n');
  const replicas = intFlag(flags.replicas, '-r, --replicas', 'deployment');
  if (typeof replicas !== 'number') return replicas;
  const port = intFlag(flags.port, '--port', 'deployment');
  if (typeof port !== 'number') return port;
  if (names.length !== 1)
    return fail(`error: exactly one NAME is required, got ${names.length}\nSee 'kubectl create deployment -h' for help and examples\n`); // prettier-ignore
  const name = names[0]!;
  if (
    ctx.world.cluster.deployments.some(
      (d) => d.meta.namespace === namespace && d.meta.name === name,
    )
  )
    // prettier-ignore
    return fail(`error: failed to create deployment: deployments.apps "${name}" already exists\n`);
  const labels = { app: name };
  const containers = flags.images.map((image, i) => ({
    name: containerName(image, `${namespace}/${name}/${image}`),
    image,
    ...(i === 0 && port >= 0 ? { ports: [{ containerPort: port }] } : {}),
  }));
  const object = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels },
    spec: {
      replicas: Number.isNaN(replicas) ? 1 : replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers } },
    },
  };
  const result = ctx.world.applyManifests(JSON.stringify(object));
  if (result.errors.length > 0)
    return fail(`error: failed to create deployment: ${invalid(result.errors, 'Deployment.apps', name)}\n`); // prettier-ignore
  return created(`deployment.apps/${name}`);
}

/** One `--tcp` spec (create_service.go parsePorts): port, then a number or a port name. */
function tcpPort(spec: string): Record<string, number | string> | CommandResult {
  const [portText = '', target] = spec.split(':');
  const uint = /^\d+$/.test(portText) ? Number(portText) : NaN;
  if (Number.isNaN(uint) || uint > 65535)
    return fail(`error: strconv.ParseUint: parsing ${JSON.stringify(portText)}: ${Number.isNaN(uint) ? 'invalid syntax' : 'value out of range'}\n`); // prettier-ignore
  let targetPort: number | string = uint;
  if (target !== undefined) {
    if (/^\d+$/.test(target)) {
      targetPort = Number(target);
      if (targetPort < 1 || targetPort > 65535)
        return fail('error: must be between 1 and 65535, inclusive\n');
    } else {
      // validation.IsValidPortName's messages, joined.
      const why: string[] = [];
      if (target.length > 15) why.push('must be no more than 15 characters');
      if (!/^[-a-z0-9]*$/.test(target)) why.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'); // prettier-ignore
      if (!/[a-z]/.test(target)) why.push('must contain at least one letter (a-z)');
      if (target.includes('--')) why.push('must not contain consecutive hyphens');
      if (/^-|-$/.test(target)) why.push('must not begin or end with a hyphen');
      if (why.length > 0) return fail(`error: ${why.join(', ')}\n`);
      targetPort = target;
    }
  }
  return { name: spec.replace(/:/g, '-'), port: uint, protocol: 'TCP', targetPort };
}

function createService(
  ctx: CommandContext,
  namespace: string,
  sub: string,
  names: readonly string[],
  flags: CreateFlags,
): CommandResult {
  const command = `service ${sub}`;
  const bad = unknownFlag(flags, command, OWN[sub]!);
  if (bad !== undefined) return bad;
  const type = SERVICE_TYPES[sub]!;
  if (sub === 'externalname' && flags.externalName === undefined)
    return fail('error: required flag(s) "external-name" not set\n');
  const nodePort = intFlag(flags.nodePort, '--node-port', command);
  if (typeof nodePort !== 'number') return nodePort;
  if (names.length !== 1)
    return fail(`error: exactly one NAME is required, got ${names.length}\nSee 'kubectl create ${command} -h' for help and examples\n`); // prettier-ignore
  const name = names[0]!;
  const headless = flags.clusterIP === 'None';
  if (flags.tcp.length === 0 && sub !== 'externalname' && !headless)
    return fail('error: at least one tcp port specifier must be provided\n');
  const external = flags.externalName;
  if (
    external !== undefined &&
    !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(external)
  )
    // prettier-ignore
    return fail(`error: invalid service external name ${external}\n`);
  const ports: Record<string, number | string>[] = [];
  for (const spec of flags.tcp.flatMap((t) => t.split(','))) {
    const p = tcpPort(spec);
    if ('exitCode' in p) return p as CommandResult;
    ports.push({ ...p, ...(Number.isNaN(nodePort) || nodePort === 0 ? {} : { nodePort }) });
  }
  if (
    ctx.world.cluster.services.some((s) => s.meta.namespace === namespace && s.meta.name === name)
  )
    // prettier-ignore
    return fail(`error: failed to create ${type} service: services "${name}" already exists\n`);
  const labels = { app: name };
  const spec: Record<string, unknown> = { type, selector: labels, ...(ports.length > 0 ? { ports } : {}) }; // prettier-ignore
  if (flags.clusterIP !== undefined && flags.clusterIP !== '') spec.clusterIP = flags.clusterIP;
  if (external !== undefined) spec.externalName = external;
  const object = { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace, labels }, spec };
  const result = ctx.world.applyManifests(JSON.stringify(object));
  if (result.errors.length > 0)
    return fail(`error: failed to create ${type} service: ${invalid(result.errors, 'Service', name)}\n`); // prettier-ignore
  return created(`service/${name}`);
}

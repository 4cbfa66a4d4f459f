/**
 * `kubectl patch service NAME -p PATCH [--type strategic|merge|json]`, as kubectl v1.30–v1.32
 * sends it (pkg/cmd/patch/patch.go) and the API server applies it to the Service it holds:
 *
 * - the patch is JSON, or YAML turned into JSON (kubectl's yaml.ToJSON);
 * - strategic (the default): maps merge key by key, `null` deletes a key, `spec.ports` merge
 *   by `port` (k8s.io/api core/v1 `patchMergeKey:"port"`; `$patch: delete` removes one),
 *   other lists are replaced; merge (RFC 7386): the same without merge keys, lists replaced;
 *   json (RFC 6902): add, remove, replace, move, copy and test on JSON pointers;
 * - the result goes through the API server's validation (the lab's apply), so an invalid one is
 *   refused in its words and the Service stays; `service/web patched`, or `patched (no change)`
 *   when the object is the same afterwards.
 *
 * Where the API server's or go-yaml's exact words for a malformed patch are not modelled, the
 * lab says so.
 */
import { parse as parseYaml } from 'yaml';
import { labNote } from '../../model/lab-notes';
import type { CommandContext, CommandResult } from '../registry';
import { apiErrorsText } from './apply';
import { serviceObject } from './objects';
import { notFound, targets } from './workloads';
import type { Json } from './yaml';

export interface PatchFlags {
  readonly patch?: string | undefined;
  readonly patchFile?: string | undefined;
  readonly type?: string | undefined;
  /** A flag kubectl has that the lab does not model (`--dry-run`, `-o`, `--local`…). */
  readonly unmodelled?: string | undefined;
}

const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });

class PatchError {
  constructor(readonly reason: string) {}
}

type JsonMap = { [key: string]: Json };
const isMap = (v: Json | undefined): v is JsonMap =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = (v: Json): Json => JSON.parse(JSON.stringify(v)) as Json;

/** RFC 7386, or the strategic merge a Service's fields have (`ports` merged by `port`). */
function mergePatch(target: Json | undefined, patch: Json, strategic: boolean, path: string): Json {
  if (!isMap(patch)) return clone(patch);
  const out: JsonMap = isMap(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (strategic && path === '/spec' && key === 'ports' && Array.isArray(value))
      out[key] = mergePorts(Array.isArray(out[key]) ? out[key] : [], value);
    else out[key] = mergePatch(out[key], value, strategic, `${path}/${key}`);
  }
  return out;
}

/**
 * The ports list merged by `port` (strategicpatch mergeSlice): each patch item merges into the
 * port it names, `$patch: delete` removes it, and the order is normalizeElementOrder's: the
 * patch's items in the patch's order and the ports it left alone in theirs, interleaved by
 * their places in the original list, a new port going before any port it is compared with.
 */
function mergePorts(original: readonly Json[], patch: readonly Json[]): Json[] {
  const key = (o: Json | undefined) => (isMap(o) ? o.port : undefined);
  const deleted = new Set<Json>();
  const patched: Json[] = [];
  for (const item of patch) {
    if (!isMap(item) || item.port === undefined)
      throw new PatchError('a spec.ports item without "port", the list\'s merge key');
    const { $patch: directive, ...fields } = item;
    if (directive === 'delete') {
      deleted.add(item.port);
      continue;
    }
    const at = patched.findIndex((o) => key(o) === item.port);
    const base = at >= 0 ? patched[at] : original.find((o) => key(o) === item.port);
    const merged = mergePatch(base, fields, true, '/spec/ports/-');
    if (at >= 0) patched[at] = merged;
    else patched.push(merged);
  }
  const place = (o: Json) => original.findIndex((x) => key(x) === key(o));
  const untouched = original.filter(
    (o) => !deleted.has(key(o) ?? null) && !patched.some((p) => key(p) === key(o)),
  );
  const out: Json[] = [];
  let i = 0;
  let j = 0;
  while (i < patched.length && j < untouched.length) {
    const a = patched[i]!;
    const b = untouched[j]!;
    if (place(a) < 0 || place(a) < place(b)) {
      out.push(a);
      i++;
    } else {
      out.push(b);
      j++;
    }
  }
  return [...out, ...patched.slice(i), ...untouched.slice(j)];
}

/** A JSON pointer's tokens (RFC 6901: `~1` is `/`, `~0` is `~`). */
function pointer(path: Json | undefined): string[] {
  if (typeof path !== 'string' || (path !== '' && !path.startsWith('/')))
    throw new PatchError(`a path that is not a JSON pointer: ${JSON.stringify(path)}`);
  return path === '' ? [] : path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~')); // prettier-ignore
}

/** The container of the pointer's last token, and that token. */
function parent(doc: Json, tokens: readonly string[]): { holder: Json; key: string } {
  let node = doc;
  for (const t of tokens.slice(0, -1)) {
    const next = Array.isArray(node) ? node[Number(t)] : isMap(node) ? node[t] : undefined;
    if (next === undefined) throw new PatchError(`a path through a missing field: /${tokens.join('/')}`); // prettier-ignore
    node = next;
  }
  const key = tokens[tokens.length - 1];
  if (key === undefined) throw new PatchError('an operation on the whole object');
  return { holder: node, key };
}

function getAt(doc: Json, path: Json | undefined): Json {
  const { holder, key } = parent(doc, pointer(path));
  const v = Array.isArray(holder) ? holder[Number(key)] : isMap(holder) ? holder[key] : undefined;
  if (v === undefined) throw new PatchError(`a missing field: ${String(path)}`);
  return v;
}

function removeAt(doc: Json, path: Json | undefined): void {
  getAt(doc, path);
  const { holder, key } = parent(doc, pointer(path));
  if (Array.isArray(holder)) holder.splice(Number(key), 1);
  else if (isMap(holder)) delete (holder as JsonMap)[key];
}

function addAt(doc: Json, path: Json | undefined, value: Json): void {
  const { holder, key } = parent(doc, pointer(path));
  if (Array.isArray(holder)) {
    const i = key === '-' ? holder.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > holder.length) throw new PatchError(`an index out of range: ${String(path)}`); // prettier-ignore
    holder.splice(i, 0, clone(value));
  } else if (isMap(holder)) (holder as JsonMap)[key] = clone(value);
  else throw new PatchError(`a path into a value: ${String(path)}`);
}

/** RFC 6902 operations, in order, on a copy of the object. */
function jsonPatch(target: Json, ops: Json): Json {
  if (!Array.isArray(ops)) throw new PatchError('a JSON patch that is not a list of operations');
  const doc = clone(target);
  for (const op of ops) {
    if (!isMap(op)) throw new PatchError('an operation that is not an object');
    const value = op.value ?? null;
    if (op.op === 'add') addAt(doc, op.path, value);
    else if (op.op === 'remove') removeAt(doc, op.path);
    else if (op.op === 'replace') {
      removeAt(doc, op.path);
      addAt(doc, op.path, value);
    } else if (op.op === 'move' || op.op === 'copy') {
      const v = getAt(doc, op.from);
      if (op.op === 'move') removeAt(doc, op.from);
      addAt(doc, op.path, v);
    } else if (op.op === 'test') {
      if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(value))
        throw new PatchError(`a test that failed: ${String(op.path)}`);
    } else throw new PatchError(`an unknown operation: ${JSON.stringify(op.op ?? null)}`);
  }
  return doc;
}

/** A Service's spec as JSON, for the update rules below. */
const specOf = (o: Json | undefined): JsonMap => (isMap(o) && isMap(o.spec) ? o.spec : {});
const typeOf = (spec: JsonMap): Json => spec.type ?? 'ClusterIP';
const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);
const externallyAccessible = (spec: JsonMap) =>
  typeOf(spec) === 'NodePort' ||
  typeOf(spec) === 'LoadBalancer' ||
  (typeOf(spec) === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
const nodePorts = (spec: JsonMap): Json[] =>
  Array.isArray(spec.ports) ? spec.ports.map((p) => (isMap(p) ? (p.nodePort ?? 0) : 0)).filter((n) => n !== 0) : []; // prettier-ignore

/**
 * What the API server does to an updated Service before validating it
 * (pkg/registry/core/service/strategy.go normalizeClusterIPs and dropTypeDependentFields): a
 * field the new type does
 * not use is cleared when the update left it as it was (allocated values are then released),
 * so `-p '{"spec":{"type":"ClusterIP"}}'` on a NodePort Service drops its nodePorts and its
 * externalTrafficPolicy instead of failing; and the load balancer status goes with the type.
 */
function dropTypeDependentFields(next: Json, old: Json): Json {
  if (!isMap(next) || !isMap(next.spec)) return next;
  const spec: JsonMap = { ...next.spec };
  const was = specOf(old);
  const t = typeOf(spec);
  // normalizeClusterIPs (registry/core/service/strategy.go): a changed clusterIP with
  // clusterIPs left as they were is the new clusterIP alone (or none); validation then says
  // whether the change is allowed.
  if (!same(spec.clusterIP, was.clusterIP) && same(spec.clusterIPs, was.clusterIPs)) {
    if (spec.clusterIP === undefined || spec.clusterIP === '') delete spec.clusterIPs;
    else spec.clusterIPs = [spec.clusterIP];
  }
  if (typeOf(was) !== 'ExternalName' && t === 'ExternalName') {
    if (same(spec.clusterIP, was.clusterIP) && same(spec.clusterIPs, was.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (same(spec.ipFamilies, was.ipFamilies)) delete spec.ipFamilies;
    if (same(spec.ipFamilyPolicy, was.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  const needsNodePort = (x: JsonMap) => typeOf(x) === 'NodePort' || typeOf(x) === 'LoadBalancer';
  const oldPorts = nodePorts(was);
  if (
    needsNodePort(was) &&
    !needsNodePort(spec) &&
    nodePorts(spec).every((n) => oldPorts.includes(n)) &&
    Array.isArray(spec.ports)
  )
    // prettier-ignore
    spec.ports = spec.ports.map((p) => (isMap(p) ? (({ nodePort: _, ...rest }) => rest)(p) : p));
  const needsHC = (x: JsonMap) => typeOf(x) === 'LoadBalancer' && x.externalTrafficPolicy === 'Local'; // prettier-ignore
  if (needsHC(was) && !needsHC(spec) && same(spec.healthCheckNodePort, was.healthCheckNodePort))
    delete spec.healthCheckNodePort;
  if (
    typeOf(was) === 'LoadBalancer' &&
    t !== 'LoadBalancer' &&
    spec.allocateLoadBalancerNodePorts !== undefined &&
    same(spec.allocateLoadBalancerNodePorts, was.allocateLoadBalancerNodePorts)
  )
    // prettier-ignore
    delete spec.allocateLoadBalancerNodePorts;
  if (
    externallyAccessible(was) &&
    !externallyAccessible(spec) &&
    same(spec.externalTrafficPolicy, was.externalTrafficPolicy)
  )
    // prettier-ignore
    delete spec.externalTrafficPolicy;
  const status = t !== 'LoadBalancer' ? { status: { loadBalancer: {} } } : {};
  return { ...next, spec, ...status };
}

/** kubectl's yaml.ToJSON: JSON as it is when it starts with `{`, else YAML read as JSON. */
function patchDocument(text: string): Json {
  const json = /^\s*\{/.test(text);
  try {
    return (json ? JSON.parse(text) : parseYaml(text)) as Json;
  } catch (e) {
    throw new PatchError(`a patch that does not parse as ${json ? 'JSON' : 'YAML'} (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`); // prettier-ignore
  }
}

export function runPatch(
  ctx: CommandContext,
  namespace: string,
  args: readonly string[],
  flags: PatchFlags,
): CommandResult {
  if (flags.unmodelled !== undefined)
    return fail(labNote('kubectl.unmodelled', { what: `patch ${flags.unmodelled}` }));
  // patch.go Validate(), in its order.
  const text = flags.patch ?? '';
  if (text === '' && flags.patchFile === undefined)
    return fail('error: must specify --patch or --patch-file containing the contents of the patch\n'); // prettier-ignore
  if (text !== '' && flags.patchFile !== undefined)
    return fail('error: cannot specify --patch and --patch-file together\n');
  if (flags.patchFile !== undefined)
    return fail(labNote('kubectl.unmodelled', { what: 'patch --patch-file' }));
  const type = (flags.type ?? 'strategic').toLowerCase();
  if (!['json', 'merge', 'strategic'].includes(type))
    return fail(`error: --type must be one of [json merge strategic], not ${JSON.stringify(flags.type)}\n`); // prettier-ignore
  const found = targets(args);
  if ('exitCode' in found) return found;
  let stdout = '';
  let stderr = '';
  for (const { type: resource, name } of found) {
    if (resource.kind !== 'Service') return fail(labNote('kubectl.unmodelled', { what: `patch ${resource.resource}` })); // prettier-ignore
    const api = { cluster: ctx.world.cluster, epochSeconds: ctx.world.epochSeconds };
    const svc = api.cluster.services.find((s) => s.meta.namespace === namespace && s.meta.name === name); // prettier-ignore
    if (svc === undefined) {
      stderr += notFound(resource, name);
      continue;
    }
    const before = serviceObject(api, svc);
    let patched: Json;
    try {
      const doc = patchDocument(text);
      const applied = type === 'json' ? jsonPatch(before, doc) : mergePatch(before, doc, type === 'strategic', ''); // prettier-ignore
      patched = dropTypeDependentFields(applied, before);
    } catch (e) {
      if (!(e instanceof PatchError)) throw e;
      stderr += labNote('kubectl.patch-refused', { reason: e.reason });
      continue;
    }
    const result = ctx.world.applyManifests(JSON.stringify(patched));
    if (result.errors.length > 0) {
      stderr += apiErrorsText(result.errors);
      continue;
    }
    const now = ctx.world.cluster.services.find((s) => s.meta.namespace === namespace && s.meta.name === name); // prettier-ignore
    const after = now === undefined ? undefined : serviceObject({ ...api, cluster: ctx.world.cluster }, now); // prettier-ignore
    const same = JSON.stringify(after) === JSON.stringify(before);
    stdout += `service/${name} patched${same ? ' (no change)' : ''}\n`;
  }
  return { stdout, stderr, exitCode: stderr === '' ? 0 : 1 };
}

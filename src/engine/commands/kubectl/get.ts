/**
 * `kubectl get` (kubectl 1.32, pkg/cmd/get/get.go) over the lab cluster: resource/name
 * arguments, -n/-A, -o wide|yaml|json|name, --show-labels, --no-headers, -l. Tables are aligned
 * by Go's tabwriter with kubectl's settings; several kinds print as separate tables with a blank
 * line between them and `kind/name` names; `No resources found in NS namespace.` goes to stderr.
 */
import type { CommandResult } from '../registry';
import {
  kindPrefix,
  resolveResourceType,
  type Item,
  type ResourceType,
  type RowContext,
} from './resources';
import { formatLabels } from './format';
import { GET_TABWRITER, tabwrite } from './tabwriter';
import { unmodelledTypeNote } from './unmodelled-types';
import { toJson, toYaml, type Json } from './yaml';
import { labNote } from '../../model/lab-notes';
import { jsonpath } from './jsonpath';

export interface GetOptions {
  namespace: string;
  allNamespaces: boolean;
  output: '' | 'wide' | 'yaml' | 'json' | 'name' | 'jsonpath';
  /** -o jsonpath=TEMPLATE's template. */
  template?: string;
  showLabels: boolean;
  noHeaders: boolean;
  selector: string | undefined;
}

const OUTPUTS =
  'custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml';
const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });

/** Equality- and existence-based label selectors (`a=b,c!=d,e,!f`). */
export function matchesSelector(
  labels: Readonly<Record<string, string>>,
  selector: string,
): boolean {
  return selector
    .split(',')
    .filter((s) => s.trim() !== '')
    .every((raw) => {
      const s = raw.trim();
      const m = /^([^!=]+?)\s*(==|!=|=)\s*(.*)$/.exec(s);
      if (m !== null) {
        const has = Object.prototype.hasOwnProperty.call(labels, m[1] ?? '');
        const eq = has && labels[m[1] ?? ''] === m[3];
        return m[2] === '!=' ? !eq : eq;
      }
      if (s.startsWith('!')) return !Object.prototype.hasOwnProperty.call(labels, s.slice(1));
      return Object.prototype.hasOwnProperty.call(labels, s);
    });
}

interface Request {
  readonly type: ResourceType;
  readonly names: readonly string[];
}

/** Splits `svc web`, `svc,po`, `svc/web po/x` into requests, with kubectl's errors. */
export function parseResourceArgs(args: readonly string[]): Request[] | CommandResult {
  if (args.length === 0) {
    return fail(
      'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\n' +
        'error: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\n' +
        "See 'kubectl get -h' for help and examples\n",
    );
  }
  const resolve = (t: string): ResourceType | CommandResult =>
    resolveResourceType(t) ??
    fail(unmodelledTypeNote('get', t) ?? `error: the server doesn't have a resource type "${t}"\n`);
  if (args.some((a) => a.includes('/'))) {
    if (!args.every((a) => a.includes('/'))) {
      return fail(
        "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'\n",
      );
    }
    const out: Request[] = [];
    for (const a of args) {
      const [t, name] = [a.slice(0, a.indexOf('/')), a.slice(a.indexOf('/') + 1)];
      const type = resolve(t);
      if ('exitCode' in type) return type;
      const prev = out.find((r) => r.type === type);
      if (prev !== undefined) (prev.names as string[]).push(name);
      else out.push({ type, names: [name] });
    }
    return out;
  }
  const [typesArg, ...names] = args;
  const types: ResourceType[] = [];
  for (const t of (typesArg ?? '').split(',')) {
    if (t === 'all') {
      for (const a of ['pods', 'services', 'deployments', 'replicasets']) {
        const r = resolveResourceType(a);
        if (r !== undefined && !types.includes(r)) types.push(r);
      }
      continue;
    }
    const type = resolve(t);
    if ('exitCode' in type) return type;
    if (!types.includes(type)) types.push(type);
  }
  return types.map((type) => ({ type, names }));
}

const notFound = (type: ResourceType, name: string): string =>
  `Error from server (NotFound): ${type.group === '' ? type.resource : `${type.resource}.${type.group}`} "${name}" not found\n`;

function byNamespaceThenName(a: Item, b: Item): number {
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

interface Found {
  readonly type: ResourceType;
  readonly items: Item[];
}

function table(found: Found, ctx: RowContext, opts: GetOptions, withKind: boolean): string {
  if (found.items.length === 0) return '';
  const withNs = opts.allNamespaces && found.type.namespaced;
  const header = [
    ...(withNs ? ['NAMESPACE'] : []),
    ...found.type.columns,
    ...(ctx.wide ? found.type.wideColumns : []),
    ...(opts.showLabels ? ['LABELS'] : []),
  ];
  const rows = found.items.map((item) => {
    const cells = item
      .cells(ctx)
      .slice(0, found.type.columns.length - 1 + (ctx.wide ? found.type.wideColumns.length : 0));
    const name = withKind
      ? `${kindPrefix(found.type.kind, found.type.group)}/${item.name}`
      : item.name;
    return [
      ...(withNs ? [item.namespace] : []),
      name,
      ...cells,
      ...(opts.showLabels ? [formatLabels(item.labels)] : []),
    ];
  });
  const lines = [...(opts.noHeaders ? [] : [header]), ...rows];
  return tabwrite(lines.map((l) => `${l.join('\t')}\n`).join(''), GET_TABWRITER);
}

/** Runs `kubectl get` after flag parsing. */
export function runGet(ctx: RowContext, opts: GetOptions, args: readonly string[]): CommandResult {
  const requests = parseResourceArgs(args);
  if (!Array.isArray(requests)) return requests;
  if (opts.allNamespaces && requests.some((r) => r.names.length > 0))
    return fail('error: a resource cannot be retrieved by name across all namespaces\n');
  let stderr = '';
  const found: Found[] = [];
  const single = requests.length === 1 && requests[0]?.names.length === 1;
  for (const { type, names } of requests) {
    const inScope = type
      .list(ctx.cluster)
      .filter((i) => !type.namespaced || opts.allNamespaces || i.namespace === opts.namespace);
    let items: Item[];
    if (names.length === 0) {
      items = inScope
        .filter((i) => opts.selector === undefined || matchesSelector(i.labels, opts.selector))
        .sort(byNamespaceThenName);
    } else {
      items = [];
      for (const n of names) {
        const item = inScope.find((i) => i.name === n);
        if (item === undefined) stderr += notFound(type, n);
        else items.push(item);
      }
    }
    found.push({ type, items });
  }
  const exitCode = stderr === '' ? 0 : 1;
  const all = found.flatMap((f) => f.items);
  if (opts.output === 'yaml' || opts.output === 'json' || opts.output === 'jsonpath') {
    if (all.length === 0 && single) return { stdout: '', stderr, exitCode };
    const objects = all.map((i) => i.object(ctx));
    const obj: Record<string, Json> =
      single && objects.length === 1
        ? (objects[0] ?? {})
        : { apiVersion: 'v1', items: objects, kind: 'List', metadata: { resourceVersion: '' } };
    if (opts.output === 'jsonpath') {
      const r = jsonpath(opts.template ?? '', obj);
      if ('unsupported' in r) return fail(labNote('kubectl.jsonpath'));
      if ('error' in r) return fail(r.error);
      return { stdout: r.text, stderr, exitCode };
    }
    return { stdout: opts.output === 'yaml' ? toYaml(obj) : toJson(obj), stderr, exitCode };
  }
  if (opts.output === 'name') {
    const stdout = found
      .flatMap((f) => f.items.map((i) => `${kindPrefix(f.type.kind, f.type.group)}/${i.name}\n`))
      .join('');
    return { stdout, stderr, exitCode };
  }
  // kubectl prefixes names with their kind when the results span more than one kind, and puts a
  // blank line between the kinds' tables unless --no-headers.
  const withKind = found.filter((f) => f.items.length > 0).length > 1;
  const stdout = found
    .map((f) => table(f, ctx, opts, withKind))
    .filter((t) => t !== '')
    .join(opts.noHeaders ? '' : '\n');
  if (stdout === '' && stderr === '') {
    const namespaced = !opts.allNamespaces && requests.every((r) => r.type.namespaced);
    stderr = namespaced
      ? `No resources found in ${opts.namespace} namespace.\n`
      : 'No resources found\n';
  }
  return { stdout, stderr, exitCode };
}

export function outputFormat(value: string): GetOptions['output'] | CommandResult {
  if (value === 'wide' || value === 'yaml' || value === 'json' || value === 'name') return value;
  if (value.startsWith('jsonpath=')) return 'jsonpath';
  if (/^(custom-columns|go-template|jsonpath|template)/.test(value))
    return fail(labNote('kubectl.output', { format: value }));
  return fail(
    `error: unable to match a printer suitable for the output format "${value}", allowed formats are: ${OUTPUTS}\n`,
  );
}

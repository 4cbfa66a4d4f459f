/**
 * loadScenario: scenario text → Cluster + diagnostics. Never throws: a document with errors is
 * skipped (as `kubectl apply -f` skips an object the API server rejects) and the others load.
 */
import type { Cluster } from '../model/cluster';
import type { Diagnostic } from '../model/diagnostic';
import { buildCluster } from './build';
import type { Decoded } from './kinds';
import { decodeDocument } from './kinds';
import type { Desired } from './drafts';
import { emptyDesired, keyOf } from './drafts';
import { Diagnostics, ObjectReport } from './report';
import { DocumentStream } from './yaml-stream';
import type { ParsedDoc } from './yaml-tree';
import type { LineCounter } from 'yaml';

/** Larger files are refused before parsing: room for the 10,000-Service scale scenario (12 MB). */
export const MAX_SCENARIO_CHARS = 64 << 20;
export const MAX_DOCUMENTS = 100_000;

export interface LoadOptions {
  /** The cluster before this load: objects that still exist keep their addresses and ports. */
  readonly previous?: Cluster;
}

export interface LoadResult {
  readonly cluster: Cluster;
  readonly diagnostics: Diagnostic[];
}

export interface ParsedManifests {
  readonly decoded: ReadonlyArray<{ readonly doc: number; readonly item: Decoded }>;
  readonly lines: LineCounter | undefined;
  readonly diags: Diagnostics;
}

/** Text → decoded, validated objects (each with its document index). */
export function parseManifests(text: unknown): ParsedManifests {
  if (typeof text !== 'string') {
    const diags = new Diagnostics(undefined);
    diags.error({ doc: -1, offset: -1 }, 'the scenario must be text');
    return { decoded: [], lines: undefined, diags };
  }
  if (text.length > MAX_SCENARIO_CHARS) {
    const diags = new Diagnostics(undefined);
    diags.error(
      { doc: -1, offset: -1 },
      `the scenario is ${text.length} characters long; the lab reads at most ${MAX_SCENARIO_CHARS} (64 MiB)`,
    );
    return { decoded: [], lines: undefined, diags };
  }
  // Each document is decoded as soon as it is read, so its tree is garbage right away.
  const stream = new DocumentStream(text);
  let diags = new Diagnostics(stream.lines);
  let decoded: Array<{ doc: number; item: Decoded }> = [];
  for (const { doc, problems } of stream.documents(MAX_DOCUMENTS)) {
    for (const p of problems) diags.add(p.severity, { doc: p.doc, offset: p.offset }, p.message);
    if (doc.index >= MAX_DOCUMENTS) {
      diags.error(
        { doc: doc.index, offset: doc.start },
        `too many documents: the lab reads at most ${MAX_DOCUMENTS}; this one and the rest are ignored`,
      );
      break;
    }
    for (const object of listItems(diags, doc)) {
      const item = decodeDocument(diags, object);
      if (item) decoded.push({ doc: doc.index, item });
    }
  }
  if (stream.fatal) {
    diags = new Diagnostics(stream.lines);
    decoded = [];
    for (const p of stream.fatal)
      diags.add(p.severity, { doc: p.doc, offset: p.offset }, p.message);
  }
  return { decoded, lines: stream.lines, diags };
}

/**
 * A `v1 List` (what `kubectl get … -o yaml` prints) stands for its items, each an object of
 * its own, as kubectl apply reads it (resource.Builder flattens lists); anything else is one
 * object. An item keeps the document's index and its own offsets, so errors point into it.
 */
export function listItems(diags: Diagnostics, doc: ParsedDoc): ParsedDoc[] {
  const root = doc.root;
  if (root?.kind !== 'map') return [doc];
  const scalar = (key: string) => root.entries.find((e) => e.key === key)?.value;
  const apiVersion = scalar('apiVersion');
  const kind = scalar('kind');
  const isList =
    apiVersion?.kind === 'scalar' && apiVersion.value === 'v1' &&
    kind?.kind === 'scalar' && kind.value === 'List'; // prettier-ignore
  if (!isList) return [doc];
  const items = scalar('items');
  if (items === undefined || (items.kind === 'scalar' && items.value === null)) return [];
  if (items.kind !== 'seq') {
    const type = items.kind === 'map' ? 'object' : typeof items.value === 'boolean' ? 'bool' : typeof items.value; // prettier-ignore
    diags.error(
      { doc: doc.index, offset: items.start },
      `unable to decode List: json: cannot unmarshal ${type} into Go struct field List.items of type []runtime.RawExtension`,
    );
    return [];
  }
  return items.items.map((item) => ({ index: doc.index, start: item.start, root: item }));
}

const RESOURCE: Readonly<Record<string, string>> = {
  Node: 'nodes',
  Pod: 'pods',
  Service: 'services',
  Deployment: 'deployments.apps',
  EndpointSlice: 'endpointslices.discovery.k8s.io',
};

type Named = ReadonlyArray<{ meta: { namespace: string; name: string } }>;

/**
 * namespace/name keys of a Desired list, kept beside it so each add is one lookup, not a scan
 * (20,000 objects made loading quadratic). While objects are added, lists only grow or have
 * an item replaced by one with the same key (apply.ts); a shorter list is indexed again.
 */
const KEYS = new WeakMap<Named, { keys: Set<string>; count: number }>();

function hasKey(list: Named, key: string): boolean {
  let index = KEYS.get(list);
  if (!index || index.count > list.length) index = { keys: new Set(), count: 0 };
  for (; index.count < list.length; index.count++) {
    const o = list[index.count];
    if (o) index.keys.add(keyOf(o.meta));
  }
  KEYS.set(list, index);
  return index.keys.has(key);
}

/** Adds an object; a second object with the same kind/namespace/name is refused as on create. */
export function addToDesired(desired: Desired, item: Decoded, diags: Diagnostics): boolean {
  const already = (
    list: Named,
    m: { namespace: string; name: string; nameLoc: { doc: number; offset: number } },
  ): boolean => {
    if (!hasKey(list, keyOf(m))) return false;
    const rep = new ObjectReport(diags, m.nameLoc.doc, item.kind, true);
    rep.name = m.name;
    rep.namespace = m.namespace;
    rep.plain(
      m.nameLoc.offset,
      `${RESOURCE[item.kind] ?? item.kind} ${JSON.stringify(m.name)} already exists`,
      'metadata.name',
    );
    return true;
  };
  const once = (
    existing: { loc: { doc: number } } | undefined,
    loc: { doc: number; offset: number },
  ): boolean => {
    if (!existing) return false;
    diags.error(
      loc,
      `a scenario holds one ${item.kind} document: the one in document ${existing.loc.doc + 1} is used`,
      { object: item.kind },
    );
    return true;
  };
  switch (item.kind) {
    case 'Node':
      if (already(desired.nodes, item.draft.meta)) return false;
      desired.nodes.push(item.draft);
      return true;
    case 'Pod':
      if (already(desired.pods, item.draft.meta)) return false;
      desired.pods.push(item.draft);
      desired.workloads.push({ kind: 'Pod', key: keyOf(item.draft.meta) });
      return true;
    case 'Deployment':
      if (already(desired.deployments, item.draft.meta)) return false;
      desired.deployments.push(item.draft);
      desired.workloads.push({ kind: 'Deployment', key: keyOf(item.draft.meta) });
      return true;
    case 'Service':
      if (already(desired.services, item.draft.meta)) return false;
      desired.services.push(item.draft);
      return true;
    case 'EndpointSlice':
      if (already(desired.slices, item.draft.meta)) return false;
      desired.slices.push(item.draft);
      return true;
    case 'KubeProxyConfiguration':
      if (once(desired.kubeProxy, item.draft.loc)) return false;
      desired.kubeProxy = item.draft;
      return true;
    case 'KubeletConfiguration':
      if (once(desired.kubelet, item.draft.loc)) return false;
      desired.kubelet = item.draft;
      return true;
    case 'Lab':
      if (once(desired.lab, item.draft.loc)) return false;
      desired.lab = item.draft;
      return true;
  }
}

function loadInner(text: unknown, opts: LoadOptions): LoadResult {
  const parsed = parseManifests(text);
  const desired = emptyDesired();
  for (const { item } of parsed.decoded) addToDesired(desired, item, parsed.diags);
  const cluster = buildCluster(desired, parsed.diags, {
    previous: opts.previous,
    createdAt: 0,
    lines: parsed.lines,
  });
  return { cluster, diagnostics: sortDiagnostics(parsed.diags.list) };
}

/** Diagnostics in reading order (document, line, column); stable for equal positions. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return list
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.doc - b.d.doc || a.d.line - b.d.line || a.d.col - b.d.col || a.i - b.i)
    .map((x) => x.d);
}

export function loadScenario(text: string, opts: LoadOptions = {}): LoadResult {
  try {
    return loadInner(text, opts);
  } catch (err) {
    // A bug in the lab must not take the editor down: report it like any other problem.
    const diags = new Diagnostics(undefined);
    diags.error(
      { doc: -1, offset: -1 },
      `internal error while loading the scenario: ${err instanceof Error ? err.message : String(err)}`,
    );
    return {
      cluster: buildCluster(emptyDesired(), new Diagnostics(undefined), { createdAt: 0 }),
      diagnostics: diags.list,
    };
  }
}

/**
 * What `kubectl delete -f` needs of a manifest: each object's apiVersion, kind, name and
 * namespace, nothing validated (delete sends no object, only its name). Documents are read as
 * cli-runtime's StreamVisitor reads them (pkg/resource/visitor.go): empty ones are skipped, a
 * v1 List stands for its items (Flatten), and a syntax error ends the file.
 */
import { listItems } from './load';
import { Diagnostics } from './report';
import { parseStream } from './yaml-stream';
import type { YNode } from './yaml-tree';

export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** Absent when the manifest gives none (kubectl then uses the -n namespace). */
  readonly namespace?: string;
}

/** A document's object, or why kubectl could not decode it (its message, without `error: `). */
export type IdentityItem = { readonly object: ObjectIdentity } | { readonly error: string };

/**
 * The JSON sigs.k8s.io/yaml makes of a document, as kubectl quotes it in its errors: Go's
 * encoding/json, keys sorted, `<`, `>` and `&` escaped.
 */
function goJson(node: YNode): string {
  if (node.kind === 'seq') return `[${node.items.map(goJson).join(',')}]`;
  if (node.kind === 'map') {
    const entries = [...node.entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return `{${entries.map((e) => `${goJson({ kind: 'scalar', start: 0, value: e.key })}:${goJson(e.value)}`).join(',')}}`; // prettier-ignore
  }
  return JSON.stringify(node.value).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`); // prettier-ignore
}

function stringField(node: YNode | undefined, key: string): string | undefined {
  if (node?.kind !== 'map') return undefined;
  const value = node.entries.find((e) => e.key === key)?.value;
  return value?.kind === 'scalar' && typeof value.value === 'string' ? value.value : undefined;
}

function identityOf(root: YNode, source: string): IdentityItem {
  // runtime.NewMissingKindErr / NewMissingVersionErr, wrapped by mapper.go infoForData.
  const undecodable = (why: string): IdentityItem => ({ error: `unable to decode "${source}": ${why}` }); // prettier-ignore
  if (root.kind !== 'map') {
    const type = root.kind === 'seq' ? 'array' : root.value === null ? 'null' : typeof root.value === 'boolean' ? 'bool' : typeof root.value; // prettier-ignore
    return undecodable(`json: cannot unmarshal ${type} into Go value of type map[string]interface {}`); // prettier-ignore
  }
  const kind = stringField(root, 'kind');
  const apiVersion = stringField(root, 'apiVersion');
  if (kind === undefined || kind === '') return undecodable(`Object 'Kind' is missing in '${goJson(root)}'`); // prettier-ignore
  if (apiVersion === undefined || apiVersion === '')
    return undecodable(`Object 'apiVersion' is missing in '${goJson(root)}'`);
  const metadata = root.entries.find((e) => e.key === 'metadata')?.value;
  const namespace = stringField(metadata, 'namespace');
  return {
    object: {
      apiVersion,
      kind,
      name: stringField(metadata, 'name') ?? '',
      ...(namespace === undefined || namespace === '' ? {} : { namespace }),
    },
  };
}

/** The objects of a manifest text, in order, for `kubectl delete -f`. */
export function manifestIdentities(text: string, source: string): IdentityItem[] {
  const stream = parseStream(text);
  const syntax = stream.problems.find((p) => p.severity === 'error');
  const items: IdentityItem[] = [];
  const diags = new Diagnostics(stream.lines);
  for (const doc of stream.docs) {
    // The decoder stops at the broken document: the ones before it were sent already.
    if (syntax !== undefined && doc.index >= syntax.doc) break;
    if (doc.root === undefined || (doc.root.kind === 'scalar' && doc.root.value === null)) continue; // prettier-ignore
    for (const item of listItems(diags, doc)) {
      if (item.root === undefined) continue;
      items.push(identityOf(item.root, source));
    }
    for (const d of diags.list.splice(0)) items.push({ error: `unable to decode "${source}": ${d.message}` }); // prettier-ignore
  }
  // visitor.go StreamVisitor.Visit: `error parsing %s: %v`.
  if (syntax !== undefined) items.push({ error: `error parsing ${source}: ${syntax.message}` });
  return items;
}

/**
 * ObjectMeta, as ValidateObjectMeta (pkg/apis/core/validation) checks it: a name (or a
 * generateName), a valid namespace, valid labels. The API server ignores
 * metadata.deletionTimestamp on create; the lab reads it to model a terminating pod.
 */
import { MapReader } from './reader';
import type { MetaDraft } from './drafts';
import type { ObjectReport } from './report';
import { dns1123Label, labelValue, qualifiedName } from './validate-common';
import { generatedSuffix } from './hash';

/** Metadata fields real objects carry that the lab does not model. */
const IGNORED_META = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionGracePeriodSeconds',
  'ownerReferences',
  'finalizers',
  'managedFields',
  'selfLink',
];

export interface MetaOptions {
  readonly namespaced: boolean;
  /** The name rule of the kind (DNS-1035 label for Services, DNS-1123 subdomain for most). */
  readonly nameRule: (name: string) => string[];
}

export function decodeMeta(root: MapReader, opts: MetaOptions): MetaDraft {
  const rep = root.rep;
  const metaEntry = root.entry('metadata');
  const meta = metaEntry
    ? MapReader.of(rep, metaEntry.value, 'metadata', metaEntry.keyStart)
    : undefined;
  const anchor = metaEntry?.keyStart ?? root.anchor;
  const loc = { doc: rep.doc, offset: root.anchor };

  const name = meta?.str('name');
  const generateName = meta?.str('generateName');
  const namespace = opts.namespaced ? meta?.str('namespace') : undefined;
  if (!opts.namespaced) meta?.ignore('namespace');
  let finalName = name?.value ?? '';
  if (!finalName && generateName?.value) {
    // The API server appends 5 random characters (SimpleNameGenerator); the lab derives them
    // from the document's position so a reload gives the same name.
    const base =
      generateName.value.length > 58 ? generateName.value.slice(0, 58) : generateName.value;
    finalName = base + generatedSuffix(`${rep.kind}/${rep.doc}/${base}`, 0);
  }
  rep.name = finalName;
  rep.namespace = opts.namespaced ? namespace?.value || 'default' : '';

  if (!finalName) {
    rep.field(anchor, 'metadata.name', {
      type: 'required',
      detail: 'name or generateName is required',
    });
  } else {
    const at = name?.start ?? generateName?.start ?? anchor;
    for (const msg of opts.nameRule(finalName)) {
      rep.field(at, 'metadata.name', { type: 'invalid', value: finalName, detail: msg });
    }
  }
  if (namespace?.value) {
    for (const msg of dns1123Label(namespace.value)) {
      rep.field(namespace.start, 'metadata.namespace', {
        type: 'invalid',
        value: namespace.value,
        detail: msg,
      });
    }
  }
  const labels = meta?.strMap('labels');
  if (labels) validateLabels(rep, labels.value, 'metadata.labels', labels.start);
  const annotations = meta?.strMap('annotations');
  const deletion = meta?.str('deletionTimestamp');
  meta?.ignore(...IGNORED_META);
  meta?.finish();
  return {
    name: finalName,
    namespace: rep.namespace,
    labels: labels?.value ?? {},
    annotations: annotations?.value ?? {},
    ...(deletion ? { deletionTimestamp: deletion.value } : {}),
    loc,
    nameLoc: { doc: rep.doc, offset: name?.start ?? generateName?.start ?? anchor },
  };
}

/** ValidateLabels: every key a qualified name, every value a label value. */
export function validateLabels(
  rep: ObjectReport,
  labels: Readonly<Record<string, string>>,
  path: string,
  at: number,
): void {
  for (const [k, v] of Object.entries(labels)) {
    for (const msg of qualifiedName(k))
      rep.field(at, path, { type: 'invalid', value: k, detail: msg });
    for (const msg of labelValue(v))
      rep.field(at, path, { type: 'invalid', value: v, detail: msg });
  }
}

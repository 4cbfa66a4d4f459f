/**
 * apps/v1 Deployment, validated as ValidateDeploymentSpec (pkg/apis/apps/validation) does:
 * a selector is required (apps/v1 does not default it), must not be empty, and must match the
 * template's labels. The lab models the current ReplicaSet only (no rollout history).
 */
import { decodeMeta, validateLabels } from './decode-meta';
import { decodePodSpec } from './decode-pod';
import type { DeploymentDraft } from './drafts';
import { podTemplateHash } from './hash';
import { listMaps, MapReader } from './reader';
import { dns1123Subdomain } from './validate-common';
import { canonicalJSON } from './yaml-tree';

/** The lab's cap: every replica is a simulated pod with its own veth and rules. */
export const MAX_REPLICAS = 200;

interface Requirement {
  readonly key: string;
  readonly operator: string;
  readonly values: readonly string[];
}

export function decodeDeployment(root: MapReader): DeploymentDraft | undefined {
  const rep = root.rep;
  const meta = decodeMeta(root, { namespaced: true, nameRule: dns1123Subdomain });
  const specEntry = root.entry('spec');
  const spec = root.map('spec');
  const specAnchor = specEntry?.keyStart ?? root.anchor;

  const replicas = spec?.int('replicas');
  if (replicas && replicas.value < 0) {
    rep.field(replicas.start, 'spec.replicas', {
      type: 'invalid',
      value: replicas.value,
      detail: 'must be greater than or equal to 0',
    });
  } else if (replicas && replicas.value > MAX_REPLICAS) {
    rep.field(replicas.start, 'spec.replicas', {
      type: 'invalid',
      value: replicas.value,
      detail: `the lab runs at most ${MAX_REPLICAS} replicas per Deployment`,
    });
  }

  const selEntry = spec?.entry('selector');
  const selector = selEntry
    ? MapReader.of(rep, selEntry.value, 'spec.selector', selEntry.keyStart)
    : undefined;
  const matchLabels = selector?.strMap('matchLabels');
  if (matchLabels)
    validateLabels(rep, matchLabels.value, 'spec.selector.matchLabels', matchLabels.start);
  const requirements: Requirement[] = [];
  for (const m of listMaps(rep, selector?.list('matchExpressions'))) {
    const key = m.str('key');
    const operator = m.str('operator');
    const values = m.strList('values') ?? [];
    m.finish();
    const ops = ['DoesNotExist', 'Exists', 'In', 'NotIn'];
    if (operator && !ops.includes(operator.value)) {
      rep.field(operator.start, `${m.path}.operator`, {
        type: 'notSupported',
        value: operator.value,
        supported: ops,
      });
    }
    if (key && operator)
      requirements.push({
        key: key.value,
        operator: operator.value,
        values: values.map((v) => v.value),
      });
  }
  selector?.finish();
  if (!selector) {
    rep.field(selEntry?.keyStart ?? specAnchor, 'spec.selector', { type: 'required' });
  } else if (Object.keys(matchLabels?.value ?? {}).length + requirements.length === 0) {
    rep.field(selector.node.start, 'spec.selector', {
      type: 'invalid',
      value: {},
      detail: 'empty selector is invalid for deployment',
    });
  }

  const tplEntry = spec?.entry('template');
  const template = tplEntry
    ? MapReader.of(rep, tplEntry.value, 'spec.template', tplEntry.keyStart)
    : undefined;
  const tplAnchor = tplEntry?.keyStart ?? specAnchor;
  const tplMeta = template?.map('metadata');
  const labels = tplMeta?.strMap('labels')?.value ?? {};
  const annotations = tplMeta?.strMap('annotations')?.value ?? {};
  tplMeta?.ignore(
    'name',
    'namespace',
    'generateName',
    'creationTimestamp',
    'uid',
    'finalizers',
    'ownerReferences',
  );
  tplMeta?.finish();
  if (tplMeta) validateLabels(rep, labels, 'spec.template.metadata.labels', tplMeta.node.start);
  if (selector && !selectorMatches(matchLabels?.value ?? {}, requirements, labels)) {
    rep.field(tplMeta?.anchor ?? tplAnchor, 'spec.template.metadata.labels', {
      type: 'invalid',
      value: labels,
      detail: '`selector` does not match template `labels`',
    });
  }
  const tplSpecEntry = template?.entry('spec');
  const tplSpec = template?.map('spec');
  const podSpec = decodePodSpec(
    rep,
    tplSpec,
    'spec.template.spec',
    tplSpecEntry?.keyStart ?? tplAnchor,
  );
  template?.finish();

  spec?.ignore(
    'strategy',
    'minReadySeconds',
    'revisionHistoryLimit',
    'paused',
    'progressDeadlineSeconds',
  );
  spec?.finish();
  root.ignore('status');
  root.finish();
  if (rep.errors > 0) return undefined;
  return {
    meta,
    replicas: replicas?.value ?? 1,
    selector: matchLabels?.value ?? {},
    templateLabels: labels,
    templateAnnotations: annotations,
    template: podSpec,
    templateHash: podTemplateHash(canonicalJSON(tplEntry?.value)),
  };
}

/** labels.Selector.Matches for matchLabels + matchExpressions (metav1.LabelSelectorAsSelector). */
function selectorMatches(
  matchLabels: Readonly<Record<string, string>>,
  requirements: readonly Requirement[],
  labels: Readonly<Record<string, string>>,
): boolean {
  for (const [k, v] of Object.entries(matchLabels)) if (labels[k] !== v) return false;
  for (const r of requirements) {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    const value = labels[r.key];
    if (r.operator === 'In' && !(has && value !== undefined && r.values.includes(value)))
      return false;
    if (r.operator === 'NotIn' && has && value !== undefined && r.values.includes(value))
      return false;
    if (r.operator === 'Exists' && !has) return false;
    if (r.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/**
 * Which Service a kube-proxy rule was written for, and where that Service is in the scenario.
 * kube-proxy names the Service port in every rule's comment (`"ns/name:port cluster IP"`,
 * `"ns/name:port -> 10.244.0.3:53"`, `"masquerade traffic for ns/name:port external
 * destinations"`; a port without a name is `ns/name`): pkg/proxy ServicePortName.String().
 */
import type { LineCounter as YamlLineCounter } from 'yaml';

export interface RuleService {
  readonly namespace: string;
  readonly name: string;
  readonly port?: string;
}

const LABEL = '[a-z0-9](?:[-a-z0-9]*[a-z0-9])?';
const COMMENT = new RegExp(
  `--comment "(?:masquerade traffic for )?(${LABEL})/(${LABEL})(?::([a-z0-9](?:[-a-z0-9]*[a-z0-9])?))?(?=[ "])`,
);

/** The Service port a rule's comment names, or undefined (kubelet's and kube-proxy's own). */
export function ruleService(rule: string): RuleService | undefined {
  const m = COMMENT.exec(rule);
  if (m === null) return undefined;
  const [, namespace = '', name = '', port] = m;
  return port === undefined ? { namespace, name } : { namespace, name, port };
}

/**
 * The 1-based line of the Service's `metadata.name` in `text` (a scenario of many documents),
 * or undefined when no document is that Service. The YAML reader loads when first asked.
 */
export async function serviceLine(text: string, svc: RuleService): Promise<number | undefined> {
  const { LineCounter, parseAllDocuments, isMap, isScalar } = await import('yaml');
  const lines: YamlLineCounter = new LineCounter();
  for (const doc of parseAllDocuments(text, { lineCounter: lines })) {
    if (!('contents' in doc) || !isMap(doc.contents)) continue;
    const value = (node: unknown): unknown => (isScalar(node) ? node.value : undefined);
    if (value(doc.contents.get('kind', true)) !== 'Service') continue;
    const meta = doc.contents.get('metadata', true);
    if (!isMap(meta)) continue;
    const namespace = value(meta.get('namespace', true)) ?? 'default';
    const name = meta.get('name', true);
    if (namespace !== svc.namespace || !isScalar(name) || value(name) !== svc.name) continue;
    return name.range === undefined || name.range === null
      ? undefined
      : lines.linePos(name.range[0]).line;
  }
  return undefined;
}

/**
 * The lab's switches as edits of the scenario text: the scenario stays the single source of
 * truth (the editor shows the change, a reload keeps it). Only the document concerned is
 * rewritten; the others keep their text byte for byte.
 */
import { parseAllDocuments, type Document } from 'yaml';
import type { Setting } from '../protocol/lab';

interface Target {
  readonly apiVersion: string;
  readonly kind: string;
}

const KUBE_PROXY: Target = {
  apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
  kind: 'KubeProxyConfiguration',
};
const KUBELET: Target = {
  apiVersion: 'kubelet.config.k8s.io/v1beta1',
  kind: 'KubeletConfiguration',
};
const LAB: Target = { apiVersion: 'kube-proxy-lab/v1alpha1', kind: 'Lab' };

/**
 * Sets a top-level scalar by rewriting only its value on its line (comments and alignment
 * stay); undefined when the key is not there as a plain `key: value` line.
 */
function editLine(text: string, target: Target, key: string, value: string): string | undefined {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return undefined;
  let found = -1;
  docs.forEach((doc, i) => {
    if (found < 0 && doc.get('kind') === target.kind) found = i;
  });
  const doc = docs[found];
  if (doc === undefined) return undefined;
  const start = found === 0 ? 0 : doc.range[0];
  const end = doc.range[2];
  const slice = text.slice(start, end);
  const line = new RegExp(`^(${key}:[ \\t]*)([^\\s#]+)`, 'm');
  if (!line.test(slice)) return undefined;
  return text.slice(0, start) + slice.replace(line, `$1${value}`) + text.slice(end);
}

function edit(text: string, target: Target, change: (doc: Document) => void): string {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return text;
  for (const [i, doc] of docs.entries()) {
    if (doc.get('kind') !== target.kind) continue;
    change(doc);
    // The first document's toString() repeats the comments above it: replace from the top.
    const start = i === 0 ? 0 : doc.range[0];
    const end = doc.range[2];
    const rendered = doc.toString({ indentSeq: false });
    // toString() starts a document that had a `---` marker with one; keep the text around it.
    return text.slice(0, start) + rendered + text.slice(end);
  }
  // No such document yet: add one at the end.
  const doc = parseAllDocuments(`apiVersion: ${target.apiVersion}\nkind: ${target.kind}\n`);
  const fresh = (Array.isArray(doc) ? doc[0] : undefined) as Document | undefined;
  if (fresh === undefined) return text;
  change(fresh);
  const sep = text.endsWith('\n') || text === '' ? '' : '\n';
  return `${text}${sep}---\n${fresh.toString({ indentSeq: false })}`;
}

export function withSetting(text: string, setting: Setting): string {
  switch (setting.kind) {
    case 'proxyMode':
      return (
        editLine(text, KUBE_PROXY, 'mode', setting.mode) ??
        edit(text, KUBE_PROXY, (d) => d.set('mode', setting.mode))
      );
    case 'masqueradeAll':
      // masqueradeAll lives in the active backend's section (iptables; nftables has its own).
      return edit(text, KUBE_PROXY, (d) => {
        const section = d.get('mode') === 'nftables' ? 'nftables' : 'iptables';
        d.setIn([section, 'masqueradeAll'], setting.on);
      });
    case 'hairpinMode':
      return (
        editLine(text, KUBELET, 'hairpinMode', setting.mode) ??
        edit(text, KUBELET, (d) => d.set('hairpinMode', setting.mode))
      );
    case 'bridgeNf':
      return edit(text, LAB, (d) =>
        d.setIn(
          ['nodes', setting.node, 'sysctls', 'net.bridge.bridge-nf-call-iptables'],
          setting.on ? '1' : '0',
        ),
      );
  }
}

/**
 * Shared by this folder's tests only: a minimal two-node base and short views of diagnostics.
 */
import type { Diagnostic } from '../model/diagnostic';

/** Two nodes (node-1 10.244.0.0/24 at 192.168.1.10, node-2 10.244.1.0/24 at 192.168.1.11). */
export const TWO_NODES = `apiVersion: v1
kind: Node
metadata: {name: node-1}
spec: {podCIDR: 10.244.0.0/24}
status: {addresses: [{type: InternalIP, address: 192.168.1.10}]}
---
apiVersion: v1
kind: Node
metadata: {name: node-2}
spec: {podCIDR: 10.244.1.0/24}
status: {addresses: [{type: InternalIP, address: 192.168.1.11}]}
`;

/** Joins documents with `---`. */
export function docs(...parts: string[]): string {
  return parts.map((p) => p.replace(/\n+$/, '')).join('\n---\n') + '\n';
}

/** `line:col message` for errors (and warnings when asked). */
export function messages(
  list: readonly Diagnostic[],
  severity: Diagnostic['severity'] = 'error',
): string[] {
  return list.filter((d) => d.severity === severity).map((d) => `${d.line}:${d.col} ${d.message}`);
}

/**
 * Experiment scripts: one command per line, written as a terminal transcript's prompt line,
 *
 *     node-1$ iptables -t nat -L KUBE-SERVICES -n
 *     pod/client$ curl -s web:80
 *     pod/kube-system/coredns-abc$ ip route
 *     laptop$ curl 192.168.1.10:30080
 *
 * TARGET is a node name, `pod/NAME` (namespace `default`), `pod/NAMESPACE/NAME`, or an external
 * client's name. `#` comment lines and blank lines are skipped. A command with a here-document
 * (`kubectl apply -f - <<EOF`) is followed by its body lines and its delimiter line. Problems are Diagnostics with
 * 1-based line and column, printed by `kube-proxy-lab check` as `FILE:LINE:COL: message`.
 */
import type { Cluster } from '../model/cluster';
import type { Diagnostic } from '../model/diagnostic';
import type { HostRef } from '../routing/topology';
import { bodyLines, hereDocsOpenedBy } from './script-heredoc';

export type ScriptTarget =
  | { readonly kind: 'pod'; readonly namespace: string; readonly name: string }
  /** A node or an external client: which one is decided against the cluster (resolveTarget). */
  | { readonly kind: 'host'; readonly name: string };

export interface ScriptLine {
  /** 1-based line number in the script text. */
  readonly line: number;
  readonly target: ScriptTarget;
  /** The target as written (`pod/web-1`). */
  readonly targetText: string;
  /** The command line after `$ `. */
  readonly command: string;
  /** 1-based column where the command starts. */
  readonly commandCol: number;
}

export interface ParsedScript {
  readonly lines: readonly ScriptLine[];
  readonly diagnostics: readonly Diagnostic[];
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function error(line: number, col: number, message: string): Diagnostic {
  return { severity: 'error', message, line, col, doc: -1 };
}

function parseTarget(text: string): ScriptTarget | string {
  if (text.startsWith('pod/')) {
    const parts = text.slice(4).split('/');
    if (parts.length === 1 && NAME.test(parts[0] ?? ''))
      return { kind: 'pod', namespace: 'default', name: parts[0] ?? '' };
    if (parts.length === 2 && NAME.test(parts[0] ?? '') && NAME.test(parts[1] ?? '')) {
      return { kind: 'pod', namespace: parts[0] ?? '', name: parts[1] ?? '' };
    }
    return `invalid target "${text}": expected pod/NAME or pod/NAMESPACE/NAME`;
  }
  if (!NAME.test(text))
    return `invalid target "${text}": expected a node name, pod/NAME, pod/NAMESPACE/NAME or an external client's name`;
  return { kind: 'host', name: text };
}

/**
 * Splits a script into target + command lines; never throws. A command that opens a
 * here-document takes the lines after it up to its delimiter as its body (script-heredoc.ts):
 * its `command` holds them after newlines, as the shell reads them.
 */
export function parseScript(text: string): ParsedScript {
  const lines: ScriptLine[] = [];
  const diagnostics: Diagnostic[] = [];
  const raws = text.split('\n').map((raw) => (raw.endsWith('\r') ? raw.slice(0, -1) : raw));
  for (let index = 0; index < raws.length; index++) {
    const lineNo = index + 1;
    const content = raws[index]!;
    const trimmed = content.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indent = content.length - trimmed.length;
    const sep = trimmed.indexOf('$ ');
    const bareDollar = trimmed.endsWith('$') && !trimmed.slice(0, -1).includes(' ');
    if (sep < 0 && !bareDollar) {
      diagnostics.push(
        error(lineNo, indent + 1, 'expected "TARGET$ COMMAND" (e.g. "node-1$ iptables-save")'),
      );
      continue;
    }
    const targetText = bareDollar && sep < 0 ? trimmed.slice(0, -1) : trimmed.slice(0, sep);
    const target = parseTarget(targetText);
    if (typeof target === 'string') {
      diagnostics.push(error(lineNo, indent + 1, target));
      continue;
    }
    const after = sep < 0 ? '' : trimmed.slice(sep + 2);
    let command = after.trim();
    if (command === '') {
      diagnostics.push(
        error(lineNo, indent + targetText.length + 2, `empty command after "${targetText}$"`),
      );
      continue;
    }
    const commandCol = indent + sep + 3 + (after.length - after.trimStart().length);
    const docs = hereDocsOpenedBy(command);
    if (docs.length > 0) {
      const body = bodyLines(raws, index + 1, docs);
      if ('unterminated' in body) {
        const { delimiter, offset } = body.unterminated;
        const message = `here-document has no line "${delimiter}" to end it before the end of the script (bash: delimited by end-of-file)`; // prettier-ignore
        diagnostics.push(error(lineNo, commandCol + offset, message));
        break;
      }
      command = [command, ...raws.slice(index + 1, index + 1 + body.count)].join('\n');
      index += body.count;
    }
    lines.push({ line: lineNo, target, targetText, command, commandCol });
  }
  return { lines, diagnostics };
}

/** Resolves a script target against the cluster: which node, pod or external client it names. */
export function resolveTarget(cluster: Cluster, target: ScriptTarget): HostRef | string {
  if (target.kind === 'pod') {
    const pod = cluster.pods.find(
      (p) => p.meta.namespace === target.namespace && p.meta.name === target.name,
    );
    if (pod === undefined)
      return `pods "${target.name}" not found in namespace "${target.namespace}"`;
    return { kind: 'pod', namespace: target.namespace, name: target.name };
  }
  if (cluster.nodes.some((n) => n.meta.name === target.name))
    return { kind: 'node', name: target.name };
  if (cluster.lab.externalClients.some((c) => c.name === target.name))
    return { kind: 'external', name: target.name };
  return `no node or external client named "${target.name}"`;
}

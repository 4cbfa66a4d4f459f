/**
 * `kubectl get … -o jsonpath=TEMPLATE` over the object `-o json` prints (a List for several),
 * as k8s.io/client-go/util/jsonpath evaluates it with kubectl's defaults: text outside `{…}` as
 * it is; in an action, a path of `.field`, `['field']`, `[N]`, `[*]` and `[?(@.path=="value")]`
 * (also `!=`); `range PATH` … `end`; "string" literals with \n and \t; the results of one action
 * printed separated by spaces — strings as they are, numbers and booleans as Go prints them,
 * objects and lists as compact JSON; a missing key prints nothing (--allow-missing-template-keys
 * defaults to true). No newline is added. Other syntax, and an index out of range (client-go
 * fails with the whole object dumped in Go's syntax), are not modelled and say so.
 */
import type { Json } from './yaml';

type Step =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'index'; readonly n: number }
  | { readonly kind: 'all' }
  | {
      readonly kind: 'filter';
      readonly path: readonly Step[];
      readonly op: '==' | '!=';
      readonly value: string;
    };

type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'path'; readonly steps: readonly Step[] }
  | { readonly kind: 'range'; readonly steps: readonly Step[]; readonly body: readonly Node[] };

class Unsupported extends Error {}

/** `.a.b[0][*]['c'][?(@.x=="y")]` (with or without the leading `@`). */
function parsePath(text: string): Step[] {
  const steps: Step[] = [];
  let s = text.trim();
  if (s.startsWith('@')) s = s.slice(1);
  // Recursive descent (`..name`) and functions are not modelled.
  if (s.includes('..') || (s.includes('(') && !s.includes('[?('))) throw new Unsupported(s);
  const re =
    /^(?:\.([A-Za-z_][\w-]*)|\[(-?\d+)\]|\[\*\]|\['([^']*)'\]|\[\?\(@(\S*?)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)'|(-?[\w.]+))\)\]|\.)/;
  while (s !== '') {
    const m = re.exec(s);
    if (m === null || m[0] === '') throw new Unsupported(s);
    s = s.slice(m[0].length);
    if (m[1] !== undefined) steps.push({ kind: 'field', name: m[1] });
    else if (m[2] !== undefined) steps.push({ kind: 'index', n: Number(m[2]) });
    else if (m[0] === '[*]') steps.push({ kind: 'all' });
    else if (m[3] !== undefined) steps.push({ kind: 'field', name: m[3] });
    else if (m[5] !== undefined) {
      const value = m[6] ?? m[7] ?? m[8] ?? '';
      steps.push({ kind: 'filter', path: parsePath(m[4] ?? ''), op: m[5] as '==' | '!=', value });
    }
    // A lone `.` (the root, `{.}`) selects the current node.
  }
  return steps;
}

/** The template as text and actions, or why it does not parse (client-go's words). */
function parseTemplate(template: string): Node[] | string {
  const root: Node[] = [];
  const stack: { steps: Step[]; body: Node[] }[] = [];
  const out = () => stack.at(-1)?.body ?? root;
  for (let at = 0; at < template.length;) {
    const open = template.indexOf('{', at);
    if (open < 0) {
      out().push({ kind: 'text', text: template.slice(at) });
      break;
    }
    if (open > at) out().push({ kind: 'text', text: template.slice(at, open) });
    const close = template.indexOf('}', open);
    if (close < 0) return 'unclosed action';
    const action = template.slice(open + 1, close).trim();
    at = close + 1;
    const literal = /^"((?:[^"\\]|\\.)*)"$/.exec(action);
    if (literal !== null) {
      const text = literal[1]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c)); // prettier-ignore
      out().push({ kind: 'text', text });
    } else if (action.startsWith('range ')) {
      stack.push({ steps: parsePath(action.slice(6)), body: [] });
    } else if (action === 'end') {
      const r = stack.pop();
      if (r === undefined) return 'not in range, nothing to end';
      out().push({ kind: 'range', steps: r.steps, body: r.body });
    } else out().push({ kind: 'path', steps: parsePath(action) });
  }
  return stack.length > 0 ? 'unclosed range' : root;
}

function walk(values: readonly Json[], steps: readonly Step[]): Json[] {
  let cur: Json[] = [...values];
  for (const step of steps) {
    const next: Json[] = [];
    for (const v of cur) {
      if (step.kind === 'field') {
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
          const o = v as { readonly [key: string]: Json };
          if (Object.hasOwn(o, step.name)) next.push(o[step.name]!);
        }
      } else if (!Array.isArray(v)) continue;
      else if (step.kind === 'index') {
        const item = v[step.n < 0 ? v.length + step.n : step.n];
        // client-go fails here, with the object dumped in Go's syntax: not modelled.
        if (item === undefined) throw new Unsupported(`index ${step.n}`);
        next.push(item);
      } else if (step.kind === 'all') for (const item of v) next.push(item);
      else
        for (const item of v) {
          const got = walk([item], step.path).map(text);
          const hit = got.includes(step.value);
          if (step.op === '==' ? hit : got.length > 0 && !hit) next.push(item);
        }
    }
    cur = next;
  }
  return cur;
}

/** encoding/json's Marshal of an unstructured value: compact, map keys sorted. */
function marshal(v: Json): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(marshal).join(',')}]`;
  const o = v as { readonly [key: string]: Json };
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${marshal(o[k]!)}`).join(',')}}`; // prettier-ignore
}

/** A value as client-go prints it: objects and lists as JSON, the rest as Go's fmt does. */
function text(v: Json): string {
  if (typeof v === 'string') return v;
  if (v === null) return '';
  if (typeof v === 'object') return marshal(v);
  return String(v);
}

function evaluate(nodes: readonly Node[], at: Json): string {
  let out = '';
  for (const n of nodes) {
    if (n.kind === 'text') out += n.text;
    else if (n.kind === 'path') out += walk([at], n.steps).map(text).join(' ');
    else for (const item of walk([at], n.steps)) out += evaluate(n.body, item);
  }
  return out;
}

/** The printed text, or `error` with kubectl's message, or `unsupported`. */
export function jsonpath(
  template: string,
  obj: Json,
): { text: string } | { error: string } | { unsupported: true } {
  try {
    const nodes = parseTemplate(template);
    if (typeof nodes === 'string')
      return { error: `error: error parsing jsonpath ${template}, ${nodes}\n` };
    return { text: evaluate(nodes, obj) };
  } catch (e) {
    if (e instanceof Unsupported) return { unsupported: true };
    throw e;
  }
}

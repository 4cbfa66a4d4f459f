/**
 * Diagnostics in the API server's words.
 *
 * Field errors follow apimachinery's `field.Error` formats (k8s.io/apimachinery/pkg/util/
 * validation/field/errors.go): `<path>: Invalid value: <value>: <detail>`, `Required value`,
 * `Duplicate value`, `Unsupported value: <value>: supported values: "a", "b"`, `Forbidden`,
 * `Not found`. Values print as Go does: strings quoted, numbers and booleans bare, anything
 * else as JSON. A Kubernetes object's errors carry the prefix `kubectl apply` prints,
 * `The Service "web" is invalid: `, one diagnostic per field error so each can point at its
 * own line.
 */
import type { Diagnostic } from '../model/diagnostic';
import type { LineCounter } from 'yaml';

/** Where something is in the scenario text: document index and character offset. */
export interface Loc {
  readonly doc: number;
  readonly offset: number;
}

/** For objects that did not come from the text (re-built from a previous Cluster). */
export const NO_LOC: Loc = { doc: -1, offset: -1 };

export class Diagnostics {
  readonly list: Diagnostic[] = [];
  constructor(private readonly lines: LineCounter | undefined) {}

  add(
    severity: Diagnostic['severity'],
    loc: Loc,
    message: string,
    extra: { object?: string; field?: string } = {},
  ): void {
    let line = 1;
    let col = 1;
    if (this.lines && loc.offset >= 0) {
      const pos = this.lines.linePos(loc.offset);
      line = pos.line;
      col = pos.col;
    }
    const d: Diagnostic = {
      severity,
      message,
      line,
      col,
      doc: loc.doc,
      ...(extra.object !== undefined ? { object: extra.object } : {}),
      ...(extra.field !== undefined ? { field: extra.field } : {}),
    };
    this.list.push(d);
  }

  error(loc: Loc, message: string, extra?: { object?: string; field?: string }): void {
    this.add('error', loc, message, extra);
  }

  warning(loc: Loc, message: string, extra?: { object?: string; field?: string }): void {
    this.add('warning', loc, message, extra);
  }
}

/** Formats a bad value as field.Error.ErrorBody does. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(value);
}

export type FieldErrorKind =
  | { readonly type: 'invalid'; readonly value: unknown; readonly detail: string }
  | { readonly type: 'required'; readonly detail?: string }
  | { readonly type: 'duplicate'; readonly value: unknown }
  | {
      readonly type: 'notSupported';
      readonly value: unknown;
      readonly supported: readonly string[];
    }
  | { readonly type: 'forbidden'; readonly detail: string }
  | { readonly type: 'notFound'; readonly value: unknown };

export function fieldErrorBody(e: FieldErrorKind): string {
  switch (e.type) {
    case 'invalid':
      return `Invalid value: ${formatValue(e.value)}: ${e.detail}`;
    case 'required':
      return e.detail ? `Required value: ${e.detail}` : 'Required value';
    case 'duplicate':
      return `Duplicate value: ${formatValue(e.value)}`;
    case 'notSupported': {
      const list = e.supported.map((s) => JSON.stringify(s)).join(', ');
      return `Unsupported value: ${formatValue(e.value)}${list ? `: supported values: ${list}` : ''}`;
    }
    case 'forbidden':
      return `Forbidden: ${e.detail}`;
    case 'notFound':
      return `Not found: ${formatValue(e.value)}`;
  }
}

/** The OpenAPI schema error the API server returns for a value of the wrong JSON type. */
export function typeErrorDetail(path: string, expected: string, actual: string): FieldErrorKind {
  return {
    type: 'invalid',
    value: actual,
    detail: `${path} in body must be of type ${expected}: ${JSON.stringify(actual)}`,
  };
}

/**
 * Collects the errors of one object (one YAML document). `kind`/`name` make the kubectl prefix;
 * config kinds (KubeProxyConfiguration…) have none, their paths start with the kind instead.
 */
export class ObjectReport {
  errors = 0;
  name = '';
  namespace = '';
  private typeErrors = 0;
  private pending:
    Array<{ offset: number; message: string; field: string; isType: boolean }> | undefined;

  constructor(
    readonly diags: Diagnostics,
    readonly doc: number,
    readonly kind: string,
    readonly prefixed: boolean,
    /**
     * Hold field errors until flush(): when a value has the wrong JSON type the API server
     * fails while decoding and reports nothing else, so other errors are then dropped.
     */
    buffered = false,
  ) {
    if (buffered) this.pending = [];
  }

  get objectLabel(): string {
    if (!this.prefixed) return this.kind;
    return this.namespace
      ? `${this.kind} ${this.namespace}/${this.name}`
      : `${this.kind} ${this.name}`;
  }

  private prefix(): string {
    return this.prefixed ? `The ${this.kind} ${JSON.stringify(this.name)} is invalid: ` : '';
  }

  field(offset: number, path: string, e: FieldErrorKind, isType = false): void {
    this.errors++;
    if (isType) this.typeErrors++;
    const message = `${path}: ${fieldErrorBody(e)}`;
    if (this.pending) this.pending.push({ offset, message, field: path, isType });
    else this.emit(offset, this.prefix() + message, path);
  }

  /** An error not shaped as a field error (e.g. `services "web" already exists`). */
  plain(offset: number, message: string, field?: string): void {
    this.errors++;
    this.diags.error({ doc: this.doc, offset }, message, {
      object: this.objectLabel,
      ...(field !== undefined ? { field } : {}),
    });
  }

  warn(offset: number, message: string, field?: string): void {
    this.diags.warning({ doc: this.doc, offset }, message, {
      object: this.objectLabel,
      ...(field !== undefined ? { field } : {}),
    });
  }

  /** Emits held errors (with the object's final name in the prefix). */
  flush(): void {
    const list = this.pending ?? [];
    this.pending = undefined;
    for (const p of list) {
      if (this.typeErrors > 0 && !p.isType) continue;
      this.emit(p.offset, this.prefix() + p.message, p.field);
    }
  }

  private emit(offset: number, message: string, field: string): void {
    this.diags.error({ doc: this.doc, offset }, message, { object: this.objectLabel, field });
  }
}

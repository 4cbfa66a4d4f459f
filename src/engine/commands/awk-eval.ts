/**
 * awk's expressions evaluated as mawk 1.3.4 evaluates them, over the state a run keeps: the
 * record and its fields (assigning a field rebuilds $0 with OFS; assigning NF cuts or pads),
 * the globals (a variable never set is "" and 0 at once), arrays (awk-array.ts) and the
 * special variables NR, NF, FNR. Statements and the input loop: awk-run.ts.
 */
import { AwkArray, type Cell } from './awk-array';
import type { Expr, LValue } from './awk-ast';
import { callBuiltin } from './awk-builtins';
import { awkSprintf } from './awk-printf';
import { ere, splitByRegex } from './awk-regex';
import { looksNumeric, numberToText, StrNum, toNumber, UNSET, type Value } from './awk-value';

/** mawk's run-time errors: "mawk: run time error: MESSAGE" and where it was. */
export class AwkRuntimeError extends Error {}

/** A function's frame: its parameters (values, or arrays passed by reference). */
export type Frame = Map<string, Value | AwkArray>;

export abstract class Evaluator {
  readonly globals = new Map<string, Value | AwkArray>();
  record = '';
  fields: string[] = [];
  nr = 0;
  fnr = 0;
  filename = '';
  stdout = '';
  stderr = '';
  protected frame: Frame | undefined;

  /** The next input record, or undefined at the end (getline). */
  protected abstract nextRecord(): string | undefined;
  protected abstract callUser(name: string, args: readonly Expr[]): Value;

  text(v: Value): string {
    if (typeof v !== 'number') return typeof v === 'string' ? v : v.s;
    return numberToText(v, this.textOf('CONVFMT'), (f, x) => this.sprintf(f, [x]));
  }
  /** print's text for a value: numbers through OFMT. */
  outputText(v: Value): string {
    if (typeof v !== 'number') return this.text(v);
    return numberToText(v, this.textOf('OFMT'), (f, x) => this.sprintf(f, [x]));
  }
  textOf(name: string): string {
    return this.text(this.get(name));
  }
  /** sprintf, or printf's text (`dest` set): printf writes what it made before an error. */
  sprintf(format: string, args: readonly Value[], dest?: 'stdout' | 'stderr'): string {
    const who = dest === undefined ? 'sprintf' : 'printf';
    return awkSprintf(
      format,
      args,
      (v) => this.text(v),
      (partial, problem) => {
        // printf has written what came before the conversion it stopped at.
        if (dest === 'stderr') this.stderr += partial;
        else if (dest === 'stdout') this.stdout += partial;
        if (problem === 'missing') throw new AwkRuntimeError(`not enough arguments passed to ${who}("${format}")`); // prettier-ignore
        throw new AwkRuntimeError(`improper conversion(number ${problem.improper}) in ${who}("${format}")`); // prettier-ignore
      },
    );
  }

  truthy(v: Value): boolean {
    if (typeof v === 'number') return v !== 0;
    if (typeof v === 'string') return v !== '';
    return looksNumeric(v) ? toNumber(v) !== 0 : v.s !== '';
  }

  /** FS's split of a record: a blank splits on runs of blanks, one other character on itself. */
  splitWith(text: string, sep: string): string[] {
    if (sep === ' ') return text.split(/[ \t\n]+/).filter((f) => f !== '');
    if (text === '') return [];
    if (sep === '') return [...text];
    return sep.length === 1 && sep !== '\\' ? text.split(sep) : splitByRegex(text, ere(sep));
  }

  setRecord(text: string): void {
    this.record = text;
    this.fields = this.splitWith(text, this.textOf('FS'));
  }

  private rebuild(): void {
    this.record = this.fields.join(this.textOf('OFS'));
  }

  get(name: string): Value {
    if (name === 'NF') return this.fields.length;
    if (name === 'NR') return this.nr;
    if (name === 'FNR') return this.fnr;
    if (name === 'FILENAME') return this.filename;
    const v = this.frame?.has(name) ? this.frame.get(name) : this.globals.get(name);
    if (v instanceof AwkArray) throw new AwkRuntimeError(`can't use array ${name} in scalar context`); // prettier-ignore
    return v ?? UNSET;
  }

  set(name: string, v: Value): void {
    if (name === 'NF') {
      const n = Math.trunc(toNumber(v));
      if (n < 0) throw new AwkRuntimeError('negative value assigned to NF');
      this.fields = this.fields.slice(0, n);
      while (this.fields.length < n) this.fields.push('');
      this.rebuild();
    } else if (name === 'NR') this.nr = toNumber(v);
    else if (name === 'FNR') this.fnr = toNumber(v);
    else if (this.frame?.has(name)) this.frame.set(name, v);
    else this.globals.set(name, v);
  }

  /** The array `name` holds now, if it holds one (length(a) counts its elements). */
  heldArray(name: string): AwkArray | undefined {
    const held = this.frame?.has(name) ? this.frame.get(name) : this.globals.get(name);
    return held instanceof AwkArray ? held : undefined;
  }

  array(name: string): AwkArray {
    const scope = this.frame?.has(name) ? this.frame : this.globals;
    const a = scope.get(name);
    if (a instanceof AwkArray) return a;
    const made = new AwkArray();
    scope.set(name, made);
    return made;
  }

  private convfmt = (x: number) => this.sprintf(this.textOf('CONVFMT'), [x]);

  subscript(subs: readonly Expr[]): Value {
    if (subs.length === 1) return this.value(subs[0]!);
    return subs.map((s) => this.text(this.value(s))).join(this.textOf('SUBSEP'));
  }

  element(name: string, subs: readonly Expr[]): Cell {
    return this.array(name).find(this.subscript(subs), true, this.convfmt)!;
  }

  has(name: string, subs: readonly Expr[]): boolean {
    return this.array(name).find(this.subscript(subs), false, this.convfmt) !== undefined;
  }

  remove(name: string, subs: readonly Expr[] | undefined): void {
    if (subs === undefined) this.array(name).clear();
    else this.array(name).delete(this.subscript(subs), this.convfmt);
  }

  field(n: number): Value {
    if (n < 0) throw new AwkRuntimeError(`negative field index $${n}`);
    return new StrNum(n === 0 ? this.record : (this.fields[n - 1] ?? ''));
  }

  setField(n: number, text: string): void {
    if (n < 0) throw new AwkRuntimeError(`negative field index $${n}`);
    if (n === 0) return this.setRecord(text);
    while (this.fields.length < n) this.fields.push('');
    this.fields[n - 1] = text;
    this.rebuild();
  }

  read(target: LValue): Value {
    if (target.k === 'var') return this.get(target.name);
    if (target.k === 'index') return this.element(target.name, target.subs).v;
    return this.field(Math.trunc(toNumber(this.value(target.e))));
  }

  /** Stores `v` (a field keeps its text only); `fieldIndex` saves evaluating `$e` twice. */
  assign(target: LValue, v: Value, fieldIndex?: number): Value {
    if (target.k === 'var') this.set(target.name, v);
    else if (target.k === 'index') this.element(target.name, target.subs).v = v;
    else this.setField(fieldIndex ?? Math.trunc(toNumber(this.value(target.e))), this.text(v));
    return v;
  }

  matches(text: Value, re: Expr): boolean {
    const regex = re.k === 're' ? ere(re.src) : ere(this.text(this.value(re)));
    return regex.test(this.text(text));
  }

  value(e: Expr): Value {
    switch (e.k) {
      case 'num':
      case 'str':
        return e.v;
      case 're':
        return this.matches(new StrNum(this.record), e) ? 1 : 0;
      case 'field':
        return this.field(Math.trunc(toNumber(this.value(e.e))));
      case 'var':
        return this.get(e.name);
      case 'index':
        return this.element(e.name, e.subs).v;
      case 'in':
        return this.has(e.name, e.subs) ? 1 : 0;
      case 'neg':
        return -toNumber(this.value(e.e));
      case 'plus':
        return toNumber(this.value(e.e));
      case 'not':
        return this.truthy(this.value(e.e)) ? 0 : 1;
      case 'bin':
        return arithmetic(e.op, toNumber(this.value(e.l)), toNumber(this.value(e.r)));
      case 'cmp':
        return this.compare(e.op, this.value(e.l), this.value(e.r)) ? 1 : 0;
      case 'match':
        return this.matches(this.value(e.l), e.r) !== e.neg ? 1 : 0;
      case 'and':
        return this.truthy(this.value(e.l)) && this.truthy(this.value(e.r)) ? 1 : 0;
      case 'or':
        return this.truthy(this.value(e.l)) || this.truthy(this.value(e.r)) ? 1 : 0;
      case 'concat':
        return this.text(this.value(e.l)) + this.text(this.value(e.r));
      case 'cond':
        return this.truthy(this.value(e.c)) ? this.value(e.t) : this.value(e.f);
      case 'assign': {
        const fieldIndex = e.target.k === 'field' ? Math.trunc(toNumber(this.value(e.target.e))) : undefined; // prettier-ignore
        const v = this.value(e.e);
        if (e.op === '=') return this.assign(e.target, v, fieldIndex);
        const old = toNumber(
          fieldIndex === undefined ? this.read(e.target) : this.field(fieldIndex),
        );
        return this.assign(e.target, arithmetic(e.op.slice(0, 1), old, toNumber(v)), fieldIndex);
      }
      case 'incdec': {
        const fieldIndex = e.target.k === 'field' ? Math.trunc(toNumber(this.value(e.target.e))) : undefined; // prettier-ignore
        const old = toNumber(
          fieldIndex === undefined ? this.read(e.target) : this.field(fieldIndex),
        );
        const now = e.op === '++' ? old + 1 : old - 1;
        this.assign(e.target, now, fieldIndex);
        return e.prefix ? now : old;
      }
      case 'call':
        return callBuiltin(this, e.name, e.args);
      case 'ucall':
        return this.callUser(e.name, e.args);
      case 'getline': {
        const line = this.nextRecord();
        if (line === undefined) return 0;
        this.nr++;
        this.fnr++;
        if (e.target === undefined) this.setRecord(line);
        else this.assign(e.target, new StrNum(line));
        return 1;
      }
    }
  }

  compare(op: string, a: Value, b: Value): boolean {
    let c: number;
    if (looksNumeric(a) && looksNumeric(b)) {
      const x = toNumber(a);
      const y = toNumber(b);
      c = x < y ? -1 : x > y ? 1 : 0;
    } else {
      const x = this.text(a);
      const y = this.text(b);
      c = x < y ? -1 : x > y ? 1 : 0;
    }
    return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '==' ? c === 0 : op === '!=' ? c !== 0 : op === '>=' ? c >= 0 : c > 0; // prettier-ignore
  }
}

function arithmetic(op: string, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    default:
      return a ** b;
  }
}

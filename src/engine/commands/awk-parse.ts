/**
 * The awk the lab runs, parsed: pattern-action items (`BEGIN`, `END`, an expression, a
 * /regex/), actions of `print`, `printf`, assignments (`=`, `+=`…, `++`, `--`), `if`/`else`,
 * `next` and blocks; expressions with fields, variables (NR, NF, FS, OFS, ORS and the user's),
 * numbers, strings, arithmetic (`+ - * / % ^`), concatenation, comparisons, `~`/`!~`, `! && ||`,
 * `?:`, parentheses and `length`. Anything else (arrays, other functions, getline, output
 * redirection, range patterns, field assignment…) is not parsed: the caller says it is not
 * modelled, rather than run it differently from mawk.
 */

import { ere, tokenize, Unsupported, type Tok } from './awk-lex';

export type Expr =
  | { readonly k: 'num'; readonly v: number }
  | { readonly k: 'str'; readonly v: string }
  | { readonly k: 're'; readonly re: RegExp }
  | { readonly k: 'field'; readonly e: Expr }
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'neg' | 'plus' | 'not'; readonly e: Expr }
  | { readonly k: 'bin'; readonly op: string; readonly l: Expr; readonly r: Expr }
  | { readonly k: 'cmp'; readonly op: string; readonly l: Expr; readonly r: Expr }
  | { readonly k: 'match'; readonly neg: boolean; readonly l: Expr; readonly r: Expr }
  | { readonly k: 'and' | 'or' | 'concat'; readonly l: Expr; readonly r: Expr }
  | { readonly k: 'cond'; readonly c: Expr; readonly t: Expr; readonly f: Expr }
  | { readonly k: 'assign'; readonly op: string; readonly name: string; readonly e: Expr }
  | { readonly k: 'incdec'; readonly op: '++' | '--'; readonly prefix: boolean; readonly name: string } // prettier-ignore
  | { readonly k: 'length'; readonly e: Expr | undefined };

export type Stmt =
  | { readonly k: 'print' | 'printf'; readonly args: readonly Expr[] }
  | { readonly k: 'expr'; readonly e: Expr }
  | { readonly k: 'if'; readonly c: Expr; readonly t: Stmt; readonly f: Stmt | undefined }
  | { readonly k: 'next' }
  | { readonly k: 'block'; readonly body: readonly Stmt[] };

export interface Item {
  readonly pattern: 'BEGIN' | 'END' | Expr | undefined;
  /** undefined: print $0. */
  readonly action: Stmt | undefined;
}

/** Variables a program may assign (awk's others change how input is read or numbers print). */
const ASSIGNABLE = /^(?!(NR|NF|FNR|RS|CONVFMT|OFMT|SUBSEP|RSTART|RLENGTH|FILENAME|ENVIRON|ARGC|ARGV)$)[A-Za-z_]\w*$/; // prettier-ignore
const KEYWORDS = new Set(['BEGIN', 'END', 'print', 'printf', 'if', 'else', 'next', 'length']);
class Parser {
  private at = 0;
  constructor(private readonly toks: readonly Tok[]) {}

  private peek(): Tok | undefined {
    return this.toks[this.at];
  }
  private is(v: string): boolean {
    const t = this.peek();
    return t !== undefined && t.t === 'op' && t.v === v;
  }
  private word(v: string): boolean {
    const t = this.peek();
    return t !== undefined && t.t === 'name' && t.v === v;
  }
  private eat(v: string): void {
    if (!this.is(v)) throw new Unsupported();
    this.at++;
  }
  private newlines(): void {
    while (this.peek()?.t === 'nl') this.at++;
  }
  private terminators(): void {
    while (this.peek()?.t === 'nl' || this.is(';')) this.at++;
  }

  program(): Item[] {
    const items: Item[] = [];
    this.terminators();
    while (this.peek() !== undefined) {
      let pattern: Item['pattern'];
      if (this.word('BEGIN') || this.word('END')) {
        pattern = (this.toks[this.at++] as { v: 'BEGIN' | 'END' }).v;
        this.newlines();
        if (!this.is('{')) throw new Unsupported();
      } else if (!this.is('{')) pattern = this.expr(false);
      if (this.is(',')) throw new Unsupported(); // range patterns
      const action = this.is('{') ? this.block() : undefined;
      items.push({ pattern, action });
      this.terminators();
    }
    return items;
  }

  private block(): Stmt {
    this.eat('{');
    const body: Stmt[] = [];
    this.terminators();
    while (!this.is('}')) {
      if (this.peek() === undefined) throw new Unsupported();
      body.push(this.stmt());
      this.terminators();
    }
    this.eat('}');
    return { k: 'block', body };
  }

  private simpleEnd(): void {
    if (!(this.is(';') || this.is('}') || this.peek()?.t === 'nl' || this.peek() === undefined))
      throw new Unsupported();
  }

  private stmt(): Stmt {
    if (this.is('{')) return this.block();
    if (this.word('print') || this.word('printf')) {
      const k = (this.toks[this.at++] as { v: 'print' | 'printf' }).v;
      const args: Expr[] = [];
      if (!(this.is(';') || this.is('}') || this.peek()?.t === 'nl' || this.peek() === undefined)) {
        args.push(this.expr(true));
        while (this.is(',')) {
          this.at++;
          this.newlines();
          args.push(this.expr(true));
        }
      }
      this.simpleEnd(); // `> file`, `| cmd`: not modelled
      if (k === 'printf' && args.length === 0) throw new Unsupported();
      return { k, args };
    }
    if (this.word('next')) {
      this.at++;
      this.simpleEnd();
      return { k: 'next' };
    }
    if (this.word('if')) {
      this.at++;
      this.eat('(');
      const c = this.expr(false);
      this.eat(')');
      this.newlines();
      const t = this.stmt();
      const save = this.at;
      this.terminators();
      if (this.word('else')) {
        this.at++;
        this.newlines();
        return { k: 'if', c, t, f: this.stmt() };
      }
      this.at = save;
      return { k: 'if', c, t, f: undefined };
    }
    const e = this.expr(false);
    this.simpleEnd();
    return { k: 'expr', e };
  }

  /** An expression; in print's list (`noGt`) a bare `>` would be output redirection. */
  expr(noGt: boolean): Expr {
    const t = this.peek();
    const next = this.toks[this.at + 1];
    if (
      t?.t === 'name' &&
      next?.t === 'op' &&
      ['=', '+=', '-=', '*=', '/=', '%=', '^='].includes(next.v)
    ) {
      if (!ASSIGNABLE.test(t.v) || KEYWORDS.has(t.v)) throw new Unsupported();
      this.at += 2;
      this.newlines();
      return { k: 'assign', op: next.v, name: t.v, e: this.expr(noGt) };
    }
    return this.ternary(noGt);
  }

  private ternary(noGt: boolean): Expr {
    const c = this.or(noGt);
    if (!this.is('?')) return c;
    this.at++;
    const t = this.ternary(noGt);
    this.eat(':');
    return { k: 'cond', c, t, f: this.ternary(noGt) };
  }

  private or(noGt: boolean): Expr {
    let l = this.and(noGt);
    while (this.is('||')) {
      this.at++;
      this.newlines();
      l = { k: 'or', l, r: this.and(noGt) };
    }
    return l;
  }

  private and(noGt: boolean): Expr {
    let l = this.matching(noGt);
    while (this.is('&&')) {
      this.at++;
      this.newlines();
      l = { k: 'and', l, r: this.matching(noGt) };
    }
    return l;
  }

  private matching(noGt: boolean): Expr {
    let l = this.comparison(noGt);
    while (this.is('~') || this.is('!~')) {
      const neg = (this.toks[this.at++] as { v: string }).v === '!~';
      l = { k: 'match', neg, l, r: this.comparison(noGt) };
    }
    return l;
  }

  private comparison(noGt: boolean): Expr {
    const l = this.concat();
    const t = this.peek();
    if (t?.t === 'op' && ['<', '<=', '==', '!=', '>=', '>'].includes(t.v)) {
      if (noGt && t.v === '>') throw new Unsupported();
      this.at++;
      return { k: 'cmp', op: t.v, l, r: this.concat() };
    }
    return l;
  }

  /** Concatenation: operands side by side, while the next token can start one. */
  private concat(): Expr {
    let l = this.additive();
    for (;;) {
      const t = this.peek();
      const starts = t !== undefined && (t.t === 'num' || t.t === 'str' || t.t === 're' || (t.t === 'name' && !['else'].includes(t.v)) || (t.t === 'op' && ['$', '(', '!', '-', '+', '++', '--'].includes(t.v))); // prettier-ignore
      // `a - b` is a subtraction and `a !b`… not a concatenation mawk accepts: leave those out.
      if (!starts || (t.t === 'op' && ['!', '-', '+'].includes(t.v))) return l;
      l = { k: 'concat', l, r: this.additive() };
    }
  }

  private additive(): Expr {
    let l = this.multiplicative();
    while (this.is('+') || this.is('-')) {
      const op = (this.toks[this.at++] as { v: string }).v;
      l = { k: 'bin', op, l, r: this.multiplicative() };
    }
    return l;
  }

  private multiplicative(): Expr {
    let l = this.unary();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const op = (this.toks[this.at++] as { v: string }).v;
      l = { k: 'bin', op, l, r: this.unary() };
    }
    return l;
  }

  private unary(): Expr {
    if (this.is('!')) return (this.at++, { k: 'not', e: this.unary() });
    if (this.is('-')) return (this.at++, { k: 'neg', e: this.unary() });
    if (this.is('+')) return (this.at++, { k: 'plus', e: this.unary() });
    return this.power();
  }

  private power(): Expr {
    const l = this.postfix();
    if (!this.is('^')) return l;
    this.at++;
    // Right-associative, and binds tighter than unary minus on its left only.
    return { k: 'bin', op: '^', l, r: this.is('-') ? (this.at++, { k: 'neg', e: this.power() }) : this.power() }; // prettier-ignore
  }

  private postfix(): Expr {
    if (this.is('++') || this.is('--')) {
      const op = (this.toks[this.at++] as { v: '++' | '--' }).v;
      const t = this.peek();
      if (t?.t !== 'name' || !ASSIGNABLE.test(t.v) || KEYWORDS.has(t.v)) throw new Unsupported();
      this.at++;
      return { k: 'incdec', op, prefix: true, name: t.v };
    }
    const e = this.primary();
    if ((this.is('++') || this.is('--')) && e.k === 'var') {
      if (!ASSIGNABLE.test(e.name)) throw new Unsupported();
      const op = (this.toks[this.at++] as { v: '++' | '--' }).v;
      return { k: 'incdec', op, prefix: false, name: e.name };
    }
    return e;
  }

  private primary(): Expr {
    const t = this.toks[this.at++];
    if (t === undefined || t.t === 'nl') throw new Unsupported();
    if (t.t === 'num') return { k: 'num', v: t.v };
    if (t.t === 'str') return { k: 'str', v: t.v };
    if (t.t === 're') return { k: 're', re: ere(t.v) };
    if (t.t === 'name') {
      if (t.v === 'length') {
        if (!this.is('(')) return { k: 'length', e: undefined };
        this.at++;
        const e = this.is(')') ? undefined : this.expr(false);
        this.eat(')');
        return { k: 'length', e };
      }
      if (KEYWORDS.has(t.v) || this.is('[') || this.is('(')) throw new Unsupported();
      return { k: 'var', name: t.v };
    }
    if (t.v === '$') {
      if (this.is('++') || this.is('--') || this.is('-')) throw new Unsupported();
      const e = this.primary();
      if (this.is('=') || this.is('+=') || this.is('-=') || this.is('++') || this.is('--'))
        throw new Unsupported(); // field assignment
      return { k: 'field', e };
    }
    if (t.v === '(') {
      const e = this.expr(false);
      if (this.is(',')) throw new Unsupported(); // (a, b) in arr
      this.eat(')');
      return e;
    }
    throw new Unsupported();
  }
}

/** The program's items, or undefined when it uses what the lab does not model. */
export function parseAwk(src: string): Item[] | undefined {
  try {
    return new Parser(tokenize(src)).program();
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

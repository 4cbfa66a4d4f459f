/**
 * awk expressions by mawk's grammar (parse.y), lowest precedence first: assignment and `?:`
 * (right), `||`, `&&`, `in`, `~ !~`, comparisons, concatenation, `+ -`, `* / %`, unary
 * `! - +`, `^` (right), `++ --`, `$`. A name's kind is fixed by its first use, as mawk fixes
 * it: using an array as a scalar or the reverse is mawk's "illegal reference" error.
 */
import type { Expr, LValue } from './awk-ast';
import { AwkSyntaxError, KEYWORDS, Unsupported, type Tok } from './awk-lex';
import { ere } from './awk-regex';

/** Built-ins the lab runs, with mawk's argument counts (bi_funct.c's table). */
const BUILTINS: Record<string, [number, number]> = { length: [0, 1], substr: [2, 3], index: [2, 2], split: [2, 3], sub: [2, 3], gsub: [2, 3], match: [2, 2], sprintf: [1, 255], sin: [1, 1], cos: [1, 1], atan2: [2, 2], exp: [1, 1], log: [1, 1], sqrt: [1, 1], int: [1, 1], tolower: [1, 1], toupper: [1, 1] }; // prettier-ignore
/** Built-ins whose results the lab cannot give as mawk would (time, randomness, processes). */
const UNMODELLED = new Set(['rand', 'srand', 'system', 'close', 'fflush', 'nextfile', 'ENVIRON', 'ARGV', 'ARGC']); // prettier-ignore
const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '^=']);

export class ExprParser {
  protected at = 0;
  /** Each global name's kind once used; a function's parameters are its own. */
  protected readonly kinds = new Map<string, 'array' | 'scalar'>();
  protected locals: ReadonlySet<string> = new Set();
  /** In print's list a bare `>` redirects output rather than compares. */
  protected noGt = false;
  protected noIn = false;
  /** Calls of the user's functions, checked against their definitions once all are read. */
  protected readonly calls: { name: string; args: number; line: number }[] = [];

  constructor(protected readonly toks: readonly Tok[]) {}

  /** The token being read (where a complaint without its own position stands). */
  get position(): number {
    return this.at;
  }

  protected peek(): Tok {
    return this.toks[this.at]!;
  }
  protected is(v: string): boolean {
    const t = this.peek();
    return t.t === 'op' && t.v === v;
  }
  protected word(v: string): boolean {
    const t = this.peek();
    return t.t === 'name' && t.v === v;
  }
  /** mawk's message for an unexpected token. */
  protected fail(t: Tok = this.peek()): never {
    // mawk names no text for `~` (its MATCH token).
    const near = t.t === 'op' && t.v === '~' ? '' : t.t === 'nl' ? 'end of line' : t.t === 'eof' ? 'end of file' : t.t === 'str' ? `"${t.v}"` : t.t === 're' ? `/${t.v}/` : t.v; // prettier-ignore
    throw new AwkSyntaxError(`line ${t.line}: syntax error at or near ${near}`, this.toks.indexOf(t)); // prettier-ignore
  }
  protected eat(v: string): void {
    if (!this.is(v)) this.fail();
    this.at++;
  }
  protected newlines(): void {
    while (this.peek().t === 'nl') this.at++;
  }

  /** Records `name` as used as `kind`; mawk refuses the other use later. */
  protected use(name: string, kind: 'array' | 'scalar', line: number): void {
    if (this.locals.has(name)) return;
    const was = this.kinds.get(name);
    if (was !== undefined && was !== kind)
      throw new AwkSyntaxError(`line ${line}: illegal reference to ${was === 'array' ? 'array' : 'variable'} ${name}`); // prettier-ignore
    this.kinds.set(name, kind);
  }

  expr(): Expr {
    const l = this.ternary();
    const t = this.peek();
    if (this.is('|')) throw new Unsupported(); // `"cmd" | getline`: the lab runs no commands
    if (t.t === 'op' && ASSIGN_OPS.has(t.v)) {
      // Only a variable, an element or a field is assigned (`x a = b` is an error).
      if (l.k !== 'var' && l.k !== 'index' && l.k !== 'field') this.fail();
      // mawk reads records separated by RS (paragraphs, any regex); the lab reads lines only.
      if (l.k === 'var' && l.name === 'RS') throw new Unsupported();
      this.at++;
      this.newlines();
      return { k: 'assign', op: t.v, target: l, e: this.expr() };
    }
    return l;
  }

  private ternary(): Expr {
    const c = this.binary(0);
    if (!this.is('?')) return c;
    this.at++;
    this.newlines();
    const t = this.expr();
    this.newlines();
    this.eat(':');
    this.newlines();
    return { k: 'cond', c, t, f: this.expr() };
  }

  /** Levels 0 `||`, 1 `&&`, 2 `in`, 3 `~`, 4 comparison, then concatenation. */
  private binary(level: number): Expr {
    if (level === 5) return this.concat();
    let l = this.binary(level + 1);
    for (;;) {
      const t = this.peek();
      if (level === 0 && this.is('||')) {
        this.at++;
        this.newlines();
        l = { k: 'or', l, r: this.binary(1) };
      } else if (level === 1 && this.is('&&')) {
        this.at++;
        this.newlines();
        l = { k: 'and', l, r: this.binary(2) };
      } else if (level === 2 && this.word('in') && !this.noIn) {
        this.at++;
        l = { k: 'in', subs: [l], name: this.arrayName() };
      } else if (level === 3 && (this.is('~') || this.is('!~'))) {
        this.at++;
        l = { k: 'match', neg: t.v === '!~', l, r: this.binary(4) };
      } else if (level === 4 && t.t === 'op' && ['<', '<=', '==', '!=', '>=', '>'].includes(t.v)) {
        if (this.noGt && t.v === '>') return l;
        this.at++;
        // Left-associative, as in mawk: 1 < 2 < 3 compares (1 < 2) with 3.
        l = { k: 'cmp', op: t.v, l, r: this.concat() };
      } else return l;
    }
  }

  protected arrayName(): string {
    const t = this.peek();
    if (t.t !== 'name' || KEYWORDS.has(t.v) || t.v in BUILTINS) this.fail();
    this.at++;
    this.use(t.v, 'array', t.line);
    return t.v;
  }

  private startsOperand(): boolean {
    const t = this.peek();
    if (t.t === 'num' || t.t === 'str' || t.t === 're' || t.t === 'func') return true;
    if (t.t === 'name') return !KEYWORDS.has(t.v) || t.v === 'getline';
    return t.t === 'op' && ['$', '(', '++', '--', '-', '+', '!'].includes(t.v);
  }

  private concat(): Expr {
    let l = this.arithmetic(0);
    // `a -1` subtracts; `a !b` concatenates a and !b (`$1 !/x/` is true for most lines).
    while (this.startsOperand() && !(this.is('-') || this.is('+')))
      l = { k: 'concat', l, r: this.arithmetic(0) };
    return l;
  }

  /** `+ -` (level 0) over `* / %` (level 1), both left-associative. */
  private arithmetic(level: 0 | 1): Expr {
    const ops = level === 0 ? ['+', '-'] : ['*', '/', '%'];
    const operand = () => (level === 0 ? this.arithmetic(1) : this.unary());
    let l = operand();
    while (ops.some((o) => this.is(o))) {
      const op = this.toks[this.at++]!.v;
      l = { k: 'bin', op, l, r: operand() };
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
    // Right-associative; a unary minus may start the exponent (2^-1).
    const r: Expr = this.is('-') ? (this.at++, { k: 'neg', e: this.power() }) : this.power();
    return { k: 'bin', op: '^', l, r };
  }

  private postfix(): Expr {
    if (this.is('++') || this.is('--')) {
      const op = this.toks[this.at++]!.v as '++' | '--';
      const target = this.primary();
      if (target.k !== 'var' && target.k !== 'index' && target.k !== 'field') this.fail();
      return { k: 'incdec', op, prefix: true, target };
    }
    const e = this.primary();
    if ((this.is('++') || this.is('--')) && (e.k === 'var' || e.k === 'index' || e.k === 'field')) {
      const op = this.toks[this.at++]!.v as '++' | '--';
      return { k: 'incdec', op, prefix: false, target: e };
    }
    return e;
  }

  protected exprList(close: string): Expr[] {
    const list: Expr[] = [];
    if (this.is(close)) return list;
    const [gt, inn] = [this.noGt, this.noIn];
    this.noGt = this.noIn = false;
    list.push(this.expr());
    while (this.is(',')) {
      this.at++;
      this.newlines();
      list.push(this.expr());
    }
    [this.noGt, this.noIn] = [gt, inn];
    return list;
  }

  protected primary(): Expr {
    const t = this.toks[this.at++]!;
    if (t.t === 'num') return { k: 'num', v: Number(t.v) };
    if (t.t === 'str') return { k: 'str', v: t.v };
    if (t.t === 're') return (ere(t.v), { k: 're', src: t.v });
    if (t.t === 'func') return this.call(t);
    if (t.t === 'name') {
      if (t.v === 'getline') {
        if (this.is('<')) throw new Unsupported(); // getline < file
        const target = this.startsOperand() && (this.peek().t === 'name' || this.is('$')) ? this.primary() : undefined; // prettier-ignore
        if (target !== undefined && target.k !== 'var' && target.k !== 'index' && target.k !== 'field') this.fail(); // prettier-ignore
        if (this.is('<')) throw new Unsupported();
        return { k: 'getline', target };
      }
      if (UNMODELLED.has(t.v)) throw new Unsupported();
      if (t.v === 'length') return { k: 'call', name: 'length', args: [] };
      if (KEYWORDS.has(t.v) || t.v in BUILTINS) this.fail(t);
      if (this.is('[')) {
        this.at++;
        this.use(t.v, 'array', t.line);
        const subs = this.exprList(']');
        if (subs.length === 0) this.fail();
        this.eat(']');
        return { k: 'index', name: t.v, subs };
      }
      this.use(t.v, 'scalar', t.line);
      return { k: 'var', name: t.v };
    }
    if (t.t === 'op' && t.v === '$') {
      const e = this.is('++') || this.is('--') || this.is('-') ? this.unary() : this.primary();
      // mawk reads `$NF++` as `$(NF++)`: a variable's ++ or -- binds before the `$`.
      if ((e.k === 'var' || e.k === 'index') && (this.is('++') || this.is('--'))) {
        const op = this.toks[this.at++]!.v as '++' | '--';
        return { k: 'field', e: { k: 'incdec', op, prefix: false, target: e } };
      }
      return { k: 'field', e };
    }
    if (t.t === 'op' && t.v === '(') {
      const list = this.exprList(')');
      if (!this.is(')')) throw new AwkSyntaxError(`line ${this.peek().line}: missing ) near ${this.peek().t === 'nl' ? 'end of line' : this.peek().v}`); // prettier-ignore
      this.at++;
      if (list.length === 1) return list[0]!;
      // (i, j) in array
      if (list.length === 0 || !this.word('in')) this.fail();
      this.at++;
      return { k: 'in', subs: list, name: this.arrayName() };
    }
    return this.fail(t);
  }

  private call(t: Tok): Expr {
    if (UNMODELLED.has(t.v)) throw new Unsupported();
    this.eat('(');
    const name = t.v;
    const line = t.line;
    const args: Expr[] = [];
    if (!this.is(')'))
      for (;;) {
        this.newlines();
        // split's second argument and sub/gsub's third are names, not values.
        const next = this.toks[this.at + 1]!;
        const bare = this.peek().t === 'name' && next.t === 'op' && (next.v === ',' || next.v === ')'); // prettier-ignore
        if (name === 'split' && args.length === 1) args.push({ k: 'var', name: this.arrayName() });
        // A bare name given to a user's function may be an array (passed by reference), and
        // length(a) of an array counts its elements: neither fixes the name as a scalar.
        else if (
          bare &&
          !(name in BUILTINS && !(name === 'length' && this.kinds.get(this.peek().v) === 'array'))
        )
          // prettier-ignore
          args.push({ k: 'var', name: this.toks[this.at++]!.v });
        else args.push(this.exprListItem());
        if (!this.is(',')) break;
        this.at++;
      }
    if (!this.is(')')) this.fail();
    this.at++;
    const counts = BUILTINS[name];
    if (counts === undefined) {
      this.calls.push({ name, args: args.length, line });
      return { k: 'ucall', name, args };
    }
    if (args.length < counts[0] || args.length > counts[1])
      throw new AwkSyntaxError(`line ${line}: wrong number of arguments in call to ${name}`);
    if ((name === 'sub' || name === 'gsub') && args[2] !== undefined && !['var', 'index', 'field'].includes(args[2].k)) this.fail(); // prettier-ignore
    return { k: 'call', name, args };
  }

  private exprListItem(): Expr {
    const [gt, inn] = [this.noGt, this.noIn];
    this.noGt = this.noIn = false;
    const e = this.expr();
    [this.noGt, this.noIn] = [gt, inn];
    return e;
  }

  /** An lvalue for `getline var`, `for (k in a)` and the like. */
  protected lvalue(e: Expr): LValue {
    if (e.k !== 'var' && e.k !== 'index' && e.k !== 'field') this.fail();
    return e;
  }
}

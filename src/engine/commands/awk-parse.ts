/**
 * awk programs as mawk 1.3.4 parses them: pattern-action rules (BEGIN, END, an expression, a
 * range `from, to`), user functions, and statements (print/printf with `> "/dev/stderr"`, if,
 * while, do, for, for-in, delete, next, exit, return, break, continue, blocks); expressions
 * in awk-parse-expr.ts. A program mawk refuses gets mawk's message (AwkSyntaxError); one using
 * what the lab does not model (output to files or commands, getline from them) Unsupported.
 */
import type { AwkFunction, Dest, Expr, Pattern, Program, Rule, Stmt } from './awk-ast';
import { AwkSyntaxError, inMawksOrder, KEYWORDS, Unsupported, tokenize } from './awk-lex';
import { ExprParser } from './awk-parse-expr';

class Parser extends ExprParser {
  private loops = 0;
  private inFunction = false;
  private inBeginEnd = false;

  private terminators(): void {
    while (this.peek().t === 'nl' || this.is(';')) this.at++;
  }

  program(): Program {
    const begin: Stmt[] = [];
    const end: Stmt[] = [];
    const rules: Rule[] = [];
    const functions = new Map<string, AwkFunction>();
    this.newlines();
    while (this.peek().t !== 'eof') {
      if (this.word('BEGIN') || this.word('END')) {
        const which = this.toks[this.at++]!.v;
        if (!this.is('{')) this.fail(); // its `{` on the same line
        this.inBeginEnd = true;
        (which === 'BEGIN' ? begin : end).push(this.block());
        this.inBeginEnd = false;
      } else if (this.word('function') || this.word('func')) {
        this.at++;
        const name = this.peek();
        if (name.t !== 'func' && name.t !== 'name') this.fail();
        this.at++;
        this.eat('(');
        const params: string[] = [];
        while (!this.is(')')) {
          const p = this.peek();
          if (p.t !== 'name' || KEYWORDS.has(p.v)) this.fail();
          params.push(p.v);
          this.at++;
          if (this.is(',')) {
            this.at++;
            this.newlines();
          } else if (!this.is(')')) this.fail();
        }
        this.at++;
        this.newlines();
        this.locals = new Set(params);
        this.inFunction = true;
        functions.set(name.v, { params, body: this.block() });
        this.inFunction = false;
        this.locals = new Set();
      } else {
        let pattern: Pattern = { k: 'all' };
        if (!this.is('{')) {
          const from = this.expr();
          if (this.is(',')) {
            this.at++;
            this.newlines();
            pattern = { k: 'range', from, to: this.expr() };
          } else pattern = { k: 'expr', e: from };
        }
        const action = this.is('{') ? this.block() : undefined;
        rules.push({ pattern, action });
        // A pattern without an action ends with its line or a `;`.
        if (action === undefined) {
          if (!(this.is(';') || this.peek().t === 'nl')) this.fail();
          this.at++;
          continue;
        }
      }
      // The scanner ate what may follow a `}` (one `;`, newlines): anything else is an error.
      if (this.peek().t === 'nl' || this.is(';')) this.fail();
    }
    for (const c of this.calls) {
      const fn = functions.get(c.name);
      if (fn === undefined) throw new AwkSyntaxError(`line ${this.peek().line}: function ${c.name} never defined`); // prettier-ignore
      if (c.args > fn.params.length) throw new AwkSyntaxError(`line ${c.line}: too many arguments in call to ${c.name}`); // prettier-ignore
    }
    return { begin, rules, end, functions, arrays: new Set([...this.kinds].filter(([, k]) => k === 'array').map(([n]) => n)) }; // prettier-ignore
  }

  private block(): Stmt {
    const open = this.peek();
    this.eat('{');
    const body: Stmt[] = [];
    this.terminators();
    while (!this.is('}')) {
      if (this.peek().t === 'eof') throw new AwkSyntaxError(`line ${this.peek().line}: missing } near end of file`); // prettier-ignore
      body.push(this.stmt());
      this.terminators();
    }
    void open;
    this.eat('}');
    return { k: 'block', body };
  }

  /** A simple statement ends at `;`, a newline or the `}` closing its block. */
  private simpleEnd(): void {
    if (this.is(';') || this.peek().t === 'nl') this.at++;
    else if (!this.is('}')) this.fail();
  }

  /** A loop's or if's body: a statement, maybe on the next line, maybe just `;`. */
  private body(): Stmt {
    this.newlines();
    if (this.is(';')) return (this.at++, { k: 'block', body: [] });
    return this.stmt();
  }

  private loopBody(): Stmt {
    this.loops++;
    const s = this.body();
    this.loops--;
    return s;
  }

  private stmt(): Stmt {
    const t = this.peek();
    if (this.is('{')) return this.block();
    if (t.t !== 'name' || !KEYWORDS.has(t.v) || t.v === 'getline') {
      const e = this.expr();
      this.simpleEnd();
      return { k: 'expr', e };
    }
    this.at++;
    switch (t.v) {
      case 'print':
      case 'printf':
        return this.print(t.v);
      case 'if': {
        this.eat('(');
        const c = this.expr();
        this.eat(')');
        const then = this.body();
        const save = this.at;
        this.terminators();
        if (this.word('else')) {
          this.at++;
          return { k: 'if', c, t: then, f: this.body() };
        }
        this.at = save;
        return { k: 'if', c, t: then, f: undefined };
      }
      case 'while': {
        this.eat('(');
        const c = this.expr();
        this.eat(')');
        if (this.is(';')) return (this.at++, { k: 'while', c, body: { k: 'block', body: [] } });
        return { k: 'while', c, body: this.loopBody() };
      }
      case 'do': {
        const body = this.loopBody();
        this.terminators();
        if (!this.word('while')) this.fail();
        this.at++;
        this.eat('(');
        const c = this.expr();
        this.eat(')');
        this.simpleEnd();
        return { k: 'do', body, c };
      }
      case 'for':
        return this.forStmt();
      case 'delete': {
        const name = this.arrayName();
        let subs: Expr[] | undefined;
        if (this.is('[')) {
          this.at++;
          subs = this.exprList(']');
          this.eat(']');
        }
        this.simpleEnd();
        return { k: 'delete', name, subs };
      }
      case 'exit':
      case 'return': {
        if (t.v === 'return' && !this.inFunction) throw new AwkSyntaxError(`line ${t.line}: return outside function body`); // prettier-ignore
        const e = this.is(';') || this.is('}') || this.peek().t === 'nl' ? undefined : this.expr();
        this.simpleEnd();
        return { k: t.v, e };
      }
      case 'next':
        if (this.inBeginEnd || this.inFunction)
          throw new AwkSyntaxError(`line ${t.line}: improper use of next`);
        this.simpleEnd();
        return { k: 'next' };
      case 'break':
      case 'continue':
        if (this.loops === 0) throw new AwkSyntaxError(`line ${t.line}: ${t.v} statement outside of loop`); // prettier-ignore
        this.simpleEnd();
        return { k: t.v };
      default:
        return this.fail(t);
    }
  }

  private forStmt(): Stmt {
    this.eat('(');
    const n = this.toks;
    const a = this.at;
    // for (k in array)
    if (
      n[a]!.t === 'name' &&
      n[a + 1]!.v === 'in' &&
      n[a + 2]!.t === 'name' &&
      n[a + 3]!.v === ')'
    ) {
      const v = this.lvalue(this.primary());
      this.at++;
      const arr = this.arrayName();
      this.eat(')');
      return { k: 'forin', v, arr, body: this.loopBody() };
    }
    const init = this.is(';') ? undefined : this.expr();
    this.eat(';');
    this.newlines();
    const c = this.is(';') ? undefined : this.expr();
    this.eat(';');
    this.newlines();
    const step = this.is(')') ? undefined : this.expr();
    this.eat(')');
    if (this.is(';'))
      return (this.at++, { k: 'for', init, c, step, body: { k: 'block', body: [] } });
    return { k: 'for', init, c, step, body: this.loopBody() };
  }

  private print(k: 'print' | 'printf'): Stmt {
    const line = this.toks[this.at - 1]!.line;
    let args: Expr[] = [];
    const save = this.at;
    // print (a, b) > "f": a parenthesised list, when nothing but a redirection follows it.
    if (this.is('(')) {
      this.at++;
      const list = this.exprList(')');
      const after = this.toks[this.at + 1]!;
      const listEnds = after.t === 'nl' || ['}', ';', '>', '>>', '|'].includes(after.v);
      if (this.is(')') && listEnds) {
        this.at++;
        args = list;
      } else this.at = save;
    }
    if (
      this.at === save &&
      !(
        this.is(';') ||
        this.is('}') ||
        this.peek().t === 'nl' ||
        this.is('>') ||
        this.is('>>') ||
        this.is('|')
      )
    ) {
      // prettier-ignore
      this.noGt = true;
      args.push(this.expr());
      while (this.is(',')) {
        this.at++;
        this.newlines();
        args.push(this.expr());
      }
      this.noGt = false;
    }
    let dest: Dest = 'stdout';
    if (this.is('|')) throw new Unsupported(); // output to a command
    if (this.is('>') || this.is('>>')) {
      this.at++;
      const target = this.peek();
      // Only the standard streams: the lab's hosts have no files a program can write.
      if (target.t !== 'str' || !['/dev/stdout', '/dev/stderr', '-'].includes(target.v)) throw new Unsupported(); // prettier-ignore
      this.at++;
      dest = target.v === '/dev/stderr' ? 'stderr' : 'stdout';
    }
    if (k === 'printf' && args.length === 0) throw new AwkSyntaxError(`line ${line}: no arguments in call to printf`); // prettier-ignore
    this.simpleEnd();
    return { k, args, dest };
  }
}

/** The program, or mawk's complaints (AwkSyntaxError); Unsupported for what the lab lacks. */
export function parseAwk(src: string): Program {
  const { toks, complaints } = tokenize(src);
  const parser = new Parser(toks);
  let failure: AwkSyntaxError | undefined;
  try {
    const program = parser.program();
    if (complaints.length === 0) return program;
  } catch (err) {
    if (!(err instanceof AwkSyntaxError)) throw err;
    failure = err;
  }
  throw new AwkSyntaxError(inMawksOrder(complaints, failure, parser.position));
}

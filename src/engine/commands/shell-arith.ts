/**
 * bash's arithmetic expansion `$((EXPRESSION))` (bash(1) "ARITHMETIC EVALUATION"), for the
 * integers a loop counts with: decimal numbers, variables by name (`i` or `$i`; unset or empty
 * is 0), `( )`, unary `+ - !`, `**`, `* / %`, `+ -`, `< > <= >=`, `== !=`, `&&`, `||` and
 * `?:`, with C's precedence; division truncates toward zero. Errors are bash's words; other
 * operators (bitwise, assignment, increment) are not modelled.
 */

/**
 * How deep `( )`, unary operators and `**` may nest. bash evaluates 20,000 nested parentheses;
 * the lab's parser recurses a few calls per level and JavaScript's stack ends near 800, so
 * deeper is refused with a lab note.
 */
export const MAX_ARITH_DEPTH = 200;

/** The value, or bash's message (without `bash: `), or `unsupported`, or nested too deep. */
export type ArithResult =
  { value: bigint } | { error: string } | { unsupported: true } | { tooDeep: true };

class Fail {
  constructor(readonly result: ArithResult) {}
}

const TOKEN = /\s*(\d+|[A-Za-z_]\w*|\$[A-Za-z_]\w*|\*\*|<=|>=|==|!=|&&|\|\||[-+*/%()<>!?:])/y;

export function arithmetic(expr: string, lookup: (name: string) => string): ArithResult {
  // Shifts, bitwise operators, assignments and increments are not modelled.
  const rest = expr.replace(/&&|\|\|/g, ' ');
  if (/<<|>>|\+\+|--|[&|^~,]|(^|[^=!<>])=($|[^=])/.test(rest)) return { unsupported: true };
  const tokens: string[] = [];
  for (let at = 0; at < expr.length;) {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(expr);
    if (m === null) {
      if (expr.slice(at).trim() === '') break;
      return { unsupported: true };
    }
    tokens.push(m[1]!);
    at = TOKEN.lastIndex;
  }
  let k = 0;
  let depth = 0;
  /** Parses one level deeper: past MAX_ARITH_DEPTH the expression is refused. */
  const deeper = (parse: () => bigint): bigint => {
    // The operand itself is one level: `((1))` nests 2 deep.
    if (++depth > MAX_ARITH_DEPTH + 1) throw new Fail({ tooDeep: true });
    try {
      return parse();
    } finally {
      depth--;
    }
  };
  const peek = () => tokens[k];
  const operand = (): never => {
    throw new Fail({ error: `${expr.trim()}: syntax error: operand expected (error token is "${tokens.slice(k).join(' ') || expr.trim().slice(-1)}")` }); // prettier-ignore
  };
  const variable = (name: string): bigint => {
    const v = lookup(name).trim();
    if (v === '') return 0n;
    if (!/^-?\d+$/.test(v)) throw new Fail({ unsupported: true });
    return BigInt(v);
  };
  const primary = (): bigint => {
    const t = peek();
    if (t === undefined) return operand();
    k++;
    if (t === '(') {
      const v = ternary();
      if (peek() !== ')') throw new Fail({ unsupported: true });
      k++;
      return v;
    }
    if (t === '-') return -unary();
    if (t === '+') return unary();
    if (t === '!') return unary() === 0n ? 1n : 0n;
    if (/^\d+$/.test(t)) return BigInt(t);
    if (/^\$?[A-Za-z_]/.test(t)) return variable(t.replace(/^\$/, ''));
    k--;
    return operand();
  };
  const unary = (): bigint => deeper(primary);
  const power = (): bigint => {
    const base = unary();
    if (peek() !== '**') return base;
    k++;
    const exp = deeper(power);
    if (exp < 0n) throw new Fail({ error: `${expr.trim()}: exponent less than 0 (error token is "${String(exp)}")` }); // prettier-ignore
    return base ** exp;
  };
  const binary =
    (
      next: () => bigint,
      ops: readonly string[],
      apply: (op: string, a: bigint, b: bigint) => bigint,
    ) =>
    (): bigint => {
      // prettier-ignore
      let v = next();
      for (let op = peek(); op !== undefined && ops.includes(op); op = peek()) {
        k++;
        v = apply(op, v, next());
      }
      return v;
    };
  const b = (x: boolean) => (x ? 1n : 0n);
  const mul = binary(power, ['*', '/', '%'], (op, x, y) => {
    if (op === '*') return x * y;
    if (y === 0n) throw new Fail({ error: `${expr.trim()}: division by 0 (error token is "${tokens.slice(k - 1).join('')}")` }); // prettier-ignore
    return op === '/' ? x / y : x % y;
  });
  const add = binary(mul, ['+', '-'], (op, x, y) => (op === '+' ? x + y : x - y));
  const rel = binary(add, ['<', '>', '<=', '>='], (op, x, y) => b(op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y)); // prettier-ignore
  const eq = binary(rel, ['==', '!='], (op, x, y) => b(op === '==' ? x === y : x !== y));
  const and = binary(eq, ['&&'], (_op, x, y) => b(x !== 0n && y !== 0n));
  const or = binary(and, ['||'], (_op, x, y) => b(x !== 0n || y !== 0n));
  function ternary(): bigint {
    const c = or();
    if (peek() !== '?') return c;
    k++;
    const yes = deeper(ternary);
    if (peek() !== ':') throw new Fail({ unsupported: true });
    k++;
    const no = deeper(ternary);
    return c !== 0n ? yes : no;
  }
  try {
    if (tokens.length === 0) return { value: 0n };
    const value = ternary();
    if (k < tokens.length) return { unsupported: true };
    // bash's integers are 64-bit: wrap as it does.
    return { value: BigInt.asIntN(64, value) };
  } catch (e) {
    if (e instanceof Fail) return e.result;
    throw e;
  }
}

/** The parsed awk program (awk-parse.ts) that awk-run.ts runs. */

export type LValue =
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'index'; readonly name: string; readonly subs: readonly Expr[] }
  | { readonly k: 'field'; readonly e: Expr };

export type Expr =
  | LValue
  | { readonly k: 'num'; readonly v: number }
  | { readonly k: 'str'; readonly v: string }
  /** A /regex/ literal: matched against $0 where a value is wanted. */
  | { readonly k: 're'; readonly src: string }
  | { readonly k: 'in'; readonly subs: readonly Expr[]; readonly name: string }
  | { readonly k: 'neg' | 'plus' | 'not'; readonly e: Expr }
  | { readonly k: 'bin'; readonly op: string; readonly l: Expr; readonly r: Expr }
  | { readonly k: 'cmp'; readonly op: string; readonly l: Expr; readonly r: Expr }
  | { readonly k: 'match'; readonly neg: boolean; readonly l: Expr; readonly r: Expr }
  | { readonly k: 'and' | 'or' | 'concat'; readonly l: Expr; readonly r: Expr }
  | { readonly k: 'cond'; readonly c: Expr; readonly t: Expr; readonly f: Expr }
  | { readonly k: 'assign'; readonly op: string; readonly target: LValue; readonly e: Expr }
  | { readonly k: 'incdec'; readonly op: '++' | '--'; readonly prefix: boolean; readonly target: LValue } // prettier-ignore
  /** A built-in function; `length` without parentheses has no args. */
  | { readonly k: 'call'; readonly name: string; readonly args: readonly Expr[] }
  | { readonly k: 'ucall'; readonly name: string; readonly args: readonly Expr[] }
  /** Plain `getline` or `getline var`: the next record of the main input. */
  | { readonly k: 'getline'; readonly target: LValue | undefined };

/** Where print's output goes: only the standard streams (the lab has no files to write). */
export type Dest = 'stdout' | 'stderr';

export type Stmt =
  | { readonly k: 'print' | 'printf'; readonly args: readonly Expr[]; readonly dest: Dest }
  | { readonly k: 'expr'; readonly e: Expr }
  | { readonly k: 'if'; readonly c: Expr; readonly t: Stmt; readonly f: Stmt | undefined }
  | { readonly k: 'while'; readonly c: Expr; readonly body: Stmt }
  | { readonly k: 'do'; readonly body: Stmt; readonly c: Expr }
  | { readonly k: 'for'; readonly init: Expr | undefined; readonly c: Expr | undefined; readonly step: Expr | undefined; readonly body: Stmt } // prettier-ignore
  | { readonly k: 'forin'; readonly v: LValue; readonly arr: string; readonly body: Stmt }
  | { readonly k: 'delete'; readonly name: string; readonly subs: readonly Expr[] | undefined }
  | { readonly k: 'exit' | 'return'; readonly e: Expr | undefined }
  | { readonly k: 'next' | 'break' | 'continue' }
  | { readonly k: 'block'; readonly body: readonly Stmt[] };

export type Pattern =
  | { readonly k: 'all' }
  | { readonly k: 'expr'; readonly e: Expr }
  | { readonly k: 'range'; readonly from: Expr; readonly to: Expr };

export interface Rule {
  readonly pattern: Pattern;
  /** undefined: print $0. */
  readonly action: Stmt | undefined;
}

export interface AwkFunction {
  readonly params: readonly string[];
  readonly body: Stmt;
}

export interface Program {
  readonly begin: readonly Stmt[];
  readonly rules: readonly Rule[];
  readonly end: readonly Stmt[];
  readonly functions: ReadonlyMap<string, AwkFunction>;
  /** Globals the program uses as arrays (one never set may be passed to a function to fill). */
  readonly arrays: ReadonlySet<string>;
}

/**
 * A small re-implementation of libxtables' option machinery (xtoptions.c): every match and
 * target declares its options like an xt_option_entry table, and the generic checks (used
 * once, cannot be inverted, also requires, cannot be used together, must be specified) fail
 * with the same words iptables prints.
 */
import { XtError } from './errors';
import type { TableName } from './types';

export interface ParseCtx {
  readonly table: TableName;
  /** The `-p` protocol number so far (0 = any). */
  readonly proto: number;
  readonly protoInvert: boolean;
}

export interface OptEntry {
  readonly name: string;
  /** Whether the option takes an argument (XTTYPE_NONE = false). */
  readonly arg: boolean;
  readonly invert?: boolean;
  readonly mand?: boolean;
  readonly multi?: boolean;
  /** Option names this one excludes / requires. */
  readonly excl?: readonly string[];
  readonly also?: readonly string[];
}

/** One extension instance being parsed (a match or a target on one command line). */
export interface ExtParser<T> {
  readonly name: string;
  readonly options: readonly OptEntry[];
  /** Called for each of its options with the argument (undefined for flags). */
  take(option: string, arg: string | undefined, invert: boolean, ctx: ParseCtx): void;
  /** Final check (x6_fcheck) and the structured result. */
  finish(ctx: ParseCtx): T;
}

export interface ExtHandlers<S, T> {
  readonly name: string;
  readonly options: readonly OptEntry[];
  init(): S;
  parse(state: S, option: string, arg: string, invert: boolean, ctx: ParseCtx): void;
  /** Runs after the generic constraint checks; `seen` holds the options given. */
  finish(state: S, seen: ReadonlySet<string>, ctx: ParseCtx): T;
}

/** Builds an ExtParser whose generic checks follow xtables_option_parse/xtables_options_fcheck. */
export function makeExt<S, T>(h: ExtHandlers<S, T>): ExtParser<T> {
  const state = h.init();
  const seen = new Set<string>();
  return {
    name: h.name,
    options: h.options,
    take(option, arg, invert, ctx) {
      const entry = h.options.find((o) => o.name === option);
      if (entry === undefined) throw XtError.param(`unknown option "--${option}"`);
      const selfExcl = entry.excl?.includes(option) ?? false;
      if ((!entry.multi || selfExcl) && seen.has(option)) {
        throw XtError.param(`${h.name}: option "--${option}" can only be used once.\n`);
      }
      if (invert && !entry.invert) {
        throw XtError.param(`${h.name}: option "--${option}" cannot be inverted.\n`);
      }
      seen.add(option);
      h.parse(state, option, arg ?? '', invert, ctx);
    },
    finish(ctx) {
      for (const entry of h.options) {
        if (entry.mand && !seen.has(entry.name)) {
          throw XtError.param(`${h.name}: option "--${entry.name}" must be specified\n`);
        }
        if (!seen.has(entry.name) || (entry.also === undefined && entry.excl === undefined))
          continue;
        for (const other of h.options) {
          if (entry.also?.includes(other.name) && !seen.has(other.name)) {
            throw XtError.param(
              `${h.name}: option "--${entry.name}" also requires "--${other.name}".\n`,
            );
          }
          if (other !== entry && entry.excl?.includes(other.name) && seen.has(other.name)) {
            throw XtError.param(
              `${h.name}: option "--${entry.name}" cannot be used together with "--${other.name}".\n`,
            );
          }
        }
      }
      return h.finish(state, seen, ctx);
    },
  };
}

/**
 * xtables_strtoui() with base 0: strtoumax() over the whole string (blanks and a sign may
 * lead; `0x` then hex, a leading `0` octal, else decimal), within [min, max]. Returns
 * undefined when it does not parse. A minus sign negates in unsigned arithmetic, so only
 * `-0` stays in range.
 */
export function strtoui(text: string, min = 0, max = 0xffffffff): number | undefined {
  const r = strtouiAt(text, 0, min, max);
  // Something left after the number: xtables_strtoui() without an end pointer fails.
  return r !== undefined && r.end === text.length ? r.value : undefined;
}

/**
 * xtables_strtoui() with an end pointer: the number strtoumax() reads from text[start] on and
 * where it stopped, or undefined (nothing read, or out of [min, max]).
 */
export function strtouiAt(
  text: string,
  start: number,
  min = 0,
  max = 0xffffffff,
): { value: number; end: number } | undefined {
  let i = start + (/^[ \t\n\v\f\r]*/.exec(text.slice(start))?.[0].length ?? 0);
  let negative = false;
  if (text[i] === '+' || text[i] === '-') negative = text[i++] === '-';
  let base = 10;
  if (text[i] === '0' && /^[xX][0-9a-fA-F]/.test(text.slice(i + 1, i + 3))) {
    base = 16;
    i += 2;
  } else if (text[i] === '0') base = 8;
  let value = 0;
  let read = 0;
  for (; i < text.length; i++, read++) {
    const d = parseInt(text[i] ?? '', 16);
    if (!(d < base)) break;
    // Beyond any max it can only fail (strtoumax's ERANGE, or too large): keep it there.
    value = Math.min(value * base + d, Number.MAX_SAFE_INTEGER);
  }
  // (`0x` with no hex digit after it: base 8, the 0 read alone, as strtoumax() does.)
  if (read === 0) return undefined;
  if (negative && value !== 0) return undefined;
  return value >= min && value <= max ? { value, end: i } : undefined;
}

/** XTTYPE_UINT32 (and friends): the "bad value … or out of range" error on failure. */
export function parseUint(
  ext: string,
  option: string,
  arg: string,
  min: number,
  max: number,
): number {
  const v = strtoui(arg, min, max);
  if (v === undefined) {
    throw XtError.param(
      `${ext}: bad value for option "--${option}", or out of range (${min}-${max}).\n`,
    );
  }
  return v;
}

/** XTTYPE_MARKMASK32: `value[/mask]`, mask 0xffffffff when absent (xtables_parse_val_mask). */
export function parseMarkMask(
  ext: string,
  option: string,
  arg: string,
): { value: number; mask: number } {
  // A number out of range is a bad value; one followed by anything but `/MASK` is garbage.
  const bad = (): XtError =>
    XtError.param(`${ext}: bad integer value for option "--${option}", or out of range.\n`);
  const garbage = (): XtError =>
    XtError.param(`${ext}: trailing garbage after value for option "--${option}".\n`);
  const value = strtouiAt(arg, 0);
  if (value === undefined) throw bad();
  if (value.end === arg.length) return { value: value.value, mask: 0xffffffff };
  if (arg[value.end] !== '/') throw garbage();
  const mask = strtouiAt(arg, value.end + 1);
  if (mask === undefined) throw bad();
  if (mask.end !== arg.length) throw garbage();
  return { value: value.value, mask: mask.value };
}

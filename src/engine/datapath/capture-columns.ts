/**
 * Captured headers in columns, rebuilt when the capture log is read. Keeping each captured
 * header object alive in the ring was most of the capture's cost: the headers captured since
 * the last scavenge are alive when the young generation is collected, so V8 copies and promotes
 * them, and they die later in old space (a 10,000-connection load run: pushing `null` instead of
 * the header took 9 % off the wall time). Numbers go to a Float64Array (every number a header
 * can hold round-trips exactly, -0 and NaN included), strings to an array (the addresses,
 * protocols, flags and payload texts are strings the hosts share anyway).
 *
 * A header is stored in columns only when it is a plain object whose every key is one
 * HEADER_COLUMNS lists (capture-shapes.ts), with a value of the kind listed there; its keys'
 * order is kept as its shape, so the rebuilt header is deep-equal to the original, with the same
 * keys in the same order (JSON the same). Any other header (ICMP with `icmp`/`inner`, a field
 * added later, a value of another kind) is kept as the object itself.
 *
 * The values are read in a `for…in` over the header (`h[key]` there is a load by the enum
 * cache's field index, whatever the object's layout): a load run's headers have a dozen
 * layouts (the same keys, numbers held as small integers or doubles), so named loads
 * (`h.seq`) were megamorphic, three times slower (measured).
 */
import {
  HEADER_COLUMNS,
  NUMBER,
  OBJECT_ROW,
  OPTIONS_NUMBERS,
  OPTIONS_SYN,
  OPTIONS_TS_ONLY,
  ROW_NUMBERS,
  ROW_STRINGS,
  SLOT,
  STRING,
  Shapes,
  TCP_OPTIONS,
  TEXT_DATA,
  type ColumnKind,
} from './capture-shapes';

const plain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** tcpOptions' keys (tcp-segment.ts) and, per key, its place among the options' numbers. */
const TS_ONLY_KEYS = ['ts'];
const SYN_KEYS = ['mss', 'sackOK', 'ts', 'wscale'];
const OPTION_NUMBER: Readonly<Record<string, number>> = { mss: 1, wscale: 4 };
const TS_KEYS = ['val', 'ecr'];
const TEXT_KEYS = ['kind', 'text'];

/** No value: what lastOptions and lastData are when they hold none (no header can hold it). */
const NONE = Symbol('none');

/** What writeAs found: the header written, a key not the shape's, a value of another kind. */
const WRITTEN = 0;
const OTHER_KEYS = 1;
const OTHER_VALUE = 2;

/** `capacity` rows; each holds one header, in columns or as the object. */
export class HeaderColumns {
  /** Each row's shape (OBJECT_ROW: the header is in `objects`). */
  private readonly shapeOf: Uint8Array;
  private readonly objects: (object | undefined)[];
  private readonly numbers: Float64Array;
  private readonly strings: string[];
  private readonly shapes = new Shapes();
  /** The shape last written (tried first). */
  private lastShape = OBJECT_ROW;
  /**
   * The last tcpOptions and text payload written, and their values: a header rewritten by NAT
   * or routed shares its original's (headers and their parts are never changed once sent).
   */
  private lastOptions: unknown = NONE;
  private readonly lastOptionNumbers = new Float64Array(OPTIONS_NUMBERS);
  private lastData: unknown = NONE;
  private lastText = '';

  constructor(capacity: number) {
    this.shapeOf = new Uint8Array(capacity);
    this.objects = new Array<object | undefined>(capacity).fill(undefined);
    this.numbers = new Float64Array(capacity * ROW_NUMBERS);
    this.strings = new Array<string>(capacity * ROW_STRINGS).fill('');
  }

  /** Stores `header` in `row`: in columns when it can be rebuilt exactly, else the object. */
  write(row: number, header: object): void {
    let shape = OBJECT_ROW;
    if (plain(header)) {
      shape = this.lastShape;
      let r = shape === OBJECT_ROW ? OTHER_KEYS : this.writeAs(row, header, shape);
      if (r === OTHER_KEYS) {
        shape = this.shapes.find(header);
        r = shape === OBJECT_ROW ? OTHER_KEYS : this.writeAs(row, header, shape);
      }
      if (r === WRITTEN) this.lastShape = shape;
      else shape = OBJECT_ROW;
    }
    this.shapeOf[row] = shape;
    this.objects[row] = shape === OBJECT_ROW ? header : undefined;
  }

  /** Whether `row` holds its header in columns (not the object). */
  inColumns(row: number): boolean {
    return this.shapeOf[row] !== OBJECT_ROW;
  }

  /** The header of `row`: the object kept, or a new one with the original's keys and values. */
  read(row: number): object {
    const shape = this.shapeOf[row]!;
    if (shape === OBJECT_ROW) return this.objects[row]!;
    const n = row * ROW_NUMBERS;
    const s = row * ROW_STRINGS;
    const out: Record<string, unknown> = {};
    for (const name of this.shapes.byId[shape]!.keys) {
      const kind: ColumnKind = HEADER_COLUMNS[name];
      const at = SLOT[name];
      out[name] =
        kind === 'number'
          ? this.numbers[n + at]
          : kind === 'string'
            ? this.strings[s + at]
            : kind === 'textData'
              ? { kind: 'text', text: this.strings[s + at] }
              : this.readOptions(n + at);
    }
    return out;
  }

  /** Lets the objects and strings go (rows are written before they are read again). */
  clear(): void {
    this.objects.fill(undefined);
    this.strings.fill('');
    this.lastOptions = NONE;
    this.lastData = NONE;
    this.lastText = '';
  }

  /** Writes `h`'s values to `row` if its keys are the shape's, each value of its field's kind. */
  private writeAs(row: number, h: Record<string, unknown>, shape: number): number {
    const { keys, kinds, slots } = this.shapes.byId[shape]!;
    const nums = this.numbers;
    const strs = this.strings;
    const n = row * ROW_NUMBERS;
    const s = row * ROW_STRINGS;
    let i = 0;
    for (const key in h) {
      if (key !== keys[i]) return OTHER_KEYS;
      const v = h[key];
      switch (kinds[i]) {
        case NUMBER:
          if (typeof v !== 'number') return OTHER_VALUE;
          nums[n + slots[i]!] = v;
          break;
        case STRING:
          if (typeof v !== 'string') return OTHER_VALUE;
          strs[s + slots[i]!] = v;
          break;
        case TCP_OPTIONS:
          if (!this.writeOptions(v, n + slots[i]!)) return OTHER_VALUE;
          break;
        case TEXT_DATA:
          if (!this.writeText(v, s + slots[i]!)) return OTHER_VALUE;
          break;
      }
      i++;
    }
    return i === keys.length ? WRITTEN : OTHER_KEYS;
  }

  /** tcpOptions at `at`: which (OPTIONS_*), mss, TS val, TS ecr, wscale. */
  private writeOptions(v: unknown, at: number): boolean {
    const last = this.lastOptionNumbers;
    if (v !== this.lastOptions) {
      // Until checked whole, `last` holds none (a failed check may have written part of it).
      this.lastOptions = NONE;
      if (!plain(v)) return false;
      let keys = TS_ONLY_KEYS;
      let i = 0;
      for (const key in v) {
        if (i === 0 && key !== 'ts') keys = SYN_KEYS;
        if (key !== keys[i++]) return false;
        const x = v[key];
        if (key === 'ts') {
          if (!this.writeTimestamps(x)) return false;
        } else if (key === 'sackOK') {
          if (x !== true) return false;
        } else if (typeof x === 'number') last[OPTION_NUMBER[key]!] = x;
        else return false;
      }
      if (i !== keys.length) return false;
      last[0] = keys === TS_ONLY_KEYS ? OPTIONS_TS_ONLY : OPTIONS_SYN;
      this.lastOptions = v;
    }
    // Five stores: TypedArray.prototype.set costs more than they do.
    const nums = this.numbers;
    for (let j = 0; j < OPTIONS_NUMBERS; j++) nums[at + j] = last[j]!;
    return true;
  }

  /** `{val, ecr}`, numbers, into lastOptionNumbers. */
  private writeTimestamps(ts: unknown): boolean {
    if (!plain(ts)) return false;
    let i = 0;
    for (const key in ts) {
      const x = ts[key];
      if (key !== TS_KEYS[i] || typeof x !== 'number') return false;
      this.lastOptionNumbers[2 + i++] = x;
    }
    return i === TS_KEYS.length;
  }

  /** The text of a `{kind: 'text', text}` payload at `at`. */
  private writeText(v: unknown, at: number): boolean {
    if (v !== this.lastData) {
      if (!plain(v)) return false;
      let i = 0;
      for (const key in v) if (key !== TEXT_KEYS[i++]) return false;
      if (i !== TEXT_KEYS.length || v.kind !== 'text' || typeof v.text !== 'string') return false;
      this.lastData = v;
      this.lastText = v.text;
    }
    this.strings[at] = this.lastText;
    return true;
  }

  private readOptions(at: number): object {
    const nums = this.numbers;
    const ts = { val: nums[at + 2], ecr: nums[at + 3] };
    if (nums[at] === OPTIONS_TS_ONLY) return { ts };
    return { mss: nums[at + 1], sackOK: true, ts, wscale: nums[at + 4] };
  }
}

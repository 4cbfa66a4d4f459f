/**
 * Which header fields the capture ring stores in columns (capture-columns.ts), where in a row
 * each goes, and the shapes (keys in order) of the headers stored: one table, HEADER_COLUMNS,
 * from which the rest is derived.
 */
import type { HostPacket } from '../hosts/types';

/** How a field's value is held: a number, a string, or one of the two sub-objects below. */
export type ColumnKind = 'number' | 'string' | 'tcpOptions' | 'textData';

/**
 * Every header field the columns hold. `tcpOptions` only as the hosts send them (tcp-segment.ts:
 * `{ts: {val, ecr}}` on every segment after the handshake, `{mss, sackOK: true, ts, wscale}` on
 * SYN and SYN-ACK); `data` only as `{kind: 'text', text}` (DNS messages are kept as objects).
 */
export const HEADER_COLUMNS = {
  src: 'string',
  dst: 'string',
  proto: 'string',
  sport: 'number',
  dport: 'number',
  tcpFlags: 'string',
  length: 'number',
  mark: 'number',
  seq: 'number',
  ack: 'number',
  win: 'number',
  tcpOptions: 'tcpOptions',
  payload: 'number',
  data: 'textData',
  ttl: 'number',
} as const satisfies { readonly [K in keyof HostPacket]?: ColumnKind };

/** The fields whose headers are kept as objects (ICMP: few packets, varied sub-objects). */
export const OBJECT_FIELDS = ['icmp', 'inner'] as const;

/**
 * A field of HostPacket (and so of PacketHeader) in neither list fails to compile here: a field
 * added later must be given a column, or be declared as kept in objects.
 */
type UnlistedField = Exclude<
  keyof HostPacket,
  keyof typeof HEADER_COLUMNS | (typeof OBJECT_FIELDS)[number]
>;
export const EVERY_FIELD_LISTED: [UnlistedField] extends [never] ? true : UnlistedField = true;

export type FieldName = keyof typeof HEADER_COLUMNS;
export const FIELD_NAMES = Object.keys(HEADER_COLUMNS) as FieldName[];

/** tcpOptions take five numbers: which options (OPTIONS_*), mss, TS val, TS ecr, wscale. */
export const OPTIONS_NUMBERS = 5;
export const OPTIONS_TS_ONLY = 1;
export const OPTIONS_SYN = 2;

/**
 * Each field's place in a row: numbers (tcpOptions: its five from there) in the Float64Array,
 * strings (data: its text) in the string array. A row's values are side by side, so a header
 * written touches a couple of cache lines, not one per field.
 */
export const SLOT = {} as { readonly [K in FieldName]: number };
let numbers = 0;
let strings = 0;
for (const name of FIELD_NAMES) {
  const kind: ColumnKind = HEADER_COLUMNS[name];
  const slots = SLOT as { [K in FieldName]: number };
  if (kind === 'number') slots[name] = numbers++;
  else if (kind === 'tcpOptions') {
    slots[name] = numbers;
    numbers += OPTIONS_NUMBERS;
  } else slots[name] = strings++;
}
/** Numbers and strings per row. */
export const ROW_NUMBERS = numbers;
export const ROW_STRINGS = strings;

/** Shape 0: the row holds the header object itself. */
export const OBJECT_ROW = 0;
/** A Uint8Array holds the shape ids. */
const MAX_SHAPES = 256;

/**
 * A node of the shape trie: the path from the root spells a header's keys in order. Finding a
 * header's shape is one pointer comparison per key (a node has one or two children in practice),
 * with no array of keys per header (Object.keys would allocate one).
 */
interface ShapeNode {
  /** The field this node's key is (-1: a key no column holds: the header is kept as it is). */
  readonly field: number;
  /** The first child, looked at first (most nodes have only one). */
  firstKey: string | undefined;
  firstChild: ShapeNode | undefined;
  readonly childKeys: string[];
  readonly children: ShapeNode[];
  /** The shape whose keys end here (OBJECT_ROW until a header with these keys is stored). */
  shape: number;
}

const newNode = (field: number): ShapeNode => ({
  field,
  firstKey: undefined,
  firstChild: undefined,
  childKeys: [],
  children: [],
  shape: OBJECT_ROW,
});

/** A field's kind as a small integer (the hot loop switches on it). */
export const NUMBER = 0;
export const STRING = 1;
export const TCP_OPTIONS = 2;
export const TEXT_DATA = 3;
const KIND_CODE: { readonly [K in ColumnKind]: number } = {
  number: NUMBER,
  string: STRING,
  tcpOptions: TCP_OPTIONS,
  textData: TEXT_DATA,
};

/** A shape: its keys in order, and per key its kind and slot. */
export interface Shape {
  readonly keys: readonly FieldName[];
  readonly kinds: readonly number[];
  readonly slots: readonly number[];
}

/** The shapes met so far, by id (id 0, OBJECT_ROW: none, the object is kept). */
export class Shapes {
  private readonly root = newNode(-1);
  readonly byId: Shape[] = [{ keys: [], kinds: [], slots: [] }];

  /** The shape of `h` (a plain object): its keys in order, or OBJECT_ROW for a key unknown. */
  find(h: object): number {
    let at = this.root;
    for (const key in h) {
      at = key === at.firstKey ? at.firstChild! : this.child(at, key);
      if (at.field < 0) return OBJECT_ROW;
    }
    if (at.shape === OBJECT_ROW && at !== this.root) at.shape = this.add(at);
    return at.shape;
  }

  /** The trie node after `at` for `key` (created on first sight). */
  private child(at: ShapeNode, key: string): ShapeNode {
    const keys = at.childKeys;
    for (let i = 0; i < keys.length; i++) if (keys[i] === key) return at.children[i]!;
    const next = newNode(FIELD_NAMES.indexOf(key as FieldName));
    keys.push(key);
    at.children.push(next);
    if (at.firstChild === undefined) {
      at.firstKey = key;
      at.firstChild = next;
    }
    return next;
  }

  /** Registers the shape whose keys end at `end` (OBJECT_ROW once MAX_SHAPES are taken). */
  private add(end: ShapeNode): number {
    if (this.byId.length === MAX_SHAPES) return OBJECT_ROW;
    const path: FieldName[] = [];
    const find = (at: ShapeNode): boolean => {
      if (at === end) return true;
      for (const c of at.children) {
        path.push(FIELD_NAMES[c.field]!);
        if (find(c)) return true;
        path.pop();
      }
      return false;
    };
    find(this.root);
    this.byId.push({
      keys: path,
      kinds: path.map((f) => KIND_CODE[HEADER_COLUMNS[f]]),
      slots: path.map((f) => SLOT[f]),
    });
    return this.byId.length - 1;
  }
}

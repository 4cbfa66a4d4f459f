/**
 * mawk 1.3.4's associative arrays (array.w, tag t20200120 of ThomasDickey/mawk-snapshots),
 * modelled node for node because `for (k in a)` walks mawk's hash table as it stands: lists
 * 0…hmask in turn, each from its front. Not sorted (only with WHINY_USERS set), not insertion
 * order. What decides the order, each copied from array.w:
 * - a table starts with 64 lists and doubles when it holds more than 12 per list, splitting
 *   each list in two, order kept;
 * - a string key goes on list FNV-1(key) & hmask, a whole-number key (a double equal to an
 *   int) on the "ilist" ival & hmask, both at the FRONT; a found key moves to the front;
 * - the first string lookup in an int table gives every int key its string ("%d"), walking
 *   lists 0…hmask, each ilist from its front, pushing onto the string lists' fronts;
 * - split() makes a plain vector; any other use turns it into a table, key i on ilist i & hmask.
 */
import { toInt, type Value, StrNum } from './awk-value';

/** An element's value, shared by the table node that holds it. */
export interface Cell {
  v: Value;
}

interface Node {
  sval: string | undefined;
  hval: number;
  ival: number;
  slink: Node | undefined;
  ilink: Node | undefined;
  readonly cell: Cell;
}

const NOT_AN_IVALUE = -2147483648;
const STARTING_HMASK = 63;
const limitOf = (hmask: number) => (hmask + 1) * 12;

/** mawk's hash2(): 32-bit FNV-1 over the key's bytes (awk.ts hands awk one byte a character). */
function fnv1(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ (s.charCodeAt(i) & 255), 16777619) >>> 0;
  return h;
}

export class AwkArray {
  private kind: 'null' | 'split' | 'table' = 'null';
  private hasStr = false;
  private hasInt = false;
  private cells: Cell[] = [];
  private hmask = STARTING_HMASK;
  private limit = limitOf(STARTING_HMASK);
  private slists: (Node | undefined)[] = [];
  private ilists: (Node | undefined)[] = [];
  size = 0;

  /** The element for `key` (its text through CONVFMT when it is not whole), made if asked. */
  find(key: Value, create: boolean, convfmt: (x: number) => string): Cell | undefined {
    if (this.size === 0 && !create) return undefined;
    if (typeof key === 'number') {
      const ival = toInt(key);
      if (ival !== key) return this.bySval(convfmt(key), create)?.cell;
      if (this.kind === 'split') {
        if (ival >= 1 && ival <= this.size) return this.cells[ival - 1];
        if (!create) return undefined;
        this.splitToTable();
      } else if (this.kind === 'null') this.emptyTable('int');
      return this.byIval(ival, create)?.cell;
    }
    return this.bySval(key instanceof StrNum ? key.s : key, create)?.cell;
  }

  delete(key: Value, convfmt: (x: number) => string): void {
    if (this.size === 0) return;
    if (typeof key === 'number' && toInt(key) === key) {
      if (this.kind === 'split') {
        if (key < 1 || key > this.size) return;
        this.splitToTable();
      }
      const p = this.byIval(key, false);
      if (p === undefined) return;
      this.ilists[key & this.hmask] = p.ilink; // byIval moved it to the front
      if (p.sval !== undefined) this.unlinkS(p);
      this.dropOne();
      return;
    }
    const text = typeof key === 'number' ? convfmt(key) : key instanceof StrNum ? key.s : key;
    const p = this.bySval(text, false);
    if (p === undefined) return;
    this.slists[p.hval & this.hmask] = p.slink;
    if (p.ival !== NOT_AN_IVALUE) {
      const at = p.ival & this.hmask;
      let q: Node | undefined;
      let r = this.ilists[at];
      while (r !== p) {
        q = r;
        r = r!.ilink;
      }
      if (q !== undefined) q.ilink = p.ilink;
      else this.ilists[at] = p.ilink;
    }
    this.dropOne();
  }

  clear(): void {
    this.kind = 'null';
    this.hasStr = this.hasInt = false;
    this.cells = [];
    this.slists = [];
    this.ilists = [];
    this.size = 0;
  }

  /** split()'s pieces as elements 1…n. */
  load(values: readonly Value[]): void {
    this.clear();
    this.kind = 'split';
    this.cells = values.map((v) => ({ v }));
    this.size = values.length;
  }

  /** The keys `for (k in a)` visits, taken before the loop runs (array_loop_vector). */
  loopKeys(): string[] {
    if (this.size === 0) return [];
    if (!this.hasStr) this.addStringAssociations();
    const keys: string[] = [];
    for (let i = 0; i <= this.hmask; i++)
      for (let p = this.slists[i]; p !== undefined; p = p.slink) keys.push(p.sval!);
    return keys;
  }

  private dropOne(): void {
    if (--this.size === 0) this.clear();
  }

  private unlinkS(p: Node): void {
    const at = p.hval & this.hmask;
    let q: Node | undefined;
    let r = this.slists[at];
    while (r !== p) {
      q = r;
      r = r!.slink;
    }
    if (q !== undefined) q.slink = p.slink;
    else this.slists[at] = p.slink;
  }

  private emptyTable(type: 'int' | 'str'): void {
    this.kind = 'table';
    this.hasInt = type === 'int';
    this.hasStr = type === 'str';
    this.hmask = STARTING_HMASK;
    this.limit = limitOf(STARTING_HMASK);
    this.slists = new Array<Node | undefined>(this.hmask + 1).fill(undefined);
    this.ilists = new Array<Node | undefined>(this.hmask + 1).fill(undefined);
  }

  private splitToTable(): void {
    const cells = this.cells;
    this.emptyTable('int');
    while (this.size > this.limit) this.grow(false);
    // Element i goes on ilist j, j counting from 1 (array.w's convert_split_array_to_table).
    for (let i = 0, j = 1; i < this.size; i++, j = (j + 1) & this.hmask) {
      const p: Node = { sval: undefined, hval: 0, ival: i + 1, slink: undefined, ilink: this.ilists[j], cell: cells[i]! }; // prettier-ignore
      this.ilists[j] = p;
    }
    this.cells = [];
  }

  private byIval(ival: number, create: boolean): Node | undefined {
    let at = ival & this.hmask;
    let p = this.ilists[at];
    let q: Node | undefined;
    for (;;) {
      if (p === undefined) {
        if (this.hasStr) {
          p = this.bySval(String(ival), create);
          if (p === undefined) return undefined;
          at = ival & this.hmask; // the table may have doubled
        } else if (create) {
          p = { sval: undefined, hval: 0, ival, slink: undefined, ilink: undefined, cell: { v: new StrNum('', true) } }; // prettier-ignore
          if (++this.size > this.limit) {
            this.grow(true);
            at = ival & this.hmask;
          }
        } else return undefined;
        p.ival = ival;
        this.hasInt = true;
        break;
      }
      if (p.ival === ival) {
        if (q === undefined) return p;
        q.ilink = p.ilink;
        break;
      }
      q = p;
      p = p.ilink;
    }
    p.ilink = this.ilists[at];
    this.ilists[at] = p;
    return p;
  }

  private bySval(sval: string, create: boolean): Node | undefined {
    const hval = fnv1(sval);
    if (!this.hasStr) this.addStringAssociations();
    let at = hval & this.hmask;
    let p = this.slists[at];
    let q: Node | undefined;
    for (;;) {
      if (p === undefined) {
        if (!create) return undefined;
        p = { sval, hval, ival: NOT_AN_IVALUE, slink: undefined, ilink: undefined, cell: { v: new StrNum('', true) } }; // prettier-ignore
        if (++this.size > this.limit) {
          this.grow(true);
          at = hval & this.hmask;
        }
        break;
      }
      if (p.hval === hval && p.sval === sval) {
        if (q === undefined) return p;
        q.slink = p.slink;
        break;
      }
      q = p;
      p = p.slink;
    }
    p.slink = this.slists[at];
    this.slists[at] = p;
    return p;
  }

  private addStringAssociations(): void {
    if (this.kind === 'null') return this.emptyTable('str');
    if (this.kind === 'split') this.splitToTable();
    for (let i = 0; i <= this.hmask; i++)
      for (let p = this.ilists[i]; p !== undefined; p = p.ilink) {
        p.sval = String(p.ival);
        p.hval = fnv1(p.sval);
        const at = p.hval & this.hmask;
        p.slink = this.slists[at];
        this.slists[at] = p;
      }
    this.hasStr = true;
  }

  /** double_the_hash_table(): list i keeps the nodes that stay, in order; the rest go to i+old. */
  private grow(move: boolean): void {
    const old = this.hmask;
    const mask = old * 2 + 1;
    if (move) {
      const split = (
        lists: (Node | undefined)[],
        link: 'slink' | 'ilink',
        slot: (p: Node) => number,
      ) => {
        // prettier-ignore
        for (let i = 0; i <= old; i++) {
          const stay: Node[] = [];
          const go: Node[] = [];
          for (let p = lists[i]; p !== undefined; p = p[link]) ((slot(p) & mask) === i ? stay : go).push(p); // prettier-ignore
          const relink = (ns: Node[]) => { ns.forEach((n, k) => (n[link] = ns[k + 1])); return ns[0]; }; // prettier-ignore
          lists[i] = relink(stay);
          lists[i + old + 1] = relink(go);
        }
      };
      if (this.hasStr) split(this.slists, 'slink', (p) => p.hval);
      if (this.hasInt) split(this.ilists, 'ilink', (p) => p.ival >>> 0);
    }
    for (let i = old + 1; i <= mask; i++) {
      this.slists[i] ??= undefined;
      this.ilists[i] ??= undefined;
    }
    this.hmask = mask;
    this.limit = limitOf(mask);
  }
}

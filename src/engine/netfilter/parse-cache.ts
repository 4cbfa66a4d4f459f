/**
 * Parsed restore lines by their exact text. A parse is a pure function of the line (plus the
 * table and the --counters flag, which pick the cache), and its result is never changed once
 * made (a rule going into a table gets counters of its own), so kube-proxy's partial syncs,
 * which re-send the same ten thousand KUBE-SERVICES lines every time, parse nothing again.
 *
 * Each entry also remembers the line that followed it last time: a restore that repeats a
 * run of lines finds each next one by comparing text, without hashing it.
 *
 * Two generations bound the memory: entries go into the young map; when it is full it
 * becomes the old one (the previous old one is dropped), and an old hit moves back to young.
 * (An entry dropped from the maps lives on while the entry before it points to it.)
 *
 * A line is cached the second time it is seen (a doorkeeper, as in TinyLFU): a table of line
 * hashes remembers what was seen once. A node's first sync is mostly lines it will never see
 * again in that form, and caching all of them cost more than parsing them (copies, map
 * entries, garbage collection); lines a later sync repeats are cached from then on. A line
 * whose slot is taken looks in the next few (two lines that kept taking one slot from each
 * other were never admitted, and a quarter of a 10,000-Service sync was parsed every time);
 * when the table is three quarters full it starts afresh; a line that finds them all taken
 * is admitted at once. A collision of full hashes only admits a line early.
 *
 * The lines of a cache's first restore are only noted, and hashed when a second restore comes:
 * a one-shot run (`kube-proxy-lab run FILE` with one iptables-save) restores once, and hashing
 * its 30,000 lines was a twentieth of the whole run for a cache it never used. A line then
 * counts as seen from the second restore on, as if it had been hashed when it was read.
 *
 * The lines of a text the writer keeps (restore-pieces.ts) are cached at first sight: they
 * come again.
 */
import { TextMemos } from './restore-pieces';
import type { ParsedArgs } from './rule-parse';

/** Entries per generation: both together hold a whole 10,000 Services × 10 endpoints input. */
const GENERATION = 1 << 18;

export interface LineEntry {
  /** The line as stored (detached from the input it came from). */
  readonly key: string;
  readonly parsed: ParsedArgs;
  /** The entry of the line that followed this one the last time. */
  next: LineEntry | undefined;
}

/** Slots of the doorkeeper table (a power of two; 4 MB of hashes per cache). */
const SEEN_SLOTS = 1 << 20;
/** Slots looked at for a line, from its own on. */
const SEEN_PROBES = 8;
/** Lines of a first restore noted unhashed at most (a 10,000 × 10 sync has some 320,000). */
const MAX_UNHASHED = 1 << 19;

/** FNV-1a over the UTF-16 code units of `s`, never 0 (0 marks an empty slot). */
export function lineHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h;
}

export class LineCache {
  private young = new Map<string, LineEntry>();
  private old = new Map<string, LineEntry>();
  private seen: Int32Array | undefined;
  private seenCount = 0;
  /** Restores begun (see beginRestore()). */
  private restores = 0;
  /**
   * Lines of the first restore, not hashed yet, and texts noted at once (noteRuleLines());
   * undefined once they have been hashed.
   */
  private unhashed: string[] | undefined = [];
  /** The lines noted (a text counts as many as it has). */
  private unhashedLines = 0;

  /** `seenSlots`: the doorkeeper's size, a power of two (smaller in tests). */
  constructor(private readonly seenSlots = SEEN_SLOTS) {}
  /** Blocks of lines writers keep from one restore to the next (restore-pieces.ts). */
  readonly memos = new TextMemos();

  /** A restore begins reading a section that uses this cache. */
  beginRestore(): void {
    if (++this.restores > 1) this.hashUnhashed();
  }

  /** Whether `line` was seen before (then it is worth caching); remembers it if not. */
  admit(line: string): boolean {
    const unhashed = this.unhashed;
    if (unhashed !== undefined && this.restores <= 1 && this.unhashedLines < MAX_UNHASHED) {
      unhashed.push(line);
      this.unhashedLines++;
      return false;
    }
    this.hashUnhashed();
    return this.see(line);
  }

  /**
   * In the first restore: notes the rule lines (those starting with `-`) of `text`, which has
   * `lines` lines, as admit() notes them one by one (none is cached now, each counts as seen
   * from the next restore on), and says true. A restore that hands over whole texts of lines
   * it has the parses of (restore-pieces.ts PrebuiltLines) then cuts no line out of them.
   * False when no longer noting: then each line must be admitted.
   */
  noteRuleLines(text: string, lines: number): boolean {
    const unhashed = this.unhashed;
    if (unhashed === undefined || this.restores > 1) return false;
    if (this.unhashedLines + lines > MAX_UNHASHED) return false;
    unhashed.push(text);
    this.unhashedLines += lines;
    return true;
  }

  private hashUnhashed(): void {
    const noted = this.unhashed;
    if (noted === undefined) return;
    this.unhashed = undefined;
    for (const text of noted) {
      const nl = text.indexOf('\n');
      if (nl < 0 || nl === text.length - 1) this.see(text);
      else seeRuleLines(text, (line) => this.see(line));
    }
  }

  private see(line: string): boolean {
    const slots = this.seenSlots;
    const seen = (this.seen ??= new Int32Array(slots));
    const h = lineHash(line);
    for (let k = 0; k < SEEN_PROBES; k++) {
      const slot = (h + k) & (slots - 1);
      const there = seen[slot];
      if (there === h) return true;
      if (there !== 0) continue;
      seen[slot] = h;
      if (++this.seenCount > (slots / 4) * 3) {
        seen.fill(0);
        this.seenCount = 0;
      }
      return false;
    }
    // No room near its slot: admitted now. Taking a slot from another line instead left a
    // few lines whose slots overlap taking them from each other at every sync, never
    // admitted: each full sync parsed them anew, and the new parse did not equal the rule
    // the chain held, so KUBE-SERVICES was copied from there on (and so was the first
    // partial sync after it). Some 80 lines of a 10,000-Service first sync land here.
    return true;
  }

  /** The entry for `line`; `prev` is the entry of the line before it, if that was a rule. */
  get(line: string, prev: LineEntry | undefined): LineEntry | undefined {
    const guess = prev?.next;
    if (guess !== undefined && guess.key === line) return guess;
    // Nothing cached yet (a first restore, as in a one-shot CLI run): no need to hash the line.
    if (this.young.size === 0) return undefined;
    let hit = this.young.get(line);
    if (hit === undefined) {
      hit = this.old.get(line);
      if (hit === undefined) return undefined;
      this.old.delete(line);
      this.put(hit);
    }
    if (prev !== undefined) prev.next = hit;
    return hit;
  }

  /** `line` must not be a slice of a large input (see detach()). */
  set(line: string, parsed: ParsedArgs, prev: LineEntry | undefined): LineEntry {
    const e: LineEntry = { key: line, parsed, next: undefined };
    this.put(e);
    if (prev !== undefined) prev.next = e;
    return e;
  }

  private put(e: LineEntry): void {
    if (this.young.size >= GENERATION) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(e.key, e);
  }
}

/** Each rule line of `text` (starting with `-`), with its line end, as restore reads it. */
function seeRuleLines(text: string, see: (line: string) => void): void {
  for (let at = 0; at < text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    if (text.charCodeAt(at) === 0x2d) see(text.slice(at, end));
    at = end;
  }
}

const caches = new Map<string, LineCache>();

export function lineCache(table: string, withCounters: boolean): LineCache {
  const key = `${table}${withCounters ? '+c' : ''}`;
  let c = caches.get(key);
  if (c === undefined) {
    c = new LineCache();
    caches.set(key, c);
  }
  return c;
}

/** Every cache starts afresh, as in a new process (for tests of a first restore). */
export function forgetLineCaches(): void {
  caches.clear();
}

/**
 * A copy of `s` that does not keep the string it was cut from alive: engines may represent a
 * substring as a view into its parent, and a cached line must not pin a 30 MB restore input.
 * Concatenating then cutting makes the engine build a fresh flat string of the line's size.
 */
export function detach(s: string): string {
  return ` ${s}`.slice(1);
}

/** Longest string flatCopy() copies code unit by code unit (chain names are at most 28). */
const FLAT_COPY_MAX = 64;

/**
 * A copy of `s` built from its code units: a sequential string of its own. detach() gives a
 * slice of a fresh string, and V8 keeps a slice of 13 or more characters as a view (a
 * "sliced string"): sorting 110,000 such chain names, or looking them up in a Map, took
 * three times as long as for plain strings. Longer strings are detached.
 */
export function flatCopy(s: string): string {
  if (s.length > FLAT_COPY_MAX) return detach(s);
  const codes = new Array<number>(s.length);
  for (let i = 0; i < s.length; i++) codes[i] = s.charCodeAt(i);
  return String.fromCharCode(...codes);
}

/** Chain names handed out by sharedName(); started afresh when this large. */
const SHARED_NAMES = 1 << 18;
let sharedNames = new Map<string, string>();

/**
 * One string object per chain name, a plain copy (see flatCopy()): the table's chain and every
 * parsed rule line of that chain then hold the same object, and comparing them (a rule line
 * finds its chain, one line after the other) is comparing two pointers, not two texts.
 */
export function sharedName(name: string): string {
  const known = sharedNames.get(name);
  if (known !== undefined) return known;
  if (sharedNames.size >= SHARED_NAMES) sharedNames = new Map();
  const own = flatCopy(name);
  sharedNames.set(own, own);
  return own;
}

/**
 * sharedName() of a name its maker built as a flat string of its own (the chain-name hash,
 * kube-proxy/hash.ts): kept as it is, not copied again.
 */
export function sharedFlatName(name: string): string {
  const known = sharedNames.get(name);
  if (known !== undefined) return known;
  if (sharedNames.size >= SHARED_NAMES) sharedNames = new Map();
  sharedNames.set(name, name);
  return name;
}

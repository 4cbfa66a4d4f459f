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
 */
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

export class LineCache {
  private young = new Map<string, LineEntry>();
  private old = new Map<string, LineEntry>();

  /** The entry for `line`; `prev` is the entry of the line before it, if that was a rule. */
  get(line: string, prev: LineEntry | undefined): LineEntry | undefined {
    const guess = prev?.next;
    if (guess !== undefined && guess.key === line) return guess;
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

/**
 * A copy of `s` that does not keep the string it was cut from alive: engines may represent a
 * substring as a view into its parent, and a cached line must not pin a 30 MB restore input.
 * Concatenating then cutting makes the engine build a fresh flat string of the line's size.
 */
export function detach(s: string): string {
  return ` ${s}`.slice(1);
}

/**
 * Pure functions over a recorded trace: what the packet looked like at each step, which node
 * visit a step belongs to, and what the conntrack table and the rule counters showed at any
 * step. Playback only moves a cursor; everything on screen is derived from it, so the same
 * trace always replays the same way.
 */
import type { TraceEntry } from '../../explain/trace-text';
import type { LabStep } from '../../protocol/lab';

/**
 * The steps a presenter jumps between (Shift+→/←): where a packet is sent or crosses a wire,
 * enters a netfilter hook, is rewritten (NAT, IPVS), or meets its verdict. The steps between
 * (each rule tried, conntrack, routing) are still one → away.
 */
export function isStop(step: LabStep): boolean {
  return (
    step.kind === 'send' ||
    step.kind === 'wire' ||
    step.kind === 'hook' ||
    step.kind === 'nat' ||
    step.kind === 'ipvs' ||
    step.kind === 'verdict'
  );
}

/** The next stop after `cursor` (dir 1) or before it (dir -1); the last step, or -1, at the ends. */
export function nextStop(entries: readonly TraceEntry[], cursor: number, dir: 1 | -1): number {
  for (let i = cursor + dir; i >= 0 && i < entries.length; i += dir)
    if (isStop(entries[i]!.step)) return i;
  return dir === 1 ? entries.length - 1 : -1;
}

/**
 * The number every view shows for the step at `index` of the trace: the player's count,
 * 1-based ("Step 1 of 62" is index 0). Not the step's seq, which counts every step since the
 * lab started (a second Send's first step is not 0) and which the trace protocol keeps as is.
 */
export function stepNumber(index: number): number {
  return index + 1;
}

/** The contiguous run of steps on the same host around `index`: one visit of a packet. */
export function visitAround(entries: readonly TraceEntry[], index: number): [number, number] {
  const here = entries[index];
  if (here === undefined) return [0, -1];
  const same = (e: TraceEntry | undefined) =>
    e !== undefined && e.host === here.host && e.step.packetId === here.step.packetId;
  let start = index;
  while (start > 0 && same(entries[start - 1]) && entries[start - 1]!.step.kind !== 'wire') start--;
  let end = index;
  while (same(entries[end + 1]) && entries[end + 1]!.step.kind !== 'wire') end++;
  return [start, end];
}

export interface ConntrackRow {
  /** The original-direction tuple (the key conntrack hashes). */
  readonly key: string;
  readonly text: string;
  readonly state: 'listed' | 'unconfirmed' | 'created' | 'hit' | 'unnat' | 'updated';
}

/** `src=… dst=… sport=… dport=…` of the original direction of a `conntrack -L` line. */
export function originalTuple(line: string): string {
  const first = line.indexOf('src=');
  const second = line.indexOf('src=', first + 4);
  return (second > 0 ? line.slice(first, second) : line.slice(first))
    .replace('[UNREPLIED]', '')
    .trim();
}

/**
 * The node's conntrack table as `conntrack -L` would list it after step `cursor`: the table
 * before the first packet, with every conntrack event of the trace on that node applied.
 * Unconfirmed entries are kept apart: the kernel does not list them yet.
 */
export function conntrackAt(
  entries: readonly TraceEntry[],
  cursor: number,
  node: string,
  beforeText: string,
): ConntrackRow[] {
  const rows = new Map<string, ConntrackRow>();
  for (const line of beforeText.split('\n')) {
    if (line.trim() !== '')
      rows.set(originalTuple(line), { key: originalTuple(line), text: line, state: 'listed' });
  }
  for (let i = 0; i <= cursor && i < entries.length; i++) {
    const s = entries[i]!.step;
    if (s.kind !== 'conntrack' || s.at.host !== node) continue;
    const key = originalTuple(s.entry);
    const fresh = i === cursor;
    if (s.event === 'destroy') rows.delete(key);
    else if (s.event === 'new') rows.set(key, { key, text: s.entry, state: 'unconfirmed' });
    else if (s.event === 'confirmed')
      rows.set(key, { key, text: s.entry, state: fresh ? 'created' : 'listed' });
    else {
      const next = entries
        .slice(i + 1, i + 12)
        .find((e) => e.step.packetId === s.packetId && e.step.kind === 'nat');
      const unnat =
        next !== undefined && next.step.kind === 'nat' && next.step.manip.startsWith('un');
      const state =
        fresh || cursorInside(entries, i, cursor) ? (unnat ? 'unnat' : 'hit') : 'listed';
      rows.set(key, {
        key,
        text: s.entry,
        state: s.event === 'update' && fresh ? 'updated' : state,
      });
    }
  }
  return [...rows.values()];
}

/** True while the packet whose conntrack lookup was step `i` is still on the same node visit. */
function cursorInside(entries: readonly TraceEntry[], i: number, cursor: number): boolean {
  const [start, end] = visitAround(entries, i);
  return cursor >= start && cursor <= end;
}

export interface RuleCounter {
  readonly packets: number;
  readonly bytes: number;
}

/** `table/chain/ruleNum` → counters, from `iptables-save -c` text. */
export function parseCounters(saveText: string): Map<string, RuleCounter> {
  const out = new Map<string, RuleCounter>();
  let table = '';
  const perChain = new Map<string, number>();
  for (const line of saveText.split('\n')) {
    if (line.startsWith('*')) {
      table = line.slice(1);
      perChain.clear();
      continue;
    }
    const m = /^\[(\d+):(\d+)\] -A (\S+)/.exec(line);
    if (m === null) continue;
    const chain = m[3]!;
    const n = (perChain.get(chain) ?? 0) + 1;
    perChain.set(chain, n);
    out.set(`${table}/${chain}/${n}`, { packets: Number(m[1]), bytes: Number(m[2]) });
  }
  return out;
}

/** The counters after step `cursor`: before + one packet for every rule that matched on the node. */
export function countersAt(
  entries: readonly TraceEntry[],
  cursor: number,
  node: string,
  before: Map<string, RuleCounter>,
): Map<string, RuleCounter> {
  const out = new Map(before);
  for (let i = 0; i <= cursor && i < entries.length; i++) {
    const e = entries[i]!;
    const s = e.step;
    if (s.kind !== 'rule' || !s.matched || s.at.host !== node) continue;
    const key = `${s.table}/${s.chain}/${s.ruleNum}`;
    const c = out.get(key) ?? { packets: 0, bytes: 0 };
    out.set(key, { packets: c.packets + 1, bytes: c.bytes + (e.header?.length ?? 0) });
  }
  return out;
}

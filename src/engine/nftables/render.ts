/**
 * What `nft list …` prints (nftables 1.0.6, src/rule.c and src/expression.c): a table with its
 * comment, then its sets and maps, then its chains, in the kernel's creation order, blank lines
 * between objects; base chains show `type … hook … priority …; policy …;` with the priority
 * named when it is within 10 of a standard one valid at that hook (`dstnat - 10`); set elements
 * are sorted and wrapped (2 addresses, 16 numbers, or 1 concatenation per line); `-a` adds
 * `# handle N`. Checked line for line against nft 1.0.6 (tests/kernel/nft-views.test.ts).
 */
import { ruleText, verdictText } from './rule-text';
import type { NftChain, NftElement, NftHook, NftSet, NftTable } from './types';
import { compareKeys } from './values';

export interface RenderOptions {
  /** `-a`: print handles. */
  readonly handles?: boolean;
  /** Virtual time now (ms), for element expiry. */
  readonly nowMs: number;
}

// src/rule.c std_prios (ip/ip6/inet families) in the order prio2str tries them.
const STD_PRIOS: readonly (readonly [number, string])[] = [
  [-300, 'raw'],
  [-150, 'mangle'],
  [-100, 'dstnat'],
  [0, 'filter'],
  [50, 'security'],
  [100, 'srcnat'],
];

/** std_prio_family_hook_compat: dstnat only at prerouting, srcnat only at postrouting. */
function compatible(name: string, hook: NftHook): boolean {
  if (name === 'dstnat') return hook === 'prerouting';
  if (name === 'srcnat') return hook === 'postrouting';
  return true;
}

export function priorityText(priority: number, hook: NftHook): string {
  for (const [value, name] of STD_PRIOS) {
    if (!compatible(name, hook)) continue;
    const offset = priority - value;
    if (Math.abs(offset) > 10) continue;
    if (offset === 0) return name;
    return offset > 0 ? `${name} + ${offset}` : `${name} - ${-offset}`;
  }
  return String(priority);
}

/** src/datatype.c time_print: `1d2h3m4s5ms`, zero parts left out. */
export function durationText(ms: number): string {
  let rest = Math.max(0, Math.floor(ms));
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n}${unit}`);
  }
  if (rest > 0) parts.push(`${rest}ms`);
  return parts.length === 0 ? '0s' : parts.join('');
}

function elementText(e: NftElement, nowMs: number): string {
  let s = e.key.join(' . ');
  if (e.timeoutMs !== undefined) s += ` timeout ${durationText(e.timeoutMs)}`;
  if (e.expiresAt !== undefined) s += ` expires ${durationText(e.expiresAt - nowMs)}`;
  if (e.comment !== undefined) s += ` comment "${e.comment}"`;
  if (e.verdict !== undefined) s += ` : ${verdictText(e.verdict)}`;
  return s;
}

/** Live elements (timed-out ones are gone), in nft's order. */
export function liveElements(set: NftSet, nowMs: number): NftElement[] {
  return [...set.elements.values()]
    .filter((e) => e.expiresAt === undefined || e.expiresAt > nowMs)
    .sort((a, b) => compareKeys(a.key, b.key));
}

/** calculate_delim(): how many elements share a line. */
function perLine(set: NftSet): number {
  if (set.keyType.length > 1) return 1;
  return set.keyType[0] === 'ipv4_addr' ? 2 : 16;
}

function setLines(set: NftSet, opts: RenderOptions): string[] {
  const handle = opts.handles ? ` # handle ${set.handle}` : '';
  const type = set.keyType.join(' . ') + (set.kind === 'map' ? ' : verdict' : '');
  const lines = [`\t${set.kind} ${set.name} {${handle}`, `\t\ttype ${type}`];
  // nft gives dynamic sets without a size NFT_SET_DEFAULT_SIZE (65535).
  if (set.flags.includes('dynamic')) lines.push('\t\tsize 65535');
  if (set.flags.length > 0) lines.push(`\t\tflags ${set.flags.join(',')}`);
  if (set.timeoutMs !== undefined) lines.push(`\t\ttimeout ${durationText(set.timeoutMs)}`);
  if (set.comment !== undefined) lines.push(`\t\tcomment "${set.comment}"`);
  const elements = liveElements(set, opts.nowMs);
  if (elements.length > 0) {
    const n = perLine(set);
    let text = '';
    elements.forEach((e, i) => {
      if (i > 0) text += i % n === 0 ? ',\n\t\t\t     ' : ', ';
      text += elementText(e, opts.nowMs);
    });
    lines.push(`\t\telements = { ${text} }`);
  }
  lines.push('\t}');
  return lines;
}

function chainHeader(chain: NftChain, opts: { handles?: boolean }): string[] {
  const handle = opts.handles ? ` # handle ${chain.handle}` : '';
  const lines = [`\tchain ${chain.name} {${handle}`];
  if (chain.comment !== undefined) lines.push(`\t\tcomment "${chain.comment}"`);
  if (chain.base !== undefined) {
    const b = chain.base;
    lines.push(
      `\t\ttype ${b.type} hook ${b.hook} priority ${priorityText(b.priority, b.hook)}; policy ${b.policy};`,
    );
  }
  return lines;
}

function chainLines(chain: NftChain, opts: RenderOptions): string[] {
  const lines = chainHeader(chain, opts);
  for (const rule of chain.rules) {
    lines.push(`\t\t${ruleText(rule)}${opts.handles ? ` # handle ${rule.handle}` : ''}`);
  }
  lines.push('\t}');
  return lines;
}

function tableOpen(table: NftTable, opts: { handles?: boolean }): string {
  return `table ${table.family} ${table.name} {${opts.handles ? ` # handle ${table.handle}` : ''}`;
}

/** `nft list table FAMILY NAME`. */
export function renderTable(table: NftTable, opts: RenderOptions): string {
  const out = [tableOpen(table, opts)];
  if (table.comment !== undefined) out.push(`\tcomment "${table.comment}"`);
  const blocks = [
    ...[...table.sets.values()].map((s) => setLines(s, opts)),
    ...[...table.chains.values()].map((c) => chainLines(c, opts)),
  ];
  blocks.forEach((b, i) => {
    if (i > 0) out.push('');
    out.push(...b);
  });
  out.push('}');
  return out.join('\n') + '\n';
}

/** `nft list chain|set|map FAMILY TABLE NAME`: the object inside its table's braces. */
export function renderObject(table: NftTable, lines: string[]): string {
  return [`table ${table.family} ${table.name} {`, ...lines, '}'].join('\n') + '\n';
}

export function renderChain(table: NftTable, chain: NftChain, opts: RenderOptions): string {
  return renderObject(table, chainLines(chain, opts));
}

export function renderSet(table: NftTable, set: NftSet, opts: RenderOptions): string {
  return renderObject(table, setLines(set, opts));
}

/** `nft list chains`: every chain's header only, no blank lines (and no table handle with -a). */
export function renderChains(table: NftTable, opts: { handles?: boolean }): string {
  const lines = [`table ${table.family} ${table.name} {`];
  for (const c of table.chains.values()) lines.push(...chainHeader(c, opts), '\t}');
  return lines.join('\n') + '\n}\n';
}

/** `nft list sets|maps`: the table's sets (or maps) without blank lines. */
export function renderSets(table: NftTable, kind: 'set' | 'map', opts: RenderOptions): string {
  const lines = [tableOpen(table, opts)];
  for (const s of table.sets.values()) if (s.kind === kind) lines.push(...setLines(s, opts));
  return lines.join('\n') + '\n}\n';
}

/**
 * What an apply changed in each node's kernel tables. Every table is compared with its own
 * listing before and after (iptables-save with iptables-save, ipvsadm with ipvsadm), never one
 * mode's listing with another's: kube-proxy's modes leave each other's rules in place, and IPVS
 * mode programs iptables and ipsets besides the IPVS table, so after a mode switch each table
 * changes by what the new mode wrote into it and nothing else.
 */
import type { RuleDiff, RuleTable, TableDiff } from '../protocol/lab';

/** How one table is listed, and its listing cut into lines that can be compared alone. */
interface TableListing {
  readonly table: RuleTable;
  readonly command: string;
  readonly lines: (stdout: string) => string[];
}

const nonEmpty = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

/**
 * iptables-save without its `#` comment lines (they carry the time of the save) and without
 * counters (`:CHAIN ACCEPT [0:0]`, `[1:60] -A …` with -c): a packet is not a rule change.
 */
function iptablesLines(stdout: string): string[] {
  return nonEmpty(stdout)
    .filter((l) => !l.startsWith('#'))
    .map((l) => l.replace(/^\[\d+:\d+\] /, '').replace(/ \[\d+:\d+\]$/, ''));
}

/**
 * ipvsadm -Ln without its three heading lines. A real server line (`  -> 10.244.0.4:8080 …`)
 * means nothing alone (the same pod backs several Services), so each one is prefixed with its
 * virtual service, as `ipvsadm -Ln -t VIP:PORT` would show it under that service.
 */
function ipvsLines(stdout: string): string[] {
  const out: string[] = [];
  let service = '';
  for (const line of nonEmpty(stdout)) {
    if (line.startsWith('IP Virtual Server') || line.startsWith('Prot LocalAddress')) continue;
    if (line.startsWith('  -> RemoteAddress')) continue;
    if (line.startsWith('  -> ')) out.push(`${service}  ${line.trim().replace(/\s+/g, ' ')}`);
    else {
      service = line.trimEnd();
      out.push(service);
    }
  }
  return out;
}

/** nft without its counters' values (`counter packets 3 bytes 180` is still `counter`). */
function nftLines(stdout: string): string[] {
  return nonEmpty(stdout).map((l) => l.replace(/counter packets \d+ bytes \d+/g, 'counter'));
}

/**
 * The tables compared, in the order they are reported. nftables is kube-proxy's own table
 * only: `nft list ruleset` also prints iptables-nft's tables, already compared as iptables.
 */
export const TABLE_LISTINGS: readonly TableListing[] = [
  { table: 'iptables', command: 'iptables-save', lines: iptablesLines },
  { table: 'ipset', command: 'ipset save', lines: nonEmpty },
  { table: 'ipvs', command: 'ipvsadm -Ln', lines: ipvsLines },
  { table: 'nftables', command: 'nft list table ip kube-proxy', lines: nftLines },
];

/** Every table's lines on one node. */
export type NodeTables = ReadonlyMap<RuleTable, readonly string[]>;

/**
 * Lists every table of a node with `run` (a command line on that node). A listing that fails
 * (no such table yet, e.g. `ip kube-proxy` before nftables mode ever ran) is an empty table.
 */
export function listTables(
  run: (line: string) => { readonly stdout: string; readonly exitCode: number },
): NodeTables {
  const out = new Map<RuleTable, readonly string[]>();
  for (const listing of TABLE_LISTINGS) {
    const result = run(listing.command);
    out.set(listing.table, result.exitCode === 0 ? listing.lines(result.stdout) : []);
  }
  return out;
}

/** Each node's changed tables, before against after; nodes with no change are left out. */
export function diffNodeTables(
  before: ReadonlyMap<string, NodeTables>,
  after: ReadonlyMap<string, NodeTables>,
): RuleDiff[] {
  const diffs: RuleDiff[] = [];
  for (const [node, tables] of after) {
    const changed: TableDiff[] = [];
    for (const { table, command } of TABLE_LISTINGS) {
      const diff = diffLines(before.get(node)?.get(table) ?? [], tables.get(table) ?? []);
      if (diff.added.length > 0 || diff.removed.length > 0)
        changed.push({ table, command, ...diff });
    }
    if (changed.length > 0) diffs.push({ node, tables: changed });
  }
  return diffs;
}

/** Lines only in `after` (added) and only in `before` (removed), counting repeats. */
export function diffLines(
  before: readonly string[],
  after: readonly string[],
): { added: string[]; removed: string[] } {
  const left = new Map<string, number>();
  for (const l of before) left.set(l, (left.get(l) ?? 0) + 1);
  const added: string[] = [];
  for (const l of after) {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else added.push(l);
  }
  const removed: string[] = [];
  const right = new Map<string, number>();
  for (const l of after) right.set(l, (right.get(l) ?? 0) + 1);
  for (const l of before) {
    const n = right.get(l) ?? 0;
    if (n > 0) right.set(l, n - 1);
    else removed.push(l);
  }
  return { added, removed };
}

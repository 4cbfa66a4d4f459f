/**
 * The `nft` command line for what the lab lets a learner do: `nft [-a] list ruleset|tables|
 * table|chains|chain|sets|set|maps|map …`, `-v`. Errors are nft 1.0.6's: the bison message, the
 * command echoed, and a caret marker under the offending word (checked against the real nft).
 *
 * Where the lab simplifies: only kube-proxy's table is an nftables table of the lab; the
 * tables iptables-nft keeps for kubelet's rules (`ip filter`, `ip nat`, `ip mangle`) are not
 * listed by `nft list ruleset|tables` (see them with iptables-save).
 */
import { renderChain, renderChains, renderSet, renderSets, renderTable } from './render';
import { tableKey, type NftState, type NftTable } from './types';
import type { NftRunResult } from './transaction';

const VERSION = 'nftables v1.0.6 (Lester Gooch #5)\n';
const FAMILIES = ['ip', 'ip6', 'inet', 'arp', 'bridge', 'netdev'];

function err(words: readonly string[], index: number, message: string): NftRunResult {
  const line = words.join(' ');
  let col = 0;
  for (let i = 0; i < index && i < words.length; i++) col += words[i]!.length + 1;
  // Past the end: the caret stands on the newline after the command.
  const marker =
    index >= words.length
      ? ' '.repeat(line.length) + '^'
      : ' '.repeat(col) + '^'.repeat(words[index]!.length);
  return { stdout: '', stderr: `Error: ${message}\n${line}\n${marker}\n`, exitCode: 1 };
}

const EXPECT_STRING = 'syntax error, unexpected newline, expecting string';
const TRAILING = 'syntax error, unexpected string, expecting end of file or newline or semicolon';
const ENOENT = 'No such file or directory';

export function nftCommand(state: NftState, argv: readonly string[], nowMs: number): NftRunResult {
  let handles = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-a' || a === '--handle') handles = true;
    else if (a === '-v' || a === '--version') return { stdout: VERSION, stderr: '', exitCode: 0 };
    else if (a === '-n' || a === '--numeric' || a === '-s' || a === '--stateless') continue;
    else if (a.startsWith('--'))
      return { stdout: '', stderr: `nft: unrecognized option '${a}'\n`, exitCode: 1 };
    else if (a.startsWith('-') && a.length > 1)
      return { stdout: '', stderr: `nft: invalid option -- '${a[1]}'\n`, exitCode: 1 };
    else break;
  }
  const words = argv.slice(i);
  if (words.length === 0) return { stdout: '', stderr: 'nft: no command specified\n', exitCode: 1 };
  if (words[0] !== 'list') {
    return err(words, 0, `syntax error, unexpected string`);
  }
  const what = words[1];
  if (what === undefined) return err(words, 1, 'syntax error, unexpected newline');
  const opts = { handles, nowMs };
  const tables = [...state.tables.values()];
  const plural = (render: (t: NftTable) => string, from: number): NftRunResult => {
    // `list chains [FAMILY]`.
    const family = words[from];
    if (family !== undefined && !FAMILIES.includes(family)) return err(words, from, TRAILING);
    if (words.length > from + 1) return err(words, from + 1, TRAILING);
    const out = tables.filter((t) => family === undefined || t.family === family).map(render);
    return { stdout: out.join(''), stderr: '', exitCode: 0 };
  };
  switch (what) {
    case 'ruleset':
      return plural((t) => renderTable(t, opts), 2);
    case 'tables':
      return plural((t) => `table ${t.family} ${t.name}\n`, 2);
    case 'chains':
      return plural((t) => renderChains(t, opts), 2);
    case 'sets':
      return plural((t) => renderSets(t, 'set', opts), 2);
    case 'maps':
      return plural((t) => renderSets(t, 'map', opts), 2);
    case 'table':
    case 'chain':
    case 'set':
    case 'map': {
      // [FAMILY] TABLE [NAME]
      let at = 2;
      let family = 'ip';
      if (words[at] !== undefined && FAMILIES.includes(words[at]!) && words[at + 1] !== undefined) {
        family = words[at]!;
        at++;
      }
      const tableName = words[at];
      if (tableName === undefined) return err(words, at, EXPECT_STRING);
      const needsName = what !== 'table';
      const objName = needsName ? words[at + 1] : undefined;
      if (needsName && objName === undefined) return err(words, at + 1, EXPECT_STRING);
      const end = needsName ? at + 2 : at + 1;
      if (words.length > end) return err(words, end, TRAILING);
      const table = state.tables.get(tableKey(family, tableName));
      if (table === undefined) return err(words, at, ENOENT);
      if (what === 'table') return { stdout: renderTable(table, opts), stderr: '', exitCode: 0 };
      if (what === 'chain') {
        const chain = table.chains.get(objName!);
        if (chain === undefined) return err(words, at + 1, ENOENT);
        return { stdout: renderChain(table, chain, opts), stderr: '', exitCode: 0 };
      }
      const set = table.sets.get(objName!);
      if (set === undefined || set.kind !== what) return err(words, at + 1, ENOENT);
      return { stdout: renderSet(table, set, opts), stderr: '', exitCode: 0 };
    }
  }
  return err(words, 1, 'syntax error, unexpected string');
}

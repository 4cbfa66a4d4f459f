/**
 * The `nft` command line for what the lab lets a learner do: `nft [-a] list ruleset|tables|
 * table|chains|chain|sets|set|maps|map …`, `-v`. Errors are nft 1.0.6's: the bison message, the
 * command echoed, and a caret marker under the offending word (checked against the real nft).
 *
 * The listing covers every nf_tables table of the host, in creation (handle) order: the ones
 * `nft -f` made (kube-proxy's) and the ones iptables-nft keeps for iptables rules (`ip filter`,
 * `ip nat`, …: kubelet's, and kube-proxy's in iptables and IPVS modes), with nft's warning
 * about the latter on stderr.
 */
import {
  iptablesNftWarning,
  type ListedTable,
  type ListOptions,
} from '../netfilter/nft-view/render';
import { renderChain, renderChains, renderSet, renderSets, renderTable } from './render';
import type { NftState, NftTable } from './types';
import type { NftRunResult } from './transaction';
import { labNote } from '../model/lab-notes';

const VERSION = 'nftables v1.0.6 (Lester Gooch #5)\n';
const FAMILIES = ['ip', 'ip6', 'inet', 'arp', 'bridge', 'netdev'];
/** nft's other commands (nft 1.0.6 parser_bison.y base_cmd), which the lab does not run. */
const VERBS = ['add', 'replace', 'create', 'insert', 'delete', 'get', 'reset', 'flush', 'rename', 'import', 'export', 'monitor', 'describe', 'destroy']; // prettier-ignore

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

/** A table `nft -f` made, listed like any other. */
function listedNft(t: NftTable, nowMs: number): ListedTable {
  const opts = (o: ListOptions) => ({ handles: o.handles, nowMs });
  return {
    family: t.family,
    name: t.name,
    handle: t.handle,
    table: (o) => ({ text: renderTable(t, opts(o)), warn: false }),
    chains: (o) => renderChains(t, o),
    chain(name, o) {
      const c = t.chains.get(name);
      return c === undefined ? undefined : { text: renderChain(t, c, opts(o)), warn: false };
    },
    sets: (kind, o) => renderSets(t, kind, opts(o)),
    set(name, kind, o) {
      const set = t.sets.get(name);
      return set === undefined || set.kind !== kind ? undefined : renderSet(t, set, opts(o));
    },
  };
}

/**
 * nft 1.0.6's other options (its getopt table): real, not modelled here (-j's JSON, -t's
 * terse listing, -f's files…): the lab says so rather than calling them invalid.
 */
const NFT_OTHER_SHORT = new Set([...'hVcfiIDNSuypTedjto']);
const NFT_OTHER_LONG = new Set(['--help', '--check', '--file', '--interactive', '--includepath', '--define', '--reversedns', '--service', '--guid', '--numeric-priority', '--numeric-protocol', '--numeric-time', '--echo', '--debug', '--json', '--terse', '--optimize']); // prettier-ignore

/**
 * `iptablesNft`: the host's iptables-nft tables (netfilter/nft-view), listed with the tables
 * of `state` in handle order.
 */
export function nftCommand(
  state: NftState,
  argv: readonly string[],
  nowMs: number,
  iptablesNft: readonly ListedTable[] = [],
): NftRunResult {
  let handles = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-a' || a === '--handle') handles = true;
    else if (a === '-v' || a === '--version') return { stdout: VERSION, stderr: '', exitCode: 0 };
    else if (a === '-n' || a === '--numeric' || a === '-s' || a === '--stateless') continue;
    else if (
      NFT_OTHER_LONG.has(a.split('=')[0]!) ||
      (/^-[^-]/.test(a) && NFT_OTHER_SHORT.has(a[1]!))
    )
      return { stdout: '', stderr: labNote('nft.option', { option: a }), exitCode: 1 };
    else if (a.startsWith('--'))
      return { stdout: '', stderr: `nft: unrecognized option '${a}'\n`, exitCode: 1 };
    else if (a.startsWith('-') && a.length > 1)
      return { stdout: '', stderr: `nft: invalid option -- '${a[1]}'\n`, exitCode: 1 };
    else break;
  }
  const words = argv.slice(i);
  if (words.length === 0) return { stdout: '', stderr: 'nft: no command specified\n', exitCode: 1 };
  if (words[0] !== 'list') {
    if (VERBS.includes(words[0]!))
      return {
        stdout: '',
        stderr: labNote('nft.unmodelled', { what: words[0]! }),
        exitCode: 1,
      };
    // Without a verb nft reads `add rule`: TABLE CHAIN then the rule (checked with one to three
    // words; a longer line would be read as a rule's statements). The lab's own messages exit
    // 1, nft's failure status.
    if (words.length === 1) return err(words, 1, EXPECT_STRING);
    if (words.length <= 3) return err(words, words.length, 'syntax error, unexpected newline');
    return {
      stdout: '',
      stderr: labNote('nft.unmodelled', { what: words.join(' ') }),
      exitCode: 1,
    };
  }
  const what = words[1];
  if (what === undefined) return err(words, 1, 'syntax error, unexpected newline');
  const opts = { handles };
  const tables = [...[...state.tables.values()].map((t) => listedNft(t, nowMs)), ...iptablesNft];
  tables.sort((a, b) => a.handle - b.handle);
  const warning = (t: ListedTable, warn: boolean): string =>
    warn ? iptablesNftWarning(t.family, t.name) : '';
  const plural = (
    render: (t: ListedTable) => { text: string; warn: boolean },
    from: number,
  ): NftRunResult => {
    // `list chains [FAMILY]`.
    const family = words[from];
    if (family !== undefined && !FAMILIES.includes(family)) return err(words, from, TRAILING);
    if (words.length > from + 1) return err(words, from + 1, TRAILING);
    let stdout = '';
    let stderr = '';
    for (const t of tables) {
      if (family !== undefined && t.family !== family) continue;
      const r = render(t);
      stdout += r.text;
      stderr += warning(t, r.warn);
    }
    return { stdout, stderr, exitCode: 0 };
  };
  const plain = (text: string) => ({ text, warn: false });
  switch (what) {
    case 'ruleset':
      return plural((t) => t.table(opts), 2);
    case 'tables':
      return plural((t) => plain(`table ${t.family} ${t.name}\n`), 2);
    case 'chains':
      return plural((t) => plain(t.chains(opts)), 2);
    case 'sets':
      return plural((t) => plain(t.sets('set', opts)), 2);
    case 'maps':
      return plural((t) => plain(t.sets('map', opts)), 2);
    case 'table':
    case 'chain':
    case 'set':
    case 'map': {
      // [FAMILY] TABLE [NAME]
      // A family word is always the family (a keyword to nft's scanner, never a name).
      let at = 2;
      let family = 'ip';
      if (words[at] !== undefined && FAMILIES.includes(words[at]!)) {
        family = words[at]!;
        at++;
      }
      const tableName = words[at];
      if (tableName === undefined) return err(words, at, EXPECT_STRING);
      if (FAMILIES.includes(tableName))
        return err(words, at, `syntax error, unexpected ${tableName}, expecting string`);
      const needsName = what !== 'table';
      const objName = needsName ? words[at + 1] : undefined;
      if (needsName && objName === undefined) return err(words, at + 1, EXPECT_STRING);
      const end = needsName ? at + 2 : at + 1;
      if (words.length > end) return err(words, end, TRAILING);
      const table = tables.find((t) => t.family === family && t.name === tableName);
      if (table === undefined) return err(words, at, ENOENT);
      if (what === 'table') {
        const r = table.table(opts);
        return { stdout: r.text, stderr: warning(table, r.warn), exitCode: 0 };
      }
      if (what === 'chain') {
        const r = table.chain(objName!, opts);
        if (r === undefined) return err(words, at + 1, ENOENT);
        return { stdout: r.text, stderr: warning(table, r.warn), exitCode: 0 };
      }
      const set = table.set(objName!, what, opts);
      if (set === undefined) return err(words, at + 1, ENOENT);
      return { stdout: set, stderr: '', exitCode: 0 };
    }
  }
  return err(words, 1, 'syntax error, unexpected string');
}

/**
 * The tables iptables-nft keeps in nf_tables (`ip filter`, `ip nat`, …) as `nft list` prints
 * them (nftables 1.0.6): only the chains that exist in nf_tables, in creation order; base
 * chains with the type, hook and priority iptables-nft gives them; rules as
 * ./rule-text.ts renders them; `-a` handles; and, on stderr, nft's warning for a table that
 * holds x_tables expressions. Checked against the kernel (tests/kernel/nft-iptables.test.ts).
 */
import { BUILTIN_CHAINS } from '../tables';
import { findChain } from '../state';
import type { Chain, NetfilterState, NftTableIds, Table, TableName } from '../types';
import { nftChainOrder } from './ids';
import { nftRuleText } from './rule-text';

export interface ListOptions {
  readonly handles: boolean;
}

/** What `nft list` needs of a table, whoever made it (iptables-nft, or `nft -f`). */
export interface ListedTable {
  readonly family: string;
  readonly name: string;
  readonly handle: number;
  /** `list table|ruleset`; `warn`: it holds x_tables expressions. */
  table(opts: ListOptions): { readonly text: string; readonly warn: boolean };
  /** `list chains`: headers only. */
  chains(opts: ListOptions): string;
  chain(
    name: string,
    opts: ListOptions,
  ): { readonly text: string; readonly warn: boolean } | undefined;
  sets(kind: 'set' | 'map', opts: ListOptions): string;
  set(name: string, kind: 'set' | 'map', opts: ListOptions): string | undefined;
}

/** The nft warning for a table iptables-nft manages (src/rule.c table_print). */
export function iptablesNftWarning(family: string, name: string): string {
  return `# Warning: table ${family} ${name} is managed by iptables-nft, do not touch!\n`;
}

const HOOKS: Readonly<Record<string, string>> = {
  PREROUTING: 'prerouting',
  INPUT: 'input',
  FORWARD: 'forward',
  OUTPUT: 'output',
  POSTROUTING: 'postrouting',
};

/**
 * iptables-nft's base chains (nft.c xtables_ipv4[]) as nft names their priorities: a standard
 * name where one is defined at that hook, the number otherwise (nat INPUT 100, OUTPUT -100;
 * security 150).
 */
function baseChainLine(table: TableName, chain: Chain): string {
  const hook = HOOKS[chain.name] ?? chain.name.toLowerCase();
  let type = 'filter';
  let priority: string = table;
  if (table === 'nat') {
    type = 'nat';
    priority = { prerouting: 'dstnat', input: '100', output: '-100', postrouting: 'srcnat' }[hook] ?? '0'; // prettier-ignore
  } else if (table === 'mangle' && hook === 'output') type = 'route';
  else if (table === 'security') priority = '150';
  const policy = (chain.policy ?? 'ACCEPT').toLowerCase();
  return `\t\ttype ${type} hook ${hook} priority ${priority}; policy ${policy};`;
}

function isBase(table: TableName, name: string): boolean {
  return BUILTIN_CHAINS[table].includes(name);
}

function chainOpen(ids: NftTableIds, name: string, opts: ListOptions): string {
  return `\tchain ${name} {${opts.handles ? ` # handle ${ids.chains[name]}` : ''}`;
}

function chainBlock(t: Table, ids: NftTableIds, c: Chain, opts: ListOptions): [string[], boolean] {
  const lines = [chainOpen(ids, c.name, opts)];
  if (isBase(t.name, c.name)) lines.push(baseChainLine(t.name, c));
  let warn = false;
  for (const r of c.rules) {
    const { text, xt } = nftRuleText(r);
    warn ||= xt;
    lines.push(`\t\t${text}${opts.handles ? ` # handle ${r.nftHandle ?? 0}` : ''}`);
  }
  lines.push('\t}');
  return [lines, warn];
}

function tableOpen(t: Table, ids: NftTableIds, opts: ListOptions): string {
  return `table ip ${t.name} {${opts.handles ? ` # handle ${ids.handle}` : ''}`;
}

function listed(t: Table, ids: NftTableIds): ListedTable {
  const chains = (): Chain[] =>
    nftChainOrder(ids)
      .map((n) => findChain(t, n))
      .filter((c): c is Chain => c !== undefined);
  return {
    family: 'ip',
    name: t.name,
    handle: ids.handle,
    table(opts) {
      const out = [tableOpen(t, ids, opts)];
      let warn = false;
      chains().forEach((c, i) => {
        const [lines, w] = chainBlock(t, ids, c, opts);
        if (i > 0) out.push('');
        out.push(...lines);
        warn ||= w;
      });
      out.push('}');
      return { text: out.join('\n') + '\n', warn };
    },
    chains(opts) {
      // No table handle on this listing, even with -a.
      const out = [`table ip ${t.name} {`];
      for (const c of chains()) {
        out.push(chainOpen(ids, c.name, opts));
        if (isBase(t.name, c.name)) out.push(baseChainLine(t.name, c));
        out.push('\t}');
      }
      return out.join('\n') + '\n}\n';
    },
    chain(name, opts) {
      const c = Object.hasOwn(ids.chains, name) ? findChain(t, name) : undefined;
      if (c === undefined) return undefined;
      const [lines, warn] = chainBlock(t, ids, c, opts);
      return { text: [`table ip ${t.name} {`, ...lines, '}'].join('\n') + '\n', warn };
    },
    sets: (_kind, opts) => `${tableOpen(t, ids, opts)}\n}\n`,
    set: () => undefined,
  };
}

/** The node's iptables-nft tables, as `nft list` sees them. */
export function iptablesNftTables(state: NetfilterState): ListedTable[] {
  const out: ListedTable[] = [];
  for (const t of Object.values(state.tables)) {
    if (t?.nft !== undefined) out.push(listed(t, t.nft));
  }
  return out;
}

/**
 * The built-in tables of the IPv4 family as iptables-nft defines them (nft.c xtables_ipv4[]),
 * with their base chains in hook order.
 */
import type { TableName } from './types';

export const BUILTIN_CHAINS: { readonly [K in TableName]: readonly string[] } = {
  raw: ['PREROUTING', 'OUTPUT'],
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  security: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
};

/**
 * The order iptables-nft-save walks tables in: the NFT_TABLE_* enum of nft.h
 * (MANGLE, SECURITY, RAW, FILTER, NAT), skipping tables that do not exist.
 */
export const TABLE_ORDER: readonly TableName[] = ['mangle', 'security', 'raw', 'filter', 'nat'];

export function isTableName(name: string): name is TableName {
  return (TABLE_ORDER as readonly string[]).includes(name);
}

const BUILTIN_SETS: { readonly [K in TableName]: ReadonlySet<string> } = {
  raw: new Set(BUILTIN_CHAINS.raw),
  mangle: new Set(BUILTIN_CHAINS.mangle),
  filter: new Set(BUILTIN_CHAINS.filter),
  security: new Set(BUILTIN_CHAINS.security),
  nat: new Set(BUILTIN_CHAINS.nat),
};

export function isBuiltinChain(table: TableName, chain: string): boolean {
  return BUILTIN_SETS[table].has(chain);
}

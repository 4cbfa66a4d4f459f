/**
 * The per-node memory of the walk, and where each table sits on the hooks.
 */
import type { TableName } from '../types';
import type { Hook, WalkStore } from './types';

/** An empty store: no xt_recent lists, nth counters, nfacct objects or limit buckets yet. */
export function createWalkStore(): WalkStore {
  return { recent: {}, nth: {}, nfacct: {}, limit: {} };
}

/**
 * The iptables tables registered at each IPv4 hook, in priority order (raw -300, mangle -150,
 * nat DNAT -100, filter 0, security 50, nat SNAT 100: include/uapi/linux/netfilter_ipv4.h).
 * Conntrack (-200) runs between raw and mangle; the caller interleaves it.
 */
export const TABLES_AT_HOOK: { readonly [H in Hook]: readonly TableName[] } = {
  PREROUTING: ['raw', 'mangle', 'nat'],
  INPUT: ['mangle', 'filter', 'security', 'nat'],
  FORWARD: ['mangle', 'filter', 'security'],
  OUTPUT: ['raw', 'mangle', 'nat', 'filter', 'security'],
  POSTROUTING: ['mangle', 'nat'],
};

/**
 * The nf_tables side of an iptables-nft batch: which chains it created (iptables-nft creates a
 * base chain only when a rule or a policy needs it), deleted or renamed, and which rules it
 * added, in the order the kernel handles the batch's messages. Each new chain and each rule
 * added (a flushed chain's rules written again included) takes the table's next handle
 * (nf_tables_api.c: nf_tables_alloc_handle(), table->hgenerator); a renamed chain keeps its
 * handle, hence its place.
 */
import type { NftTableIds, Rule } from '../types';

export type NftEvent =
  | Rule
  | { readonly ev: 'chain'; readonly name: string }
  | { readonly ev: 'del'; readonly name: string }
  | { readonly ev: 'rename'; readonly from: string; readonly to: string }
  /** Rules [from, to) of a committed chain, added again in order (a refill, restore-block.ts). */
  | {
      readonly ev: 'rules';
      readonly rules: readonly Rule[];
      readonly from: number;
      readonly to: number;
    };

export function freshIds(): NftTableIds {
  return { handle: 0, chains: {}, lastHandle: 0 };
}

/** Applies a committed batch's events, in order, to the table's ids (in place). */
export function applyNftEvents(ids: NftTableIds, events: readonly NftEvent[]): void {
  const chains = ids.chains;
  for (const e of events) {
    if (!('ev' in e)) {
      (e as { nftHandle?: number }).nftHandle = ++ids.lastHandle;
      continue;
    }
    if (e.ev === 'rules') {
      for (let i = e.from; i < e.to; i++)
        (e.rules[i] as { nftHandle?: number }).nftHandle = ++ids.lastHandle;
    } else if (e.ev === 'chain') {
      if (!Object.hasOwn(chains, e.name)) chains[e.name] = ++ids.lastHandle;
    } else if (e.ev === 'del') delete chains[e.name];
    else if (Object.hasOwn(chains, e.from)) {
      chains[e.to] = chains[e.from]!;
      delete chains[e.from];
    }
  }
}

/** The chains nf_tables holds, in creation order (handles only grow). */
export function nftChainOrder(ids: NftTableIds): string[] {
  return Object.keys(ids.chains).sort((a, b) => ids.chains[a]! - ids.chains[b]!);
}

/**
 * Why an nf_tables rule of kube-proxy's table did not match, for the trace: the statement that
 * ended it (nft_do_chain() stops at the first expression that breaks), as `nft list` writes it,
 * and what the packet had there. Set and map lookups are explained by their own steps (hit or
 * miss), so they are not named here. The kinds are the iptables walk's (netfilter mismatch.ts).
 */
import { stmtText } from './rule-text';
import type { NftField, Stmt } from './types';

export interface NftMismatch {
  readonly condition: string;
  readonly kind:
    'source' | 'destination' | 'in' | 'out' | 'protocol' | 'dport' | 'ctstate' | 'mark' | 'other';
  readonly value: string;
}

export interface NftPacketView {
  readonly src: string;
  readonly dst: string;
  readonly proto: string;
  readonly dport?: number;
  readonly iif?: string;
  readonly oif?: string;
  readonly ctstate: string;
}

const KIND_OF: Readonly<Record<NftField, NftMismatch['kind']>> = {
  'ip saddr': 'source',
  'ip daddr': 'destination',
  'meta l4proto': 'protocol',
  'th dport': 'dport',
  iifname: 'in',
  oifname: 'out',
};

function fieldText(p: NftPacketView, f: NftField): string {
  if (f === 'ip saddr') return p.src;
  if (f === 'ip daddr') return p.dst;
  if (f === 'meta l4proto') return p.proto;
  if (f === 'th dport') return p.dport === undefined ? '' : String(p.dport);
  return (f === 'iifname' ? p.iif : p.oif) ?? '';
}

/** The statement `s` broke the rule (undefined: a lookup, explained by its own step). */
export function nftMismatch(s: Stmt, p: NftPacketView, mark: number): NftMismatch | undefined {
  const condition = stmtText(s);
  switch (s.k) {
    case 'cmp':
      return { condition, kind: KIND_OF[s.field], value: fieldText(p, s.field) };
    case 'ct-state':
      return { condition, kind: 'ctstate', value: p.ctstate };
    case 'mark-cmp':
      return { condition, kind: 'mark', value: `0x${mark.toString(16)}` };
    case 'l4-dport':
      return p.proto === s.proto
        ? { condition, kind: 'dport', value: String(p.dport ?? '') }
        : { condition, kind: 'protocol', value: p.proto };
    case 'fib':
      return { condition, kind: 'other', value: '' };
    default:
      return undefined;
  }
}

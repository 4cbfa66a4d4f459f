// An nf_tables rule that did not match names the statement that ended it and what the packet
// had there; lookups are explained by their own steps.
import { describe, expect, it } from 'vitest';
import { nftMismatch, type NftPacketView } from './mismatch';

const P: NftPacketView = { src: '10.244.0.5', dst: '10.96.1.1', proto: 'tcp', dport: 80, iif: 'cni0', ctstate: 'new' }; // prettier-ignore

describe('why an nft rule did not match', () => {
  it('names the statement as nft list writes it, and the packet’s value', () => {
    const cmp = (field: 'ip saddr' | 'th dport' | 'oifname', values: string[], neg = false) =>
      nftMismatch({ k: 'cmp', field, neg, values, braces: values.length > 1 }, P, 0);
    expect(cmp('ip saddr', ['10.244.0.0/16'], true)).toEqual({ condition: 'ip saddr != 10.244.0.0/16', kind: 'source', value: '10.244.0.5' }); // prettier-ignore
    expect(cmp('th dport', ['443', '8443'])).toEqual({ condition: 'th dport { 443, 8443 }', kind: 'dport', value: '80' }); // prettier-ignore
    expect(cmp('oifname', ['eth0'])?.value).toBe('');
    expect(nftMismatch({ k: 'ct-state', states: ['invalid'] }, P, 0)).toEqual({ condition: 'ct state invalid', kind: 'ctstate', value: 'new' }); // prettier-ignore
    expect(nftMismatch({ k: 'mark-cmp', mask: 0x4000, neg: false, value: 0x4000 }, P, 0)?.value).toBe('0x0'); // prettier-ignore
    expect(nftMismatch({ k: 'l4-dport', proto: 'udp', port: 53 }, P, 0)?.kind).toBe('protocol');
    expect(nftMismatch({ k: 'lookup', field: 'ip daddr', neg: false, set: 'x' }, P, 0)).toBeUndefined(); // prettier-ignore
  });
});

// A skipped rule names the first condition that failed, in ipt_do_table()'s order, as
// `iptables -S` writes it, and what the packet had instead.
import { describe, expect, it } from 'vitest';
import { traverseTable } from './traverse';
import { loadRules, packet, walkContext, type PacketPatch } from './walk-fixtures';
import type { WalkContext } from './types';

/** Each rule of FORWARD (every one a dead end) against one packet: kind | condition | value. */
function why(rules: readonly string[], pkt: PacketPatch = {}, ctx?: Partial<WalkContext>) {
  const s = loadRules(`*filter\n${rules.map((r) => `-A FORWARD ${r}\n`).join('')}COMMIT\n`);
  const p = packet({ outIface: 'cni0', ...pkt });
  const r = traverseTable(s, 'filter', 'FORWARD', p, walkContext(ctx), {});
  return r.steps
    .filter((x) => !x.matched)
    .map((x) => `${x.mismatch?.kind} | ${x.mismatch?.condition} | ${x.mismatch?.value}`);
}

describe('why a rule did not match', () => {
  it("the ip header part in iptables-nft's order: devices, protocol, addresses", () => {
    expect(
      why([
        // nft --debug=netlink list chain: meta l4proto is compared before ip saddr.
        '-s 10.0.0.9 -p udp -j DROP',
        '-s 10.0.0.9 -d 10.0.0.7 -j DROP',
        '-d 10.0.0.0/24 ! -s 10.0.0.0/8 -j DROP',
        '-i cni0 -p udp -j DROP',
        '-o eth+ -j DROP',
        '! -p tcp -j DROP',
        '-f -j DROP',
      ]),
    ).toEqual([
      'protocol | -p udp | tcp',
      'source | -s 10.0.0.9/32 | 10.0.0.1',
      'source | ! -s 10.0.0.0/8 | 10.0.0.1',
      'in | -i cni0 | eth0',
      'out | -o eth+ | cni0',
      'protocol | ! -p tcp | tcp',
      'other | -f | ',
    ]);
  });

  it('match extensions: ports, flags, state, mark, the random draw', () => {
    expect(
      why(
        [
          '-p tcp -m tcp --sport 1:1024 -j DROP',
          '-p tcp -m tcp --dport 443 -j DROP',
          '-p tcp -m tcp ! --syn -j DROP',
          '-p tcp -m multiport --dports 443,8443 -j DROP',
          '-m conntrack --ctstate INVALID -j DROP',
          '-m mark --mark 0x4000/0x4000 -j DROP',
          '-p udp -m udp --dport 53 -j DROP',
          '-m statistic --mode random --probability 0.00001 -j DROP',
        ],
        {},
        { conntrack: { state: 'NEW', dnat: true } },
      ),
    ).toEqual([
      'sport | -m tcp --sport 1:1024 | 40000',
      'dport | -m tcp --dport 443 | 80',
      'tcp-flags | -m tcp ! --tcp-flags FIN,SYN,RST,ACK SYN | SYN',
      'dport | -m multiport --dports 443,8443 | 80',
      'ctstate | -m conntrack --ctstate INVALID | NEW,DNAT',
      'mark | -m mark --mark 0x4000/0x4000 | 0x0',
      'protocol | -p udp | tcp',
      // The probability as iptables stores it (a 31-bit fraction) and prints it.
      'random | -m statistic --mode random --probability 0.00001000008 | ',
    ]);
  });

  it('is not worked out when only matched steps are kept (TRACE), and a match has no reason', () => {
    const s = loadRules('*filter\n-A INPUT -p udp -j DROP\n-A INPUT -j ACCEPT\nCOMMIT\n');
    const r = traverseTable(s, 'filter', 'INPUT', packet(), walkContext(), { steps: 'matched' });
    expect(r.steps.map((x) => [x.trace, x.mismatch])).toEqual([['filter:INPUT:rule:2', undefined]]);
  });
});

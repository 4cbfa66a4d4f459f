/**
 * Chains and the everyday rule forms against iptables 1.8.9 (nf_tables) and the kernel, in a
 * throwaway namespace: creating, renaming, flushing and deleting chains (built-in ones too,
 * which iptables-nft deletes from nf_tables when they are empty), policies, jumps to built-in
 * chains, the port, tcp-flag, multiport, conntrack, mark, comment, LOG, REJECT, addrtype,
 * physdev, recent, statistic and NAT forms learners type, and the errors of bad ones; then
 * every view of the result (-S, -L in its forms, iptables-save -c).
 */
import { describe, it } from 'vitest';
import { expectSameAsKernel, type Step } from './differential';
import { netnsUnavailableReason } from './netns';

const reason = netnsUnavailableReason();
if (reason !== undefined) console.log(`skipping kernel differential tests: ${reason}`);

/** One iptables command, its words split at blanks (quotes are not read: none is needed). */
const ipt = (line: string): Step => ({ iptables: line.split(' ') });

describe.skipIf(reason !== undefined)('iptables chains and rules against the kernel', () => {
  it('creates, renames, flushes and deletes chains; takes and refuses the usual rules', () => {
    expectSameAsKernel([
      ipt('-N FOO'),
      ipt('-N FOO'),
      ipt('-N INPUT'),
      ipt('-N -bad'),
      ipt('-N !bad'),
      ipt('-N 1234567890123456789012345678901'),
      ipt('-E FOO BAR'),
      ipt('-E BAR INPUT'),
      ipt('-E NOPE X'),
      ipt('-X NOPE'),
      ipt('-A BAR -j RETURN'),
      ipt('-X BAR'),
      ipt('-F BAR'),
      ipt('-X BAR'),
      ipt('-P INPUT DROP'),
      ipt('-P INPUT REJECT'),
      ipt('-P FOO ACCEPT'),
      ipt('-P INPUT ACCEPT'),
      ipt('-A INPUT -p tcp --dport 80:90 -j ACCEPT'),
      ipt('-A INPUT -p tcp --dport 90:80 -j ACCEPT'),
      ipt('-A INPUT -p tcp --dport :1024 -j ACCEPT'),
      ipt('-A INPUT -p tcp --sport 1024: -j ACCEPT'),
      ipt('-A INPUT -p tcp --dport http -j ACCEPT'),
      ipt('-A INPUT -p tcp --dport ssh,http -j ACCEPT'),
      ipt('-A INPUT -p tcp -m multiport --dports 22,80,443 -j ACCEPT'),
      ipt('-A INPUT -p tcp -m multiport --dports 22:25,80 -j ACCEPT'),
      ipt('-A INPUT -p udp -m multiport --sports 53 -j ACCEPT'),
      ipt('-A INPUT -p tcp --syn -j ACCEPT'),
      ipt('-A INPUT -p tcp ! --syn -j ACCEPT'),
      ipt('-A INPUT -p tcp --tcp-flags SYN,ACK SYN -j ACCEPT'),
      ipt('-A INPUT -p tcp --tcp-flags ALL NONE -j DROP'),
      ipt('-A INPUT -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT'),
      ipt('-A INPUT -m conntrack --ctstate INVALID -j DROP'),
      ipt('-A INPUT -i lo -j ACCEPT'),
      ipt('-A INPUT -i eth+ -j ACCEPT'),
      ipt('-A INPUT ! -i eth0 -j ACCEPT'),
      ipt('-A INPUT -m mark --mark 0x1 -j ACCEPT'),
      ipt('-A INPUT -m comment --comment hello -j ACCEPT'),
      ipt('-A INPUT -j LOG --log-prefix FOO --log-level 4'),
      ipt('-A INPUT -j REJECT --reject-with tcp-reset'),
      ipt('-A INPUT -p tcp -j REJECT --reject-with tcp-reset'),
      ipt('-A INPUT -j REJECT --reject-with icmp-host-prohibited'),
      ipt('-A INPUT -m addrtype --dst-type LOCAL -j ACCEPT'),
      ipt('-A INPUT -m physdev --physdev-is-bridged -j ACCEPT'),
      ipt('-A INPUT -m recent --name x --set'),
      ipt('-A INPUT -m recent --name x --rcheck --seconds 60 --hitcount 3 -j DROP'),
      ipt('-A INPUT -m statistic --mode nth --every 3 --packet 0 -j ACCEPT'),
      ipt('-A INPUT -m udp -p udp'),
      ipt('-A INPUT -p all -j ACCEPT'),
      ipt('-A INPUT -p 0 -j ACCEPT'),
      ipt('-A INPUT -p gre -j ACCEPT'),
      ipt('-A INPUT -p TCP -j ACCEPT'),
      ipt('-A INPUT -p bogus -j ACCEPT'),
      ipt('-A INPUT -j'),
      ipt('-A INPUT -s'),
      ipt('-A'),
      ipt('-A INPUT extra'),
      ipt('-A INPUT -j ACCEPT -j DROP'),
      ipt('-A INPUT -m tcp --dport 80'),
      ipt('-L INPUT 3'),
      ipt('-L INPUT 99'),
      ipt('-S INPUT 3'),
      ipt('-S INPUT 0'),
      ipt('-D INPUT 99'),
      ipt('-D INPUT 0'),
      ipt('-I INPUT 0 -j ACCEPT'),
      ipt('-I INPUT -1 -j ACCEPT'),
      ipt('-R INPUT 0 -j ACCEPT'),
      ipt('-Z INPUT 2'),
      ipt('-L -Z INPUT'),
      ipt('-F -Z'),
      ipt('-L --line-numbers -n'),
      ipt('-nvL INPUT'),
      ipt('-L -x'),
      ipt('-S -v'),
      ipt('-t bogus -L'),
      ipt('-t nat -A INPUT -j MASQUERADE'),
      ipt('-t nat -A POSTROUTING -j SNAT --to-source 1.2.3.4'),
      ipt('-t nat -A POSTROUTING -j SNAT'),
      ipt('-t nat -A PREROUTING -j DNAT --to 1.2.3.4:80'),
      ipt('-t nat -A PREROUTING -p tcp -j DNAT --to-destination 1.2.3.4:80-90'),
      ipt('-t nat -A PREROUTING -j DNAT --to-destination 1.2.3.4-1.2.3.9'),
      ipt('-t mangle -A PREROUTING -j MARK --set-mark 1'),
      ipt('-t mangle -A PREROUTING -j MARK --or-mark 2'),
      ipt('-t mangle -A PREROUTING -j CONNMARK --save-mark'),
      ipt('-t mangle -S'),
      ipt('-t nat -S'),
      ipt('-S'),
      { save: ['-c'] },
      ipt('-L -n -v'),
    ]);
  });

  it('deletes a built-in chain as iptables-nft does: only an empty one with policy ACCEPT', () => {
    expectSameAsKernel([
      ipt('-X INPUT'),
      ipt('-A INPUT -j ACCEPT'),
      ipt('-X INPUT'),
      ipt('-F INPUT'),
      ipt('-v -X INPUT'),
      ipt('-L INPUT -v -n'),
      ipt('-P FORWARD DROP'),
      ipt('-X FORWARD'),
      ipt('-P OUTPUT ACCEPT'),
      ipt('-X OUTPUT'),
      ipt('-L OUTPUT -v -n'),
      ipt('-t nat -X PREROUTING'),
      ipt('-E INPUT FOO'),
      ipt('-A FORWARD -j INPUT'),
      { save: ['-c'] },
    ]);
  });

  it('refuses a jump to a built-in chain as nf_tables does: not found, or not supported', () => {
    expectSameAsKernel([
      ipt('-A FORWARD -j INPUT'),
      ipt('-I FORWARD -j OUTPUT'),
      ipt('-t nat -A PREROUTING -j OUTPUT'),
      ipt('-A FORWARD -j FORWARD'),
      ipt('-N FOO'),
      ipt('-A FOO -j FOO'),
      ipt('-A INPUT -s 10.0.0.1 -j ACCEPT'),
      ipt('-A FOO -g INPUT'),
      ipt('-R FOO 1 -j OUTPUT'),
      { restore: '*filter\n:BAR - [0:0]\n-A BAR -s 10.0.0.1 -j ACCEPT\n-A BAR -g INPUT\nCOMMIT\n', args: ['--noflush'] }, // prettier-ignore
      { restore: '*filter\n-A FORWARD -j OUTPUT\nCOMMIT\n' },
      ipt('-S'),
    ]);
  });
});

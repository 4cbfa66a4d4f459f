/**
 * Chains and the everyday rule forms against iptables 1.8.9 (nf_tables) and the kernel, in a
 * throwaway namespace: creating, renaming, flushing and deleting chains (built-in ones too,
 * which iptables-nft deletes from nf_tables when they are empty), policies, jumps to built-in
 * chains, the port, tcp-flag, multiport, conntrack, mark, comment, LOG, REJECT, addrtype,
 * physdev, recent, statistic, NAT, MARK and CONNMARK forms learners type, and the errors of
 * bad ones; then every view of the result (-S, -L in its forms, iptables-save -c).
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

  it('takes the NAT, MARK and CONNMARK forms and refuses the bad ones', () => {
    expectSameAsKernel([
      ipt('-t nat -A PREROUTING -p tcp -j DNAT --to-destination 10.0.0.1'),
      ipt('-t nat -A PREROUTING -p tcp -j DNAT --to-destination 10.0.0.1:8080'),
      ipt('-t nat -A PREROUTING -p tcp -j DNAT --to-destination 10.0.0.1-10.0.0.5:8080-8090'),
      ipt('-t nat -A PREROUTING -p tcp -j DNAT --to-destination :8080'),
      ipt('-t nat -A PREROUTING -p udp -j DNAT --to-destination 10.0.0.1:53 --random'),
      ipt('-t nat -A PREROUTING -p udp -j DNAT --to-destination 10.0.0.1:53 --persistent'),
      ipt('-t nat -A PREROUTING -j DNAT --to-destination 10.0.0.1:80'),
      ipt('-t nat -A PREROUTING -p tcp -j DNAT --to-destination 10.0.0.1:99999'),
      ipt('-t nat -A PREROUTING -p tcp -j DNAT --to-destination 10.0.0.1:90-80'),
      ipt('-t nat -A PREROUTING -p tcp -j DNAT --to-destination 10.0.0.x'),
      ipt('-t nat -A PREROUTING -p tcp -j DNAT'),
      ipt(
        '-t nat -A PREROUTING -p tcp -j DNAT --to-destination 10.0.0.1 --to-destination 10.0.0.2',
      ),
      ipt('-t nat -A POSTROUTING -j SNAT --to-source 1.2.3.4'),
      ipt('-t nat -A POSTROUTING -p tcp -j SNAT --to-source 1.2.3.4:1000-2000'),
      ipt('-t nat -A POSTROUTING -j SNAT --to-source 1.2.3.4-1.2.3.8 --random-fully'),
      ipt('-t nat -A POSTROUTING -j MASQUERADE'),
      ipt('-t nat -A POSTROUTING -p tcp -j MASQUERADE --to-ports 1024-65535'),
      ipt('-t nat -A POSTROUTING -j MASQUERADE --to-ports 1024'),
      ipt('-t nat -A POSTROUTING -j MASQUERADE --random'),
      ipt('-t nat -A POSTROUTING -o eth0 -j MASQUERADE --random-fully'),
      ipt('-t nat -A OUTPUT -p tcp -j DNAT --to 10.0.0.1:80'),
      ipt('-t nat -A INPUT -j SNAT --to-source 1.2.3.4'),
      ipt('-t nat -N KUBE-MARK-MASQ'),
      ipt('-t nat -A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000'),
      ipt('-t nat -A KUBE-MARK-MASQ -j MARK --set-mark 0x4000/0x4000'),
      ipt('-t nat -A KUBE-MARK-MASQ -j MARK --and-mark 0xffffbfff'),
      ipt('-t nat -A KUBE-MARK-MASQ -j MARK --xor-mark 0x1'),
      ipt('-t nat -A KUBE-MARK-MASQ -j MARK --set-mark 16'),
      ipt('-t nat -A KUBE-MARK-MASQ -j MARK'),
      ipt('-t nat -A KUBE-MARK-MASQ -m mark ! --mark 0x4000/0x4000 -j RETURN'),
      ipt('-t nat -A KUBE-MARK-MASQ -m mark --mark 4'),
      ipt('-t mangle -A PREROUTING -j CONNMARK --set-mark 1'),
      ipt('-t mangle -A PREROUTING -j CONNMARK --restore-mark'),
      ipt('-t mangle -A PREROUTING -j CONNMARK --save-mark --mask 0xff'),
      ipt('-t mangle -A PREROUTING -m conntrack ! --ctstate NEW -j ACCEPT'),
      ipt('-t nat -S'),
      ipt('-t nat -L -n'),
      ipt('-t nat -L -n -v'),
      ipt('-t nat -L'),
      ipt('-t mangle -S'),
      ipt('-t mangle -L -n -v'),
      { save: ['-t', 'nat'] },
    ]);
  });

  it('takes the multiport, addrtype, physdev, recent, LOG and REJECT options', () => {
    expectSameAsKernel([
      ipt('-A INPUT -p tcp -m multiport --ports 80,443 -j ACCEPT'),
      ipt('-A INPUT -p tcp -m multiport ! --dports 80,443 -j ACCEPT'),
      ipt('-A INPUT -m addrtype --src-type LOCAL --dst-type UNICAST -j ACCEPT'),
      ipt('-A INPUT -m addrtype ! --dst-type LOCAL --limit-iface-in -j ACCEPT'),
      ipt('-A FORWARD -m physdev --physdev-in veth0 --physdev-out veth1 -j ACCEPT'),
      ipt('-A FORWARD -m physdev --physdev-is-in --physdev-is-out -j ACCEPT'),
      ipt('-A INPUT -m recent --name y --rdest --set'),
      ipt('-A INPUT -m recent --name y --update --seconds 10 --reap --rttl -j DROP'),
      ipt('-A INPUT -m recent --name z --mask 255.255.255.0 --set'),
      ipt('-A INPUT -m recent --remove --name z'),
      ipt('-A INPUT -j LOG --log-tcp-sequence --log-tcp-options --log-ip-options --log-uid'),
      ipt('-A INPUT -j LOG --log-macdecode'),
      ipt('-A INPUT -j LOG --log-level debug'),
      ipt('-A INPUT -j LOG --log-level 9'),
      ipt('-A INPUT -j REJECT --reject-with icmp-net-unreachable'),
      ipt('-A INPUT -j REJECT --reject-with icmp-admin-prohibited'),
      ipt('-A INPUT -j REJECT --reject-with icmp-proto-unreachable'),
      ipt('-A INPUT -j REJECT --reject-with bogus'),
      ipt('-A INPUT -m mark --mark 0x10/0xf0 -j ACCEPT'),
      ipt('-A INPUT -m comment --comment a -m comment --comment b -j ACCEPT'),
      ipt('-A INPUT -p udp -m udp --sport 53 --dport 1024:65535 -j ACCEPT'),
      ipt('-A INPUT -p sctp --dport 80 -j ACCEPT'),
      ipt('-A INPUT -j TRACE'),
      ipt('-t raw -A PREROUTING -j TRACE'),
      ipt('-A INPUT -j ACCEPT -m comment --comment after'),
      ipt('-A INPUT -m tcp -p tcp --dport 22'),
      ipt('-A INPUT -p tcp --dport 22 --sport 1000 --syn'),
      ipt('-S INPUT'),
      ipt('-L INPUT -n -v'),
      ipt('-L INPUT'),
      { save: [] },
    ]);
  });

  it('lists chains and rules by name and number, zeroes, renames, and prints its help', () => {
    expectSameAsKernel([
      ipt('-N FOO'),
      ipt('-A FOO -s 10.0.0.1 -j RETURN'),
      ipt('-A INPUT -j FOO'),
      ipt('-A INPUT -p tcp --dport 22 -j ACCEPT'),
      ipt('-L FOO'),
      ipt('-L FOO 1'),
      ipt('-L FOO 2'),
      ipt('-L NOPE'),
      ipt('-S NOPE'),
      ipt('-S FOO 1'),
      ipt('-S FOO 2'),
      ipt('-L -n --line-numbers INPUT 2'),
      ipt('-vnL INPUT --line-numbers'),
      ipt('-L INPUT -n -v -x'),
      ipt('-nL'),
      ipt('-nvxL'),
      ipt('--list-rules'),
      ipt('-S FOO -v'),
      ipt('-L -t filter -n'),
      ipt('-t nat -L -n'),
      ipt('-t raw -L'),
      ipt('-t mangle -nvL'),
      ipt('-t security -S'),
      ipt('-L INPUT FOO'),
      ipt('-S INPUT 1 2'),
      ipt('-Z FOO 1'),
      ipt('-Z FOO 5'),
      ipt('-Z NOPE'),
      ipt('-L -Z'),
      ipt('-F NOPE'),
      ipt('-E FOO BAR'),
      ipt('-L INPUT -n'),
      ipt('-X BAR'),
      ipt('-D INPUT 1'),
      ipt('-X BAR'),
      ipt('-L'),
      ipt('-h'),
    ]);
  });

  it('refuses an empty chain name and reads mark values as xtables_parse_val_mask() does', () => {
    // "" is the standard target's name to xtables_find_target(); a number out of range is a
    // bad value, one followed by anything but /MASK trailing garbage.
    expectSameAsKernel([
      { iptables: ['-N', ''] },
      { iptables: ['-A', '', '-j', 'ACCEPT'] },
      ...['0xfffffffff', '4294967296', '0x1/0xfffffffff', '0x1z', '0x1/0x2z', '08', '0x', '1/', 'x']
        .map((mark) => ({ iptables: ['-A', 'INPUT', '-m', 'mark', '--mark', mark, '-j', 'ACCEPT'] })), // prettier-ignore
      ipt('-A INPUT -m mark --mark 4294967295/0xffffffff -j ACCEPT'),
      ipt('-S INPUT'),
    ]);
  });
});

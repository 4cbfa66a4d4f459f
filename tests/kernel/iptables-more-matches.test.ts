/**
 * Differential tests of what learners type beyond kube-proxy's own rules: the icmp, state and
 * iprange matches and the REDIRECT, NOTRACK and CT (--notrack) targets, against iptables 1.8.9 (nf_tables) and the real
 * kernel in a throwaway network namespace — each form's save, -S, -L (with and without -n)
 * and the errors of bad ones, line for line (nft-iptables.test.ts compares their nft text).
 */
import { describe, it } from 'vitest';
import { expectSameAsKernel, type Step } from './differential';
import { netnsUnavailableReason } from './netns';

const reason = netnsUnavailableReason();
if (reason !== undefined) console.log(`skipping kernel differential tests: ${reason}`);

const expectSame = expectSameAsKernel;

/** Every icmp type form (names, aliases, prefixes, numbers, codes, any), state, iprange. */
const FILTER_RULES = [
  '-p icmp --icmp-type echo-request -j ACCEPT',
  '-p icmp -m icmp --icmp-type 8 -j ACCEPT',
  '-p icmp ! --icmp-type 3/4 -j DROP',
  '-p icmp --icmp-type any -j ACCEPT',
  '-p icmp ! --icmp-type any -j ACCEPT',
  '-p icmp --icmp-type destination-unreachable -j ACCEPT',
  '-p icmp --icmp-type port-unreachable -j ACCEPT',
  '-p icmp --icmp-type pong -j ACCEPT',
  '-p icmp --icmp-type ECHO-REQ -j ACCEPT',
  '-p icmp --icmp-type 0x8 -j ACCEPT',
  '-p icmp --icmp-type 255 -j ACCEPT',
  '-p icmp --icmp-type 6 -j ACCEPT',
  '-p icmp --icmp-type 13 -j ACCEPT',
  '-p icmp --icmp-type 5/1 -j ACCEPT',
  '-p icmp --icmp-type 3/0 -j ACCEPT',
  '-p icmp ! --icmp-type echo-request -j ACCEPT',
  '-p 1 --icmp-type time-exceeded -j ACCEPT',
  '-s 10.0.0.0/8 -p icmp --icmp-type 8 -m comment --comment ping -j ACCEPT',
  '-m state --state NEW,ESTABLISHED -j ACCEPT',
  '-m state ! --state INVALID -j DROP',
  '-m state --state rel,untracked -j DROP',
  '-m state --state ESTABLISHED,RELATED -j ACCEPT',
  '-m state ! --state est,rel -j ACCEPT',
  '-m iprange --src-range 10.0.0.1-10.0.0.9 ! --dst-range 10.1.0.0-10.1.0.255 -j ACCEPT',
  '-m iprange --src-range 192.168.1.10 -j DROP',
  '-m iprange ! --dst-range 10.244.0.2-10.244.0.3 -j ACCEPT',
  '-m limit --limit 5/s -j ACCEPT',
  '-m limit -j LOG',
  '-m limit --limit 7 --limit-burst 9 -j ACCEPT',
  '-m limit --limit 2/MIN -j ACCEPT',
  '-m limit --limit 40/min -j ACCEPT',
  '-m limit --limit 100/hour --limit-burst 0 -j ACCEPT',
  '-m limit --limit 1/d -j ACCEPT',
  '-m limit --limit 10000/s -j ACCEPT',
  '-m limit --limit 5x/second -j ACCEPT',
  '-p icmp --icmp-type echo-request -m limit --limit 2/s --limit-burst 1 -j ACCEPT',
];

const NAT_RULES = [
  '-A PREROUTING -p tcp --dport 80 -j REDIRECT --to-ports 8080',
  '-A PREROUTING -p tcp --dport 81 -j REDIRECT --to-ports 8080-8090 --random',
  '-A PREROUTING -p udp -j REDIRECT --to-ports 53 --random',
  '-A PREROUTING -p tcp -j REDIRECT --random',
  '-A OUTPUT -p udp -j REDIRECT',
  '-A OUTPUT -p tcp -d 1.2.3.4 -j REDIRECT --to-ports 9000',
  '-A OUTPUT -p tcp -j REDIRECT --to-ports 0',
];

const RAW_RULES = [
  '-A PREROUTING -p udp -d 10.96.0.10 --dport 53 -j CT --notrack',
  '-A PREROUTING -s 10.244.0.5 -j NOTRACK',
  '-A OUTPUT -p udp --sport 53 -j NOTRACK',
  '-A OUTPUT -j CT',
];

const RESTORE = [
  '*filter',
  ':INPUT ACCEPT [0:0]',
  ...FILTER_RULES.map((r) => `-A INPUT ${r}`),
  'COMMIT',
  '*nat',
  ':PREROUTING ACCEPT [0:0]',
  ':OUTPUT ACCEPT [0:0]',
  ...NAT_RULES,
  'COMMIT',
  '*raw',
  ':PREROUTING ACCEPT [0:0]',
  ':OUTPUT ACCEPT [0:0]',
  ...RAW_RULES,
  'COMMIT',
  '',
].join('\n');

const VIEWS: Step[] = [
  { save: [] },
  { iptables: ['-S'] },
  { iptables: ['-L', 'INPUT', '-n', '-v'] },
  { iptables: ['-L', 'INPUT'] },
  { iptables: ['-L', 'INPUT', '-v', '--line-numbers'] },
  { iptables: ['-t', 'nat', '-S'] },
  { iptables: ['-t', 'nat', '-L', '-n'] },
  { iptables: ['-t', 'nat', '-L', '-v'] },
  { iptables: ['-t', 'raw', '-S'] },
  { iptables: ['-t', 'raw', '-L', '-n', '-v'] },
  { iptables: ['-t', 'raw', '-L'] },
];

/** `iptables -A INPUT …` (or another table and chain) with a bad or refused rule. */
const bad = (...args: string[]): Step => ({ iptables: args });
const ERRORS: Step[] = [
  bad('-A', 'INPUT', '-m', 'state', '--state', 'FOO', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'state', '--state', 'NEW,FOO', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'state', '--state', ',NEW', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'state', '--state', 'SNAT', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'state', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'state', '--state', 'NEW', '--state', 'EST', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-p', 'icmp', '--icmp-type', 'echo', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-p', 'icmp', '--icmp-type', '', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-p', 'icmp', '--icmp-type', '300', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-p', 'icmp', '--icmp-type', '3/300', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-p', 'icmp', '--icmp-type', '3/x', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-p', 'icmp', '--icmp-type', 'foo', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-p', 'tcp', '--icmp-type', '8', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'icmp', '--icmp-type', '8', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '!', '-p', 'icmp', '--icmp-type', '8', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-p', 'icmp', '-m', 'icmp', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-p', 'icmp', '--icmp-type', '8', '--icmp-type', '0', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'iprange', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'iprange', '--src-range', '1.2.3.4-x', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'iprange', '--dst-range', 'y-1.2.3.4', '-j', 'ACCEPT'),
  bad('-A', 'INPUT', '-m', 'iprange', '--src-range', '1.2.3.4', '--src-range', '1.2.3.5'),
  bad('-t', 'nat', '-A', 'PREROUTING', '-j', 'REDIRECT', '--to-ports', '80'),
  bad('-t', 'nat', '-A', 'PREROUTING', '-p', 'tcp', '-j', 'REDIRECT', '--to-ports', 'x'),
  bad('-t', 'nat', '-A', 'PREROUTING', '-p', 'tcp', '-j', 'REDIRECT', '--to-ports', '65536'),
  bad('-t', 'nat', '-A', 'PREROUTING', '-p', 'tcp', '-j', 'REDIRECT', '--to-ports', '80:90'),
  bad('-t', 'nat', '-A', 'OUTPUT', '-p', 'tcp', '-j', 'REDIRECT', '--to-ports', '100-90'),
  bad('-t', 'nat', '-A', 'OUTPUT', '-p', 'tcp', '-j', 'REDIRECT', '--random', '--random'),
  bad('-t', 'nat', '-A', 'POSTROUTING', '-p', 'tcp', '-j', 'REDIRECT'),
  bad('-A', 'INPUT', '-p', 'tcp', '-j', 'REDIRECT'),
  bad('-t', 'nat', '-A', 'OUTPUT', '-p', 'tcp', '-j', 'REDIRECT', '--random-fully'),
  // Reversed ranges: taken, with a warning per range on stderr (src first).
  bad(
    '-A',
    'INPUT',
    '-m',
    'iprange',
    '--dst-range',
    '5.5.5.9-5.5.5.1',
    '--src-range',
    '1.2.3.9-1.2.3.4',
  ),
  bad('-C', 'INPUT', '-m', 'iprange', '!', '--src-range', '1.2.3.9-1.2.3.4'),
  {
    restore:
      '*filter\n-A INPUT -m iprange --dst-range 1.2.3.9-1.2.3.4 -j DROP\n-A INPUT -m iprange --dst-range 9.9.9.9-9.9.9.1 -j DROP\nCOMMIT\n',
    args: ['--noflush'],
  },
  bad('-A', 'INPUT', '-m', 'limit', '--limit', '5/x'),
  bad('-A', 'INPUT', '-m', 'limit', '--limit', '0/s'),
  bad('-A', 'INPUT', '-m', 'limit', '--limit', '20000/s'),
  bad('-A', 'INPUT', '-m', 'limit', '--limit', 'abc'),
  bad('-A', 'INPUT', '-m', 'limit', '--limit', '5/'),
  bad('-A', 'INPUT', '-m', 'limit', '--limit-burst', '10001'),
  bad('-A', 'INPUT', '-m', 'limit', '!', '--limit', '5/s'),
  bad('-A', 'INPUT', '-m', 'limit', '--limit', '5/min', '--limit', '6/min'),
  bad('-A', 'INPUT', '-j', 'NOTRACK'),
  bad('-t', 'nat', '-A', 'OUTPUT', '-j', 'CT', '--notrack'),
  bad('-t', 'raw', '-A', 'OUTPUT', '-j', 'CT', '--notrack', '--notrack'),
  bad('-t', 'raw', '-A', 'OUTPUT', '-j', 'NOTRACK', '--notrack'),
  bad('-t', 'raw', '-A', 'OUTPUT', '-j', 'CT', '--bogus'),
  bad('-N', 'NOTRACK'),
  bad('-N', 'NFLOG'),
  bad('-A', 'INPUT', '-g', 'NFLOG'),
];

describe.skipIf(reason !== undefined)(
  'icmp, state, iprange, REDIRECT and NOTRACK against the kernel',
  () => {
    it('restored: the saved, listed and -S forms', () => {
      expectSame([{ restore: RESTORE, args: ['--noflush'] }, ...VIEWS]);
    });

    it('appended one by one with iptables, and the errors of bad ones', () => {
      expectSame([
        ...FILTER_RULES.map((r): Step => ({ iptables: ['-A', 'INPUT', ...r.split(' ')] })),
        ...NAT_RULES.map((r): Step => ({ iptables: ['-t', 'nat', ...r.split(' ')] })),
        ...RAW_RULES.map((r): Step => ({ iptables: ['-t', 'raw', ...r.split(' ')] })),
        ...ERRORS,
        ...VIEWS,
      ]);
    });
  },
);

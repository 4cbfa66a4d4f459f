/**
 * `nft list table` of a hand-written transaction that uses every form kube-proxy's rules take
 * (verdict maps with element comments, a numgen vmap, a dynamic timeout set, anonymous sets of
 * one and of two elements, `fib daddr type local`, a chain comment, marks). The expected
 * outputs were captured from nftables 1.0.6 on Linux 6.18: the transaction loaded with
 * `nft -f` in a throwaway network namespace, then `nft list table ip kube-proxy` and
 * `nft -a list table ip kube-proxy` (tests/kernel/nft-views.test.ts makes the same comparison
 * live, with the proxier's own transactions).
 */
import { describe, expect, it } from 'vitest';
import { createNftState, nftApply, nftCommand } from './index';

const TX = `add table ip kube-proxy { comment "rules for kube-proxy" ; }
add chain ip kube-proxy filter-prerouting-pre-dnat { type filter hook prerouting priority -110 ; }
flush chain ip kube-proxy filter-prerouting-pre-dnat
add chain ip kube-proxy filter-output-pre-dnat { type filter hook output priority -110 ; }
flush chain ip kube-proxy filter-output-pre-dnat
add chain ip kube-proxy filter-input { type filter hook input priority 0 ; }
flush chain ip kube-proxy filter-input
add chain ip kube-proxy filter-forward { type filter hook forward priority 0 ; }
flush chain ip kube-proxy filter-forward
add chain ip kube-proxy filter-output { type filter hook output priority 0 ; }
flush chain ip kube-proxy filter-output
add chain ip kube-proxy nat-prerouting { type nat hook prerouting priority -100 ; }
flush chain ip kube-proxy nat-prerouting
add chain ip kube-proxy nat-output { type nat hook output priority -100 ; }
flush chain ip kube-proxy nat-output
add chain ip kube-proxy nat-postrouting { type nat hook postrouting priority 100 ; }
flush chain ip kube-proxy nat-postrouting
add chain ip kube-proxy nodeport-endpoints-check
flush chain ip kube-proxy nodeport-endpoints-check
add rule ip kube-proxy filter-input ct state new jump nodeport-endpoints-check
add chain ip kube-proxy service-endpoints-check
flush chain ip kube-proxy service-endpoints-check
add rule ip kube-proxy filter-input ct state new jump service-endpoints-check
add rule ip kube-proxy filter-forward ct state new jump service-endpoints-check
add rule ip kube-proxy filter-output ct state new jump service-endpoints-check
add chain ip kube-proxy firewall-check
flush chain ip kube-proxy firewall-check
add rule ip kube-proxy filter-prerouting-pre-dnat ct state new jump firewall-check
add rule ip kube-proxy filter-output-pre-dnat ct state new jump firewall-check
add chain ip kube-proxy services
flush chain ip kube-proxy services
add rule ip kube-proxy nat-output jump services
add rule ip kube-proxy nat-prerouting jump services
add chain ip kube-proxy masquerading
flush chain ip kube-proxy masquerading
add rule ip kube-proxy nat-postrouting jump masquerading
add chain ip kube-proxy cluster-ips-check
flush chain ip kube-proxy cluster-ips-check
add rule ip kube-proxy filter-forward ct state new jump cluster-ips-check
add rule ip kube-proxy filter-output ct state new jump cluster-ips-check
add chain ip kube-proxy mark-for-masquerade
flush chain ip kube-proxy mark-for-masquerade
add rule ip kube-proxy mark-for-masquerade mark set mark or 0x4000
add rule ip kube-proxy masquerading mark and 0x4000 == 0 return
add rule ip kube-proxy masquerading mark set mark xor 0x4000
add rule ip kube-proxy masquerading masquerade fully-random
add set ip kube-proxy cluster-ips { type ipv4_addr ; comment "Active ClusterIPs" ; }
add rule ip kube-proxy cluster-ips-check ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"
add rule ip kube-proxy cluster-ips-check ip daddr { 10.96.0.0/12 } drop comment "Drop traffic to unallocated ClusterIPs"
add set ip kube-proxy nodeport-ips { type ipv4_addr ; comment "IPs that accept NodePort traffic" ; }
flush set ip kube-proxy nodeport-ips
add element ip kube-proxy nodeport-ips { 192.168.0.2 }
add map ip kube-proxy no-endpoint-services { type ipv4_addr . inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to services with no endpoints" ; }
add map ip kube-proxy no-endpoint-nodeports { type inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to service nodeports with no endpoints" ; }
add chain ip kube-proxy reject-chain { comment "helper for @no-endpoint-services / @no-endpoint-nodeports" ; }
flush chain ip kube-proxy reject-chain
add rule ip kube-proxy reject-chain reject
add rule ip kube-proxy service-endpoints-check ip daddr . meta l4proto . th dport vmap @no-endpoint-services
add rule ip kube-proxy nodeport-endpoints-check ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports
add map ip kube-proxy firewall-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "destinations that are subject to LoadBalancerSourceRanges" ; }
add rule ip kube-proxy firewall-check ip daddr . meta l4proto . th dport vmap @firewall-ips
add map ip kube-proxy service-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "ClusterIP, ExternalIP and LoadBalancer IP traffic" ; }
add map ip kube-proxy service-nodeports { type inet_proto . inet_service : verdict ; comment "NodePort traffic" ; }
add rule ip kube-proxy services ip daddr . meta l4proto . th dport vmap @service-ips
add rule ip kube-proxy services ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports
flush set ip kube-proxy cluster-ips
flush map ip kube-proxy service-ips
flush map ip kube-proxy firewall-ips
flush map ip kube-proxy no-endpoint-services
flush map ip kube-proxy no-endpoint-nodeports
flush map ip kube-proxy service-nodeports
add chain ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80
flush chain ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80
add chain ip kube-proxy endpoint-ABCDEFGH-ns1/svc1/tcp/p80__10.180.0.2/80
flush chain ip kube-proxy endpoint-ABCDEFGH-ns1/svc1/tcp/p80__10.180.0.2/80
add chain ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80
flush chain ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80
add set ip kube-proxy affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { type ipv4_addr ; flags dynamic,timeout ; timeout 10800s ; }
add element ip kube-proxy cluster-ips { 172.30.0.41 }
add element ip kube-proxy cluster-ips { 172.30.0.46 }
add element ip kube-proxy cluster-ips { 10.96.0.10 }
add element ip kube-proxy service-ips { 172.30.0.41 . tcp . 80 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
add element ip kube-proxy service-ips { 10.96.0.10 . udp . 53 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
add element ip kube-proxy service-nodeports { tcp . 30080 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
add element ip kube-proxy no-endpoint-services { 172.30.0.46 . tcp . 80 comment "ns6/svc6:p80" : goto reject-chain }
add element ip kube-proxy no-endpoint-nodeports { tcp . 3001 comment "ns2/svc2:p80" : drop }
add rule ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80 ip daddr 172.30.0.41 ip saddr != 10.244.0.0/16 jump mark-for-masquerade
add rule ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80 ip saddr @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80
add rule ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80 numgen random mod 2 vmap { 0 : goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 , 1 : goto endpoint-ABCDEFGH-ns1/svc1/tcp/p80__10.180.0.2/80 }
add rule ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 ip saddr 10.180.0.1 jump mark-for-masquerade
add rule ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 update @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { ip saddr }
add rule ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 meta l4proto tcp dnat to 10.180.0.1:80
add rule ip kube-proxy endpoint-ABCDEFGH-ns1/svc1/tcp/p80__10.180.0.2/80 ip saddr 10.180.0.2 jump mark-for-masquerade
add rule ip kube-proxy endpoint-ABCDEFGH-ns1/svc1/tcp/p80__10.180.0.2/80 meta l4proto tcp dnat to 10.180.0.2:80
add chain ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80
add rule ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80 ip saddr 10.0.0.0/8 goto service-ULMVA6XW-ns1/svc1/tcp/p80 comment "short-circuit pod traffic"
add rule ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80 fib saddr type local jump mark-for-masquerade comment "masquerade local traffic"
add chain ip kube-proxy firewall-HVFWP5L3-ns5/svc5/tcp/p80
add rule ip kube-proxy firewall-HVFWP5L3-ns5/svc5/tcp/p80 ip saddr != { 203.0.113.0/25, 1.2.3.4 } drop
add rule ip kube-proxy services fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @service-nodeports
`;

const LISTED = `table ip kube-proxy {
	comment "rules for kube-proxy"
	set cluster-ips {
		type ipv4_addr
		comment "Active ClusterIPs"
		elements = { 10.96.0.10, 172.30.0.41,
			     172.30.0.46 }
	}

	set nodeport-ips {
		type ipv4_addr
		comment "IPs that accept NodePort traffic"
		elements = { 192.168.0.2 }
	}

	map no-endpoint-services {
		type ipv4_addr . inet_proto . inet_service : verdict
		comment "vmap to drop or reject packets to services with no endpoints"
		elements = { 172.30.0.46 . tcp . 80 comment "ns6/svc6:p80" : goto reject-chain }
	}

	map no-endpoint-nodeports {
		type inet_proto . inet_service : verdict
		comment "vmap to drop or reject packets to service nodeports with no endpoints"
		elements = { tcp . 3001 comment "ns2/svc2:p80" : drop }
	}

	map firewall-ips {
		type ipv4_addr . inet_proto . inet_service : verdict
		comment "destinations that are subject to LoadBalancerSourceRanges"
	}

	map service-ips {
		type ipv4_addr . inet_proto . inet_service : verdict
		comment "ClusterIP, ExternalIP and LoadBalancer IP traffic"
		elements = { 10.96.0.10 . udp . 53 : goto service-ULMVA6XW-ns1/svc1/tcp/p80,
			     172.30.0.41 . tcp . 80 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
	}

	map service-nodeports {
		type inet_proto . inet_service : verdict
		comment "NodePort traffic"
		elements = { tcp . 30080 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
	}

	set affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 {
		type ipv4_addr
		size 65535
		flags dynamic,timeout
		timeout 3h
	}

	chain filter-prerouting-pre-dnat {
		type filter hook prerouting priority dstnat - 10; policy accept;
		ct state new jump firewall-check
	}

	chain filter-output-pre-dnat {
		type filter hook output priority -110; policy accept;
		ct state new jump firewall-check
	}

	chain filter-input {
		type filter hook input priority filter; policy accept;
		ct state new jump nodeport-endpoints-check
		ct state new jump service-endpoints-check
	}

	chain filter-forward {
		type filter hook forward priority filter; policy accept;
		ct state new jump service-endpoints-check
		ct state new jump cluster-ips-check
	}

	chain filter-output {
		type filter hook output priority filter; policy accept;
		ct state new jump service-endpoints-check
		ct state new jump cluster-ips-check
	}

	chain nat-prerouting {
		type nat hook prerouting priority dstnat; policy accept;
		jump services
	}

	chain nat-output {
		type nat hook output priority -100; policy accept;
		jump services
	}

	chain nat-postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		jump masquerading
	}

	chain nodeport-endpoints-check {
		ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports
	}

	chain service-endpoints-check {
		ip daddr . meta l4proto . th dport vmap @no-endpoint-services
	}

	chain firewall-check {
		ip daddr . meta l4proto . th dport vmap @firewall-ips
	}

	chain services {
		ip daddr . meta l4proto . th dport vmap @service-ips
		ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports
		fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @service-nodeports
	}

	chain masquerading {
		meta mark & 0x00004000 == 0x00000000 return
		meta mark set meta mark ^ 0x00004000
		masquerade fully-random
	}

	chain cluster-ips-check {
		ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"
		ip daddr 10.96.0.0/12 drop comment "Drop traffic to unallocated ClusterIPs"
	}

	chain mark-for-masquerade {
		meta mark set meta mark | 0x00004000
	}

	chain reject-chain {
		comment "helper for @no-endpoint-services / @no-endpoint-nodeports"
		reject
	}

	chain endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 {
		ip saddr 10.180.0.1 jump mark-for-masquerade
		update @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { ip saddr }
		meta l4proto tcp dnat to 10.180.0.1:80
	}

	chain endpoint-ABCDEFGH-ns1/svc1/tcp/p80__10.180.0.2/80 {
		ip saddr 10.180.0.2 jump mark-for-masquerade
		meta l4proto tcp dnat to 10.180.0.2:80
	}

	chain service-ULMVA6XW-ns1/svc1/tcp/p80 {
		ip daddr 172.30.0.41 ip saddr != 10.244.0.0/16 jump mark-for-masquerade
		ip saddr @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80
		numgen random mod 2 vmap { 0 : goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80, 1 : goto endpoint-ABCDEFGH-ns1/svc1/tcp/p80__10.180.0.2/80 }
	}

	chain external-42NFTM6N-ns2/svc2/tcp/p80 {
		ip saddr 10.0.0.0/8 goto service-ULMVA6XW-ns1/svc1/tcp/p80 comment "short-circuit pod traffic"
		fib saddr type local jump mark-for-masquerade comment "masquerade local traffic"
	}

	chain firewall-HVFWP5L3-ns5/svc5/tcp/p80 {
		ip saddr != { 1.2.3.4, 203.0.113.0/25 } drop
	}
}
`;

const LISTED_WITH_HANDLES = `table ip kube-proxy { # handle 1
	comment "rules for kube-proxy"
	set cluster-ips { # handle 31
		type ipv4_addr
		comment "Active ClusterIPs"
		elements = { 10.96.0.10, 172.30.0.41,
			     172.30.0.46 }
	}

	set nodeport-ips { # handle 34
		type ipv4_addr
		comment "IPs that accept NodePort traffic"
		elements = { 192.168.0.2 }
	}

	map no-endpoint-services { # handle 35
		type ipv4_addr . inet_proto . inet_service : verdict
		comment "vmap to drop or reject packets to services with no endpoints"
		elements = { 172.30.0.46 . tcp . 80 comment "ns6/svc6:p80" : goto reject-chain }
	}

	map no-endpoint-nodeports { # handle 36
		type inet_proto . inet_service : verdict
		comment "vmap to drop or reject packets to service nodeports with no endpoints"
		elements = { tcp . 3001 comment "ns2/svc2:p80" : drop }
	}

	map firewall-ips { # handle 41
		type ipv4_addr . inet_proto . inet_service : verdict
		comment "destinations that are subject to LoadBalancerSourceRanges"
	}

	map service-ips { # handle 43
		type ipv4_addr . inet_proto . inet_service : verdict
		comment "ClusterIP, ExternalIP and LoadBalancer IP traffic"
		elements = { 10.96.0.10 . udp . 53 : goto service-ULMVA6XW-ns1/svc1/tcp/p80,
			     172.30.0.41 . tcp . 80 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
	}

	map service-nodeports { # handle 44
		type inet_proto . inet_service : verdict
		comment "NodePort traffic"
		elements = { tcp . 30080 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
	}

	set affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { # handle 50
		type ipv4_addr
		size 65535
		flags dynamic,timeout
		timeout 3h
	}

	chain filter-prerouting-pre-dnat { # handle 1
		type filter hook prerouting priority dstnat - 10; policy accept;
		ct state new jump firewall-check # handle 16
	}

	chain filter-output-pre-dnat { # handle 2
		type filter hook output priority -110; policy accept;
		ct state new jump firewall-check # handle 17
	}

	chain filter-input { # handle 3
		type filter hook input priority filter; policy accept;
		ct state new jump nodeport-endpoints-check # handle 10
		ct state new jump service-endpoints-check # handle 12
	}

	chain filter-forward { # handle 4
		type filter hook forward priority filter; policy accept;
		ct state new jump service-endpoints-check # handle 13
		ct state new jump cluster-ips-check # handle 24
	}

	chain filter-output { # handle 5
		type filter hook output priority filter; policy accept;
		ct state new jump service-endpoints-check # handle 14
		ct state new jump cluster-ips-check # handle 25
	}

	chain nat-prerouting { # handle 6
		type nat hook prerouting priority dstnat; policy accept;
		jump services # handle 20
	}

	chain nat-output { # handle 7
		type nat hook output priority -100; policy accept;
		jump services # handle 19
	}

	chain nat-postrouting { # handle 8
		type nat hook postrouting priority srcnat; policy accept;
		jump masquerading # handle 22
	}

	chain nodeport-endpoints-check { # handle 9
		ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports # handle 40
	}

	chain service-endpoints-check { # handle 11
		ip daddr . meta l4proto . th dport vmap @no-endpoint-services # handle 39
	}

	chain firewall-check { # handle 15
		ip daddr . meta l4proto . th dport vmap @firewall-ips # handle 42
	}

	chain services { # handle 18
		ip daddr . meta l4proto . th dport vmap @service-ips # handle 45
		ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports # handle 46
		fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @service-nodeports # handle 66
	}

	chain masquerading { # handle 21
		meta mark & 0x00004000 == 0x00000000 return # handle 28
		meta mark set meta mark ^ 0x00004000 # handle 29
		masquerade fully-random # handle 30
	}

	chain cluster-ips-check { # handle 23
		ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs" # handle 32
		ip daddr 10.96.0.0/12 drop comment "Drop traffic to unallocated ClusterIPs" # handle 33
	}

	chain mark-for-masquerade { # handle 26
		meta mark set meta mark | 0x00004000 # handle 27
	}

	chain reject-chain { # handle 37
		comment "helper for @no-endpoint-services / @no-endpoint-nodeports"
		reject # handle 38
	}

	chain endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 { # handle 47
		ip saddr 10.180.0.1 jump mark-for-masquerade # handle 55
		update @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { ip saddr } # handle 56
		meta l4proto tcp dnat to 10.180.0.1:80 # handle 57
	}

	chain endpoint-ABCDEFGH-ns1/svc1/tcp/p80__10.180.0.2/80 { # handle 48
		ip saddr 10.180.0.2 jump mark-for-masquerade # handle 58
		meta l4proto tcp dnat to 10.180.0.2:80 # handle 59
	}

	chain service-ULMVA6XW-ns1/svc1/tcp/p80 { # handle 49
		ip daddr 172.30.0.41 ip saddr != 10.244.0.0/16 jump mark-for-masquerade # handle 51
		ip saddr @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 # handle 52
		numgen random mod 2 vmap { 0 : goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80, 1 : goto endpoint-ABCDEFGH-ns1/svc1/tcp/p80__10.180.0.2/80 } # handle 54
	}

	chain external-42NFTM6N-ns2/svc2/tcp/p80 { # handle 60
		ip saddr 10.0.0.0/8 goto service-ULMVA6XW-ns1/svc1/tcp/p80 comment "short-circuit pod traffic" # handle 61
		fib saddr type local jump mark-for-masquerade comment "masquerade local traffic" # handle 62
	}

	chain firewall-HVFWP5L3-ns5/svc5/tcp/p80 { # handle 63
		ip saddr != { 1.2.3.4, 203.0.113.0/25 } drop # handle 65
	}
}
`;

describe('nft list of a kube-proxy-like table (nft 1.0.6 output)', () => {
  const state = createNftState();
  const applied = nftApply(state, TX, { nowMs: 0 });

  it('loads', () => {
    expect(applied).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('nft list table ip kube-proxy', () => {
    expect(nftCommand(state, ['list', 'table', 'ip', 'kube-proxy'], 0).stdout.split('\n')).toEqual(
      LISTED.split('\n'),
    );
  });

  it('nft -a list table ip kube-proxy (handles: one counter for chains, sets, rules and anonymous sets)', () => {
    expect(
      nftCommand(state, ['-a', 'list', 'table', 'ip', 'kube-proxy'], 0).stdout.split('\n'),
    ).toEqual(LISTED_WITH_HANDLES.split('\n'));
  });

  it('a transaction that fails changes nothing', () => {
    const before = nftCommand(state, ['list', 'ruleset'], 0).stdout;
    const r = nftApply(
      state,
      'add chain ip kube-proxy x\nadd rule ip kube-proxy x ip saddr @nope drop\n',
      {
        nowMs: 0,
      },
    );
    expect(r.exitCode).toBe(1);
    // nft 1.0.6's report (the same case runs live in tests/kernel/nft-views.test.ts).
    expect(r.stderr).toBe(
      '/dev/stdin:2:35-39: Error: No such file or directory\n' +
        'add rule ip kube-proxy x ip saddr @nope drop\n' +
        `${' '.repeat(34)}^^^^^\n`,
    );
    expect(nftCommand(state, ['list', 'ruleset'], 0).stdout).toBe(before);
  });
});

/**
 * The English text of every Explanation id the datapath emits (the CLI prints these; the web
 * lab translates the same ids). `{name}` is replaced by the parameter of that name.
 */
import type { Explanation } from '../../protocol/trace';

export const DATAPATH_MESSAGES: Readonly<Record<string, string>> = {
  'ipvs.schedule':
    'IPVS: {service} ({scheduler}) schedules a new connection to real server {rs} ({fwd}); IPVS state {state}',
  'ipvs.persistent':
    "IPVS: {service} is persistent (ClientIP affinity): the client's template sends it to {rs}; IPVS state {state}",
  'ipvs.existing': 'IPVS: the packet belongs to a connection to {rs} ({fwd}); IPVS state {state}',
  'ipvs.reply':
    'IPVS: reply from real server {rs}: source restored to {service}; IPVS state {state}',
  'ipvs.no-destination':
    'IPVS: {service} has no available real server: ICMP port unreachable (ip_vs_leave)',
  'ipvs.icmp':
    'IPVS: an ICMP error about a packet to real server {rs}: source and quoted destination restored to {service}',
  'ipvs.expired': 'IPVS: real server {rs} is gone: expire_nodest_conn=1 ends its connection entry',
  'ipvs.drop': 'IPVS drops the packet: its connection has no real server any more',
  'ipvs.route': 'IPVS routes the rewritten packet to {dst} and re-injects it at LOCAL_OUT',
  'datapath.send': '{host} sends the packet',
  'datapath.send.kernel': "{host}'s kernel generates an answer",
  'datapath.send.rst.other-peer':
    "{host}'s kernel answers with a reset (RST): the segment from {remote} found no socket. {host}'s socket on {local} is connected to {peer} and expects its reply from there (tcp_v4_rcv → tcp_v4_send_reset; RFC 793: a segment for a connection that does not exist gets a reset). That socket never sees the segment: it stays {state}",
  'datapath.send.rst.no-socket':
    "{host}'s kernel answers with a reset (RST): the segment from {remote} to {local} found no socket (tcp_v4_rcv → tcp_v4_send_reset; RFC 793: a segment for a connection that does not exist gets a reset)",
  'datapath.send.rst.bad-ack':
    "{host}'s kernel answers with a reset (RST): its socket {local} ↔ {remote} is in {state} and the segment acknowledges {ack}, which it never sent (RFC 793: an unacceptable ACK in a non-synchronized state gets a reset)",
  'datapath.wire': 'the frame goes from {from} to {to}',
  'datapath.hook': 'netfilter hook {hook} on {host}',
  'datapath.rule.matched': '{trace}: the rule matches',
  'datapath.rule.skipped': '{trace}: the rule does not match',
  'datapath.rule.skipped.source':
    '{trace}: the rule does not match: {condition}, and the source is {value}',
  'datapath.rule.skipped.destination':
    '{trace}: the rule does not match: {condition}, and the destination is {value}',
  'datapath.rule.skipped.in':
    "{trace}: the rule does not match: {condition}, and the packet came in on '{value}'",
  'datapath.rule.skipped.out':
    "{trace}: the rule does not match: {condition}, and the packet goes out on '{value}'",
  'datapath.rule.skipped.protocol':
    '{trace}: the rule does not match: {condition}, and the packet is {value}',
  'datapath.rule.skipped.sport':
    '{trace}: the rule does not match: {condition}, and the source port is {value}',
  'datapath.rule.skipped.dport':
    '{trace}: the rule does not match: {condition}, and the destination port is {value}',
  'datapath.rule.skipped.tcp-flags':
    "{trace}: the rule does not match: {condition}, and the packet's TCP flags are {value}",
  'datapath.rule.skipped.ctstate':
    "{trace}: the rule does not match: {condition}, and the connection's state is {value}",
  'datapath.rule.skipped.mark':
    "{trace}: the rule does not match: {condition}, and the packet's mark is {value}",
  'datapath.rule.skipped.random':
    '{trace}: the rule does not match: {condition}: the random draw passed this rule over',
  'datapath.rule.skipped.other': '{trace}: the rule does not match: {condition} does not hold',
  'datapath.policy': '{trace}: the chain policy decides',
  'datapath.route.local': '{dst} is an address of this host: local delivery (INPUT)',
  'datapath.route.forward': '{dst} is not local: forwarded by route {route}',
  'datapath.route.output': 'routing decides how {dst} is reached',
  'datapath.route.rerouted': 'the destination changed in OUTPUT: routed again to {dst}',
  'datapath.bridge.to-port':
    'the bridge receives a frame on {port} for another port; net.bridge.bridge-nf-call-iptables is 1, so br_netfilter hands it to iptables and conntrack before it is bridged: PREROUTING now, FORWARD and POSTROUTING once its port is chosen',
  'datapath.bridge.to-port.no-netfilter':
    'the bridge receives a frame on {port} for another port and switches it at layer 2 only: net.bridge.bridge-nf-call-iptables is 0, so br_netfilter hands it neither to iptables (no PREROUTING, FORWARD or POSTROUTING) nor to conntrack',
  'datapath.bridge.to-port.no-undnat':
    "the bridge receives a frame on {port} for another port and switches it at layer 2 only: net.bridge.bridge-nf-call-iptables is 0, so br_netfilter hands it neither to iptables nor to conntrack. {node}'s conntrack holds it as the reply of a connection to {service}, but is not consulted: nothing restores the source, which stays {src} (no un-DNAT)",
  'datapath.bridge.to-host': "the frame is for the bridge's own MAC: up to the IP stack",
  'datapath.bridge.bridged-dnat':
    'DNAT to an address behind the same bridge: the frame is bridged, not routed',
  'datapath.bridge.xmit': 'cni0 sends the packet to the pod behind {port}',
  'datapath.bridge.flood':
    "cni0's forwarding database does not know the destination MAC: the frame is flooded to {ports} ports",
  'datapath.neigh.queued':
    'the neighbour entry for {ip} on {iface} is {state}: the packet waits for an ARP answer (the lab does not show ARP frames)',
  'datapath.neigh.failed':
    'nobody answered ARP for {ip} on {iface} (entry FAILED): the node answers ICMP host unreachable',
  'datapath.neigh.failed-local':
    "nobody answered the pod's ARP for {ip} (entry FAILED): its own kernel reports ICMP host unreachable to the sender",
  'datapath.ct.new': 'conntrack: first packet of a connection, a new (unconfirmed) entry',
  'datapath.ct.hit': 'conntrack: the packet belongs to a known connection ({dir} direction)',
  'datapath.ct.invalid': 'conntrack: no connection for this packet ({reason})',
  'datapath.ct.untracked':
    'conntrack: the raw table marked this packet untracked (NOTRACK): no entry, ctstate UNTRACKED, and no NAT',
  'datapath.ct.killed': 'conntrack: the entry is deleted (RST as the only reply)',
  'datapath.ct.confirmed': 'conntrack: the entry is confirmed (now listed by conntrack -L)',
  'datapath.ct.clash': 'conntrack: the entry clashes with another one ({reason})',
  'datapath.ct.unconfirmed-freed':
    'the packet died before confirmation: its conntrack entry vanishes unlisted',
  'datapath.nat.dnat': 'DNAT: destination rewritten at {hook}',
  'datapath.nat.snat': 'SNAT: source rewritten at {hook}',
  'datapath.nat.undnat': 'reply of a DNATed connection: source restored at {hook}',
  'datapath.nat.unsnat': 'reply of a SNATed connection: destination restored at {hook}',
  'datapath.nat.icmp': 'ICMP error about a NATed connection: translated at {hook}',
  'datapath.reject': 'REJECT ({with}): the packet is dropped and the node answers',
  'datapath.reject.no-answer': 'REJECT: the kernel sends no answer to this packet',
  'datapath.delivered': 'delivered to the socket layer of {host}',
  // What the socket layer's lookup (tcp_v4_rcv) made of a delivered TCP segment (hosts/tcp-lookup.ts).
  'datapath.delivered.tcp-socket':
    'delivered to {host}: tcp_v4_rcv looks the segment up by its 4-tuple and finds the socket {local} ↔ {remote} ({state})',
  'datapath.delivered.tcp-listener':
    'delivered to {host}: no connection has this 4-tuple, but a socket listens on {local}: the SYN opens a connection (SYN_RECV)',
  'datapath.delivered.tcp-no-socket-rst':
    'delivered to {host}: tcp_v4_rcv finds no socket for {remote} → {local}; the segment is itself a reset, which is never answered: discarded',
  'datapath.delivered.tcp-other-peer':
    'delivered to {host}, but tcp_v4_rcv finds no socket for {remote} → {local}: the socket on {local} is connected to {peer} ({state}) and takes segments from {peer} only, and nothing listens on that port: the kernel answers with a reset (tcp_v4_send_reset)',
  'datapath.delivered.tcp-no-socket':
    'delivered to {host}, but tcp_v4_rcv finds no socket for {remote} → {local}, and no socket listening on port {port} takes it: the kernel answers with a reset (tcp_v4_send_reset)',
  // What __udp4_lib_lookup and icmp_rcv made of a delivered datagram (hosts/datagram-why.ts).
  'datapath.delivered.udp-connected':
    'delivered to {host}: __udp4_lib_lookup finds the socket {local} connected to {remote}: it takes the datagram',
  'datapath.delivered.udp-socket':
    'delivered to {host}: __udp4_lib_lookup finds the socket bound to {local} (not connected: it takes datagrams from anyone)',
  'datapath.delivered.udp-unexpected':
    'delivered to {host}: the socket bound to {local} is not connected and takes the datagram, but it sent to {expected} and this comes from {remote}: the program sees a reply from an unexpected source',
  'datapath.delivered.udp-other-peer':
    'delivered to {host}, but __udp4_lib_lookup finds no socket for {remote} → {local}: the socket on {local} is connected to {peer} and takes datagrams from {peer} only, and no other socket is bound there: the kernel answers ICMP port unreachable',
  'datapath.delivered.udp-no-socket':
    'delivered to {host}, but no socket is bound to {local}: the kernel answers {remote} with ICMP port unreachable',
  'datapath.delivered.icmp-echo-request':
    'delivered to {host}: an echo request from {remote}, which the kernel answers itself (icmp_echo): no socket takes part',
  'datapath.delivered.icmp-echo-reply':
    'delivered to {host}: an echo reply from {remote} with id {id}, seq {seq}: it goes to the ping whose ICMP socket has id {id}',
  'datapath.delivered.icmp-echo-reply-none':
    'delivered to {host}: an echo reply from {remote} with id {id}, but no ping of this host has that id (any more): discarded',
  'datapath.delivered.icmp-error-ping':
    'delivered to {host}: ICMP {error} from {remote} quoting {quoted}: it goes to the ping with id {id}, which counts an error',
  'datapath.delivered.icmp-error-ignored':
    'delivered to {host}: ICMP {error} from {remote} quoting {quoted}, but no socket connected there sent it (an unconnected socket gets ICMP errors only with IP_RECVERR): ignored',
  'datapath.delivered.icmp-error-udp':
    'delivered to {host}: ICMP {error} from {remote} quoting {quoted}: the UDP socket connected there records {errno}, which its next send or receive returns',
  'datapath.delivered.icmp-error-udp-soft':
    'delivered to {host}: ICMP {error} from {remote} quoting {quoted}: a soft error ({errno}), which a connected UDP socket reports only with IP_RECVERR: ignored',
  'datapath.delivered.icmp-error-tcp-abort':
    'delivered to {host}: ICMP {error} from {remote} quoting {quoted}: the TCP socket is still opening ({state}), so tcp_v4_err aborts it with {errno}',
  'datapath.delivered.icmp-error-tcp-soft':
    'delivered to {host}: ICMP {error} from {remote} quoting {quoted}: the connection is {state}, so tcp_v4_err keeps {errno} as a soft error, reported only if the connection times out',
  'datapath.drop.netfilter': 'dropped in the {table} table at {hook}',
  'datapath.drop.hairpin':
    'the bridge does not send a frame back out of {port} (hairpin off): silently dropped',
  'datapath.drop.martian': 'martian source {src} on {iface}: {detail}',
  'datapath.drop.not-local': '{dst} is not an address of {host}, which does not forward',
  'datapath.drop.no-route': 'no route to {dst}',
  'datapath.drop.no-host': 'no such host in the lab',
  'datapath.drop.no-port': 'no pod behind bridge port {port}',
  'datapath.drop.forwarding-off': 'net.ipv4.ip_forward is 0: not forwarded',
  'datapath.drop.neighbour': 'nobody answers ARP for {ip} on {iface}',
  'datapath.drop.otherhost':
    'the frame is not for this MAC (a flooded copy): the stack drops it (PACKET_OTHERHOST)',
  'datapath.drop.left-lab': 'sent to the LAN router {via}, outside the lab',
  'datapath.drop.ttl': 'TTL exceeded',
  'datapath.drop.masquerade-no-address': 'MASQUERADE: {iface} has no address',
  'datapath.drop.redirect-no-address': 'REDIRECT: {iface} has no address to redirect to',
  'datapath.drop.nat': 'NAT setup failed: {reason}',
  'datapath.drop.loop': 'the packet went round in a loop',
  'datapath.nft.matched': 'nft {table} {chain}: the rule matches ({outcome})',
  'datapath.nft.skipped': 'nft {table} {chain}: the rule does not match',
  'datapath.nft.skipped.source':
    'nft {table} {chain}: the rule does not match: {condition}, and the source is {value}',
  'datapath.nft.skipped.destination':
    'nft {table} {chain}: the rule does not match: {condition}, and the destination is {value}',
  'datapath.nft.skipped.in':
    "nft {table} {chain}: the rule does not match: {condition}, and the packet came in on '{value}'",
  'datapath.nft.skipped.out':
    "nft {table} {chain}: the rule does not match: {condition}, and the packet goes out on '{value}'",
  'datapath.nft.skipped.protocol':
    'nft {table} {chain}: the rule does not match: {condition}, and the packet is {value}',
  'datapath.nft.skipped.dport':
    'nft {table} {chain}: the rule does not match: {condition}, and the destination port is {value}',
  'datapath.nft.skipped.ctstate':
    "nft {table} {chain}: the rule does not match: {condition}, and the connection's state is {value}",
  'datapath.nft.skipped.mark':
    "nft {table} {chain}: the rule does not match: {condition}, and the packet's mark is {value}",
  'datapath.nft.skipped.other':
    'nft {table} {chain}: the rule does not match: {condition} does not hold',
  'datapath.nft.lookup-hit': 'nft {table} {chain}: {key} is in @{set}: {outcome}',
  'datapath.nft.lookup-miss': 'nft {table} {chain}: {key} is not in @{set}, next rule',
  'datapath.nft.numgen': 'nft {table} {chain}: numgen random drew {key}: {outcome}',
  'datapath.drop.nft': 'dropped by nft {table} chain {chain} at {hook}',
  // No packet: kube-proxy's conntrack cleanup after a sync (sim/conntrack-cleanup.ts).
  'kube-proxy.conntrack.cleanup':
    'kube-proxy on {node} deletes a UDP conntrack entry whose backend is not a serving endpoint of the Service',
};

/** The English text of an Explanation (its id when the id is unknown). */
export function explainText(e: Explanation): string {
  const template = DATAPATH_MESSAGES[e.id] ?? e.id;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => {
    const v = e.params?.[name];
    return v === undefined ? m : String(v);
  });
}

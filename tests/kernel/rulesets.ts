/**
 * Restore inputs shaped like what kube-proxy (iptables mode) and kubelet write, plus rules
 * that exercise every match and target the engine models. Deliberately written in
 * kube-proxy's own option order (`-m comment` first, `-p` late, host addresses without /32)
 * so the tests see iptables re-render them.
 */

function fakeHash(prefix: string, n: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let s = '';
  let x = (n + 1) * 2654435761;
  for (let i = 0; i < 16; i++) {
    s += alphabet[x % 32];
    x = Math.floor(x / 32) + (i + 7) * 977;
  }
  return `${prefix}${s}`;
}

interface Svc {
  readonly name: string;
  readonly ip: string;
  readonly port: number;
  readonly proto: 'tcp' | 'udp';
  readonly endpoints: number;
  readonly nodePort?: number;
  readonly affinity?: boolean;
}

const SERVICES: Svc[] = [
  { name: 'kube-system/kube-dns:dns', ip: '10.96.0.10', port: 53, proto: 'udp', endpoints: 2 },
  { name: 'kube-system/kube-dns:dns-tcp', ip: '10.96.0.10', port: 53, proto: 'tcp', endpoints: 2 },
  { name: 'default/kubernetes:https', ip: '10.96.0.1', port: 443, proto: 'tcp', endpoints: 1 },
  ...[3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({
    name: `shop/web${n}:http`,
    ip: `10.96.${n}.20`,
    port: 80,
    proto: 'tcp' as const,
    endpoints: n,
    nodePort: 30000 + n,
    affinity: n === 3,
  })),
  {
    name: 'shop/alt:http-alt',
    ip: '10.96.1.99',
    port: 8080,
    proto: 'tcp',
    endpoints: 0,
    nodePort: 31080,
  },
];

/** The full restore input of one kube-proxy sync (filter section, then nat). */
export function kubeProxyRestore(): string {
  const filterChains = [
    'KUBE-EXTERNAL-SERVICES',
    'KUBE-FIREWALL',
    'KUBE-FORWARD',
    'KUBE-KUBELET-CANARY',
    'KUBE-NODEPORTS',
    'KUBE-PROXY-FIREWALL',
    'KUBE-SERVICES',
  ];
  const f: string[] = [
    '*filter',
    ':INPUT ACCEPT [0:0]',
    ':FORWARD DROP [0:0]',
    ':OUTPUT ACCEPT [0:0]',
  ];
  for (const c of filterChains) f.push(`:${c} - [0:0]`);
  f.push(
    '-A INPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
    '-A INPUT -m comment --comment "kubernetes health check service ports" -j KUBE-NODEPORTS',
    '-A INPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES',
    '-A INPUT -j KUBE-FIREWALL',
    '-A INPUT -m nfacct --nfacct-name ct_state_invalid_dropped_pkts -m conntrack --ctstate INVALID -j DROP',
    '-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
    '-A FORWARD -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD',
    '-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    '-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES',
    '-A FORWARD -o cni0 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
    '-A FORWARD -i cni0 ! -o cni0 -j ACCEPT',
    '-A OUTPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
    '-A OUTPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    '-A OUTPUT -j KUBE-FIREWALL',
    '-A KUBE-FIREWALL ! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
    '-A KUBE-FORWARD -m conntrack --ctstate INVALID -m nfacct --nfacct-name ct_state_invalid_dropped_pkts -j DROP',
    '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT',
    '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
    '-A KUBE-SERVICES -m comment --comment "shop/alt:http-alt has no endpoints" -m tcp -p tcp -d 10.96.1.99 --dport 8080 -j REJECT --reject-with icmp-port-unreachable',
    '-A KUBE-EXTERNAL-SERVICES -m comment --comment "shop/alt:http-alt has no endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 31080 -j REJECT --reject-with icmp-port-unreachable',
    '-A KUBE-PROXY-FIREWALL -m comment --comment "shop/web4:http traffic not accepted by KUBE-FW-X" -m tcp -p tcp -d 203.0.113.4 --dport 80 -j DROP',
    'COMMIT',
  );

  const n: string[] = ['*nat'];
  const natChains = [
    'KUBE-SERVICES',
    'KUBE-NODEPORTS',
    'KUBE-POSTROUTING',
    'KUBE-MARK-MASQ',
    'KUBE-KUBELET-CANARY',
  ];
  const rules: string[] = [
    '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    '-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    '-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
    '-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000',
    '-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN',
    '-A KUBE-POSTROUTING -j MARK --xor-mark 0x4000',
    '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
  ];
  SERVICES.forEach((svc, si) => {
    if (svc.endpoints === 0) return;
    const svcChain = fakeHash('KUBE-SVC-', si);
    natChains.push(svcChain);
    rules.push(
      `-A KUBE-SERVICES -m comment --comment "${svc.name} cluster IP" -m ${svc.proto} -p ${svc.proto} -d ${svc.ip} --dport ${svc.port} -j ${svcChain}`,
      `-A ${svcChain} -m comment --comment "${svc.name} cluster IP" -m ${svc.proto} -p ${svc.proto} -d ${svc.ip} --dport ${svc.port} ! -s 10.244.0.0/16 -j KUBE-MARK-MASQ`,
    );
    if (svc.nodePort !== undefined) {
      const ext = fakeHash('KUBE-EXT-', si);
      natChains.push(ext);
      rules.push(
        `-A KUBE-NODEPORTS -m comment --comment ${svc.name.replace(/[/:]/g, '_')} -m tcp -p tcp --dport ${svc.nodePort} -j ${ext}`,
        `-A ${ext} -m comment --comment "masquerade traffic for ${svc.name} external destinations" -j KUBE-MARK-MASQ`,
        `-A ${ext} -j ${svcChain}`,
      );
    }
    for (let e = 0; e < svc.endpoints; e++) {
      const sep = fakeHash('KUBE-SEP-', si * 100 + e);
      natChains.push(sep);
      const epIp = `10.244.${e % 3}.${10 + si * 10 + e}`;
      const target = `${epIp}:${svc.port === 443 ? 6443 : svc.port}`;
      if (svc.affinity) {
        rules.push(
          `-A ${svcChain} -m comment --comment "${svc.name} -> ${target}" -m recent --name ${sep} --rcheck --seconds 10800 --reap -j ${sep}`,
        );
      }
      const left = svc.endpoints - e;
      const prob =
        left > 1 ? ` -m statistic --mode random --probability ${(1 / left).toFixed(10)}` : '';
      rules.push(
        `-A ${svcChain} -m comment --comment "${svc.name} -> ${target}"${prob} -j ${sep}`,
        `-A ${sep} -m comment --comment ${svc.name} -s ${epIp} -j KUBE-MARK-MASQ`,
        `-A ${sep} -m comment --comment ${svc.name}${svc.affinity ? ` -m recent --name ${sep} --set` : ''} -m ${svc.proto} -p ${svc.proto} -j DNAT --to-destination ${target}`,
      );
    }
  });
  rules.push(
    '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
  );
  for (const c of natChains) n.push(`:${c} - [0:0]`);
  n.push(...rules, 'COMMIT');
  return [...f, ...n].join('\n') + '\n';
}

/** Rules touching every other match/target form, with counters for `--counters`. */
export const EXTRAS_RESTORE = `*filter
:INPUT ACCEPT [5:300]
:FORWARD DROP [123456:98765432]
:OUTPUT ACCEPT [99999:100000]
:KUBE-X - [7:8]
:lower-chain - [0:0]
:Z-last - [0:0]
[1:60] -A INPUT -p udp -m udp --sport 1000:2000 ! --dport 53 -j ACCEPT
[99999:100000] -A INPUT -p 6 -m multiport --dports 80,443,8000:8080 -j ACCEPT
[100000:99999999] -A INPUT -p tcp -m multiport ! --sports 22 -j ACCEPT
[12345678:1234567890] -A INPUT -p sctp -m sctp --dport 3868 -j ACCEPT
[12345678901:123456789012] -A INPUT ! -p tcp -i eth+ -j ACCEPT
[9999999999999:99999999999999] -A INPUT -s 10.1.2.3/8 -d 192.168.0.0/255.255.0.0 -j ACCEPT
-A INPUT -p all -f -j ACCEPT
-A INPUT ! -f -j ACCEPT
-A INPUT -m comment --comment "" -m comment --comment "it's \\"q\\" \\\\ x" -j ACCEPT
-A INPUT -m comment --comment x_y-Z9 -m mark --mark 0x1 -j ACCEPT
-A INPUT -m mark ! --mark 16/0xff -j ACCEPT
-A INPUT -m statistic --mode nth --every 3 --packet 1 -j ACCEPT
-A INPUT -m statistic --mode nth --every 2 --packet 0 -j ACCEPT
-A INPUT -m statistic --mode random ! --probability 0.1 -j ACCEPT
-A INPUT -m conntrack ! --ctstate NEW,INVALID,untracked -j ACCEPT
-A INPUT -m addrtype ! --src-type LOCAL --dst-type LOCAL,UNICAST --limit-iface-in -j ACCEPT
-A INPUT -m physdev --physdev-is-in --physdev-in veth+ ! --physdev-is-bridged -j ACCEPT
-A INPUT -j REJECT
-A INPUT -p tcp -j REJECT --reject-with tcp-reset
-A INPUT -j REJECT --reject-with host-prohib
-A INPUT -j LOG --log-prefix "kp: " --log-level 4 --log-uid
-A INPUT -j LOG --log-level debug
-A INPUT -p icmp -j TRACE
-A INPUT -p tcp --syn -j ACCEPT
-A INPUT -p tcp ! --tcp-flags SYN,ACK NONE --dport 80 -j ACCEPT
-A INPUT -g KUBE-X
-A INPUT -m comment --comment "no target"
-A INPUT -i lo
-A INPUT -p tcp --dport 80 -m comment --comment between -m tcp --sport 1
-A INPUT -d 127.0.0.1 -s 127.0.0.0/8 -j ACCEPT
-A INPUT -c 42 4200 -j ACCEPT
-A FORWARD ! -i cni0 -o cni0 -j ACCEPT
-A Z-last -j lower-chain
-A lower-chain -j RETURN
-A OUTPUT -j KUBE-X
COMMIT
*nat
:PREROUTING ACCEPT [0:0]
:KUBE-SEP-A - [0:0]
:KUBE-MARK-MASQ - [0:0]
-A PREROUTING -p tcp -j DNAT --to-destination 10.0.0.1-10.0.0.5:80-90
-A PREROUTING -p tcp -j DNAT --to-destination :8080
-A PREROUTING -j DNAT --to-destination 10.0.0.9 --random --persistent
-A POSTROUTING -j SNAT --to-source 1.2.3.4 --random-fully
-A POSTROUTING -p udp -j MASQUERADE --to-ports 1000-2000 --random
-A POSTROUTING -j MASQUERADE
-A KUBE-MARK-MASQ -j MARK --set-mark 0x4000
-A KUBE-MARK-MASQ -j MARK --set-mark 0x4000/0x4000
-A KUBE-MARK-MASQ -j MARK --and-mark 0xffffbfff
-A KUBE-MARK-MASQ -j MARK --set-xmark 0x1/0xff
-A KUBE-MARK-MASQ -j MARK --set-xmark 0
-A KUBE-MARK-MASQ -j CONNMARK --set-mark 0x1
-A KUBE-MARK-MASQ -j CONNMARK --save-mark
-A KUBE-MARK-MASQ -j CONNMARK --restore-mark --mask 0xff
-A KUBE-MARK-MASQ -j CONNMARK --save-mark --nfmask 0xf --ctmask 0xff
-A KUBE-MARK-MASQ -j CONNMARK --or-mark 0x2
-A KUBE-SEP-A -p tcp -m recent --name foo --update --seconds 60 --hitcount 2 --rttl --rdest --mask 255.255.0.0 -j ACCEPT
-A KUBE-SEP-A -m recent ! --rcheck -j ACCEPT
-A KUBE-SEP-A -m recent --remove --name bar -j ACCEPT
COMMIT
`;

/**
 * The parts of pkg/proxy/iptables/proxier.go `syncProxyRules` that do not depend on any one
 * service: top-level chain declarations, KUBE-POSTROUTING / KUBE-MARK-MASQ, KUBE-FIREWALL,
 * the KUBE-NODEPORTS tail call and KUBE-FORWARD. Written as whole lines so the exact restore
 * text is visible here.
 */
import { ipIsLoopback, nodePortIPs, type NodePortAddresses } from '../node-port-addresses';
import { chainLine, type LineBuffer } from './line-buffer';

/** Declared first on every sync, in kube-proxy's order (the restore flushes them). */
export const FILTER_TOP_LEVEL_CHAINS = [
  'KUBE-SERVICES',
  'KUBE-EXTERNAL-SERVICES',
  'KUBE-FORWARD',
  'KUBE-NODEPORTS',
  'KUBE-PROXY-FIREWALL',
] as const;
export const NAT_TOP_LEVEL_CHAINS = [
  'KUBE-SERVICES',
  'KUBE-NODEPORTS',
  'KUBE-POSTROUTING',
  'KUBE-MARK-MASQ',
] as const;

export interface StaticBuffers {
  readonly filterChains: LineBuffer;
  readonly filterRules: LineBuffer;
  readonly natChains: LineBuffer;
  readonly natRules: LineBuffer;
}

/** Everything written before the service loop. */
export function writeStaticHead(
  b: StaticBuffers,
  mark: string,
  randomFully: boolean,
  localhostNodePorts: boolean,
): void {
  for (const chain of FILTER_TOP_LEVEL_CHAINS) b.filterChains.write(chainLine(chain));
  for (const chain of NAT_TOP_LEVEL_CHAINS) b.natChains.write(chainLine(chain));

  b.natRules.write(`-A KUBE-POSTROUTING -m mark ! --mark ${mark}/${mark} -j RETURN`);
  // Clear the mark so a packet re-traversing the stack (e.g. VXLAN) is not masqueraded twice.
  b.natRules.write(`-A KUBE-POSTROUTING -j MARK --xor-mark ${mark}`);
  b.natRules.write(
    '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE' +
      (randomFully ? ' --random-fully' : ''),
  );
  b.natRules.write(`-A KUBE-MARK-MASQ -j MARK --or-mark ${mark}`);

  if (localhostNodePorts) {
    // route_localnet opens a hole (issue 90259) that this rule closes; kubelet installs an
    // identical copy. Written only for IPv4 with localhost NodePorts.
    b.filterChains.write(chainLine('KUBE-FIREWALL'));
    b.filterRules.write(
      '-A KUBE-FIREWALL -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ' +
        '! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
    );
  }
}

const TAIL_COMMENT =
  '"kubernetes service nodeports; NOTE: this must be the last rule in this chain"';

/**
 * The tail call from nat KUBE-SERVICES to KUBE-NODEPORTS, after every service rule: one
 * `addrtype LOCAL` rule when nodePortAddresses matches everything, else one `-d <ip>` rule
 * per matching node address (loopback only with localhost NodePorts).
 */
export function writeNodePortsTail(
  natRules: LineBuffer,
  npa: NodePortAddresses,
  localhostNodePorts: boolean,
  interfaceAddrs: readonly string[],
): void {
  if (npa.matchAll) {
    // Localhost NodePorts only work when route_localnet was set; block them otherwise.
    const notLocalhost = localhostNodePorts ? '' : ' ! -d 127.0.0.0/8';
    natRules.write(
      `-A KUBE-SERVICES -m comment --comment ${TAIL_COMMENT} -m addrtype --dst-type LOCAL${notLocalhost} -j KUBE-NODEPORTS`,
    );
    return;
  }
  for (const ip of nodePortIPs(npa, interfaceAddrs)) {
    if (ipIsLoopback(ip) && !localhostNodePorts) continue;
    natRules.write(
      `-A KUBE-SERVICES -m comment --comment ${TAIL_COMMENT} -d ${ip} -j KUBE-NODEPORTS`,
    );
  }
}

/** KUBE-FORWARD, written after the service loop. */
export function writeForwardRules(
  filterRules: LineBuffer,
  mark: string,
  nfacct: boolean,
  tcpBeLiberal: boolean,
): void {
  // INVALID packets can cause spurious connection resets (issues 74839, 117924); with
  // nf_conntrack_tcp_be_liberal only out-of-window RSTs are INVALID, so no rule is needed.
  if (!tcpBeLiberal) {
    const counter = nfacct ? ' -m nfacct --nfacct-name ct_state_invalid_dropped_pkts' : '';
    filterRules.write(`-A KUBE-FORWARD -m conntrack --ctstate INVALID${counter} -j DROP`);
  }
  // Marked (to-be-masqueraded) traffic is forwarded even if FORWARD's policy is DROP…
  filterRules.write(
    `-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark ${mark}/${mark} -j ACCEPT`,
  );
  // …and so are the packets after it.
  filterRules.write(
    '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
  );
}

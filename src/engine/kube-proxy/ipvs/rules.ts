/**
 * The iptables restore input of kube-proxy's IPVS mode (pkg/proxy/ipvs/proxier.go
 * `createAndLinkKubeChain` chain lines and `writeIptablesRules`), byte for byte: nat chains,
 * nat rules, filter chains, filter rules, piped to `iptables-restore --noflush --counters`.
 */
import type { LocalDetector } from '../iptables/format';
import { detectorImplemented } from '../iptables/format';
import { commentOf, IPVS_FILTER_CHAINS, IPVS_NAT_CHAINS, SET_JUMPS } from './ipsets';

export interface IpvsRulesInput {
  /** The set has entries after this sync (rules tied to empty sets are not written). */
  readonly nonEmpty: (set: string) => boolean;
  readonly masqueradeAll: boolean;
  readonly detector: LocalDetector;
  /** `0x00004000`. */
  readonly mark: string;
  readonly randomFully: boolean;
  /** LB ip/proto/port whose source ranges exclude the node IP (KUBE-IPVS-OUT-FILTER). */
  readonly lbNoNodeAccess: readonly { ip: string; protocol: string; port: number }[];
}

const q = (s: string): string => `"${s}"`;

export function ipvsRestoreInput(r: IpvsRulesInput): {
  text: string;
  natRules: number;
  filterRules: number;
} {
  const nat: string[] = [];
  const filter: string[] = [];
  const setMatch = (set: string, dims: string): string =>
    `-m comment --comment ${q(commentOf(set))} -m set --match-set ${set} ${dims}`;

  nat.push('-A KUBE-SERVICES -s 127.0.0.0/8 -j RETURN');
  for (const j of SET_JUMPS) {
    if (!r.nonEmpty(j.set)) continue;
    const proto = j.protocol !== undefined ? ` -p ${j.protocol}` : '';
    (j.table === 'nat' ? nat : filter).push(
      `-A ${j.from}${proto} ${setMatch(j.set, j.match)} -j ${j.to}`,
    );
  }
  if (r.nonEmpty('KUBE-CLUSTER-IP')) {
    const head = `-A KUBE-SERVICES ${setMatch('KUBE-CLUSTER-IP', '')}`.trimEnd();
    if (r.masqueradeAll) nat.push(`${head} dst,dst -j KUBE-MARK-MASQ`);
    else if (detectorImplemented(r.detector))
      nat.push(`${head} dst,dst ${r.detector.ifNotLocal.join(' ')} -j KUBE-MARK-MASQ`);
    // No detector: masquerade node-originated traffic sourced from a VIP.
    else nat.push(`${head} src,dst -j KUBE-MARK-MASQ`);
  }
  const externalIpRules = (args: string): void => {
    nat.push(`${args} -m physdev ! --physdev-is-in -m addrtype ! --src-type LOCAL -j ACCEPT`);
    nat.push(`${args} -m addrtype --dst-type LOCAL -j ACCEPT`);
  };
  if (r.nonEmpty('KUBE-EXTERNAL-IP')) {
    const args = `-A KUBE-SERVICES ${setMatch('KUBE-EXTERNAL-IP', 'dst,dst')}`;
    nat.push(`${args} -j KUBE-MARK-MASQ`);
    externalIpRules(args);
  }
  if (r.nonEmpty('KUBE-EXTERNAL-IP-LOCAL'))
    externalIpRules(`-A KUBE-SERVICES ${setMatch('KUBE-EXTERNAL-IP-LOCAL', 'dst,dst')}`);
  nat.push('-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT');
  nat.push('-A KUBE-LOAD-BALANCER -j KUBE-MARK-MASQ');
  filter.push('-A KUBE-SOURCE-RANGES-FIREWALL -j DROP');
  for (const e of r.lbNoNodeAccess)
    filter.push(
      `-A KUBE-IPVS-OUT-FILTER -s ${e.ip} -m ipvs --vaddr ${e.ip} --vproto ${e.protocol} --vport ${e.port} -j DROP`,
    );
  // acceptIPVSTraffic(): must stay at the end of KUBE-SERVICES.
  for (const set of ['KUBE-CLUSTER-IP', 'KUBE-LOAD-BALANCER'])
    if (r.nonEmpty(set)) nat.push(`-A KUBE-SERVICES -m set --match-set ${set} dst,dst -j ACCEPT`);
  filter.push(
    `-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark ${r.mark}/${r.mark} -j ACCEPT`,
  );
  filter.push(
    '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
  );
  filter.push(`-A KUBE-NODE-PORT ${setMatch('KUBE-HEALTH-CHECK-NODE-PORT', 'dst')} -j ACCEPT`);
  for (const [set, dims] of [
    ['KUBE-LOAD-BALANCER', 'dst,dst'],
    ['KUBE-CLUSTER-IP', 'dst,dst'],
    ['KUBE-EXTERNAL-IP', 'dst,dst'],
    ['KUBE-EXTERNAL-IP-LOCAL', 'dst,dst'],
    ['KUBE-HEALTH-CHECK-NODE-PORT', 'dst'],
  ] as const)
    filter.push(`-A KUBE-IPVS-FILTER -m set --match-set ${set} ${dims} -j RETURN`);
  filter.push(
    '-A KUBE-IPVS-FILTER -m conntrack --ctstate NEW -m set --match-set KUBE-IPVS-IPS dst -j REJECT',
  );
  nat.push(`-A KUBE-POSTROUTING -m mark ! --mark ${r.mark}/${r.mark} -j RETURN`);
  nat.push(`-A KUBE-POSTROUTING -j MARK --xor-mark ${r.mark}`);
  nat.push(
    `-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE${r.randomFully ? ' --random-fully' : ''}`,
  );
  nat.push(`-A KUBE-MARK-MASQ -j MARK --or-mark ${r.mark}`);

  const chainLines = (chains: readonly string[]): string =>
    chains.map((c) => `:${c} - [0:0]\n`).join('');
  const text =
    `*nat\n${chainLines(IPVS_NAT_CHAINS)}${nat.map((l) => `${l}\n`).join('')}COMMIT\n` +
    `*filter\n${chainLines(IPVS_FILTER_CHAINS)}${filter.map((l) => `${l}\n`).join('')}COMMIT\n`;
  return { text, natRules: nat.length, filterRules: filter.length };
}

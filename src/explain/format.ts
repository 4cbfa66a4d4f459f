/** Short texts for headers and steps, as tools print them (not translated). */
import type { LabStep } from '../protocol/lab';
import type { PacketHeader } from '../protocol/trace';

export function endpoint(ip: string, port: number | undefined): string {
  return port === undefined ? ip : `${ip}:${port}`;
}

/** `UDP 10.244.0.5:55816 → 10.96.0.10:53`, tcpdump-like. */
export function headerLine(h: PacketHeader | undefined): string {
  if (h === undefined) return '';
  const flags = h.tcpFlags !== undefined ? ` [${h.tcpFlags}]` : '';
  const icmp = h.icmp !== undefined ? ` type ${h.icmp.type}/${h.icmp.code}` : '';
  return `${h.proto.toUpperCase()} ${endpoint(h.src, h.sport)} → ${endpoint(h.dst, h.dport)}${flags}${icmp}`;
}

/** What the step is, in kernel vocabulary (the explanation says why). */
export function stepTitle(s: LabStep): string {
  switch (s.kind) {
    case 'send':
      return 'send';
    case 'wire':
      return `${s.at.iface ?? ''} → ${s.to.host} ${s.to.iface ?? ''}`.trim();
    case 'hook':
      return `${s.hook} (${s.tables.join(', ')})`;
    case 'rule':
      return `${s.table} ${s.chain} #${s.ruleNum} → ${s.matched ? s.outcome : 'no match'}`;
    case 'policy':
      return `${s.table} ${s.chain} policy ${s.policy}`;
    case 'nat':
      return `${s.manip.toUpperCase()} ${headerLine(s.before)} ⇒ ${headerLine(s.after)}`;
    case 'conntrack':
      return `conntrack ${s.event} ${s.ctstate}`;
    case 'route':
      return `route ${s.decision}${s.oif ? ` dev ${s.oif}` : ''}${s.via ? ` via ${s.via}` : ''}`;
    case 'bridge':
      return `${s.bridge} ${s.inPort}${s.outPort ? ` → ${s.outPort}` : ''}`;
    case 'verdict':
      return s.verdict;
    case 'nft-rule':
      return `nft ${s.table} ${s.chain} → ${s.matched ? s.outcome : 'no match'}`;
    case 'ipvs':
      return `IPVS ${s.service} ${s.action}${s.realServer ? ` → ${s.realServer}` : ''}`;
    default:
      // A step kind newer than this UI: show its kind.
      return (s as { kind: string }).kind;
  }
}

/**
 * Short texts for headers and steps: the tools' own terms as they print them (chains, hooks,
 * DNAT, NEW, `dev eth0`), and the few words of the lab's own (StepWords) in the reader's
 * language.
 */
import type { LabStep } from '../protocol/lab';
import type { PacketHeader, TraceStep } from '../protocol/trace';

type StepOf<K extends TraceStep['kind']> = Extract<TraceStep, { kind: K }>;

/**
 * The lab's own words in step titles and lane stations: what no tool prints, so the web lab
 * translates them (src/ui/packets/step-words.ts). A verdict missing from `verdict` is an
 * iptables target (ACCEPT, DROP, REJECT) and stays as iptables spells it.
 */
export interface StepWords {
  readonly send: string;
  readonly routing: string;
  readonly route: string;
  readonly noMatch: string;
  readonly decision: Readonly<Record<StepOf<'route'>['decision'], string>>;
  readonly conntrack: Readonly<Record<StepOf<'conntrack'>['event'], string>>;
  readonly verdict: Readonly<Partial<Record<StepOf<'verdict'>['verdict'], string>>>;
  readonly ipvs: Readonly<Record<StepOf<'ipvs'>['action'], string>>;
}

/** The words as the lab has always printed them: the CLI's, and the web lab's in English. */
export const ENGLISH_STEP_WORDS: StepWords = {
  send: 'send',
  routing: 'routing',
  route: 'route',
  noMatch: 'no match',
  decision: { local: 'local', forward: 'forward', output: 'output' },
  conntrack: {
    new: 'new',
    confirmed: 'confirmed',
    update: 'update',
    destroy: 'destroy',
    hit: 'hit',
  },
  verdict: {},
  ipvs: {
    schedule: 'schedule',
    persistent: 'persistent',
    existing: 'existing',
    reply: 'reply',
    'no-destination': 'no-destination',
    expired: 'expired',
  },
};

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
export function stepTitle(s: LabStep, words: StepWords = ENGLISH_STEP_WORDS): string {
  switch (s.kind) {
    case 'send':
      return words.send;
    case 'wire':
      return `${s.at.iface ?? ''} → ${s.to.host} ${s.to.iface ?? ''}`.trim();
    case 'hook':
      return `${s.hook} (${s.tables.join(', ')})`;
    case 'rule':
      return `${s.table} ${s.chain} #${s.ruleNum} → ${s.matched ? s.outcome : words.noMatch}`;
    case 'policy':
      return `${s.table} ${s.chain} policy ${s.policy}`;
    case 'nat':
      return `${s.manip.toUpperCase()} ${headerLine(s.before)} ⇒ ${headerLine(s.after)}`;
    case 'conntrack':
      return `conntrack ${words.conntrack[s.event]} ${s.ctstate}`;
    case 'route': {
      const dev = s.oif ? ` dev ${s.oif}` : '';
      return `${words.route} ${words.decision[s.decision]}${dev}${s.via ? ` via ${s.via}` : ''}`;
    }
    case 'bridge':
      return `${s.bridge} ${s.inPort}${s.outPort ? ` → ${s.outPort}` : ''}`;
    case 'verdict':
      return words.verdict[s.verdict] ?? s.verdict;
    case 'nft-rule':
      return `nft ${s.table} ${s.chain} → ${s.matched ? s.outcome : words.noMatch}`;
    case 'ipvs':
      return `IPVS ${s.service} ${words.ipvs[s.action]}${s.realServer ? ` → ${s.realServer}` : ''}`;
    default:
      // A step kind newer than this UI: show its kind.
      return (s as { kind: string }).kind;
  }
}

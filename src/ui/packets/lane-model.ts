/**
 * The lane of one node visit: the stations a packet passes inside a host — hooks, the chains
 * it jumps to, NAT, routing, conntrack — derived from the trace steps of that visit.
 */
import type { TraceEntry } from '../../explain/trace-text';
import { ENGLISH_STEP_WORDS, headerLine, type StepWords } from '../../explain/format';

export interface Station {
  readonly index: number;
  readonly kind:
    | 'hook'
    | 'chain'
    | 'target'
    | 'nat'
    | 'route'
    | 'ct'
    | 'skip'
    | 'bridge'
    | 'verdict'
    | 'send'
    | 'wire'
    | 'ipvs';
  readonly label: string;
  readonly detail?: string;
}

const SKIPPED_CHAIN = 'KUBE-SERVICES';
const QUIET_OUTCOMES = new Set(['continue', 'RETURN', 'ACCEPT']);

export function laneStations(
  entries: readonly TraceEntry[],
  start: number,
  end: number,
  words: StepWords = ENGLISH_STEP_WORDS,
): Station[] {
  const out: Station[] = [];
  let ctHit = false;
  let natRulesSeen = false;
  let nft = false;
  for (let i = start; i <= end; i++) {
    const s = entries[i]!.step;
    switch (s.kind) {
      case 'send':
        out.push({ index: i, kind: 'send', label: words.send });
        break;
      case 'wire':
        out.push({ index: i, kind: 'wire', label: `${s.at.iface ?? ''} →` });
        break;
      case 'hook':
        out.push({ index: i, kind: 'hook', label: s.hook });
        break;
      case 'rule':
        if (s.table === 'nat') natRulesSeen = true;
        if (s.matched && !QUIET_OUTCOMES.has(s.outcome)) {
          const chain = /^[A-Z]+$/.test(s.outcome) && !s.outcome.startsWith('KUBE');
          out.push({
            index: i,
            kind: chain ? 'target' : 'chain',
            label: s.outcome,
            detail: `${s.table} ${s.chain} #${s.ruleNum}`,
          });
        }
        break;
      case 'nat':
        out.push({
          index: i,
          kind: 'nat',
          label: s.manip.toUpperCase(),
          detail: `${headerLine(s.before)} ⇒ ${headerLine(s.after)}`,
        });
        break;
      case 'route':
        out.push({
          index: i,
          kind: 'route',
          label: words.routing,
          detail: s.oif ?? words.decision[s.decision],
        });
        break;
      case 'conntrack':
        if (s.event === 'hit') ctHit = true;
        out.push({
          index: i,
          kind: 'ct',
          label: `conntrack ${words.conntrack[s.event]}`,
          detail: s.ctstate,
        });
        if (s.event === 'hit' && s.ctstate === 'ESTABLISHED') {
          // The nat table sees only a connection's first packet: later ones are rewritten
          // from the conntrack entry without walking KUBE-SERVICES (nf_nat_inet_fn).
          out.push({ index: i, kind: 'skip', label: SKIPPED_CHAIN });
        }
        break;
      case 'bridge':
        out.push({
          index: i,
          kind: 'bridge',
          label: s.bridge,
          ...(s.callIptables ? { detail: 'br_netfilter' } : {}),
        });
        break;
      case 'verdict':
        out.push({ index: i, kind: 'verdict', label: words.verdict[s.verdict] ?? s.verdict });
        break;
      case 'nft-rule': {
        nft = true;
        // nat-type base chains (and what they jump to) see only a connection's first packet.
        if (s.chain.startsWith('nat-') || s.chain === 'services') natRulesSeen = true;
        const jump = /^(?:jump|goto) (\S+)$/.exec(s.outcome);
        if (s.matched && jump !== null) {
          out.push({ index: i, kind: 'chain', label: jump[1]!, detail: `${s.table} ${s.chain}` });
        } else if (s.matched && /^(dnat|snat|masquerade|reject|drop)/.test(s.outcome)) {
          out.push({
            index: i,
            kind: 'target',
            label: s.outcome.split(' ')[0]!.toUpperCase(),
            detail: s.outcome,
          });
        }
        if (s.lookup !== undefined && s.matched) {
          out.push({
            index: i,
            kind: 'chain',
            label: `@${s.lookup.set}`,
            detail: `${s.lookup.key}${s.lookup.value ? ` : ${s.lookup.value}` : ''}`,
          });
        }
        break;
      }
      case 'ipvs':
        // kube-ipvs0 holds the VIP, so the packet is local; ip_vs takes it at LOCAL_IN.
        out.push({
          index: i,
          kind: 'ipvs',
          label: `IPVS ${words.ipvs[s.action]}`,
          detail: `${s.service}${s.realServer ? ` → ${s.realServer}` : ''}`,
        });
        break;
      case 'policy':
        break;
      default: {
        // A step kind newer than this lane (e.g. another proxy mode's): a plain station.
        const kind = (s as { kind: string }).kind;
        out.push({ index: i, kind: 'target', label: kind });
      }
    }
  }
  if (ctHit && natRulesSeen) return out.filter((st) => st.kind !== 'skip');
  // In nftables mode kube-proxy's dispatch chain is `services`.
  return nft ? out.map((st) => (st.kind === 'skip' ? { ...st, label: 'services' } : st)) : out;
}

/**
 * Checks over the trace recorded since the step began: which chains a packet walked, what a
 * host received or sent, where NAT rewrote a packet, where one was dropped. The trace is what
 * the engine did to real packets the learner caused, not what the learner typed.
 */
import type { LabFacts, PacketHeader, TraceStep } from '../../engine';
import { addressSet } from './refs';
import { num, outcome, str, type CheckFn, type CheckInput } from './util';

type Step<K extends TraceStep['kind']> = Extract<TraceStep, { kind: K }>;

/** For each packet id: the host that sent it and the header it left with. */
function senders(steps: readonly TraceStep[]): Map<number, Step<'send'>> {
  const out = new Map<number, Step<'send'>>();
  for (const s of steps) if (s.kind === 'send' && !out.has(s.packetId)) out.set(s.packetId, s);
  return out;
}

function headerMatches(
  facts: LabFacts,
  pkt: PacketHeader,
  p: CheckInput['params'],
  prefix = '',
): boolean {
  const key = (k: string) => (prefix === '' ? k : `${prefix}${k[0]!.toUpperCase()}${k.slice(1)}`);
  const src = addressSet(facts, p[key('src')]);
  const dst = addressSet(facts, p[key('dst')]);
  if (src !== undefined && !src.has(pkt.src)) return false;
  if (dst !== undefined && !dst.has(pkt.dst)) return false;
  if (p[key('proto')] !== undefined && pkt.proto !== p[key('proto')]) return false;
  if (p[key('flags')] !== undefined && pkt.tcpFlags !== p[key('flags')]) return false;
  if (p[key('sport')] !== undefined && pkt.sport !== num(p[key('sport')], 0)) return false;
  return true;
}

/**
 * `path`: some packet sent by `from` (to `dst`, when given) walked chains in this order: each
 * entry of `chains` is a chain name or a prefix ending in `-` (`KUBE-SVC-`), matched by the
 * rules that jumped into them.
 */
const path: CheckFn = ({ facts, params }) => {
  const want = (params.chains as readonly string[] | undefined) ?? [];
  const from = str(params.from);
  const sent = senders(facts.steps);
  const walked = new Map<number, string[]>();
  const table = str(params.table, 'nat');
  for (const s of facts.steps) {
    if (s.kind !== 'rule' || !s.matched || s.table !== table) continue;
    const list = walked.get(s.packetId) ?? [];
    if (list.length === 0) list.push(s.chain);
    if (s.outcome.startsWith('KUBE-') || s.outcome === 'DNAT') list.push(s.outcome);
    walked.set(s.packetId, list);
  }
  let best = 0;
  for (const [id, chains] of walked) {
    const send = sent.get(id);
    if (send === undefined || (from !== '' && send.at.host !== from)) continue;
    if (!headerMatches(facts, send.packet, params)) continue;
    let i = 0;
    for (const c of chains) {
      const w = want[i];
      if (w !== undefined && (w.endsWith('-') ? c.startsWith(w) : c === w)) i++;
    }
    best = Math.max(best, i);
  }
  return outcome(best === want.length, 'check.path', {
    from,
    reached: best,
    total: want.length,
    next: want[best] ?? '',
  });
};

/** `received`: `host` received a packet matching src/dst/proto/flags (as it arrived there). */
const received: CheckFn = ({ facts, params }) => {
  const host = str(params.host);
  let found = 0;
  for (const s of facts.steps) {
    if (s.kind === 'wire' && s.to.host === host && headerMatches(facts, s.packet, params)) found++;
  }
  return outcome(found >= num(params.min, 1), 'check.received', { host, found });
};

/** `sent`: `host` sent a packet matching src/dst/proto/flags. */
const sent: CheckFn = ({ facts, params }) => {
  const host = str(params.host);
  let found = 0;
  for (const s of facts.steps) {
    if (s.kind === 'send' && s.at.host === host && headerMatches(facts, s.packet, params)) found++;
  }
  return outcome(found >= num(params.min, 1), 'check.sent', { host, found });
};

/** `nat`: a NAT step of kind `manip` whose header before/after matches (`beforeSrc`, `afterSrc`…). */
const nat: CheckFn = ({ facts, params }) => {
  const manip = str(params.manip);
  let found = 0;
  for (const s of facts.steps) {
    if (s.kind !== 'nat' || s.manip !== manip) continue;
    if (params.node !== undefined && s.at.host !== params.node) continue;
    if (!headerMatches(facts, s.before, params, 'before')) continue;
    if (!headerMatches(facts, s.after, params, 'after')) continue;
    found++;
  }
  return outcome(found >= num(params.min, 1), 'check.nat', { manip, found });
};

/** `dropped`: a packet was dropped for the reason `why` (a datapath message id). */
const dropped: CheckFn = ({ facts, params }) => {
  const why = str(params.why);
  const found = facts.steps.filter(
    (s) => s.kind === 'verdict' && s.verdict === 'DROP' && s.why.id === why,
  ).length;
  return outcome(found >= num(params.min, 1), 'check.dropped', { why, found });
};

/**
 * `natOnce`: a connection from `from` to `dst` carried several packets, and only its first one
 * walked the nat table's KUBE-SERVICES: conntrack handled the rest.
 */
const natOnce: CheckFn = ({ facts, params }) => {
  const from = str(params.from);
  const sends = senders(facts.steps);
  const walkedNat = new Set<number>();
  for (const s of facts.steps) {
    if (s.kind === 'rule' && s.table === 'nat' && s.chain === 'KUBE-SERVICES') {
      walkedNat.add(s.packetId);
    }
  }
  const conns = new Map<string, { packets: number; walks: number; firstWalked: boolean }>();
  for (const [id, s] of sends) {
    if (s.at.host !== from || !headerMatches(facts, s.packet, params)) continue;
    const key = `${s.packet.proto} ${s.packet.sport} ${s.packet.dst}:${s.packet.dport}`;
    const c = conns.get(key) ?? { packets: 0, walks: 0, firstWalked: false };
    if (c.packets === 0) c.firstWalked = walkedNat.has(id);
    c.packets++;
    if (walkedNat.has(id)) c.walks++;
    conns.set(key, c);
  }
  const ok = [...conns.values()].filter((c) => c.packets >= 3 && c.walks === 1 && c.firstWalked);
  const longest = Math.max(0, ...[...conns.values()].map((c) => c.packets));
  return outcome(ok.length >= 1, 'check.natOnce', { connections: conns.size, packets: longest });
};

/**
 * `rebalanced`: packets from one client socket (same source address and port) to `dst` were
 * DNATed to two different backends — the conntrack entry that pinned the first one was
 * deleted in between (kube-proxy's UDP cleanup, or `conntrack -D`), so the flow was load-balanced
 * again.
 */
const rebalanced: CheckFn = ({ facts, params }) => {
  const from = str(params.from);
  const sends = senders(facts.steps);
  const targets = new Map<string, Set<string>>();
  for (const s of facts.steps) {
    if (s.kind !== 'nat' || s.manip !== 'dnat') continue;
    const send = sends.get(s.packetId);
    if (send === undefined || send.at.host !== from) continue;
    if (!headerMatches(facts, send.packet, params)) continue;
    const key = `${send.packet.proto} ${send.packet.src}:${send.packet.sport}`;
    const set = targets.get(key) ?? new Set<string>();
    set.add(`${s.after.dst}:${s.after.dport ?? ''}`);
    targets.set(key, set);
  }
  const most = Math.max(0, ...[...targets.values()].map((t) => t.size));
  return outcome(most >= 2, 'check.rebalanced', { from, backends: most });
};

export const traceKinds: Readonly<Record<string, CheckFn>> = {
  path,
  received,
  sent,
  nat,
  dropped,
  natOnce,
  rebalanced,
};

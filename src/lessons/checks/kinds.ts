/**
 * The kinds of check a lesson can name, each a pure function of the lab's facts (the engine's
 * state and the trace since the step began) and, for `answer`, of what the learner typed. None
 * of them looks at the commands the learner typed: a check passes because the lab is in the
 * state the step asks for, however the learner got it there.
 */
import type { ConntrackFact, LabFacts } from '../../engine';
import { VALUES, sameValue } from './facts-values';
import { addressSet, findService, readyEndpoints } from './refs';
import { traceKinds } from './trace-kinds';
import { num, outcome, str, type CheckFn, type CheckInput } from './util';

/** Does a conntrack entry match every condition the params name? */
function entryMatches(facts: LabFacts, e: ConntrackFact, p: CheckInput['params']): boolean {
  // `origSrc: ref` requires the address to be one of the ref's; `origSrcNot: ref` forbids it.
  const within = (key: string, ip: string) => {
    const set = addressSet(facts, p[key]);
    const not = addressSet(facts, p[`${key}Not`]);
    return (set === undefined || set.has(ip)) && (not === undefined || !not.has(ip));
  };
  if (p.proto !== undefined && e.orig.proto !== p.proto) return false;
  if (!within('origSrc', e.orig.src) || !within('origDst', e.orig.dst)) return false;
  if (!within('replySrc', e.reply.src) || !within('replyDst', e.reply.dst)) return false;
  if (p.origDport !== undefined && e.orig.dport !== num(p.origDport, 0)) return false;
  if (p.replySport !== undefined && e.reply.sport !== num(p.replySport, 0)) return false;
  if (p.assured !== undefined && e.assured !== p.assured) return false;
  if (p.seenReply !== undefined && e.seenReply !== p.seenReply) return false;
  if (p.tcpState !== undefined && e.tcpState !== p.tcpState) return false;
  // SNAT/masquerade shows as a reply tuple whose destination is not the original source.
  if (p.snat !== undefined && (e.reply.dst !== e.orig.src) !== p.snat) return false;
  if (p.dnat !== undefined && e.dstNat !== p.dnat) return false;
  // Hairpin: the pod talked to itself through the VIP (original source = reply source).
  if (p.hairpin === true && e.orig.src !== e.reply.src) return false;
  return true;
}

const conntrack: CheckFn = ({ facts, params }) => {
  const node = str(params.node, 'node-1');
  const entries = facts.nodes[node]?.conntrack ?? [];
  const found = entries.filter((e) => entryMatches(facts, e, params)).length;
  const min = num(params.min, 1);
  return outcome(found >= min, 'check.conntrack', { node, found, min });
};

const noConntrack: CheckFn = ({ facts, params }) => {
  const node = str(params.node, 'node-1');
  const entries = facts.nodes[node]?.conntrack ?? [];
  const found = entries.filter((e) => entryMatches(facts, e, params)).length;
  return outcome(found === 0, 'check.noConntrack', { node, found });
};

/** Connections per endpoint of a Service, counted from the node's conntrack table. */
const spread: CheckFn = ({ facts, params }) => {
  const node = str(params.node, 'node-1');
  const service = str(params.service);
  const vip = findService(facts, service)?.clusterIP ?? '';
  const eps = readyEndpoints(facts, service);
  const counts = new Map(eps.map((ip) => [ip, 0]));
  for (const e of facts.nodes[node]?.conntrack ?? []) {
    if (e.orig.dst !== vip || !e.seenReply) continue;
    counts.set(e.reply.src, (counts.get(e.reply.src) ?? 0) + 1);
  }
  const podName = (ip: string) => facts.cluster.pods.find((p) => p.podIP === ip)?.meta.name;
  const histogram = [...counts].map(([ip, count]) => {
    const name = podName(ip);
    return { label: name !== undefined ? `${name} (${ip})` : ip, count };
  });
  const total = histogram.reduce((a, b) => a + b.count, 0);
  const minTotal = num(params.total, 300);
  const minEach = num(params.minEach, 1);
  const least = Math.min(...histogram.map((b) => b.count));
  const most = Math.max(...histogram.map((b) => b.count));
  // `used`: exactly this many endpoints got connections (sh: one); `maxSpread`: the most and
  // the least picked differ by at most this (rr: 0).
  const used = histogram.filter((b) => b.count > 0).length;
  const passed =
    total >= minTotal &&
    histogram.length >= num(params.endpoints, 1) &&
    (params.used !== undefined ? used === num(params.used, 1) : least >= minEach) &&
    (params.maxSpread === undefined || most - least <= num(params.maxSpread, 0));
  return outcome(passed, 'check.spread', { service, total, minTotal, least }, histogram);
};

const endpoints: CheckFn = ({ facts, params }) => {
  const service = str(params.service);
  const count = readyEndpoints(facts, service).length;
  const want = num(params.ready, 1);
  return outcome(count === want, 'check.endpoints', { service, count, want });
};

/** A Service exists with the given spec fields. */
const service: CheckFn = ({ facts, params }) => {
  const name = str(params.service);
  const svc = findService(facts, name);
  if (svc === undefined) return outcome(false, 'check.service.missing', { service: name });
  const wrong: string[] = [];
  if (params.type !== undefined && svc.type !== params.type) wrong.push(`type=${svc.type}`);
  if (params.headless === true && svc.clusterIP !== 'None')
    wrong.push(`clusterIP=${svc.clusterIP}`);
  if (params.externalName !== undefined && svc.externalName !== params.externalName)
    wrong.push(`externalName=${svc.externalName ?? ''}`);
  if (
    params.externalTrafficPolicy !== undefined &&
    svc.externalTrafficPolicy !== params.externalTrafficPolicy
  )
    wrong.push(`externalTrafficPolicy=${svc.externalTrafficPolicy}`);
  if (params.sourceRanges !== undefined) {
    const want = [...(params.sourceRanges as readonly string[])].sort().join(',');
    const have = [...svc.loadBalancerSourceRanges].sort().join(',');
    if (want !== have) wrong.push(`loadBalancerSourceRanges=[${have}]`);
  }
  if (params.minReady !== undefined && readyEndpoints(facts, name).length < num(params.minReady, 1))
    wrong.push(`ready endpoints=${readyEndpoints(facts, name).length}`);
  return wrong.length === 0
    ? outcome(true, 'check.service.ok', { service: name })
    : outcome(false, 'check.service.wrong', { service: name, fields: wrong.join(', ') });
};

const sysctl: CheckFn = ({ facts, params }) => {
  const node = str(params.node, 'node-1');
  const key = str(params.key);
  const value = facts.nodes[node]?.sysctls[key] ?? '';
  return outcome(value === str(params.value), 'check.sysctl', { node, key, value });
};

const hairpin: CheckFn = ({ facts, params }) => {
  const node = str(params.node, 'node-1');
  const pod = str(params.pod);
  const port = facts.nodes[node]?.bridgePorts.find((b) => b.pod === pod);
  const on = port?.hairpin ?? false;
  return outcome(on === params.on, 'check.hairpin', {
    pod,
    port: port?.port ?? '?',
    state: on ? 'on' : 'off',
  });
};

/**
 * `rule`: whether the node's table has a rule in a chain named `chain` (or starting with
 * `chainPrefix`) whose comment contains `comment` and whose target is `target`.
 */
const rule: CheckFn = ({ facts, params }) => {
  const node = str(params.node, 'node-1');
  const table = str(params.table, 'nat') as 'nat' | 'filter';
  const rules = facts.nodes[node]?.rules[table] ?? [];
  const found = rules.filter(
    (r) =>
      (params.chain === undefined || r.chain === params.chain) &&
      (params.chainPrefix === undefined || r.chain.startsWith(str(params.chainPrefix))) &&
      (params.comment === undefined || r.text.includes(str(params.comment))) &&
      (params.target === undefined || r.target === params.target) &&
      (params.match === undefined || r.text.includes(str(params.match))),
  );
  const want = params.present !== false;
  return outcome(found.length > 0 === want, want ? 'check.rule.present' : 'check.rule.absent', {
    node,
    found: found.length,
  });
};

/** kube-proxy runs in this mode (its configuration, as the ConfigMap shows it). */
const proxyMode: CheckFn = ({ facts, params }) => {
  const mode = facts.cluster.kubeProxy.mode;
  return outcome(mode === str(params.mode), 'check.proxyMode', { mode });
};

/** The learner's answer to a value question equals what the lab shows. */
const answer: CheckFn = ({ facts, params, answers }) => {
  const question = str(params.question);
  const typed = answers[question] ?? '';
  const fn = VALUES[str(params.value)];
  if (typed.trim() === '') return outcome(false, 'check.answer.missing');
  const expected = fn?.(facts, params) ?? [];
  return expected.some((v) => sameValue(typed, v))
    ? outcome(true, 'check.answer.ok', { answer: typed.trim() })
    : outcome(false, 'check.answer.wrong', { answer: typed.trim() });
};

export const CHECK_KINDS: Readonly<Record<string, CheckFn>> = {
  conntrack,
  noConntrack,
  spread,
  endpoints,
  service,
  sysctl,
  hairpin,
  answer,
  rule,
  proxyMode,
  ...traceKinds,
};

/**
 * Pins the kernel's load-balancing draw to the engine's, for the experiments whose later steps
 * depend on which endpoint a new connection got (experiment 08 deletes the pod that answered).
 *
 * Which endpoint a new connection to a Service gets is a random draw on both sides: the
 * kernel's `-m statistic --mode random` and the lab's seeded source. When a script line made
 * the engine create a DNATed conntrack entry to a Service address with several endpoints, the
 * kernel runs that line with one extra rule in the Service's KUBE-SVC chain, before its first
 * endpoint rule, for the client's address only, jumping to the KUBE-SEP chain of the endpoint the engine drew; it
 * is deleted as soon as the line ran. The packet still walks kube-proxy's chains and is DNATed
 * by kube-proxy's own KUBE-SEP rule; only the draw is replaced. What the draw itself does is
 * compared in experiment 06 (every endpoint answers, nothing else).
 */
import { nodeConntrack } from '../../src/engine/datapath';
import type { CtTuple } from '../../src/engine/conntrack/model';
import type { World } from '../../src/engine/sim/world';
import { sh } from './netns-env';
import { normaliseContext } from './normalise';

/**
 * The newest conntrack entry id of every node, existing or gone (entries are numbered in
 * creation order; the table's counter has given out every id below nextId).
 */
export function conntrackMarks(world: World): Map<string, number> {
  const marks = new Map<string, number>();
  for (const node of world.cluster.nodes)
    marks.set(node.meta.name, nodeConntrack(world, node.meta.name).nextId - 1);
  return marks;
}

export interface Draw {
  readonly node: string;
  readonly proto: string;
  readonly client: string;
  readonly vip: string;
  readonly port: number;
  /** `ip:port` of the endpoint the engine drew. */
  readonly endpoint: string;
}

/** The draws the engine made since `marks`: new DNATed entries to multi-endpoint Services. */
export function drawsSince(world: World, marks: ReadonlyMap<string, number>): Draw[] {
  const random = normaliseContext(world.cluster).randomEndpoints;
  const draws: Draw[] = [];
  for (const node of world.cluster.nodes) {
    const name = node.meta.name;
    const table = nodeConntrack(world, name);
    // The entries made since, and those already gone again (a picked-up connection that the
    // drawn pod reset): their [NEW] event holds the draw.
    const made = new Map<number, { readonly orig: CtTuple; readonly reply: CtTuple }>();
    for (const ev of table.events) if (ev.type === 'NEW') made.set(ev.id, ev);
    for (const e of Object.values(table.entries)) made.set(e.id, e);
    for (const [id, e] of made) {
      if (id <= (marks.get(name) ?? 0)) continue;
      const o = e.orig;
      const r = e.reply;
      if (!('dport' in o) || !('sport' in r)) continue;
      if (!random.has(`${o.dst}:${o.dport}`) || r.src === o.dst) continue;
      draws.push({
        node: name,
        proto: o.proto,
        client: o.src,
        vip: o.dst,
        port: o.dport,
        endpoint: `${r.src}:${r.sport}`,
      });
    }
  }
  return draws;
}

const nat = (ns: string, ...args: string[]) =>
  sh(['ip', 'netns', 'exec', ns, 'iptables', '-t', 'nat', ...args]);

/**
 * Inserts the pinning rule of `draw` in namespace `ns` (the draw's node); returns the undo.
 * The chains are read from the kernel's own nat table.
 */
export function pinDraw(ns: string, draw: Draw): () => void {
  const services = nat(ns, '-S', 'KUBE-SERVICES').stdout.split('\n');
  const proto = ` -p ${draw.proto} `;
  const dport = ` --dport ${draw.port} -j KUBE-SVC-`;
  const svc = services
    .find((l) => l.includes(` -d ${draw.vip}/32 `) && l.includes(proto) && l.includes(dport))
    ?.split(' -j ')[1];
  if (svc === undefined) throw new Error(`no KUBE-SVC chain for ${draw.vip}:${draw.port}`);
  // `-S` lists `-N CHAIN` first: a rule's index in the listing is its number.
  const rules = nat(ns, '-S', svc).stdout.split('\n');
  const sep = rules.find((l) => l.includes(` -> ${draw.endpoint}"`))?.split(' -j ')[1];
  if (sep === undefined) throw new Error(`${svc}: no KUBE-SEP chain for ${draw.endpoint}`);
  // Before the first endpoint rule: the KUBE-MARK-MASQ rules above it still apply.
  const at = rules.findIndex((l) => l.includes(' -j KUBE-SEP-'));
  const rule = [svc, '-s', `${draw.client}/32`, '-p', draw.proto, '-j', sep];
  const r = nat(ns, '-I', svc, String(at), ...rule.slice(1));
  if (r.exitCode !== 0) throw new Error(`pinning ${draw.endpoint}: ${r.stderr}`);
  return () => {
    const d = nat(ns, '-D', ...rule);
    if (d.exitCode !== 0) throw new Error(`unpinning ${draw.endpoint}: ${d.stderr}`);
  };
}

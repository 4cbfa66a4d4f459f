/**
 * The rules kube-proxy keeps in the built-in chains. They cannot go through
 * `iptables-restore --noflush` (that would replace INPUT, PREROUTING, …), so on every full
 * sync kube-proxy runs, per entry: `EnsureChain` (`iptables -t T -N KUBE-X`, "already
 * exists" is fine) and `EnsureRule(Prepend)` (`iptables -t T -C CHAIN args…`, and if absent
 * `iptables -t T -I CHAIN args…`). Prepending means the final order inside a built-in chain
 * is the reverse of this list. pkg/proxy/iptables/proxier.go `iptablesJumpChains`,
 * `iptablesKubeletJumpChains`; the canary comes from `ipt.Monitor` (pkg/util/iptables),
 * started before the first sync, which creates KUBE-PROXY-CANARY in mangle, nat and filter.
 */
export type IptablesTable = 'filter' | 'nat' | 'mangle';

export interface JumpRuleOp {
  /** `chain`: ensure the chain exists (`-N`); `rule`: ensure the jump exists (`-C`, then `-I`). */
  readonly kind: 'chain' | 'rule';
  readonly table: IptablesTable;
  /** The chain to create (`chain`), or the built-in chain to insert into (`rule`). */
  readonly chain: string;
  /** The rule specification for `-C`/`-I` (empty for `chain`). */
  readonly args: readonly string[];
}

interface JumpSpec {
  readonly table: IptablesTable;
  readonly target: string;
  readonly from: string;
  readonly comment: string;
  readonly extra: readonly string[];
}

const NEW = ['-m', 'conntrack', '--ctstate', 'NEW'] as const;

const KUBE_PROXY_JUMPS: readonly JumpSpec[] = [
  {
    table: 'filter',
    target: 'KUBE-EXTERNAL-SERVICES',
    from: 'INPUT',
    comment: 'kubernetes externally-visible service portals',
    extra: NEW,
  },
  {
    table: 'filter',
    target: 'KUBE-EXTERNAL-SERVICES',
    from: 'FORWARD',
    comment: 'kubernetes externally-visible service portals',
    extra: NEW,
  },
  {
    table: 'filter',
    target: 'KUBE-NODEPORTS',
    from: 'INPUT',
    comment: 'kubernetes health check service ports',
    extra: [],
  },
  {
    table: 'filter',
    target: 'KUBE-SERVICES',
    from: 'FORWARD',
    comment: 'kubernetes service portals',
    extra: NEW,
  },
  {
    table: 'filter',
    target: 'KUBE-SERVICES',
    from: 'OUTPUT',
    comment: 'kubernetes service portals',
    extra: NEW,
  },
  {
    table: 'filter',
    target: 'KUBE-FORWARD',
    from: 'FORWARD',
    comment: 'kubernetes forwarding rules',
    extra: [],
  },
  {
    table: 'filter',
    target: 'KUBE-PROXY-FIREWALL',
    from: 'INPUT',
    comment: 'kubernetes load balancer firewall',
    extra: NEW,
  },
  {
    table: 'filter',
    target: 'KUBE-PROXY-FIREWALL',
    from: 'OUTPUT',
    comment: 'kubernetes load balancer firewall',
    extra: NEW,
  },
  {
    table: 'filter',
    target: 'KUBE-PROXY-FIREWALL',
    from: 'FORWARD',
    comment: 'kubernetes load balancer firewall',
    extra: NEW,
  },
  {
    table: 'nat',
    target: 'KUBE-SERVICES',
    from: 'OUTPUT',
    comment: 'kubernetes service portals',
    extra: [],
  },
  {
    table: 'nat',
    target: 'KUBE-SERVICES',
    from: 'PREROUTING',
    comment: 'kubernetes service portals',
    extra: [],
  },
  {
    table: 'nat',
    target: 'KUBE-POSTROUTING',
    from: 'POSTROUTING',
    comment: 'kubernetes postrouting rules',
    extra: [],
  },
];

/** kube-proxy's copies of kubelet's KUBE-FIREWALL jumps (no comment). */
const KUBELET_JUMPS: readonly JumpSpec[] = [
  { table: 'filter', target: 'KUBE-FIREWALL', from: 'INPUT', comment: '', extra: [] },
  { table: 'filter', target: 'KUBE-FIREWALL', from: 'OUTPUT', comment: '', extra: [] },
];

export const CANARY_CHAIN = 'KUBE-PROXY-CANARY';

/** Every operation, in the order kube-proxy performs them on a fresh node. */
export function jumpRuleOps(): JumpRuleOp[] {
  const ops: JumpRuleOp[] = (['mangle', 'nat', 'filter'] as const).map((table) => ({
    kind: 'chain',
    table,
    chain: CANARY_CHAIN,
    args: [],
  }));
  for (const j of [...KUBE_PROXY_JUMPS, ...KUBELET_JUMPS]) {
    ops.push({ kind: 'chain', table: j.table, chain: j.target, args: [] });
    // args: extra matches, then the comment, then the jump (in that order).
    const comment = j.comment === '' ? [] : ['-m', 'comment', '--comment', j.comment];
    ops.push({
      kind: 'rule',
      table: j.table,
      chain: j.from,
      args: [...j.extra, ...comment, '-j', j.target],
    });
  }
  return ops;
}

/** The iptables argv that performs an op (`-N` for chains, `-I` for rules; `-C` precedes `-I`). */
export function jumpRuleArgv(op: JumpRuleOp, verb: '-I' | '-C' = '-I'): string[] {
  return op.kind === 'chain'
    ? ['-t', op.table, '-N', op.chain]
    : ['-t', op.table, verb, op.chain, ...op.args];
}

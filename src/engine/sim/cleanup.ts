/**
 * What a starting kube-proxy removes of another mode's leftovers (cmd/kube-proxy/app
 * server_linux.go platformCleanup): pkg/proxy/iptables CleanupLeftovers (unlink the jumps,
 * flush and delete KUBE-SERVICES/KUBE-NODEPORTS/KUBE-POSTROUTING and every service chain in
 * nat, and its filter chains) and pkg/proxy/ipvs cleanupLeftovers (flush IPVS, delete
 * kube-ipvs0, unlink and delete its chains, destroy its ipsets). Run as the commands kube-proxy
 * runs, so the kernel ends up as it would.
 */
import { flushServices } from '../ipvs';
import {
  IPVS_FILTER_CHAINS,
  IPVS_JUMPS,
  IPVS_NAT_CHAINS,
  isServiceChainName,
  jumpRuleOps,
  KUBE_IPSETS,
} from '../kube-proxy';
import { iptablesCommand, iptablesRestore, type TableName } from '../netfilter';
import { runIpsetOp } from './ipvs-node';
import type { NodeKernel } from './node-kernel';

function iptables(kernel: NodeKernel, argv: readonly string[]): void {
  kernel.ops?.push({ iptables: argv });
  iptablesCommand(kernel.netfilter, argv);
}

function restore(kernel: NodeKernel, input: string): void {
  kernel.ops?.push({ restore: input, args: ['--noflush', '--counters'] });
  iptablesRestore(kernel.netfilter, input, { noflush: true, counters: true });
}

const chainsOf = (kernel: NodeKernel, table: TableName): Set<string> =>
  new Set((kernel.netfilter.tables[table]?.chains ?? []).map((c) => c.name));

export function cleanupIptablesLeftovers(kernel: NodeKernel): void {
  for (const op of jumpRuleOps())
    if (op.kind === 'rule' && op.args.includes('--comment'))
      iptables(kernel, ['-t', op.table, '-D', op.chain, ...op.args]);
  const nat = chainsOf(kernel, 'nat');
  if (nat.size > 0) {
    const doomed = ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING'].filter((c) =>
      nat.has(c),
    );
    doomed.push(...[...nat].filter((c) => isServiceChainName(c)).sort());
    restore(
      kernel,
      `*nat\n${doomed.map((c) => `:${c} - [0:0]\n`).join('')}${doomed.map((c) => `-X ${c}\n`).join('')}COMMIT\n`,
    );
  }
  const filter = chainsOf(kernel, 'filter');
  if (filter.size > 0) {
    const doomed = [
      'KUBE-SERVICES',
      'KUBE-EXTERNAL-SERVICES',
      'KUBE-FORWARD',
      'KUBE-NODEPORTS',
    ].filter((c) => filter.has(c));
    restore(
      kernel,
      `*filter\n${doomed.map((c) => `:${c} - [0:0]\n`).join('')}${doomed.map((c) => `-X ${c}\n`).join('')}COMMIT\n`,
    );
  }
}

export function cleanupIpvsLeftovers(kernel: NodeKernel): void {
  flushServices(kernel.ipvs);
  delete kernel.kubeIpvs0;
  for (const j of IPVS_JUMPS)
    iptables(kernel, [
      '-t',
      j.table,
      '-D',
      j.from,
      '-m',
      'comment',
      '--comment',
      j.comment,
      '-j',
      j.to,
    ]);
  const chains: [TableName, string][] = [
    ...IPVS_NAT_CHAINS.map((c): [TableName, string] => ['nat', c]),
    ...IPVS_FILTER_CHAINS.map((c): [TableName, string] => ['filter', c]),
  ];
  for (const [t, c] of chains) if (chainsOf(kernel, t).has(c)) iptables(kernel, ['-t', t, '-F', c]);
  for (const [t, c] of chains) if (chainsOf(kernel, t).has(c)) iptables(kernel, ['-t', t, '-X', c]);
  // Sets go last: a set still referenced by a rule cannot be destroyed.
  for (const s of KUBE_IPSETS)
    if (kernel.ipsets.sets.some((x) => x.name === s.name)) runIpsetOp(kernel, ['destroy', s.name]);
}

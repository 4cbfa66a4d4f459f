/**
 * The IPVS proxier's view of a node's kernel (what it reaches through netlink and the ipset
 * tool), and what the node's ipsets need from the rest of the kernel: how many iptables rules
 * reference a set (xt_set takes a reference per rule) and the initval a new hash set gets
 * (the kernel draws a random one; the lab derives it from the node and set names, so runs repeat).
 */
import { runIpset, type IpsetEnv } from '../ipset';
import type { IpvsNode } from '../kube-proxy';
import type { Cluster } from '../model/cluster';
import { TABLE_ORDER, type NetfilterState } from '../netfilter';
import { hostNetwork } from '../routing/topology';
import type { NodeKernel } from './node-kernel';

/** FNV-1a over the text: a stable stand-in for get_random_u32(). */
function stableU32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

/** Rules of every table that match `-m set --match-set NAME`. */
export function setReferences(nf: NetfilterState, name: string): number {
  let n = 0;
  for (const t of TABLE_ORDER) {
    const table = nf.tables[t];
    if (table === undefined) continue;
    for (const chain of table.chains)
      for (const rule of chain.rules)
        for (const m of rule.matches) if (m.name === 'set' && m.setName === name) n++;
  }
  return n;
}

export function ipsetEnv(kernel: NodeKernel): IpsetEnv {
  return {
    references: (name) => setReferences(kernel.netfilter, name),
    initval: (name) => stableU32(`${kernel.name}/${name}`),
  };
}

/** Runs an ipset command as kube-proxy does (and records it for replay on a real kernel). */
export function runIpsetOp(kernel: NodeKernel, argv: readonly string[]): void {
  kernel.ops?.push({ ipset: argv });
  runIpset(kernel.ipsets, ipsetEnv(kernel), argv);
}

export function ipvsNodeOf(kernel: NodeKernel, cluster: Cluster): IpvsNode {
  return {
    ipvs: kernel.ipvs,
    ensureDummy() {
      if (kernel.kubeIpvs0 === undefined) kernel.kubeIpvs0 = { addresses: [] };
    },
    dummyAddresses: () => kernel.kubeIpvs0?.addresses ?? [],
    bind(addr) {
      // The proxier binds only addresses it did not find bound (alreadyBoundAddrs); a new
      // wrapper object tells cached views (datapath kernelNet) that the interface changed.
      const cur = kernel.kubeIpvs0?.addresses ?? [];
      cur.push(addr);
      kernel.kubeIpvs0 = { addresses: cur };
    },
    unbind(addr) {
      const cur = kernel.kubeIpvs0?.addresses ?? [];
      kernel.kubeIpvs0 = { addresses: cur.filter((a) => a !== addr) };
    },
    localAddressesExceptDummy() {
      const net = hostNetwork(cluster, { kind: 'node', name: kernel.name });
      const out: string[] = [];
      for (const i of net?.interfaces ?? [])
        for (const a of i.addresses)
          if (a.family === 'inet' && !a.address.startsWith('127.')) out.push(a.address);
      return out;
    },
    ensureSet(name, type) {
      const opts =
        type === 'bitmap:port'
          ? ['range', '0-65535']
          : ['family', 'inet', 'hashsize', '1024', 'maxelem', '65536'];
      runIpsetOp(kernel, ['create', name, type, ...opts, '-exist']);
    },
    setMembers(name) {
      const r = runIpset(kernel.ipsets, ipsetEnv(kernel), ['save', name]);
      return r.stdout
        .split('\n')
        .filter((l) => l.startsWith('add '))
        .map((l) => l.split(' ')[2]!);
    },
    ipsetAdd: (name, entry) => runIpsetOp(kernel, ['add', name, entry, '-exist']),
    ipsetDel: (name, entry) => runIpsetOp(kernel, ['del', name, entry]),
  };
}

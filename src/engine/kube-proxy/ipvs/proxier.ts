/**
 * kube-proxy's IPVS proxier (pkg/proxy/ipvs/proxier.go `syncProxyRules`, v1.31+), one per node.
 * Unlike the iptables proxier it programs the kernel directly through an `IpvsNode` (netlink
 * for kube-ipvs0 and IPVS, the ipset tool), then returns the iptables restore input it pipes to
 * `iptables-restore --noflush --counters` and the jumps it ensures on every sync.
 *
 * Where kube-proxy walks Go maps (services, endpoints, node addresses), the lab walks them in
 * sorted order; the kernel state it leaves is the same.
 */
import type { Cluster, KubeProxyConfig } from '../../model/cluster';
import {
  addDest,
  addService,
  deleteDest,
  deleteService,
  editDest,
  editService,
  expireConns,
  findDest,
  SVC_F_PERSISTENT,
  SVC_F_SCHED2,
  type IpvsProtocol,
  type IpvsState,
  type ServiceSpec,
  type VirtualService,
} from '../../ipvs';
import { cidrContains, cidrParse } from '../../model/ip';
import { buildEndpointsMap, categorizeEndpoints, endpointsFor } from '../endpoints';
import { localDetectorFor, masqueradeMark } from '../iptables/format';
import type { JumpRuleOp } from '../iptables/jump-rules';
import { nodePortAddressesFor, nodePortIPs } from '../node-port-addresses';
import { buildServicePorts, shouldSkipService, type ServicePortInfo } from '../service-port';
import { IPVS_FILTER_CHAINS, IPVS_JUMPS, IPVS_NAT_CHAINS, KUBE_IPSETS } from './ipsets';
import { ipvsRestoreInput } from './rules';

/** What the proxier reaches in the node's kernel (netlink, IPVS, ipset). */
export interface IpvsNode {
  readonly ipvs: IpvsState;
  /** EnsureDummyDevice("kube-ipvs0"). */
  ensureDummy(): void;
  /** Addresses bound to kube-ipvs0, in binding order. */
  dummyAddresses(): readonly string[];
  bind(addr: string): void;
  unbind(addr: string): void;
  /** GetAllLocalAddressesExcept("kube-ipvs0"): IPv4, no loopback. */
  localAddressesExceptDummy(): readonly string[];
  /** `ipset create NAME TYPE … -exist`. */
  ensureSet(name: string, type: string): void;
  /** `ipset list NAME` members. */
  setMembers(name: string): readonly string[];
  ipsetAdd(name: string, entry: string): void;
  ipsetDel(name: string, entry: string): void;
}

export interface IpvsProxierOptions {
  readonly nodeName: string;
  /** The node IP kube-proxy was started with (source-range checks). */
  readonly nodeIP: string;
  readonly podCIDR: string;
  readonly config: KubeProxyConfig;
  readonly randomFully?: boolean;
}

export interface IpvsSyncResult {
  readonly restoreInput: string;
  /** IPVS mode has no partial syncs: every sync writes everything. */
  readonly full: true;
  readonly jumpRulesEnsured: true;
  readonly natRules: number;
  readonly filterRules: number;
  readonly natChains: number;
  readonly filterChains: number;
  readonly chainsWritten: readonly string[];
  readonly chainsDeleted: readonly string[];
  readonly virtualServers: number;
  readonly realServers: number;
}

export interface IpvsProxier {
  readonly mode: 'ipvs';
  sync(cluster: Cluster, node: IpvsNode, now: number): IpvsSyncResult;
  /** `createAndLinkKubeChain`: the chains and jumps ensured on every sync. */
  jumpRules(): JumpRuleOp[];
  /** GracefulTerminationManager: the once-a-minute pass over weight-0 real servers up to `now`. */
  housekeeping(ipvs: IpvsState, now: number): void;
  forceFullSync(): void;
  restoreFailed(): void;
}

/** pkg/proxy/ipvs/graceful_termination.go rsCheckDeleteInterval. */
const RS_CHECK_DELETE_INTERVAL_MS = 60_000;

/** IsRsGracefulTerminationNeeded: every protocol but UDP and SCTP. */
const gracefulNeeded = (p: IpvsProtocol): boolean => p !== 'UDP' && p !== 'SCTP';

export function createIpvsProxier(opts: IpvsProxierOptions): IpvsProxier {
  const { config } = opts;
  const scheduler = config.ipvsScheduler || 'rr';
  const mark = masqueradeMark(config.masqueradeBit);
  const detector = localDetectorFor(config, opts.podCIDR);
  const npa = nodePortAddressesFor(config.nodePortAddresses, opts.nodeIP);
  let initialSync = true;
  let startedAt: number | undefined;
  let lastCheck = 0;
  /** Graceful-termination list: `vs/rs` keys of real servers drained at weight 0. */
  const terminating = new Map<string, { svc: VirtualService; addr: string; port: number }>();

  const rsKey = (svc: VirtualService, addr: string, port: number): string =>
    `${svc.addr}:${svc.port}/${svc.protocol}/${addr}:${port}`;

  /** deleteRsFunc(): true when the real server could go (UDP at once, TCP once idle). */
  function tryDelete(svc: VirtualService, addr: string, port: number): boolean {
    const rs = findDest(svc, addr, port);
    if (rs === undefined) return true;
    if (gracefulNeeded(svc.protocol) && rs.activeConns + rs.inactConns !== 0) return false;
    deleteDest(svc, rs);
    return true;
  }

  function housekeeping(ipvs: IpvsState, now: number): void {
    if (startedAt === undefined) return;
    while (lastCheck + RS_CHECK_DELETE_INTERVAL_MS <= now) {
      lastCheck += RS_CHECK_DELETE_INTERVAL_MS;
      expireConns(ipvs, lastCheck);
      for (const [key, item] of [...terminating])
        if (tryDelete(item.svc, item.addr, item.port)) terminating.delete(key);
    }
  }

  /** syncEndpoint(): onlyLocal falls back to every cluster endpoint when none is local (PR 97081). */
  function syncEndpoints(
    svc: VirtualService,
    info: ServicePortInfo,
    onlyLocal: boolean,
    epMap: ReturnType<typeof buildEndpointsMap>,
  ): void {
    const cat = categorizeEndpoints(endpointsFor(epMap, info), info);
    const chosen =
      onlyLocal && cat.localEndpoints.length > 0 ? cat.localEndpoints : cat.clusterEndpoints;
    const wanted = new Set(chosen.map((e) => e.endpoint));
    const current = new Set(svc.destinations.map((d) => `${d.addr}:${d.port}`));
    for (const ep of [...chosen].sort((a, b) => (a.endpoint < b.endpoint ? -1 : 1))) {
      if (current.has(ep.endpoint)) {
        if (initialSync && svc.destinations.some((d) => d.weight !== 1))
          editDest(svc, findDest(svc, ep.ip, ep.port)!, 1);
        const key = rsKey(svc, ep.ip, ep.port);
        if (!terminating.has(key)) continue;
        // MoveRSOutofGracefulDeleteList: deleted at once, then added fresh.
        terminating.delete(key);
        const rs = findDest(svc, ep.ip, ep.port);
        if (rs !== undefined) deleteDest(svc, rs);
      }
      addDest(svc, { addr: ep.ip, port: ep.port, weight: 1, fwd: 'Masq' });
    }
    for (const ep of [...current].filter((e) => !wanted.has(e)).sort()) {
      const [addr, port] = [
        ep.slice(0, ep.lastIndexOf(':')),
        Number(ep.slice(ep.lastIndexOf(':') + 1)),
      ];
      const key = rsKey(svc, addr, port);
      if (terminating.has(key)) continue;
      // GracefulDeleteRS: delete when possible, else drain at weight 0 and re-check every minute.
      if (tryDelete(svc, addr, port)) continue;
      const rs = findDest(svc, addr, port)!;
      if (rs.weight !== 0) editDest(svc, rs, 0);
      terminating.set(key, { svc, addr, port });
    }
  }

  function sync(cluster: Cluster, node: IpvsNode, now: number): IpvsSyncResult {
    if (startedAt === undefined) {
      startedAt = now;
      lastCheck = now;
    }
    housekeeping(node.ipvs, now);
    node.ensureDummy();
    for (const s of KUBE_IPSETS) node.ensureSet(s.name, s.type);
    const active = new Map<string, Set<string>>(KUBE_IPSETS.map((s) => [s.name, new Set()]));
    const add = (set: string, entry: string): void => void active.get(set)!.add(entry);
    const activeServices = new Set<VirtualService>();
    const activeBind = new Set<string>();
    const alreadyBound = new Set(node.dummyAddresses());
    const nodeAddresses = [...node.localAddressesExceptDummy()].sort();
    const lbNoNodeAccess: { ip: string; protocol: string; port: number }[] = [];

    const services = cluster.services.filter((s) => !shouldSkipService(s));
    const ports = buildServicePorts({ services });
    const epMap = buildEndpointsMap(cluster, opts.nodeName);
    const hasNodePort = ports.some((p) => p.nodePort !== 0);
    const nodeIPs = !hasNodePort
      ? []
      : npa.matchAll
        ? nodeAddresses
        : nodePortIPs(npa, nodeAddresses).filter((ip) => !ip.startsWith('127.'));

    // GetVirtualServer() per service port: an index instead of a scan of the kernel's list.
    const byKey = new Map(node.ipvs.services.map((v) => [`${v.protocol} ${v.addr}:${v.port}`, v]));
    const ensureVs = (info: ServicePortInfo, addr: string, port: number, bind: boolean) => {
      const spec: ServiceSpec = {
        protocol: info.protocol as IpvsProtocol,
        addr,
        port,
        scheduler,
        flags:
          (info.sessionAffinityClientIP ? SVC_F_PERSISTENT : 0) |
          (scheduler === 'mh' ? SVC_F_SCHED2 : 0),
        timeout: info.sessionAffinityClientIP ? info.stickyMaxAgeSeconds : 0,
      };
      const key = `${spec.protocol} ${addr}:${port}`;
      let svc = byKey.get(key);
      if (svc === undefined) {
        svc = addService(node.ipvs, spec) as VirtualService;
        byKey.set(key, svc);
      } else if (
        svc.scheduler !== spec.scheduler ||
        svc.flags !== spec.flags ||
        svc.timeout !== spec.timeout
      )
        editService(svc, spec);
      if (bind && !alreadyBound.has(addr)) {
        node.bind(addr);
        alreadyBound.add(addr);
      }
      activeServices.add(svc);
      return svc;
    };

    for (const info of ports) {
      const proto = info.protocol.toLowerCase();
      for (const ep of endpointsFor(epMap, info))
        if (ep.isLocal) add('KUBE-LOOP-BACK', `${ep.ip},${proto}:${ep.port},${ep.ip}`);
      add('KUBE-CLUSTER-IP', `${info.clusterIP},${proto}:${info.port}`);
      const cip = ensureVs(info, info.clusterIP, info.port, true);
      activeBind.add(info.clusterIP);
      syncEndpoints(cip, info, info.internalPolicyLocal, epMap);

      for (const ip of info.externalIPs) {
        add(
          info.externalPolicyLocal ? 'KUBE-EXTERNAL-IP-LOCAL' : 'KUBE-EXTERNAL-IP',
          `${ip},${proto}:${info.port}`,
        );
        const bind = !nodeAddresses.includes(ip);
        const vs = ensureVs(info, ip, info.port, bind);
        if (bind) activeBind.add(ip);
        syncEndpoints(vs, info, info.externalPolicyLocal, epMap);
      }
      for (const ip of info.loadBalancerVIPs) {
        const entry = `${ip},${proto}:${info.port}`;
        add('KUBE-LOAD-BALANCER', entry);
        if (info.externalPolicyLocal) add('KUBE-LOAD-BALANCER-LOCAL', entry);
        if (info.loadBalancerSourceRanges.length > 0) {
          add('KUBE-LOAD-BALANCER-FW', entry);
          let allowFromNode = false;
          for (const range of info.loadBalancerSourceRanges) {
            add('KUBE-LOAD-BALANCER-SOURCE-CIDR', `${entry},${range}`);
            const c = cidrParse(range, { allowHostBits: true });
            if (c !== undefined && cidrContains(c, opts.nodeIP)) allowFromNode = true;
          }
          if (allowFromNode) add('KUBE-LOAD-BALANCER-SOURCE-IP', `${entry},${ip}`);
          else lbNoNodeAccess.push({ ip, protocol: proto, port: info.port });
        }
        const bind = !nodeAddresses.includes(ip);
        const vs = ensureVs(info, ip, info.port, bind);
        if (bind) activeBind.add(ip);
        syncEndpoints(vs, info, info.externalPolicyLocal, epMap);
      }
      if (info.nodePort !== 0 && nodeIPs.length > 0) {
        const P = info.protocol.toUpperCase();
        const entries =
          P === 'SCTP'
            ? nodeIPs.map((ip) => `${ip},sctp:${info.nodePort}`)
            : [String(info.nodePort)];
        const set = P === 'SCTP' ? 'KUBE-NODE-PORT-SCTP-HASH' : `KUBE-NODE-PORT-${P}`;
        for (const e of entries) add(set, e);
        if (info.externalPolicyLocal) {
          const local =
            P === 'SCTP' ? 'KUBE-NODE-PORT-LOCAL-SCTP-HASH' : `KUBE-NODE-PORT-LOCAL-${P}`;
          for (const e of entries) add(local, e);
        }
        for (const ip of nodeIPs) {
          const vs = ensureVs(info, ip, info.nodePort, false);
          syncEndpoints(vs, info, info.externalPolicyLocal, epMap);
        }
      }
      if (info.healthCheckNodePort !== 0)
        add('KUBE-HEALTH-CHECK-NODE-PORT', String(info.healthCheckNodePort));
    }
    for (const a of activeBind) add('KUBE-IPVS-IPS', a);

    // syncIPSetEntries(): delete legacy entries, then add the new ones (sorted).
    for (const s of KUBE_IPSETS) {
      const want = active.get(s.name)!;
      const have = new Set(node.setMembers(s.name));
      for (const e of [...have].filter((e) => !want.has(e)).sort()) node.ipsetDel(s.name, e);
      for (const e of [...want].filter((e) => !have.has(e)).sort()) node.ipsetAdd(s.name, e);
    }

    const restore = ipvsRestoreInput({
      nonEmpty: (set) => (active.get(set)?.size ?? 0) > 0,
      masqueradeAll: config.masqueradeAll,
      detector,
      mark,
      randomFully: opts.randomFully !== false,
      lbNoNodeAccess,
    });

    for (const a of node.dummyAddresses()) if (!activeBind.has(a)) node.unbind(a);
    // cleanLegacyService(): virtual servers nothing asked for this time go.
    if (activeServices.size !== node.ipvs.services.length)
      for (const svc of [...node.ipvs.services])
        if (!activeServices.has(svc)) deleteService(node.ipvs, svc);
    for (const [key, item] of terminating)
      if (!node.ipvs.services.includes(item.svc)) terminating.delete(key);
    initialSync = false;

    return {
      restoreInput: restore.text,
      full: true,
      jumpRulesEnsured: true,
      natRules: restore.natRules,
      filterRules: restore.filterRules,
      natChains: IPVS_NAT_CHAINS.length,
      filterChains: IPVS_FILTER_CHAINS.length,
      chainsWritten: [],
      chainsDeleted: [],
      virtualServers: node.ipvs.services.length,
      realServers: node.ipvs.services.reduce((n, s) => n + s.destinations.length, 0),
    };
  }

  return {
    mode: 'ipvs',
    sync,
    housekeeping,
    jumpRules: ipvsJumpRuleOps,
    forceFullSync() {},
    restoreFailed() {},
  };
}

/** createAndLinkKubeChain(): EnsureChain for each chain, EnsureRule(Prepend) for each jump. */
export function ipvsJumpRuleOps(): JumpRuleOp[] {
  const ops: JumpRuleOp[] = [];
  for (const chain of IPVS_NAT_CHAINS) ops.push({ kind: 'chain', table: 'nat', chain, args: [] });
  for (const chain of IPVS_FILTER_CHAINS)
    ops.push({ kind: 'chain', table: 'filter', chain, args: [] });
  for (const j of IPVS_JUMPS)
    ops.push({
      kind: 'rule',
      table: j.table,
      chain: j.from,
      args: ['-m', 'comment', '--comment', j.comment, '-j', j.to],
    });
  return ops;
}

/**
 * Virtual services and real servers as ip_vs_ctl.c keeps them: add/edit/delete, each with the
 * scheduler hook the kernel calls, and the errors libipvs reports (ipvs_strerror()).
 */
import { initScheduler, schedulerDestChanged } from './schedulers';
import {
  emptyStats,
  serviceKey,
  SVC_F_PERSISTENT,
  type Destination,
  type ForwardMethod,
  type IpvsProtocol,
  type IpvsState,
  type VirtualService,
} from './types';

export interface ServiceSpec {
  readonly protocol: IpvsProtocol;
  readonly addr: string;
  readonly port: number;
  readonly scheduler: string;
  readonly flags: number;
  /** Persistence timeout, seconds (used with SVC_F_PERSISTENT). */
  readonly timeout: number;
}

export interface DestSpec {
  readonly addr: string;
  readonly port: number;
  readonly weight: number;
  readonly fwd: ForwardMethod;
}

export function findService(
  ipvs: IpvsState,
  protocol: IpvsProtocol,
  addr: string,
  port: number,
): VirtualService | undefined {
  return ipvs.byKey.get(serviceKey(protocol, addr, port));
}

export function findDest(svc: VirtualService, addr: string, port: number): Destination | undefined {
  return svc.destinations.find((d) => d.addr === addr && d.port === port);
}

/** ip_vs_add_service(); an existing service is EEXIST ("Service already exists"). */
export function addService(ipvs: IpvsState, spec: ServiceSpec): VirtualService | 'exists' {
  if (findService(ipvs, spec.protocol, spec.addr, spec.port) !== undefined) return 'exists';
  const svc: VirtualService = {
    protocol: spec.protocol,
    addr: spec.addr,
    port: spec.port,
    scheduler: spec.scheduler,
    flags: spec.flags,
    timeout: spec.flags & SVC_F_PERSISTENT ? spec.timeout : 0,
    netmask: '255.255.255.255',
    destinations: [],
    sched: { kind: 'none' },
    stats: emptyStats(),
  };
  svc.sched = initScheduler(svc);
  ipvs.services.push(svc);
  ipvs.byKey.set(serviceKey(svc.protocol, svc.addr, svc.port), svc);
  return svc;
}

/** ip_vs_edit_service(): a new scheduler starts from scratch (init_service). */
export function editService(svc: VirtualService, spec: ServiceSpec): void {
  const schedChanged = svc.scheduler !== spec.scheduler;
  svc.scheduler = spec.scheduler;
  svc.flags = spec.flags;
  svc.timeout = spec.flags & SVC_F_PERSISTENT ? spec.timeout : 0;
  if (schedChanged) svc.sched = initScheduler(svc);
}

/** ip_vs_del_service(): its destinations go, their connections lose them (ip_vs_unlink_service). */
export function deleteService(ipvs: IpvsState, svc: VirtualService): void {
  for (const d of svc.destinations) d.available = false;
  ipvs.services = ipvs.services.filter((s) => s !== svc);
  ipvs.byKey.delete(serviceKey(svc.protocol, svc.addr, svc.port));
}

/** ip_vs_add_dest(); an existing one is EEXIST ("Destination already exists"). */
export function addDest(svc: VirtualService, spec: DestSpec): Destination | 'exists' {
  if (findDest(svc, spec.addr, spec.port) !== undefined) return 'exists';
  const dest: Destination = {
    addr: spec.addr,
    port: spec.port,
    weight: spec.weight,
    // __ip_vs_update_dest(): last_weight keeps the latest weight set on add or when non-zero.
    lastWeight: spec.weight,
    fwd: spec.fwd,
    activeConns: 0,
    inactConns: 0,
    persistConns: 0,
    stats: emptyStats(),
    available: true,
  };
  svc.destinations.push(dest);
  schedulerDestChanged(svc);
  return dest;
}

/** ip_vs_edit_dest(): weight (and forwarding method) change in place. */
export function editDest(svc: VirtualService, dest: Destination, weight: number): void {
  dest.weight = weight;
  if (weight !== 0) dest.lastWeight = weight;
  schedulerDestChanged(svc);
}

/** ip_vs_del_dest(): unlinked from the service; connections keep pointing at it, unavailable. */
export function deleteDest(svc: VirtualService, dest: Destination): void {
  const index = svc.destinations.indexOf(dest);
  if (index < 0) return;
  svc.destinations.splice(index, 1);
  dest.available = false;
  schedulerDestChanged(svc, { dest, index });
}

/** ip_vs_flush(): every service goes (`ipvsadm -C`, kube-proxy's CleanupLeftovers). */
export function flushServices(ipvs: IpvsState): void {
  for (const s of ipvs.services) for (const d of s.destinations) d.available = false;
  ipvs.services = [];
  ipvs.byKey.clear();
}

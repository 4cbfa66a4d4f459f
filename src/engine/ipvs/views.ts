/**
 * What ipvsadm 1.31 prints (ipvsadm.c list_all/list_service/print_title/print_service_entry,
 * list_conn/print_conn, print_largenum, list_timeout) and /proc/net/ip_vs_conn
 * (ip_vs_conn.c ip_vs_conn_seq_show). Sorting follows libipvs ipvs_cmp_services /
 * ipvs_cmp_dests, including their int-subtraction quirk, under glibc's merge-sort qsort.
 */
import { ipToInt } from '../model/ip';
import { expireConns, secondsLeft } from './conn';
import { readRates } from './estimator';
import {
  IPVS_PROTOCOL_NUMBERS,
  SVC_F_PERSISTENT,
  SVC_F_SCHED1,
  SVC_F_SCHED2,
  SVC_F_SCHED3,
  type Destination,
  type IpvsState,
  type IpvsStats,
  type VirtualService,
} from './types';

export type ListFormat = 'plain' | 'stats' | 'rate';

export interface ListOptions {
  readonly format: ListFormat;
  readonly exact?: boolean;
  /** Without -n: a port's service name (getservbyport), undefined to print the number. */
  readonly portName?: (port: number, protocol: string) => string | undefined;
}

/** addrport_to_anyname(): `addr:port`, the port by name unless numeric. */
function addrPort(
  addr: string,
  port: number,
  protocol: string,
  opts: Pick<ListOptions, 'portName'>,
): string {
  return `${addr}:${opts.portName?.(port, protocol.toLowerCase()) ?? port}`;
}

/** (int)(a - b) of two u32 values, as the C comparators compute it. */
const intDiff = (a: number, b: number): number => ((a >>> 0) - (b >>> 0)) | 0;

/** glibc msort_with_tmp(): top-down merge sort, the left run wins ties (`cmp <= 0`). */
export function glibcMergeSort<T>(items: readonly T[], cmp: (a: T, b: T) => number): T[] {
  if (items.length <= 1) return [...items];
  const n1 = items.length >> 1;
  const a = glibcMergeSort(items.slice(0, n1), cmp);
  const b = glibcMergeSort(items.slice(n1), cmp);
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(cmp(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** ipvs_cmp_services(): fwmark, af, protocol, address, port (all int differences). */
export function cmpServices(s1: VirtualService, s2: VirtualService): number {
  const p = IPVS_PROTOCOL_NUMBERS[s1.protocol] - IPVS_PROTOCOL_NUMBERS[s2.protocol];
  if (p !== 0) return p;
  const r = intDiff(ipToInt(s1.addr), ipToInt(s2.addr));
  return r !== 0 ? r : s1.port - s2.port;
}

/** ipvs_cmp_dests(): address, then port. */
export function cmpDests(d1: Destination, d2: Destination): number {
  const r = intDiff(ipToInt(d1.addr), ipToInt(d2.addr));
  return r !== 0 ? r : d1.port - d2.port;
}

/** IP_VS_CONN_TAB_BITS default 12: `size=4096` in the header. */
export const CONN_TAB_SIZE = 4096;

const pad = (s: string, n: number): string => s.padEnd(n);
const lpad = (s: string, n: number): string => s.padStart(n);

/** print_largenum(). */
function largeNum(i: number, exact: boolean): string {
  if (exact) {
    const s = String(i);
    return lpad(s, s.length <= 8 ? 9 : s.length + 1);
  }
  if (i < 1e8) return lpad(String(i), 9);
  if (i < 1e9) return `${lpad(String(Math.floor(i / 1e3)), 8)}K`;
  if (i < 1e11) return `${lpad(String(Math.floor(i / 1e6)), 8)}M`;
  if (i < 1e14) return `${lpad(String(Math.floor(i / 1e9)), 8)}G`;
  return `${lpad(String(Math.floor(i / 1e12)), 8)}T`;
}

function title(format: ListFormat): string {
  if (format === 'stats')
    return `${pad('Prot LocalAddress:Port', 33)} ${lpad('Conns', 8)} ${lpad('InPkts', 8)} ${lpad('OutPkts', 8)} ${lpad('InBytes', 8)} ${lpad('OutBytes', 8)}\n  -> RemoteAddress:Port\n`;
  if (format === 'rate')
    return `${pad('Prot LocalAddress:Port', 33)} ${lpad('CPS', 8)} ${lpad('InPPS', 8)} ${lpad('OutPPS', 8)} ${lpad('InBPS', 8)} ${lpad('OutBPS', 8)}\n  -> RemoteAddress:Port\n`;
  return 'Prot LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n';
}

/** print_sched_flags(): named flags for sh and mh, flag-N for the others. */
function schedFlags(svc: VirtualService): string {
  const f: string[] = [];
  if (svc.scheduler === 'sh' || svc.scheduler === 'mh') {
    if (svc.flags & SVC_F_SCHED1) f.push(`${svc.scheduler}-fallback`);
    if (svc.flags & SVC_F_SCHED2) f.push(`${svc.scheduler}-port`);
  } else {
    if (svc.flags & SVC_F_SCHED1) f.push('flag-1');
    if (svc.flags & SVC_F_SCHED2) f.push('flag-2');
    if (svc.flags & SVC_F_SCHED3) f.push('flag-3');
  }
  return f.join(',');
}

function statsCols(s: IpvsStats, exact: boolean): string {
  return [s.conns, s.inpkts, s.outpkts, s.inbytes, s.outbytes]
    .map((n) => largeNum(n, exact))
    .join('');
}

function serviceEntry(svc: VirtualService, opts: ListOptions, now: number): string {
  // "%-4s %s", cut at 33 characters for IPv4.
  const name = `${pad(svc.protocol, 4)} ${addrPort(svc.addr, svc.port, svc.protocol, opts)}`.slice(
    0,
    33,
  );
  const exact = opts.exact ?? false;
  let out: string;
  if (opts.format === 'stats') out = pad(name, 33) + statsCols(svc.stats, exact);
  else if (opts.format === 'rate')
    out = pad(name, 33) + statsCols(readRates(svc.stats, now), exact);
  else {
    out = `${name} ${svc.scheduler}`;
    if (svc.flags & (SVC_F_SCHED1 | SVC_F_SCHED2 | SVC_F_SCHED3)) out += ` (${schedFlags(svc)})`;
    if (svc.flags & SVC_F_PERSISTENT) {
      out += ` persistent ${svc.timeout}`;
      if (svc.netmask !== '255.255.255.255') out += ` mask ${svc.netmask}`;
    }
  }
  out += '\n';
  for (const d of glibcMergeSort(svc.destinations, cmpDests)) {
    const dname = addrPort(d.addr, d.port, svc.protocol, opts).slice(0, 28);
    if (opts.format === 'stats') out += `  -> ${pad(dname, 28)}${statsCols(d.stats, exact)}\n`;
    else if (opts.format === 'rate') {
      // print_service_entry(): "%8u %8u %8u" for the real server's cps and pps, then bps.
      const r = readRates(d.stats, now);
      out += `  -> ${pad(dname, 28)} ${lpad(String(r.conns), 8)} ${lpad(String(r.inpkts), 8)} ${lpad(String(r.outpkts), 8)}${largeNum(r.inbytes, exact)}${largeNum(r.outbytes, exact)}\n`;
    } else
      out += `  -> ${pad(dname, 28)} ${pad(d.fwd, 7)} ${pad(String(d.weight), 6)} ${pad(String(d.activeConns), 10)} ${pad(String(d.inactConns), 10)}\n`;
  }
  return out;
}

/** `ipvsadm -Ln [--stats|--rate]`: the version header, the title, every service sorted. */
export function renderIpvsList(ipvs: IpvsState, opts: ListOptions, now: number): string {
  expireConns(ipvs, now);
  let out = `IP Virtual Server version 1.2.1 (size=${CONN_TAB_SIZE})\n${title(opts.format)}`;
  for (const svc of glibcMergeSort(ipvs.services, cmpServices)) out += serviceEntry(svc, opts, now);
  return out;
}

/** `ipvsadm -Ln -t VIP:PORT`: list_service() prints no version header. */
export function renderIpvsService(
  svc: VirtualService,
  opts: ListOptions,
  ipvs: IpvsState,
  now: number,
): string {
  expireConns(ipvs, now);
  return title(opts.format) + serviceEntry(svc, opts, now);
}

const hex = (n: number, width: number): string =>
  (n >>> 0).toString(16).toUpperCase().padStart(width, '0');

/** /proc/net/ip_vs_conn (ip_vs_conn_seq_show, IPv4 rows without a persistence engine). */
export function procIpVsConn(ipvs: IpvsState, now: number): string {
  expireConns(ipvs, now);
  let out = 'Pro FromIP   FPrt ToIP     TPrt DestIP   DPrt State       Expires PEName PEData\n';
  for (const c of ipvs.conns) {
    out += `${pad(c.protocol, 3)} ${hex(ipToInt(c.caddr), 8)} ${hex(c.cport, 4)} ${hex(ipToInt(c.vaddr), 8)} ${hex(c.vport, 4)} ${hex(ipToInt(c.daddr), 8)} ${hex(c.dport, 4)} ${pad(c.state, 11)} ${lpad(String(secondsLeft(c, now)), 7)}\n`;
  }
  return out;
}

/** `ipvsadm -Lnc`: list_conn() over /proc/net/ip_vs_conn, newest entries as the kernel lists them. */
export function renderIpvsConns(
  ipvs: IpvsState,
  now: number,
  opts: Pick<ListOptions, 'portName'> = {},
): string {
  expireConns(ipvs, now);
  let out = `IPVS connection entries\npro expire ${pad('state', 11)} ${pad('source', 18)} ${pad('virtual', 18)} destination\n`;
  for (const c of ipvs.conns) {
    const left = secondsLeft(c, now);
    const expire = `${String(Math.floor(left / 60)).padStart(2, '0')}:${String(left % 60).padStart(2, '0')}`;
    out += `${pad(c.protocol, 3)} ${pad(expire, 6)} ${pad(c.state, 11)} ${pad(addrPort(c.caddr, c.cport, c.protocol, opts), 18)} ${pad(addrPort(c.vaddr, c.vport, c.protocol, opts), 18)} ${addrPort(c.daddr, c.dport, c.protocol, opts)}\n`;
  }
  return out;
}

/** `ipvsadm -L --timeout`. */
export function renderIpvsTimeout(ipvs: IpvsState): string {
  const t = ipvs.timeouts;
  return `Timeout (tcp tcpfin udp): ${t.tcp} ${t.tcpfin} ${t.udp}\n`;
}

/**
 * CoreDNS as kubeadm deploys it (Corefile: `kubernetes cluster.local in-addr.arpa ip6.arpa
 * { pods insecure; fallthrough in-addr.arpa ip6.arpa; ttl 30 }`, `forward . /etc/resolv.conf`,
 * `loadbalance`), answering from the Cluster as it is at query time:
 *
 * - `SVC.NS.svc.cluster.local` A: the ClusterIP; headless (clusterIP None): every ready endpoint
 *   address (deduplicated, shuffled by `loadbalance`), NXDOMAIN when there is none; ExternalName:
 *   a CNAME to spec.externalName (plugin/backend_lookup.go A()).
 * - `ENDPOINT.SVC.NS.svc.cluster.local` (headless, endpoint named by its dashed IP) and
 *   `A-B-C-D.NS.pod.cluster.local` (`pods insecure`: any dashed IP in an existing namespace).
 * - A name that exists with no record of the type (AAAA in this IPv4 cluster, `NS.svc…`):
 *   NOERROR with the zone's SOA in AUTHORITY (NODATA); an unknown name: NXDOMAIN + SOA.
 *   Answers are authoritative (aa) without recursion available (no ra): the kubernetes plugin
 *   replies itself, which is why dig warns `recursion requested but not available`.
 * - SRV (kubernetes-records.ts): `[_PORT._PROTO.]SVC.NS.svc.cluster.local` gives one record per
 *   matching port (`0 WEIGHT PORT SVC.NS.svc.cluster.local.`), per endpoint and port for a
 *   headless Service (target `DASHED-IP.SVC.NS.svc.cluster.local.`), with the targets' A records
 *   in ADDITIONAL; a pod name gets port 0; an ExternalName has none (NODATA).
 * - PTR for a Service's ClusterIP.
 * - Everything else goes to `forward`. The lab has no internet: its upstream knows no name and
 *   answers NXDOMAIN with ra set and no SOA (a real upstream adds the root zone's SOA); so an
 *   ExternalName's CNAME comes without the target's addresses (CoreDNS appends whatever the
 *   upstream returns for the target, here nothing).
 *
 * The reply echoes the query's OPT record with its COOKIE option as is (request.SizeAndDo keeps
 * supported options; CoreDNS has no server cookie, so dig prints `(echoed)`). The `cache 30`
 * plugin is not modelled: TTLs are always 30.
 */
import type { Cluster, Service } from '../../model/cluster';
import { ipIsValid } from '../../model/ip';
import type { Rng } from '../../model/runtime';
import type { DnsMessage, DnsQuestion, Rcode, ResourceRecord } from './message';
import { fqdn } from './message';
import type { ServiceRecord } from './kubernetes-records';
import {
  CLUSTER_DOMAIN,
  parseServiceRequest,
  serviceRecords,
  srvRecords,
} from './kubernetes-records';

export { CLUSTER_DOMAIN };
/** The kubernetes plugin's `ttl 30` (kubeadm's Corefile). */
export const COREDNS_TTL = 30;

const BUILTIN_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function namespaces(cluster: Cluster): Set<string> {
  const out = new Set(BUILTIN_NAMESPACES);
  for (const o of [...cluster.pods, ...cluster.services, ...cluster.deployments])
    out.add(o.meta.namespace);
  return out;
}

/** SOA serial: the kubernetes plugin's APIConn.Modified(), the Unix time of the last change. */
export function soaSerial(cluster: Cluster, epochSeconds: number): number {
  let last = 0;
  for (const o of [...cluster.services, ...cluster.endpointSlices])
    last = Math.max(last, o.meta.createdAt);
  return (epochSeconds + Math.floor(last)) >>> 0;
}

function soa(serial: number): ResourceRecord {
  return {
    name: `${CLUSTER_DOMAIN}.`,
    ttl: COREDNS_TTL,
    data: {
      type: 'SOA',
      mname: `ns.dns.${CLUSTER_DOMAIN}.`,
      rname: `hostmaster.${CLUSTER_DOMAIN}.`,
      serial,
      refresh: 7200,
      retry: 1800,
      expire: 86400,
      minimum: COREDNS_TTL,
    },
  };
}

/** Ready endpoint addresses of a Service, in EndpointSlice order, without duplicates. */
export function readyAddresses(cluster: Cluster, svc: Service): string[] {
  const out: string[] = [];
  for (const slice of cluster.endpointSlices) {
    if (slice.meta.namespace !== svc.meta.namespace || slice.serviceName !== svc.meta.name)
      continue;
    for (const ep of slice.endpoints)
      if (ep.conditions.ready) for (const a of ep.addresses) if (!out.includes(a)) out.push(a);
  }
  return out;
}

/** The loadbalance plugin's round-robin shuffle of A records (randomness from the lab's rng). */
function shuffle<T>(items: T[], rng: Rng): T[] {
  const out = [...items];
  for (let j = 0; j < out.length - 1; j++) {
    const p = j + (rng.nextU32() % (out.length - j));
    const a = out[j] as T;
    out[j] = out[p] as T;
    out[p] = a;
  }
  return out;
}

interface Lookup {
  readonly rcode: Rcode;
  readonly answer: ResourceRecord[];
  /** True: an authoritative answer from the kubernetes plugin; false: from the upstream. */
  readonly authoritative: boolean;
  readonly additional?: ResourceRecord[];
}

function found(answer: ResourceRecord[], additional: ResourceRecord[] = []): Lookup {
  return { rcode: 'NOERROR', answer, authoritative: true, additional };
}

const NXDOMAIN: Lookup = { rcode: 'NXDOMAIN', answer: [], authoritative: true };
const NODATA: Lookup = { rcode: 'NOERROR', answer: [], authoritative: true };
const UPSTREAM_NX: Lookup = { rcode: 'NXDOMAIN', answer: [], authoritative: false };

function a(name: string, address: string): ResourceRecord {
  return { name, ttl: COREDNS_TTL, data: { type: 'A', address } };
}

function serviceLookup(cluster: Cluster, q: DnsQuestion, labels: string[], rng: Rng): Lookup {
  const r = parseServiceRequest(labels.slice(0, -1)); // without the 'svc' label
  if (r === 'invalid') return NXDOMAIN;
  if (r.namespace === undefined) return NODATA;
  if (!namespaces(cluster).has(r.namespace)) return NXDOMAIN;
  if (r.service === undefined) return NODATA;
  const svc = cluster.services.find(
    (s) => s.meta.namespace === r.namespace && s.meta.name === r.service,
  );
  const records = svc === undefined ? undefined : serviceRecords(cluster, svc, r);
  if (records === undefined) return NXDOMAIN;
  if (q.type === 'SRV') return srvLookup(q.name, records, rng);
  const external = records.find((rec) => rec.externalName);
  if (external !== undefined) {
    const cname: ResourceRecord = {
      name: q.name,
      ttl: COREDNS_TTL,
      data: { type: 'CNAME', target: fqdn(external.host) },
    };
    return ['A', 'AAAA', 'CNAME', 'ANY'].includes(q.type) ? found([cname]) : NODATA;
  }
  // plugin.A(): one record per address.
  const addrs = [...new Set(records.map((rec) => rec.host))];
  if (q.type !== 'A' || addrs.length === 0) return NODATA;
  return found(shuffle(addrs, rng).map((ip) => a(q.name, ip)));
}

/** plugin.SRV(): the SRV records in the answer, their targets' addresses in ADDITIONAL. */
function srvLookup(name: string, records: readonly ServiceRecord[], rng: Rng): Lookup {
  const { srv, addresses } = srvRecords(records);
  if (srv.length === 0) return NODATA;
  return found(
    srv.map((data) => ({ name, ttl: COREDNS_TTL, data: { type: 'SRV', ...data } })),
    // loadbalance shuffles ADDITIONAL too when it holds only A records.
    shuffle(addresses, rng).map((x) => a(x.name, x.address)),
  );
}

function podLookup(cluster: Cluster, q: DnsQuestion, labels: string[], rng: Rng): Lookup {
  // [a-b-c-d, namespace, 'pod']
  if (labels.length === 1) return NODATA;
  if (labels.length !== 3) return NXDOMAIN;
  const [dashed, ns] = labels as [string, string];
  if (!namespaces(cluster).has(ns)) return NXDOMAIN;
  const ip = dashed.replaceAll('-', '.');
  if (!ipIsValid(ip) || dashed.split('-').length !== 4) return NXDOMAIN;
  if (q.type === 'A') return found([a(q.name, ip)]);
  // findPods() gives the pod no port, so plugin.SRV() makes one with port 0.
  const target = `${dashed}.${ns}.pod.${CLUSTER_DOMAIN}.`;
  const records = [{ host: ip, port: 0, target, externalName: false }];
  return q.type === 'SRV' ? srvLookup(q.name, records, rng) : NODATA;
}

function reverseLookup(cluster: Cluster, q: DnsQuestion): Lookup {
  const octets = q.name
    .toLowerCase()
    .replace(/\.in-addr\.arpa\.$/, '')
    .split('.')
    .reverse();
  const ip = octets.join('.');
  const svc = cluster.services.find((s) => s.clusterIP === ip);
  if (q.type !== 'PTR' || svc === undefined) return UPSTREAM_NX; // fallthrough in-addr.arpa
  const target = `${svc.meta.name}.${svc.meta.namespace}.svc.${CLUSTER_DOMAIN}.`;
  return {
    rcode: 'NOERROR',
    answer: [{ name: q.name, ttl: COREDNS_TTL, data: { type: 'PTR', target } }],
    authoritative: true,
  };
}

function lookup(cluster: Cluster, q: DnsQuestion, rng: Rng): Lookup {
  const name = q.name.toLowerCase();
  const zone = `${CLUSTER_DOMAIN}.`;
  if (name.endsWith('.in-addr.arpa.')) return reverseLookup(cluster, q);
  if (name !== zone && !name.endsWith(`.${zone}`)) return UPSTREAM_NX;
  const labels = name
    .slice(0, name.length - zone.length)
    .split('.')
    .filter((l) => l !== '');
  if (labels.length === 0) return NODATA;
  const kind = labels.at(-1);
  if (kind === 'svc') return serviceLookup(cluster, q, labels, rng);
  if (kind === 'pod') return podLookup(cluster, q, labels, rng);
  return NXDOMAIN;
}

/** CoreDNS's reply to one query. */
export function corednsAnswer(
  cluster: Cluster,
  query: DnsMessage,
  opts: { readonly rng: Rng; readonly serial: number },
): DnsMessage {
  const q = query.question[0];
  const base = {
    id: query.id,
    qr: true,
    tc: false,
    rd: query.rd,
    ad: false,
    cd: query.cd,
    question: query.question,
    ...(query.edns === undefined ? {} : { edns: query.edns }),
  };
  if (q === undefined)
    return {
      ...base,
      aa: false,
      ra: false,
      rcode: 'FORMERR',
      answer: [],
      authority: [],
      additional: [],
    };
  const r = lookup(cluster, q, opts.rng);
  const authority = r.authoritative && r.answer.length === 0 ? [soa(opts.serial)] : [];
  return {
    ...base,
    aa: r.authoritative,
    ra: !r.authoritative,
    rcode: r.rcode,
    answer: r.answer,
    authority,
    additional: r.additional ?? [],
  };
}

/**
 * kube-proxy-lab/v1alpha1 Lab: what no Kubernetes object holds — the Service CIDR (the
 * kube-apiserver's --service-cluster-ip-range), the seed of the lab's random source, the age
 * of the cluster, per-node sysctls and the machines outside the cluster.
 */
import type { ExternalClient } from '../model/cluster';
import { cidrParse } from '../model/ip';
import { LAB_CLOCK_END_UNIX_SECONDS, LAB_EPOCH_SECONDS } from '../model/runtime';
import type { LabDraft } from './drafts';
import { parseGoDuration } from './duration';
import { listMaps } from './reader';
import type { MapReader } from './reader';
import { cidr, dns1123Label, ipAddress } from './validate-common';

export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
export const DEFAULT_CLUSTER_AGE_SECONDS = 10 * 86400;
/**
 * Sysctls every node starts with: br_netfilter hands bridged pod-to-pod traffic to iptables
 * (kubeadm's preflight requires it) and forwarding is on (pods' traffic is routed).
 */
export const DEFAULT_SYSCTLS: Readonly<Record<string, string>> = {
  'net.bridge.bridge-nf-call-iptables': '1',
  'net.ipv4.ip_forward': '1',
};

export function decodeLab(root: MapReader): LabDraft | undefined {
  const rep = root.rep;
  root.ignore('metadata');
  const cidrField = root.str('serviceCIDR');
  const serviceCIDR = cidrField?.value ?? DEFAULT_SERVICE_CIDR;
  if (cidrField) {
    const errs = cidr(serviceCIDR);
    for (const msg of errs)
      rep.field(cidrField.start, 'Lab.serviceCIDR', {
        type: 'invalid',
        value: serviceCIDR,
        detail: msg,
      });
    const parsed = cidrParse(serviceCIDR);
    // kube-apiserver refuses ranges wider than 20 host bits, and the lab needs room for .1.
    if (parsed && parsed.prefix < 12) {
      rep.field(cidrField.start, 'Lab.serviceCIDR', {
        type: 'invalid',
        value: serviceCIDR,
        detail:
          'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12',
      });
    } else if (parsed && parsed.prefix > 29) {
      rep.field(cidrField.start, 'Lab.serviceCIDR', {
        type: 'invalid',
        value: serviceCIDR,
        detail: 'the lab needs a Service CIDR of /29 or larger',
      });
    }
  }
  const seed = root.int('seed');
  if (seed && (seed.value < 0 || seed.value > 0xffffffff)) {
    rep.field(seed.start, 'Lab.seed', {
      type: 'invalid',
      value: seed.value,
      detail: 'must be between 0 and 4294967295, inclusive',
    });
  }
  const clusterAgeSeconds = decodeAge(root);

  const sysctls: Array<{
    node: string;
    loc: { doc: number; offset: number };
    values: Record<string, string>;
  }> = [];
  const nodes = root.map('nodes');
  for (const e of nodes?.node.entries ?? []) {
    nodes?.ignore(e.key);
    const n = nodes ? (nodes.map(e.key) ?? undefined) : undefined;
    const values: Record<string, string> = {};
    const s = n?.map('sysctls');
    for (const kv of s?.node.entries ?? []) {
      const v = kv.value;
      // Sysctl values are text (`sysctl -w k=1`); plain YAML numbers and booleans are accepted.
      if (v.kind === 'scalar' && v.value !== null)
        values[kv.key] = typeof v.value === 'boolean' ? (v.value ? '1' : '0') : String(v.value);
      else
        rep.field(v.start, `Lab.nodes[${e.key}].sysctls[${kv.key}]`, {
          type: 'invalid',
          value: kv.key,
          detail: 'must be a string or a number',
        });
      s?.ignore(kv.key);
    }
    s?.finish();
    n?.finish();
    sysctls.push({ node: e.key, loc: { doc: rep.doc, offset: e.keyStart }, values });
  }

  const clients: ExternalClient[] = [];
  for (const c of listMaps(rep, root.list('externalClients'))) {
    const name = c.str('name');
    const address = c.str('address');
    c.finish();
    if (!name?.value) rep.field(c.anchor, `${c.path}.name`, { type: 'required' });
    else {
      for (const msg of dns1123Label(name.value))
        rep.field(name.start, `${c.path}.name`, {
          type: 'invalid',
          value: name.value,
          detail: msg,
        });
      if (clients.some((x) => x.name === name.value))
        rep.field(name.start, `${c.path}.name`, { type: 'duplicate', value: name.value });
    }
    if (!address?.value) rep.field(c.anchor, `${c.path}.address`, { type: 'required' });
    else
      for (const msg of ipAddress(address.value))
        rep.field(address.start, `${c.path}.address`, {
          type: 'invalid',
          value: address.value,
          detail: msg,
        });
    if (name?.value && address?.value) clients.push({ name: name.value, address: address.value });
  }
  root.finish();
  if (rep.errors > 0) return undefined;
  return {
    settings: {
      serviceCIDR,
      externalClients: clients,
      seed: seed?.value ?? 1,
      clusterAgeSeconds,
    },
    sysctls,
    loc: { doc: rep.doc, offset: root.anchor },
  };
}

/**
 * The oldest cluster the lab's clock can hold: its clock starts at LAB_EPOCH_SECONDS plus the
 * age and must stay before its end (model/runtime.ts LAB_CLOCK_END_UNIX_SECONDS).
 */
const MAX_CLUSTER_AGE_SECONDS = LAB_CLOCK_END_UNIX_SECONDS - LAB_EPOCH_SECONDS;

function decodeAge(root: MapReader): number {
  const n = root.raw('clusterAge');
  if (!n) return DEFAULT_CLUSTER_AGE_SECONDS;
  let seconds: number | undefined;
  if (
    n.kind === 'scalar' &&
    typeof n.value === 'number' &&
    Number.isInteger(n.value) &&
    n.value >= 0
  )
    seconds = n.value;
  else if (n.kind === 'scalar' && typeof n.value === 'string') {
    const s = parseGoDuration(n.value, { days: true });
    if (s !== undefined && s >= 0) seconds = Math.round(s);
  }
  if (seconds !== undefined && seconds <= MAX_CLUSTER_AGE_SECONDS) return seconds;
  if (seconds !== undefined) {
    root.rep.field(n.start, 'Lab.clusterAge', {
      type: 'invalid',
      value: n.kind === 'scalar' ? n.value : n.kind,
      detail: `must be at most ${MAX_CLUSTER_AGE_SECONDS} seconds: the lab's clock starts at 2026-03-02T08:00:00Z plus the cluster's age, and ends at 9999-12-31T23:59:59Z`,
    });
    return DEFAULT_CLUSTER_AGE_SECONDS;
  }
  root.rep.field(n.start, 'Lab.clusterAge', {
    type: 'invalid',
    value: n.kind === 'scalar' ? n.value : n.kind,
    detail: 'must be a duration such as "10d", "36h" or "90m", or a number of seconds',
  });
  return DEFAULT_CLUSTER_AGE_SECONDS;
}

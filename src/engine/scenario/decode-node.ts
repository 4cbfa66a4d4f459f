/**
 * v1 Node. The lab reads spec.podCIDR (the block the node's bridge, cni0, hands pod addresses
 * from, as host-local IPAM does) and status.addresses (InternalIP is eth0's address in the lab
 * topology; the API server does not require it, the lab does).
 */
import type { NodeAddress } from '../model/cluster';
import { decodeMeta } from './decode-meta';
import type { NodeDraft } from './drafts';
import { listMaps } from './reader';
import type { MapReader } from './reader';
import { cidr, dns1123Subdomain, ipAddress } from './validate-common';
import { cidrParse } from '../model/ip';

export function decodeNode(root: MapReader): NodeDraft | undefined {
  const rep = root.rep;
  const meta = decodeMeta(root, { namespaced: false, nameRule: dns1123Subdomain });
  const spec = root.map('spec');
  let podCIDR = spec?.str('podCIDR');
  const podCIDRs = spec?.strList('podCIDRs');
  if (!podCIDR && podCIDRs?.[0]) podCIDR = podCIDRs[0];
  spec?.ignore('providerID', 'unschedulable', 'taints', 'configSource', 'externalID');
  spec?.finish();
  if (podCIDR) {
    for (const msg of cidr(podCIDR.value)) {
      rep.field(podCIDR.start, 'spec.podCIDRs[0]', {
        type: 'invalid',
        value: podCIDR.value,
        detail: msg,
      });
    }
    const parsed = cidrParse(podCIDR.value);
    if (parsed && parsed.prefix > 30) {
      rep.field(podCIDR.start, 'spec.podCIDRs[0]', {
        type: 'invalid',
        value: podCIDR.value,
        detail: 'the lab needs a pod CIDR of /30 or larger (the bridge takes the first address)',
      });
    }
  } else {
    rep.warn(
      spec?.anchor ?? root.anchor,
      `Node ${JSON.stringify(meta.name)} has no spec.podCIDR: only hostNetwork pods can run on it`,
    );
  }

  const status = root.map('status');
  const addresses: NodeAddress[] = [];
  for (const a of listMaps(rep, status?.list('addresses'))) {
    const type = a.str('type');
    const address = a.str('address');
    a.finish();
    if (!type || !address) continue;
    if (type.value === 'InternalIP' || type.value === 'ExternalIP') {
      const errs = ipAddress(address.value);
      for (const msg of errs) {
        rep.field(address.start, `${a.path}.address`, {
          type: 'invalid',
          value: address.value,
          detail: msg,
        });
      }
      if (errs.length === 0) addresses.push({ type: type.value, address: address.value });
    } else if (type.value === 'Hostname') {
      addresses.push({ type: 'Hostname', address: address.value });
    }
    // InternalDNS / ExternalDNS: real, but nothing in the lab reads them.
  }
  status?.ignore(
    'capacity',
    'allocatable',
    'conditions',
    'nodeInfo',
    'images',
    'daemonEndpoints',
    'phase',
    'volumesInUse',
    'volumesAttached',
    'config',
    'runtimeHandlers',
    'features',
  );
  status?.finish();

  const internalIP = addresses.find((a) => a.type === 'InternalIP')?.address;
  const externalIP = addresses.find((a) => a.type === 'ExternalIP')?.address;
  if (!internalIP && rep.errors === 0) {
    rep.field(status?.anchor ?? root.anchor, 'status.addresses', {
      type: 'required',
      detail: 'the lab needs an InternalIP address for every Node',
    });
  }
  root.finish();
  if (rep.errors > 0 || !internalIP) return undefined;
  return {
    meta,
    podCIDR: podCIDR?.value ?? '',
    podCIDRLoc: { doc: rep.doc, offset: podCIDR?.start ?? root.anchor },
    addresses,
    internalIP,
    ...(externalIP ? { externalIP } : {}),
  };
}

/**
 * Component configs: kubeproxy.config.k8s.io/v1alpha1 KubeProxyConfiguration (defaults from
 * pkg/proxy/apis/config/v1alpha1/defaults.go, checks and messages from
 * pkg/proxy/apis/config/validation/validation.go; field paths are the internal type's, e.g.
 * `KubeProxyConfiguration.Mode.ProxyMode`) and kubelet.config.k8s.io/v1beta1
 * KubeletConfiguration (only hairpinMode matters to Service networking).
 */
import type { DetectLocalMode, HairpinMode, KubeProxyConfig, ProxyMode } from '../model/cluster';
import { cidrParse } from '../model/ip';
import type { KubeletDraft, KubeProxyDraft } from './drafts';
import { goDurationString, parseGoDuration } from './duration';
import type { Field, MapReader } from './reader';

const KPC = 'KubeProxyConfiguration';
const IPVS_SCHEDULERS = ['dh', 'lblc', 'lblcr', 'lc', 'mh', 'nq', 'rr', 'sed', 'sh', 'wlc', 'wrr'];

export const DEFAULT_KUBE_PROXY: KubeProxyConfig = {
  mode: 'iptables',
  clusterCIDR: '',
  detectLocalMode: 'ClusterCIDR',
  bridgeInterface: '',
  interfaceNamePrefix: '',
  masqueradeAll: false,
  masqueradeBit: 14,
  localhostNodePorts: true,
  nodePortAddresses: [],
  ipvsScheduler: 'rr',
  ipvsStrictARP: false,
  ipvsTcpTimeout: 0,
  ipvsTcpFinTimeout: 0,
  ipvsUdpTimeout: 0,
  syncPeriodSeconds: 30,
  minSyncPeriodSeconds: 1,
};

export function decodeKubeProxy(root: MapReader): KubeProxyDraft | undefined {
  const rep = root.rep;
  const duration = (r: MapReader | undefined, key: string): { seconds?: number; at: number } => {
    const f = r?.str(key);
    if (!f) return { at: r?.anchor ?? root.anchor };
    const seconds = parseGoDuration(f.value);
    if (seconds === undefined) {
      rep.field(f.start, r ? r.at(key) : key, {
        type: 'invalid',
        value: f.value,
        detail: `time: invalid duration ${JSON.stringify(f.value)}`,
      });
      return { at: f.start };
    }
    return { seconds, at: f.start };
  };

  const modeField = root.str('mode');
  const modeText = modeField?.value ?? '';
  const modes = ['iptables', 'ipvs', 'nftables'];
  if (modeText !== '' && !modes.includes(modeText)) {
    rep.field(modeField?.start ?? root.anchor, `${KPC}.Mode.ProxyMode`, {
      type: 'invalid',
      value: modeText,
      detail:
        'must be iptables, ipvs, nftables or blank (blank means the best-available proxy [currently iptables])',
    });
  }
  // Blank means "the best available proxy", which is iptables on Linux.
  const mode = (modeText || 'iptables') as ProxyMode;

  const iptables = root.map('iptables');
  const ipvs = root.map('ipvs');
  const nftables = root.map('nftables');
  const section = mode === 'ipvs' ? ipvs : mode === 'nftables' ? nftables : iptables;
  const sectionName =
    mode === 'nftables' ? 'KubeProxyNFTablesConfiguration' : 'KubeProxyIPTablesConfiguration';
  const masqSection = mode === 'nftables' ? nftables : iptables;
  const masqueradeAll = masqSection?.bool('masqueradeAll')?.value ?? false;
  const bit = masqSection?.int('masqueradeBit');
  if (bit && (bit.value < 0 || bit.value > 31)) {
    rep.field(bit.start, `${KPC}.${sectionName}.MasqueradeBit`, {
      type: 'invalid',
      value: bit.value,
      detail: 'must be within the range [0, 31]',
    });
  }
  const localhostNodePorts = iptables?.bool('localhostNodePorts')?.value ?? true;
  // v1alpha1 keeps a sync period per backend; the internal config takes the active mode's.
  const sync = duration(section, 'syncPeriod');
  const minSync = duration(section, 'minSyncPeriod');
  const syncPeriod = sync.seconds ?? 30;
  const minSyncPeriod = minSync.seconds ?? (mode === 'ipvs' ? 0 : 1);
  if (syncPeriod <= 0) {
    rep.field(sync.at, `${KPC}.SyncPeriod`, {
      type: 'invalid',
      value: goDurationString(syncPeriod),
      detail: 'must be greater than 0',
    });
  }
  if (minSyncPeriod < 0) {
    rep.field(minSync.at, `${KPC}.MinSyncPeriod`, {
      type: 'invalid',
      value: goDurationString(minSyncPeriod),
      detail: 'must be greater than or equal to 0',
    });
  }
  if (minSyncPeriod > syncPeriod && syncPeriod > 0) {
    rep.field(sync.at, `${KPC}.SyncPeriod`, {
      type: 'invalid',
      value: goDurationString(minSyncPeriod),
      detail: `must be greater than or equal to ${KPC}.MinSyncPeriod`,
    });
  }
  const scheduler = ipvs?.str('scheduler');
  if (scheduler?.value && !IPVS_SCHEDULERS.includes(scheduler.value)) {
    rep.field(scheduler.start, `${KPC}.KubeProxyIPVSConfiguration.Scheduler`, {
      type: 'notSupported',
      value: scheduler.value,
      supported: IPVS_SCHEDULERS,
    });
  }
  const ipvsTimeouts = (
    [
      ['tcpTimeout', 'TCPTimeout'],
      ['tcpFinTimeout', 'TCPFinTimeout'],
      ['udpTimeout', 'UDPTimeout'],
    ] as const
  ).map(([key, internal]) => {
    const d = duration(ipvs, key);
    const s = d.seconds ?? 0;
    if (s < 0) {
      rep.field(d.at, `${KPC}.KubeProxyIPVSConfiguration.${internal}`, {
        type: 'invalid',
        value: goDurationString(s),
        detail: 'must be greater than or equal to 0',
      });
    }
    return s;
  });
  const strictARP = ipvs?.bool('strictARP')?.value ?? false;

  const clusterCIDR = decodeClusterCIDR(root);
  const detect = decodeDetectLocal(root, clusterCIDR);
  const nodePortAddresses = decodeNodePortAddresses(root);

  iptables?.ignore('syncPeriod', 'minSyncPeriod');
  nftables?.ignore('syncPeriod', 'minSyncPeriod');
  ipvs?.ignore('excludeCIDRs', 'syncPeriod', 'minSyncPeriod');
  for (const r of [iptables, ipvs, nftables]) r?.finish();
  root.ignore(
    'bindAddress',
    'healthzBindAddress',
    'metricsBindAddress',
    'bindAddressHardFail',
    'enableProfiling',
    'showHiddenMetricsForVersion',
    'winkernel',
    'oomScoreAdj',
    'conntrack',
    'configSyncPeriod',
    'portRange',
    'featureGates',
    'clientConnection',
    'hostnameOverride',
    'logging',
    'windowsRunAsService',
    'linux',
  );
  root.finish();
  if (rep.errors > 0) return undefined;
  return {
    loc: { doc: rep.doc, offset: root.anchor },
    config: {
      mode,
      clusterCIDR: clusterCIDR?.value ?? '',
      detectLocalMode: detect.mode,
      bridgeInterface: detect.bridgeInterface,
      interfaceNamePrefix: detect.interfaceNamePrefix,
      masqueradeAll,
      masqueradeBit: bit?.value ?? 14,
      localhostNodePorts,
      nodePortAddresses,
      ipvsScheduler: scheduler?.value || 'rr',
      ipvsStrictARP: strictARP,
      ipvsTcpTimeout: ipvsTimeouts[0] ?? 0,
      ipvsTcpFinTimeout: ipvsTimeouts[1] ?? 0,
      ipvsUdpTimeout: ipvsTimeouts[2] ?? 0,
      syncPeriodSeconds: syncPeriod,
      minSyncPeriodSeconds: minSyncPeriod,
    },
  };
}

function decodeClusterCIDR(root: MapReader): Field<string> | undefined {
  const f = root.str('clusterCIDR');
  if (!f || f.value === '') return undefined;
  // kube-proxy parses with ParseCIDRSloppy: host bits are allowed (10.244.1.0/16 works).
  // v1alpha1 allows a dual-stack "v4,v6" pair; the lab is IPv4 single-stack.
  const parts = f.value.split(',');
  parts.forEach((p, i) => {
    const ok = cidrParse(p.trim(), { allowHostBits: true });
    if (ok) return;
    const detail = p.includes(':')
      ? 'the lab models an IPv4 single-stack cluster: IPv6 CIDRs are not supported'
      : 'must be a valid CIDR block (e.g. 10.100.0.0/16 or fde4:8dba:82e1::/48)';
    root.rep.field(f.start, `${KPC}.DetectLocalConfiguration.ClusterCIDRs[${i}]`, {
      type: 'invalid',
      value: p,
      detail,
    });
  });
  return f;
}

function decodeDetectLocal(
  root: MapReader,
  clusterCIDR: Field<string> | undefined,
): { mode: DetectLocalMode; bridgeInterface: string; interfaceNamePrefix: string } {
  const rep = root.rep;
  const modes = ['ClusterCIDR', 'NodeCIDR', 'BridgeInterface', 'InterfaceNamePrefix', ''];
  const modeField = root.str('detectLocalMode');
  const text = modeField?.value ?? '';
  if (!modes.includes(text)) {
    rep.field(modeField?.start ?? root.anchor, `${KPC}.DetectLocalMode`, {
      type: 'notSupported',
      value: text,
      supported: modes,
    });
  }
  const mode = (text || 'ClusterCIDR') as DetectLocalMode;
  const detect = root.map('detectLocal');
  const bridge = detect?.str('bridgeInterface');
  const prefix = detect?.str('interfaceNamePrefix');
  detect?.ignore('clusterCIDRs');
  detect?.finish();
  if (mode === 'BridgeInterface' && !bridge?.value) {
    rep.field(
      bridge?.start ?? detect?.anchor ?? root.anchor,
      `${KPC}.DetectLocalConfiguration.InterfaceName`,
      { type: 'invalid', value: '', detail: 'must not be empty' },
    );
  }
  if (mode === 'InterfaceNamePrefix' && !prefix?.value) {
    rep.field(
      prefix?.start ?? detect?.anchor ?? root.anchor,
      `${KPC}.DetectLocalConfiguration.InterfacePrefix`,
      { type: 'invalid', value: '', detail: 'must not be empty' },
    );
  }
  if (mode === 'ClusterCIDR' && !clusterCIDR) {
    // kube-proxy starts anyway and treats no traffic as local (NoOpLocalDetector).
    rep.warn(
      modeField?.start ?? root.anchor,
      'Detect-local-mode set to ClusterCIDR, but no cluster CIDR specified for primary IP family',
    );
  }
  return { mode, bridgeInterface: bridge?.value ?? '', interfaceNamePrefix: prefix?.value ?? '' };
}

function decodeNodePortAddresses(root: MapReader): string[] {
  const list = root.strList('nodePortAddresses') ?? [];
  list.forEach((f, i) => {
    if (f.value === 'primary') {
      if (i !== 0 || list.length !== 1) {
        root.rep.field(f.start, `${KPC}.NodePortAddresses[${i}]`, {
          type: 'invalid',
          value: f.value,
          detail: "can't use both 'primary' and CIDRs",
        });
      }
    } else if (!cidrParse(f.value, { allowHostBits: true })) {
      root.rep.field(f.start, `${KPC}.NodePortAddresses[${i}]`, {
        type: 'invalid',
        value: f.value,
        detail: 'must be a valid CIDR',
      });
    }
  });
  return list.map((f) => f.value);
}

export function decodeKubelet(root: MapReader): KubeletDraft | undefined {
  const f = root.str('hairpinMode');
  // The v1beta1 default is promiscuous-bridge, but kubelet falls back to hairpin-veth unless the
  // (removed) kubenet plugin is in use, so hairpin-veth is what every node runs by default.
  const mode = f?.value ?? 'hairpin-veth';
  const known: readonly string[] = ['hairpin-veth', 'promiscuous-bridge', 'none'];
  if (!known.includes(mode)) {
    // kubelet refuses to start: effectiveHairpinMode returns `unknown value: "<mode>"`.
    root.rep.plain(
      f?.start ?? root.anchor,
      `Invalid hairpin mode: unknown value: ${JSON.stringify(mode)}`,
      'hairpinMode',
    );
    return undefined;
  }
  // A KubeletConfiguration has some hundred fields; the lab reads this one and does not warn
  // about the others.
  return { hairpinMode: mode as HairpinMode, loc: { doc: root.rep.doc, offset: root.anchor } };
}

/**
 * The `kube-system/kube-proxy` ConfigMap kubeadm creates (cmd/kubeadm/app/phases/addons/proxy):
 * `config.conf` holds the KubeProxyConfiguration kubeadm was given — *not* kube-proxy's defaulted
 * config, so unset fields show as "" / null / 0s (`mode: ""` means kube-proxy's default, iptables
 * on Linux) — and `kubeconfig.conf` the in-cluster kubeconfig. Both are inserted into a `|-`
 * template, so neither ends with a newline. The annotation kubeadm.kubernetes.io/component-config
 * .hash is ChecksumForConfigMap: sha256 over the data values in key order.
 *
 * The lab's KubeProxyConfig is already defaulted, so it cannot tell "set to the default" from
 * "unset": a field equal to kube-proxy's default is shown as kubeadm shows an unset one. `mode`
 * is shown as set whenever the scenario gave a KubeProxyConfiguration (kubeProxy.source).
 */
import type { Cluster, KubeProxyConfig } from '../../model/cluster';
import { sha256, utf8Encode } from '../../kube-proxy/hash';
import type { ApiContext } from './objects';
import { metadata, uidFor } from './objects';
import type { Json } from './yaml';
import { toYaml } from './yaml';

/** Go's time.Duration.String() for whole seconds: 0s, 30s, 1m0s, 1h0m0s. */
export function goDuration(seconds: number): string {
  const s = Math.trunc(seconds);
  if (s === 0) return '0s';
  const h = Math.trunc(s / 3600);
  const m = Math.trunc((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h${m}m${sec}s`;
  if (m > 0) return `${m}m${sec}s`;
  return `${sec}s`;
}

const DEFAULT_SYNC = 30;
const DEFAULT_MIN_SYNC = 1;

/** config.conf as kubeadm stores it. */
export function kubeadmProxyConfig(kp: KubeProxyConfig): string {
  const sync = kp.syncPeriodSeconds === DEFAULT_SYNC ? '0s' : goDuration(kp.syncPeriodSeconds);
  const minSync =
    kp.minSyncPeriodSeconds === DEFAULT_MIN_SYNC ? '0s' : goDuration(kp.minSyncPeriodSeconds);
  const masqBit: Json = kp.masqueradeBit === 14 ? null : kp.masqueradeBit;
  const active = (mode: KubeProxyConfig['mode']): boolean => kp.mode === mode;
  const config: Record<string, Json> = {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    bindAddress: '0.0.0.0',
    bindAddressHardFail: false,
    clientConnection: {
      acceptContentTypes: '',
      burst: 0,
      contentType: '',
      kubeconfig: '/var/lib/kube-proxy/kubeconfig.conf',
      qps: 0,
    },
    clusterCIDR: kp.clusterCIDR,
    configSyncPeriod: '0s',
    conntrack: {
      maxPerCore: null,
      min: null,
      tcpBeLiberal: false,
      tcpCloseWaitTimeout: null,
      tcpEstablishedTimeout: null,
      udpStreamTimeout: '0s',
      udpTimeout: '0s',
    },
    detectLocal: {
      bridgeInterface: kp.bridgeInterface,
      interfaceNamePrefix: kp.interfaceNamePrefix,
    },
    detectLocalMode: kp.detectLocalMode === 'ClusterCIDR' ? '' : kp.detectLocalMode,
    enableProfiling: false,
    healthzBindAddress: '',
    hostnameOverride: '',
    iptables: {
      localhostNodePorts: kp.localhostNodePorts ? null : false,
      masqueradeAll: !active('nftables') && kp.masqueradeAll,
      masqueradeBit: active('nftables') ? null : masqBit,
      minSyncPeriod: active('iptables') ? minSync : '0s',
      syncPeriod: active('iptables') ? sync : '0s',
    },
    ipvs: {
      excludeCIDRs: null,
      minSyncPeriod: active('ipvs') ? minSync : '0s',
      scheduler: kp.ipvsScheduler,
      strictARP: kp.ipvsStrictARP,
      syncPeriod: active('ipvs') ? sync : '0s',
      tcpFinTimeout: goDuration(kp.ipvsTcpFinTimeout),
      tcpTimeout: goDuration(kp.ipvsTcpTimeout),
      udpTimeout: goDuration(kp.ipvsUdpTimeout),
    },
    kind: 'KubeProxyConfiguration',
    logging: {
      flushFrequency: 0,
      options: { json: { infoBufferSize: '0' }, text: { infoBufferSize: '0' } },
      verbosity: 0,
    },
    metricsBindAddress: '',
    mode: kp.source === undefined ? '' : kp.mode,
    nftables: {
      masqueradeAll: active('nftables') && kp.masqueradeAll,
      masqueradeBit: active('nftables') ? masqBit : null,
      minSyncPeriod: active('nftables') ? minSync : '0s',
      syncPeriod: active('nftables') ? sync : '0s',
    },
    nodePortAddresses: kp.nodePortAddresses.length === 0 ? null : [...kp.nodePortAddresses],
    oomScoreAdj: null,
    portRange: '',
    showHiddenMetricsForVersion: '',
    winkernel: {
      enableDSR: false,
      forwardHealthCheckVip: false,
      networkName: '',
      rootHnsEndpointName: '',
      sourceVip: '',
    },
  };
  return toYaml(config).replace(/\n$/, '');
}

/** The API server endpoint kubeadm writes into kubeconfig.conf: the first control-plane node's. */
export function controlPlaneEndpoint(cluster: Cluster): string {
  const cp =
    cluster.nodes.find((n) => 'node-role.kubernetes.io/control-plane' in n.meta.labels) ??
    cluster.nodes[0];
  return `https://${cp?.internalIP ?? '127.0.0.1'}:6443`;
}

export function kubeadmProxyKubeconfig(cluster: Cluster): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
    '    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
    `    server: ${controlPlaneEndpoint(cluster)}`,
    '  name: default',
    'contexts:',
    '- context:',
    '    cluster: default',
    '    namespace: default',
    '    user: default',
    '  name: default',
    'current-context: default',
    'users:',
    '- name: default',
    '  user:',
    '    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token',
  ].join('\n');
}

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export function kubeProxyConfigMap(ctx: ApiContext): Record<string, Json> {
  const data = {
    'config.conf': kubeadmProxyConfig(ctx.cluster.kubeProxy),
    'kubeconfig.conf': kubeadmProxyKubeconfig(ctx.cluster),
  };
  const hash = `sha256:${hex(sha256(utf8Encode(data['config.conf'] + data['kubeconfig.conf'])))}`;
  const meta = {
    name: 'kube-proxy',
    namespace: 'kube-system',
    labels: { app: 'kube-proxy' },
    annotations: { 'kubeadm.kubernetes.io/component-config.hash': hash },
    uid: uidFor('ConfigMap/kube-system/kube-proxy'),
    createdAt: 0,
  };
  return { apiVersion: 'v1', data, kind: 'ConfigMap', metadata: metadata(ctx, meta) };
}

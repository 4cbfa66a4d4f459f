/**
 * The cluster as the engine sees it after a scenario is loaded: plain, JSON-safe data.
 * Defaults are already applied (as the API server applies them) and allocations are done
 * (ClusterIPs, NodePorts, pod IPs), so every consumer reads final values.
 */

export type Protocol = 'TCP' | 'UDP' | 'SCTP';

/** Where an object came from in the scenario text (1-based line and column), for error messages and editor markers. */
export interface SourceRef {
  /** Index of the YAML document in the file (0-based). */
  readonly doc: number;
  readonly line: number;
  readonly col: number;
}

export interface ObjectMeta {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** Deterministic uid (derived from kind/namespace/name), shown by `kubectl get -o yaml`. */
  readonly uid: string;
  /** Virtual-clock seconds at which the object was created (drives kubectl's AGE column). */
  readonly createdAt: number;
  /** Set when the object is terminating (metadata.deletionTimestamp). */
  readonly deletionTimestamp?: string;
  /** The grace period of that deletion, seconds (metadata.deletionGracePeriodSeconds). */
  readonly deletionGracePeriodSeconds?: number;
  readonly source?: SourceRef;
}

export interface NodeAddress {
  readonly type: 'InternalIP' | 'ExternalIP' | 'Hostname';
  readonly address: string;
}

export interface ClusterNode {
  readonly meta: ObjectMeta;
  readonly podCIDR: string;
  readonly addresses: readonly NodeAddress[];
  /** The first InternalIP (eth0's address in the lab topology). */
  readonly internalIP: string;
  readonly externalIP?: string;
}

export interface ContainerPort {
  readonly name?: string;
  readonly containerPort: number;
  readonly protocol: Protocol;
}

export interface Container {
  readonly name: string;
  readonly image: string;
  readonly ports: readonly ContainerPort[];
}

export interface Pod {
  readonly meta: ObjectMeta;
  readonly nodeName: string;
  readonly containers: readonly Container[];
  readonly podIP: string;
  /** Ready condition (status.conditions Ready != "False"). */
  readonly ready: boolean;
  /** metadata.deletionTimestamp is set. */
  readonly terminating: boolean;
  readonly hostNetwork: boolean;
  /** Name of the Deployment that produced this pod, when it came from one. */
  readonly ownerDeployment?: string;
}

export interface Deployment {
  readonly meta: ObjectMeta;
  readonly replicas: number;
  readonly selector: Readonly<Record<string, string>>;
  /** The pod-template-hash label value of the current ReplicaSet. */
  readonly templateHash: string;
  /** spec.template as the ReplicaSet controller stamps pods from it (absent: take a pod's). */
  readonly podTemplate?: PodTemplate;
  /** When the current ReplicaSet was created (absent: with the Deployment). */
  readonly replicaSetCreatedAt?: number;
  /** ReplicaSets of earlier templates, scaled to 0 by rollouts (newest first). */
  readonly oldReplicaSets?: readonly OldReplicaSet[];
  /**
   * The current ReplicaSet's deployment.kubernetes.io/revision (absent: one more than the
   * number of old ReplicaSets, which is what rollouts without a rollback give).
   */
  readonly revision?: number;
  /** Its deployment.kubernetes.io/revision-history: revisions it had before a rollback. */
  readonly revisionHistory?: readonly number[];
}

export interface OldReplicaSet {
  readonly templateHash: string;
  readonly createdAt: number;
  /** deployment.kubernetes.io/revision (absent: counted from the end of the list). */
  readonly revision?: number;
  readonly revisionHistory?: readonly number[];
  /** Its spec.template (without pod-template-hash), kept so a rollback can restore it. */
  readonly template?: PodTemplate;
  /**
   * The Deployment's annotations the controller copied onto it while it was current
   * (kubernetes.io/change-cause among them), without the ones it never copies.
   */
  readonly annotations?: Readonly<Record<string, string>>;
}

export interface PodTemplate {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly nodeName?: string;
  readonly hostNetwork: boolean;
  readonly containers: readonly Container[];
}

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
export type TrafficPolicy = 'Cluster' | 'Local';

export interface ServicePort {
  /** '' when the port is unnamed (allowed only for single-port services). */
  readonly name: string;
  readonly protocol: Protocol;
  readonly port: number;
  readonly targetPort: number | string;
  /** 0 when the port has no NodePort. */
  readonly nodePort: number;
}

export interface LoadBalancerIngress {
  readonly ip: string;
  readonly ipMode?: 'VIP' | 'Proxy';
}

export interface Service {
  readonly meta: ObjectMeta;
  readonly type: ServiceType;
  /** The allocated ClusterIP, 'None' for headless, '' for ExternalName. */
  readonly clusterIP: string;
  readonly ports: readonly ServicePort[];
  /** undefined = no selector (endpoints come from user-provided EndpointSlices). */
  readonly selector?: Readonly<Record<string, string>>;
  readonly externalIPs: readonly string[];
  readonly externalName?: string;
  readonly loadBalancerIngress: readonly LoadBalancerIngress[];
  readonly loadBalancerSourceRanges: readonly string[];
  readonly externalTrafficPolicy: TrafficPolicy;
  readonly internalTrafficPolicy: TrafficPolicy;
  readonly sessionAffinity: 'None' | 'ClientIP';
  /** sessionAffinityConfig.clientIP.timeoutSeconds (API default 10800). */
  readonly sessionAffinityTimeout: number;
  /** Allocated for type LoadBalancer with externalTrafficPolicy Local; 0 otherwise. */
  readonly healthCheckNodePort: number;
  /**
   * spec.publishNotReadyAddresses (set only when true): the endpoint controller marks every
   * endpoint ready. Kept so controllers can re-run from a Cluster (kubectl apply).
   */
  readonly publishNotReadyAddresses?: boolean;
}

export interface EndpointConditions {
  readonly ready: boolean;
  readonly serving: boolean;
  readonly terminating: boolean;
}

export interface Endpoint {
  readonly addresses: readonly string[];
  readonly conditions: EndpointConditions;
  readonly nodeName?: string;
  readonly zone?: string;
  readonly targetRef?: { readonly kind: string; readonly name: string; readonly namespace: string };
}

export interface EndpointPort {
  readonly name: string;
  readonly port: number;
  readonly protocol: Protocol;
}

export interface EndpointSlice {
  readonly meta: ObjectMeta;
  /** Label kubernetes.io/service-name. */
  readonly serviceName: string;
  readonly addressType: 'IPv4';
  readonly endpoints: readonly Endpoint[];
  readonly ports: readonly EndpointPort[];
  /** True when the endpoint controller derived it from pods (false: given in the scenario). */
  readonly managed: boolean;
}

export type ProxyMode = 'iptables' | 'ipvs' | 'nftables';
export type DetectLocalMode =
  'ClusterCIDR' | 'NodeCIDR' | 'BridgeInterface' | 'InterfaceNamePrefix';

export interface KubeProxyConfig {
  readonly mode: ProxyMode;
  /** '' when unset. */
  readonly clusterCIDR: string;
  readonly detectLocalMode: DetectLocalMode;
  readonly bridgeInterface: string;
  readonly interfaceNamePrefix: string;
  readonly masqueradeAll: boolean;
  readonly masqueradeBit: number;
  readonly localhostNodePorts: boolean;
  /** Empty = all addresses ("primary" and CIDR lists restrict). */
  readonly nodePortAddresses: readonly string[];
  readonly ipvsScheduler: string;
  readonly ipvsStrictARP: boolean;
  readonly ipvsTcpTimeout: number;
  readonly ipvsTcpFinTimeout: number;
  readonly ipvsUdpTimeout: number;
  readonly syncPeriodSeconds: number;
  readonly minSyncPeriodSeconds: number;
  readonly source?: SourceRef;
}

export type HairpinMode = 'hairpin-veth' | 'promiscuous-bridge' | 'none';

export interface KubeletConfig {
  readonly hairpinMode: HairpinMode;
  readonly source?: SourceRef;
}

export interface ExternalClient {
  readonly name: string;
  readonly address: string;
}

/** The lab-specific kind (kube-proxy-lab/v1alpha1 Lab): what no Kubernetes object holds. */
export interface LabSettings {
  readonly serviceCIDR: string;
  /** Per node: sysctl name → value (e.g. net.bridge.bridge-nf-call-iptables → "1"). */
  readonly sysctls: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly externalClients: readonly ExternalClient[];
  readonly seed: number;
  /** Lab clock at load (virtual seconds since the cluster was created). */
  readonly clusterAgeSeconds: number;
}

export interface Cluster {
  readonly nodes: readonly ClusterNode[];
  readonly pods: readonly Pod[];
  readonly deployments: readonly Deployment[];
  readonly services: readonly Service[];
  readonly endpointSlices: readonly EndpointSlice[];
  readonly kubeProxy: KubeProxyConfig;
  readonly kubelet: KubeletConfig;
  readonly lab: LabSettings;
}

/** `namespace/name`. */
export function namespacedName(meta: Pick<ObjectMeta, 'namespace' | 'name'>): string {
  return `${meta.namespace}/${meta.name}`;
}

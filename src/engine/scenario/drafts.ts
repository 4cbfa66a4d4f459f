/**
 * Objects after decoding, defaulting and validation, before allocation and the controllers:
 * what the API server has accepted but not yet allocated (ClusterIPs, NodePorts) and what the
 * scheduler, the kubelet/CNI and the controllers have not yet filled in (node, pod IP, pods of
 * a Deployment, EndpointSlices). `Loc`s let later stages place their errors.
 */
import type {
  Container,
  Deployment,
  EndpointSlice,
  HairpinMode,
  KubeProxyConfig,
  LabSettings,
  LoadBalancerIngress,
  NodeAddress,
  Protocol,
  ServiceType,
  SourceRef,
  TrafficPolicy,
} from '../model/cluster';
import type { Loc } from './report';

export interface MetaDraft {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly deletionTimestamp?: string;
  readonly deletionGracePeriodSeconds?: number;
  /** Where the object starts (its document root). */
  readonly loc: Loc;
  /** Where metadata.name is (else the object's start). */
  readonly nameLoc: Loc;
  /** The source position of an object re-built from a Cluster (its loc is NO_LOC). */
  readonly keepSource?: SourceRef;
}

export interface NodeDraft {
  readonly meta: MetaDraft;
  readonly podCIDR: string;
  readonly podCIDRLoc: Loc;
  readonly addresses: readonly NodeAddress[];
  readonly internalIP: string;
  readonly externalIP?: string;
}

/** The pod-level fields a Pod and a Deployment's template share. */
export interface PodSpecDraft {
  readonly nodeName?: string;
  readonly nodeNameLoc: Loc;
  readonly hostNetwork: boolean;
  readonly containers: readonly Container[];
}

export interface PodDraft {
  readonly meta: MetaDraft;
  readonly spec: PodSpecDraft;
  /** status.podIP as written (else allocated). */
  readonly podIP?: string;
  readonly podIPLoc: Loc;
  readonly ready: boolean;
  readonly terminating: boolean;
  readonly ownerDeployment?: string;
  /** Creation time when known (kept across re-applies). */
  readonly createdAt?: number;
}

export interface DeploymentDraft {
  readonly meta: MetaDraft;
  readonly replicas: number;
  readonly selector: Readonly<Record<string, string>>;
  readonly templateLabels: Readonly<Record<string, string>>;
  readonly templateAnnotations: Readonly<Record<string, string>>;
  readonly template: PodSpecDraft;
  readonly templateHash: string;
  /**
   * Pods already produced for this Deployment (re-apply of an unchanged cluster); when set,
   * the controller keeps them instead of producing new ones.
   */
  readonly existingPods?: readonly PodDraft[];
  readonly createdAt?: number;
  readonly replicaSetCreatedAt?: number;
  readonly oldReplicaSets?: Deployment['oldReplicaSets'];
  readonly revision?: number;
  readonly revisionHistory?: readonly number[];
}

export interface ServicePortDraft {
  readonly name: string;
  readonly protocol: Protocol;
  readonly port: number;
  readonly targetPort: number | string;
  /** Explicit spec.ports[i].nodePort (0 = allocate when the type needs one). */
  readonly nodePort: number;
  readonly nodePortLoc: Loc;
}

export interface ServiceDraft {
  readonly meta: MetaDraft;
  readonly type: ServiceType;
  /** Explicit spec.clusterIP ('None' = headless); undefined = allocate. */
  readonly clusterIP?: string;
  readonly clusterIPLoc: Loc;
  readonly ports: readonly ServicePortDraft[];
  readonly selector?: Readonly<Record<string, string>>;
  readonly externalIPs: readonly string[];
  readonly externalName?: string;
  readonly loadBalancerIngress: readonly LoadBalancerIngress[];
  readonly loadBalancerSourceRanges: readonly string[];
  readonly externalTrafficPolicy: TrafficPolicy;
  readonly internalTrafficPolicy: TrafficPolicy;
  readonly sessionAffinity: 'None' | 'ClientIP';
  readonly sessionAffinityTimeout: number;
  /** Explicit spec.healthCheckNodePort (0 = allocate when needed). */
  readonly healthCheckNodePort: number;
  readonly healthCheckNodePortLoc: Loc;
  /** spec.allocateLoadBalancerNodePorts (API default true). */
  readonly allocateLoadBalancerNodePorts: boolean;
  readonly publishNotReadyAddresses: boolean;
  readonly createdAt?: number;
}

export interface SliceDraft extends Omit<EndpointSlice, 'meta' | 'managed'> {
  readonly meta: MetaDraft;
  readonly createdAt?: number;
}

export interface KubeProxyDraft {
  readonly config: KubeProxyConfig;
  readonly loc: Loc;
}

export interface KubeletDraft {
  readonly hairpinMode: HairpinMode;
  readonly loc: Loc;
  readonly keepSource?: SourceRef;
}

export interface LabDraft {
  readonly settings: Omit<LabSettings, 'sysctls'>;
  /** Per node sysctl overrides as written, checked against the Nodes later. */
  readonly sysctls: ReadonlyArray<{ node: string; loc: Loc; values: Record<string, string> }>;
  readonly loc: Loc;
}

/** Everything a scenario (or a cluster plus applied manifests) declares, in document order. */
export interface Desired {
  nodes: NodeDraft[];
  pods: PodDraft[];
  deployments: DeploymentDraft[];
  services: ServiceDraft[];
  slices: SliceDraft[];
  kubeProxy?: KubeProxyDraft;
  kubelet?: KubeletDraft;
  lab?: LabDraft;
  /** Document order of pods and deployments (the order the controllers and the scheduler see them). */
  workloads: Array<{ kind: 'Pod' | 'Deployment'; key: string }>;
}

export function emptyDesired(): Desired {
  return { nodes: [], pods: [], deployments: [], services: [], slices: [], workloads: [] };
}

export function keyOf(meta: { namespace: string; name: string }): string {
  return `${meta.namespace}/${meta.name}`;
}

/**
 * Nodes as the API server returns them: the addresses, conditions and nodeInfo a kubelet on a
 * Debian 12 VM reports (capacity figures are those of a 2-CPU, 4 GiB VM; IDs are derived).
 */
import type { ClusterNode } from '../../model/cluster';
import { hashBytes } from '../../routing/topology';
import type { ApiContext } from './objects';
import { creationTimestamp, metadata, uidFor } from './objects';
import type { Json } from './yaml';

/** What `kubectl get nodes -o wide` shows for every lab node (a kubeadm cluster on Debian 12). */
export const LAB_NODE_INFO = {
  kubeletVersion: 'v1.32.4',
  osImage: 'Debian GNU/Linux 12 (bookworm)',
  kernelVersion: '6.1.0-37-amd64',
  containerRuntimeVersion: 'containerd://1.6.20',
  operatingSystem: 'linux',
  architecture: 'amd64',
} as const;

const hex = (seed: string, bytes: number): string =>
  hashBytes(seed, bytes)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');

export function nodeObject(ctx: ApiContext, n: ClusterNode): Record<string, Json> {
  const since = creationTimestamp(ctx, n.meta);
  const cond = (type: string, status: string, reason: string, message: string): Json => ({
    lastHeartbeatTime: since,
    lastTransitionTime: since,
    message,
    reason,
    status,
    type,
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: metadata(
      ctx,
      n.meta,
      {
        annotations: {
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        },
      },
      false,
    ),
    spec: n.podCIDR === '' ? {} : { podCIDR: n.podCIDR, podCIDRs: [n.podCIDR] },
    status: {
      addresses: n.addresses.map((a) => ({ address: a.address, type: a.type })),
      allocatable: {
        cpu: '2',
        'ephemeral-storage': '18566299208',
        memory: '3948920Ki',
        pods: '110',
      },
      capacity: { cpu: '2', 'ephemeral-storage': '20145724Ki', memory: '4051320Ki', pods: '110' },
      conditions: [
        cond(
          'MemoryPressure',
          'False',
          'KubeletHasSufficientMemory',
          'kubelet has sufficient memory available',
        ),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond(
          'PIDPressure',
          'False',
          'KubeletHasSufficientPID',
          'kubelet has sufficient PID available',
        ),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: LAB_NODE_INFO.architecture,
        bootID: uidFor(`boot:${n.meta.name}`),
        containerRuntimeVersion: LAB_NODE_INFO.containerRuntimeVersion,
        kernelVersion: LAB_NODE_INFO.kernelVersion,
        kubeProxyVersion: '', // DisableNodeKubeProxyVersion: the kubelet no longer reports it
        kubeletVersion: LAB_NODE_INFO.kubeletVersion,
        machineID: hex(`machine:${n.meta.name}`, 16),
        operatingSystem: LAB_NODE_INFO.operatingSystem,
        osImage: LAB_NODE_INFO.osImage,
        systemUUID: uidFor(`system:${n.meta.name}`),
      },
    },
  };
}

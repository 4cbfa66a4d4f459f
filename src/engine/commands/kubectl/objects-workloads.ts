/**
 * Pods, Deployments and Nodes as the API server returns them (v1.32), with the fields a kubeadm
 * cluster shows: the defaults the API server applies to a pod spec (dnsPolicy ClusterFirst,
 * the kube-api-access projected volume, the two NoExecute tolerations the DefaultTolerationSeconds
 * admission plugin adds, …) and the status the kubelet reports. Values the lab does not model
 * (container IDs, image digests) are derived deterministically from names.
 */
import type { Container, Deployment, Pod } from '../../model/cluster';
import { currentRevision, REVISION_ANNOTATION } from '../../model/deployment-revisions';
import { hashBytes } from '../../routing/topology';
import type { ApiContext } from './objects';
import { creationTimestamp, metadata, uidFor } from './objects';
import type { Json } from './yaml';

const hex = (seed: string, bytes: number): string =>
  hashBytes(seed, bytes)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
const suffix5 = (seed: string): string => {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789'; // k8s.io/apimachinery rand.String's alphabet
  return hashBytes(seed, 5)
    .map((b) => alphabet.charAt(b % alphabet.length))
    .join('');
};

/** Docker Hub short names get their canonical form in container statuses. */
function canonicalImage(image: string): string {
  const withTag = /:[^/]+$/.test(image) || image.includes('@') ? image : `${image}:latest`;
  const first = withTag.split('/')[0] ?? '';
  if (
    withTag.includes('/') &&
    (first.includes('.') || first.includes(':') || first === 'localhost')
  )
    return withTag;
  return withTag.includes('/') ? `docker.io/${withTag}` : `docker.io/library/${withTag}`;
}

function containerSpec(c: Container, volumeName: string): Record<string, Json> {
  const tag = /:([^/:]+)$/.exec(c.image)?.[1];
  const spec: Record<string, Json> = {
    image: c.image,
    // The API server defaults imagePullPolicy to Always for :latest or untagged images.
    imagePullPolicy: tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent',
    name: c.name,
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    volumeMounts: [
      {
        mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
        name: volumeName,
        readOnly: true,
      },
    ],
  };
  if (c.ports.length > 0) {
    spec.ports = c.ports.map((p) => ({
      containerPort: p.containerPort,
      protocol: p.protocol,
      ...(p.name ? { name: p.name } : {}),
    }));
  }
  return spec;
}

const toleration = (key: string): Json => ({
  effect: 'NoExecute',
  key,
  operator: 'Exists',
  tolerationSeconds: 300,
});

export function podObject(ctx: ApiContext, pod: Pod): Record<string, Json> {
  const node = ctx.cluster.nodes.find((n) => n.meta.name === pod.nodeName);
  const volumeName = `kube-api-access-${suffix5(`vol:${pod.meta.namespace}/${pod.meta.name}`)}`;
  const extra: Record<string, Json> = {};
  const deployment = ctx.cluster.deployments.find(
    (d) => d.meta.namespace === pod.meta.namespace && d.meta.name === pod.ownerDeployment,
  );
  if (deployment !== undefined) {
    const rs = `${deployment.meta.name}-${deployment.templateHash}`;
    extra.generateName = `${rs}-`;
    extra.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        blockOwnerDeletion: true,
        controller: true,
        kind: 'ReplicaSet',
        name: rs,
        uid: uidFor(`ReplicaSet/${pod.meta.namespace}/${rs}`),
      },
    ];
  }
  if (pod.terminating) extra.deletionGracePeriodSeconds = pod.meta.deletionGracePeriodSeconds ?? 30;
  const spec: Record<string, Json> = {
    containers: pod.containers.map((c) => containerSpec(c, volumeName)),
    dnsPolicy: 'ClusterFirst',
    enableServiceLinks: true,
    nodeName: pod.nodeName,
    preemptionPolicy: 'PreemptLowerPriority',
    priority: 0,
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    serviceAccount: 'default',
    serviceAccountName: 'default',
    terminationGracePeriodSeconds: 30,
    tolerations: [
      toleration('node.kubernetes.io/not-ready'),
      toleration('node.kubernetes.io/unreachable'),
    ],
    volumes: [
      {
        name: volumeName,
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
            {
              downwardAPI: {
                items: [
                  {
                    fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' },
                    path: 'namespace',
                  },
                ],
              },
            },
          ],
        },
      },
    ],
  };
  if (pod.hostNetwork) spec.hostNetwork = true;
  const started = creationTimestamp(ctx, pod.meta);
  const ready = pod.ready ? 'True' : 'False';
  const cond = (type: string, status: string): Json => ({
    lastProbeTime: null,
    lastTransitionTime: started,
    status,
    type,
  });
  const hostIP = node?.internalIP ?? '';
  const status: Record<string, Json> = {
    conditions: [
      cond('PodReadyToStartContainers', 'True'),
      cond('Initialized', 'True'),
      cond('Ready', ready),
      cond('ContainersReady', ready),
      cond('PodScheduled', 'True'),
    ],
    containerStatuses: pod.containers.map((c) => ({
      containerID: `containerd://${hex(`ctr:${pod.meta.uid}/${c.name}`, 32)}`,
      image: canonicalImage(c.image),
      imageID: `${canonicalImage(c.image).replace(/:[^/:]+$/, '')}@sha256:${hex(`img:${c.image}`, 32)}`,
      lastState: {},
      name: c.name,
      ready: pod.ready,
      restartCount: 0,
      started: true,
      state: { running: { startedAt: started } },
    })),
    hostIP,
    hostIPs: [{ ip: hostIP }],
    phase: 'Running',
    qosClass: 'BestEffort',
    startTime: started,
  };
  if (pod.podIP !== '') {
    status.podIP = pod.podIP;
    status.podIPs = [{ ip: pod.podIP }];
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata: metadata(ctx, pod.meta, extra), spec, status };
}

/** Pods of a Deployment's current ReplicaSet (the lab keeps one ReplicaSet per Deployment). */
export function deploymentPods(ctx: Pick<ApiContext, 'cluster'>, d: Deployment): Pod[] {
  return ctx.cluster.pods.filter(
    (p) => p.meta.namespace === d.meta.namespace && p.ownerDeployment === d.meta.name,
  );
}

export function deploymentObject(ctx: ApiContext, d: Deployment): Record<string, Json> {
  const pods = deploymentPods(ctx, d).filter((p) => !p.terminating);
  const ready = pods.filter((p) => p.ready).length;
  const template = pods[0];
  const created = creationTimestamp(ctx, d.meta);
  const status: Record<string, Json> = {
    conditions: [
      {
        lastTransitionTime: created,
        lastUpdateTime: created,
        message:
          ready >= d.replicas
            ? 'Deployment has minimum availability.'
            : 'Deployment does not have minimum availability.',
        reason: ready >= d.replicas ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
        status: ready >= d.replicas ? 'True' : 'False',
        type: 'Available',
      },
      {
        lastTransitionTime: created,
        lastUpdateTime: created,
        message: `ReplicaSet "${d.meta.name}-${d.templateHash}" has successfully progressed.`,
        reason: 'NewReplicaSetAvailable',
        status: 'True',
        type: 'Progressing',
      },
    ],
    // The lab's controller has always synced the latest spec.
    observedGeneration: currentRevision(d),
    replicas: pods.length,
    updatedReplicas: pods.length,
  };
  if (ready > 0) {
    status.availableReplicas = ready;
    status.readyReplicas = ready;
  }
  if (pods.length - ready > 0) status.unavailableReplicas = pods.length - ready;
  const containers = (template?.containers ?? []).map((c) => {
    const spec = containerSpec(c, '');
    delete spec.volumeMounts;
    return spec;
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadata(ctx, d.meta, {
      annotations: {
        // The controller copies its new ReplicaSet's revision onto the Deployment (sync.go).
        [REVISION_ANNOTATION]: String(currentRevision(d)),
      },
      // Every template change (a restart, an undo) is one spec update and one revision more.
      generation: currentRevision(d),
    }),
    spec: {
      progressDeadlineSeconds: 600,
      replicas: d.replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { ...d.selector } },
      strategy: {
        rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
        type: 'RollingUpdate',
      },
      template: {
        metadata: {
          ...(Object.keys(d.podTemplate?.annotations ?? {}).length > 0
            ? { annotations: { ...d.podTemplate?.annotations } }
            : {}),
          labels: { ...(d.podTemplate?.labels ?? d.selector) },
        },
        spec: {
          containers,
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
    },
    status,
  };
}

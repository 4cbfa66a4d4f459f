/**
 * apiVersion + kind → decoder, as the API server's REST mapping resolves them. An unknown pair
 * fails as kubectl reports it (`no matches for kind "Foo" in version "v1"`); real kinds the lab
 * does not simulate (ConfigMap, Ingress…) are skipped with a warning so pasted manifests load.
 */
import { decodeKubelet, decodeKubeProxy } from './decode-config';
import { decodeDeployment } from './decode-deployment';
import { decodeEndpointSlice } from './decode-endpointslice';
import { decodeLab } from './decode-lab';
import { decodeNode } from './decode-node';
import { decodePod } from './decode-pod';
import { decodeService } from './decode-service';
import type {
  DeploymentDraft,
  KubeletDraft,
  KubeProxyDraft,
  LabDraft,
  NodeDraft,
  PodDraft,
  ServiceDraft,
  SliceDraft,
} from './drafts';
import { MapReader } from './reader';
import { ObjectReport } from './report';
import type { Diagnostics } from './report';
import type { ParsedDoc } from './yaml-tree';
import { jsonType } from './yaml-tree';

export type Decoded =
  | { readonly kind: 'Node'; readonly draft: NodeDraft }
  | { readonly kind: 'Pod'; readonly draft: PodDraft }
  | { readonly kind: 'Deployment'; readonly draft: DeploymentDraft }
  | { readonly kind: 'Service'; readonly draft: ServiceDraft }
  | { readonly kind: 'EndpointSlice'; readonly draft: SliceDraft }
  | { readonly kind: 'KubeProxyConfiguration'; readonly draft: KubeProxyDraft }
  | { readonly kind: 'KubeletConfiguration'; readonly draft: KubeletDraft }
  | { readonly kind: 'Lab'; readonly draft: LabDraft };

type Decoder = (root: MapReader) => Decoded | undefined;

function wrap<K extends Decoded['kind'], D>(kind: K, f: (r: MapReader) => D | undefined): Decoder {
  return (r) => {
    const draft = f(r);
    return draft === undefined ? undefined : ({ kind, draft } as unknown as Decoded);
  };
}

/** Kinds the lab simulates; `prefixed` kinds are API objects (errors read `The Pod "x" is invalid: …`). */
const KINDS: Readonly<
  Record<string, Readonly<Record<string, { decode: Decoder; prefixed: boolean }>>>
> = {
  v1: {
    Node: { decode: wrap('Node', decodeNode), prefixed: true },
    Pod: { decode: wrap('Pod', decodePod), prefixed: true },
    Service: { decode: wrap('Service', decodeService), prefixed: true },
  },
  'apps/v1': { Deployment: { decode: wrap('Deployment', decodeDeployment), prefixed: true } },
  'discovery.k8s.io/v1': {
    EndpointSlice: { decode: wrap('EndpointSlice', decodeEndpointSlice), prefixed: true },
  },
  'kubeproxy.config.k8s.io/v1alpha1': {
    KubeProxyConfiguration: {
      decode: wrap('KubeProxyConfiguration', decodeKubeProxy),
      prefixed: false,
    },
  },
  'kubelet.config.k8s.io/v1beta1': {
    KubeletConfiguration: { decode: wrap('KubeletConfiguration', decodeKubelet), prefixed: false },
  },
  'kube-proxy-lab/v1alpha1': { Lab: { decode: wrap('Lab', decodeLab), prefixed: false } },
};

const NOT_SIMULATED: Readonly<Record<string, readonly string[]>> = {
  v1: [
    'Namespace',
    'ConfigMap',
    'Secret',
    'ServiceAccount',
    'Endpoints',
    'PersistentVolumeClaim',
    'PersistentVolume',
    'LimitRange',
    'ResourceQuota',
    'ReplicationController',
  ],
  'apps/v1': ['ReplicaSet', 'StatefulSet', 'DaemonSet'],
  'networking.k8s.io/v1': ['Ingress', 'IngressClass', 'NetworkPolicy'],
  'batch/v1': ['Job', 'CronJob'],
  'policy/v1': ['PodDisruptionBudget'],
  'autoscaling/v2': ['HorizontalPodAutoscaler'],
  'autoscaling/v1': ['HorizontalPodAutoscaler'],
  'rbac.authorization.k8s.io/v1': ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'],
  'gateway.networking.k8s.io/v1': ['Gateway', 'GatewayClass', 'HTTPRoute'],
};

const GO_JSON_TYPE: Readonly<Record<string, string>> = {
  array: 'array',
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'bool',
};

export function decodeDocument(diags: Diagnostics, doc: ParsedDoc): Decoded | undefined {
  const root = doc.root;
  if (!root) return undefined;
  const at = { doc: doc.index, offset: root.start };
  if (root.kind !== 'map') {
    const t = GO_JSON_TYPE[jsonType(root)] ?? jsonType(root);
    diags.error(
      at,
      `unable to decode document: json: cannot unmarshal ${t} into Go value of type map[string]interface {}`,
    );
    return undefined;
  }
  const field = (key: string): string | undefined => {
    const e = root.entries.find((x) => x.key === key);
    return e && e.value.kind === 'scalar' && typeof e.value.value === 'string'
      ? e.value.value
      : undefined;
  };
  const apiVersion = field('apiVersion');
  const kind = field('kind');
  const missing = [apiVersion ? '' : 'apiVersion not set', kind ? '' : 'kind not set'].filter(
    Boolean,
  );
  if (missing.length > 0) {
    diags.error(at, `error validating data: [${missing.join(', ')}]`);
    return undefined;
  }
  const entry = KINDS[apiVersion ?? '']?.[kind ?? ''];
  if (!entry) {
    if (NOT_SIMULATED[apiVersion ?? '']?.includes(kind ?? '')) {
      diags.warning(
        at,
        `the lab does not simulate ${kind} (${apiVersion}): the document is ignored`,
      );
    } else {
      diags.error(
        at,
        `no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`,
      );
    }
    return undefined;
  }
  const rep = new ObjectReport(diags, doc.index, kind ?? '', entry.prefixed, true);
  const reader = new MapReader(rep, root, entry.prefixed ? '' : (kind ?? ''), root.start);
  reader.ignore('apiVersion', 'kind');
  const decoded = entry.decode(reader);
  rep.flush();
  return rep.errors > 0 ? undefined : decoded;
}

/**
 * Resource types a real API server (Kubernetes 1.32, built-in APIs) serves that the lab's API
 * does not have. kubectl's `the server doesn't have a resource type` would claim the cluster
 * lacks them; they get a lab note instead. Names as kubectl resolves them: plural, singular and
 * short names (`kubectl api-resources`).
 */
import { labNote } from '../../model/lab-notes';

const UNMODELLED_TYPES: readonly (readonly string[])[] = [
  ['namespaces', 'namespace', 'ns'],
  ['daemonsets', 'daemonset', 'ds'],
  ['statefulsets', 'statefulset', 'sts'],
  ['events', 'event', 'ev'],
  ['ingresses', 'ingress', 'ing'],
  ['ingressclasses', 'ingressclass'],
  ['networkpolicies', 'networkpolicy', 'netpol'],
  ['serviceaccounts', 'serviceaccount', 'sa'],
  ['secrets', 'secret'],
  ['jobs', 'job'],
  ['cronjobs', 'cronjob', 'cj'],
  ['persistentvolumes', 'persistentvolume', 'pv'],
  ['persistentvolumeclaims', 'persistentvolumeclaim', 'pvc'],
  ['storageclasses', 'storageclass', 'sc'],
  ['horizontalpodautoscalers', 'horizontalpodautoscaler', 'hpa'],
  ['poddisruptionbudgets', 'poddisruptionbudget', 'pdb'],
  ['replicationcontrollers', 'replicationcontroller', 'rc'],
  ['resourcequotas', 'resourcequota', 'quota'],
  ['limitranges', 'limitrange', 'limits'],
  ['leases', 'lease'],
  ['roles', 'role'],
  ['rolebindings', 'rolebinding'],
  ['clusterroles', 'clusterrole'],
  ['clusterrolebindings', 'clusterrolebinding'],
  ['customresourcedefinitions', 'customresourcedefinition', 'crd', 'crds'],
  ['priorityclasses', 'priorityclass', 'pc'],
  ['runtimeclasses', 'runtimeclass'],
  ['controllerrevisions', 'controllerrevision'],
  ['podtemplates', 'podtemplate'],
  ['componentstatuses', 'componentstatus', 'cs'],
];

/**
 * The lab's note for a real resource type it does not serve (`verb`: get, describe…), or
 * undefined for a name no API server knows.
 */
export function unmodelledTypeNote(verb: string, typed: string): string | undefined {
  const t = typed.toLowerCase();
  const names = UNMODELLED_TYPES.find((n) => n.includes(t) || n.some((x) => t.startsWith(`${x}.`)));
  if (names === undefined) return undefined;
  return labNote('kubectl.type', { verb, type: names[0]! });
}

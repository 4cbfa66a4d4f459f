/**
 * Scenario files (Kubernetes YAML, many documents) → Cluster, with API-server-like validation.
 *
 * - `loadScenario(text, { previous })`: a whole scenario; never throws. With `previous`,
 *   objects that still exist keep their ClusterIPs, NodePorts, nodes and pod IPs.
 * - `applyManifests(cluster, text, now)`: `kubectl apply -f` against a running cluster.
 * - `DEFAULT_SCENARIO`: the textbook cluster the lab opens with.
 */
export { loadScenario, MAX_DOCUMENTS, MAX_SCENARIO_CHARS } from './load';
export type { LoadOptions, LoadResult } from './load';
export { applyManifests } from './apply';
export { deleteService } from './delete';
export type { ApplyResult, ApplyResultItem } from './apply';
export { DEFAULT_SCENARIO, DEFAULT_SCENARIO_NAME } from './default-scenario';
export { DEFAULT_SERVICE_CIDR, DEFAULT_SYSCTLS } from './decode-lab';
export { DEFAULT_KUBE_PROXY } from './decode-config';
export { POD_TEMPLATE_HASH_LABEL, replicaSetName } from './controllers';
export { MAX_REPLICAS } from './decode-deployment';
export {
  findPort,
  MANAGED_BY_CONTROLLER,
  MANAGED_BY_LABEL,
  matchesSelector,
} from './endpointslice-controller';
export { SERVICE_NAME_LABEL } from './decode-endpointslice';
export { manifestIdentities, type IdentityItem, type ObjectIdentity } from './identities';

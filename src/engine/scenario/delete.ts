/**
 * `kubectl delete service NAME`: the API server removes the Service at once (it has no
 * finalizers); the endpointslice controller's slices for it go with it (they are owned by the
 * Service), slices a user created stay, as in Kubernetes, and the controllers re-run. The
 * ClusterIP and NodePorts return to their pools; every other object keeps its addresses.
 */
import type { Cluster } from '../model/cluster';
import { buildCluster } from './build';
import { desiredFromCluster } from './from-cluster';
import { Diagnostics } from './report';

/** The cluster without the Service, or undefined when there is no such Service. */
export function deleteService(
  cluster: Cluster,
  namespace: string,
  name: string,
  nowSeconds: number,
): Cluster | undefined {
  const desired = desiredFromCluster(cluster);
  const at = desired.services.findIndex(
    (s) => s.meta.namespace === namespace && s.meta.name === name,
  );
  if (at < 0) return undefined;
  desired.services.splice(at, 1);
  return buildCluster(desired, new Diagnostics(undefined), {
    previous: cluster,
    createdAt: nowSeconds,
    applied: new Set(),
  });
}

/**
 * The World as one host sees it when a command runs there: a node sees its kernel's tables;
 * a pod or an external client has a network namespace of its own, whose tables start empty
 * (nothing programs iptables inside a pod).
 */
import type { ApplyResult, CommandWorld, HostRef } from '../commands/registry';
import { createNetfilter, type NetfilterState } from '../netfilter';
import type { World } from './world';

/** Network namespaces of pods and external clients, created on first use. */
const privateNamespaces = new WeakMap<World, Map<string, NetfilterState>>();

/** The apiVersion of each kind `kubectl apply` accepts in the lab (kubectl prints `deployment.apps/web`). */
const API_VERSIONS: Readonly<Record<string, string>> = {
  Deployment: 'apps/v1',
  EndpointSlice: 'discovery.k8s.io/v1',
};

function hostKey(host: HostRef): string {
  return host.kind === 'pod' ? `pod/${host.namespace}/${host.name}` : `${host.kind}/${host.name}`;
}

export function hostNetfilter(world: World, host: HostRef): NetfilterState {
  if (host.kind === 'node') {
    const kernel = world.kernel(host.name);
    if (kernel !== undefined) return kernel.netfilter;
  }
  let spaces = privateNamespaces.get(world);
  if (spaces === undefined) privateNamespaces.set(world, (spaces = new Map()));
  const key = hostKey(host);
  let state = spaces.get(key);
  if (state === undefined) spaces.set(key, (state = createNetfilter()));
  return state;
}

export function hostView(
  world: World,
  host: HostRef,
  readFile: (path: string) => string | undefined,
): CommandWorld {
  return {
    get cluster() {
      return world.cluster;
    },
    nowSeconds: () => world.nowSeconds(),
    epochSeconds: world.epochSeconds,
    host,
    readFile,
    netfilter: () => hostNetfilter(world, host),
    kubeProxy: () => {
      const kernel = host.kind === 'node' ? world.kernel(host.name) : undefined;
      const sync = kernel?.lastSync;
      if (kernel === undefined || sync === undefined) return undefined;
      return {
        mode: world.cluster.kubeProxy.mode,
        restoreInput: sync.restoreInput,
        full: sync.full,
        restoreError: kernel.lastRestoreError,
        chainsWritten: sync.chainsWritten,
        chainsDeleted: sync.chainsDeleted,
        natRules: sync.natRules,
        filterRules: sync.filterRules,
      };
    },
    applyManifests(text: string): ApplyResult {
      const result = world.apply(text);
      return {
        applied: result.results.map((r) => ({
          apiVersion: API_VERSIONS[r.kind] ?? 'v1',
          kind: r.kind,
          name: r.name,
          ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
          action: r.action,
        })),
        errors: result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      };
    },
  };
}

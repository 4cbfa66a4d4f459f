/**
 * The files of a simulated host the lab has: what `cat`, `grep FILE` and `< FILE` read on it.
 * Paths in the host's system directories (commands/files.ts) come only from here; a file the
 * lab does not model reads as missing, and the commands say it is not modelled.
 */
import { isHostSystemPath } from '../commands/files';
import type { HostRef, NodeKernelControls, OpenedFile } from '../commands/registry';
import { labNote } from '../model/lab-notes';
import { procNfConntrack } from '../conntrack';
import { nodeConntrack } from '../datapath';
import { resolvConfFor, resolvConfText } from '../hosts';
import { procIpVsConn } from '../ipvs';
import { openProcSys, procSysKey, readProcSys } from './proc-sys';
import type { World } from './world';

/**
 * The file at `path` on `host`: the host's own for a system path (undefined when the lab does
 * not model it), else the user's file through `userFile`.
 */
export function hostFile(
  world: World,
  host: HostRef,
  path: string,
  userFile: (path: string) => string | undefined,
  node: () => NodeKernelControls | undefined,
): string | undefined {
  if (!isHostSystemPath(path)) return userFile(path);
  const normal = normalPath(path);
  // `< /dev/null`: reads nothing, at once.
  if (normal === '/dev/null') return '';
  if (normal === '/etc/resolv.conf') return resolvConfText(resolvConfFor(world.cluster, host));
  if (normal === '/etc/hosts') return podHosts(world, host);
  if (host.kind !== 'node') return undefined;
  const key = procSysKey(normal);
  if (key !== undefined) {
    const controls = node();
    return controls === undefined ? undefined : readProcSys(controls, key);
  }
  return procFile(world, host.name, normal);
}

/**
 * A host file opened for a redirection's write: on a node, its /proc/sys (proc-sys.ts). Other
 * files of the host get the lab's note that it does not model them; a user's file, undefined
 * (the lab writes none). /dev/null is the shell's own.
 */
export function openHostFile(
  host: HostRef,
  path: string,
  node: () => NodeKernelControls | undefined,
): OpenedFile | undefined {
  if (!isHostSystemPath(path)) return undefined;
  const key = procSysKey(normalPath(path));
  const controls = host.kind === 'node' && key !== undefined ? node() : undefined;
  const opened = controls !== undefined && key !== undefined ? openProcSys(controls, key) : undefined; // prettier-ignore
  return opened ?? { note: labNote('file.unmodelled', { path }) };
}

function normalPath(path: string): string {
  return path.replace(/\/{2,}/g, '/');
}

/**
 * A pod's /etc/hosts as kubelet writes it (pkg/kubelet/kubelet_pods.go
 * managedHostsFileContent): its header, the loopback names, then the pod IP with its host name
 * (the pod's name, cut to 63 characters without a trailing '-' or '.', as
 * truncatePodHostnameIfNeeded does). A hostNetwork pod gets the node's own file, which the lab
 * does not model.
 */
function podHosts(world: World, host: HostRef): string | undefined {
  if (host.kind !== 'pod') return undefined;
  const pod = world.cluster.pods.find(
    (p) => p.meta.namespace === host.namespace && p.meta.name === host.name,
  );
  if (pod === undefined || pod.hostNetwork) return undefined;
  return (
    '# Kubernetes-managed hosts file.\n' +
    '127.0.0.1\tlocalhost\n' +
    '::1\tlocalhost ip6-localhost ip6-loopback\n' +
    'fe00::0\tip6-localnet\n' +
    'fe00::0\tip6-mcastprefix\n' +
    'fe00::1\tip6-allnodes\n' +
    'fe00::2\tip6-allrouters\n' +
    `${pod.podIP}\t${pod.meta.name.slice(0, 63).replace(/[-.]+$/, '')}\n`
  );
}

function procFile(world: World, node: string, path: string): string | undefined {
  if (path === '/proc/net/nf_conntrack') {
    return procNfConntrack(nodeConntrack(world, node), world.clock.now());
  }
  if (path === '/proc/net/ip_vs_conn') {
    const kernel = world.kernel(node);
    return kernel === undefined ? undefined : procIpVsConn(kernel.ipvs, world.clock.now());
  }
  return undefined;
}

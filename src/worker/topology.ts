/**
 * The running cluster as the graph draws it: nodes with their interfaces and pods, the LAN's
 * external clients, and Services with their virtual IPs.
 */
import { hostNetwork, type World } from '../engine';
import type { TopoInterface, TopoNode, TopoPod, Topology } from '../protocol/lab';

export function topologyOf(world: World, proxyErrors: readonly string[]): Topology {
  const cluster = world.cluster;
  const nodes: TopoNode[] = cluster.nodes.map((node) => {
    const name = node.meta.name;
    const net = hostNetwork(cluster, { kind: 'node', name });
    const pods: TopoPod[] = [];
    const vethOf = new Map<number, string>();
    for (const pod of cluster.pods) {
      if (pod.nodeName !== name) continue;
      const target = `pod/${pod.meta.namespace}/${pod.meta.name}`;
      const podNet = pod.hostNetwork
        ? undefined
        : hostNetwork(cluster, { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name });
      const peer = podNet?.interfaces.find((i) => i.name === 'eth0')?.peerIfindex;
      const veth = net?.interfaces.find((i) => i.ifindex === peer)?.name;
      if (peer !== undefined) vethOf.set(peer, target);
      pods.push({
        target,
        namespace: pod.meta.namespace,
        name: pod.meta.name,
        ip: pod.podIP,
        node: name,
        ready: pod.ready,
        ...(veth !== undefined ? { veth } : {}),
      });
    }
    const interfaces: TopoInterface[] = (net?.interfaces ?? [])
      .filter((i) => i.type !== 'loopback')
      .map((i) => {
        const pod = vethOf.get(i.ifindex);
        return {
          name: i.name,
          type: i.type,
          addresses: i.addresses
            .filter((a) => a.family === 'inet')
            .map((a) => `${a.address}/${a.prefix}`),
          ...(pod !== undefined ? { pod } : {}),
        };
      });
    // kube-proxy in IPVS mode binds every Service address to the dummy interface kube-ipvs0.
    const ipvs0 = world.kernel(name)?.kubeIpvs0;
    if (ipvs0 !== undefined) {
      interfaces.push({ name: 'kube-ipvs0', type: 'dummy', addresses: [...ipvs0.addresses] });
    }
    const sysctl = cluster.lab.sysctls[name]?.['net.bridge.bridge-nf-call-iptables'];
    const live = world.kernel(name)?.sysctls['net.bridge.bridge-nf-call-iptables'];
    return {
      name,
      internalIP: node.internalIP,
      podCIDR: node.podCIDR,
      interfaces,
      pods,
      bridgeNfCallIptables: live ?? sysctl ?? '1',
    };
  });
  return {
    nodes,
    externals: cluster.lab.externalClients.map((c) => ({ name: c.name, address: c.address })),
    services: cluster.services.map((s) => ({
      namespace: s.meta.namespace,
      name: s.meta.name,
      type: s.type,
      clusterIP: s.clusterIP,
      ports: s.ports.map((p) => ({
        name: p.name,
        protocol: p.protocol,
        port: p.port,
        nodePort: p.nodePort,
      })),
    })),
    mode: cluster.kubeProxy.mode,
    hairpinMode: cluster.kubelet.hairpinMode,
    masqueradeAll: cluster.kubeProxy.masqueradeAll,
    proxyErrors,
  };
}

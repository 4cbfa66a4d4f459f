import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, DEFAULT_SCENARIO_NAME, loadScenario } from './index';

/** kube-proxy's endpoint chain name: KUBE-SEP- + base32(sha256(svcPortName + protocol + ip:port))[:16]. */
function sepChain(servicePortName: string, protocol: string, endpoint: string): string {
  const digest = createHash('sha256')
    .update(servicePortName + protocol + endpoint)
    .digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `KUBE-SEP-${out.slice(0, 16)}`;
}

describe('the default scenario', () => {
  const { cluster, diagnostics } = loadScenario(DEFAULT_SCENARIO);

  it('loads without errors or warnings', () => {
    expect(DEFAULT_SCENARIO_NAME).toBe('two-node-cluster');
    expect(diagnostics).toEqual([]);
    expect(cluster.nodes.map((n) => `${n.meta.name} ${n.podCIDR} ${n.internalIP}`)).toEqual([
      'node-1 10.244.0.0/24 192.168.1.10',
      'node-2 10.244.1.0/24 192.168.1.11',
    ]);
  });

  it('puts CoreDNS at 10.244.0.2 and 10.244.0.3 and the client at 10.244.0.5 (the textbook addresses)', () => {
    const coredns = cluster.pods.filter((p) => p.ownerDeployment === 'coredns');
    expect(coredns.map((p) => `${p.meta.namespace} ${p.nodeName} ${p.podIP}`)).toEqual([
      'kube-system node-1 10.244.0.2',
      'kube-system node-1 10.244.0.3',
    ]);
    for (const p of coredns)
      expect(p.meta.name).toMatch(/^coredns-[4-9bcdf]{8,10}-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const web = cluster.pods.filter((p) => p.ownerDeployment === 'web');
    expect(web.map((p) => `${p.nodeName} ${p.podIP}`).sort()).toEqual([
      'node-1 10.244.0.4',
      'node-2 10.244.1.2',
      'node-2 10.244.1.3',
    ]);
    expect(cluster.pods.find((p) => p.meta.name === 'client')).toMatchObject({
      nodeName: 'node-1',
      podIP: '10.244.0.5',
    });
  });

  it('backs kube-dns 10.96.0.10 with both CoreDNS pods', () => {
    const dns = cluster.services.find((s) => s.meta.name === 'kube-dns');
    expect(dns).toMatchObject({
      clusterIP: '10.96.0.10',
      meta: { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
      ports: [
        { name: 'dns', protocol: 'UDP', port: 53, targetPort: 53 },
        { name: 'dns-tcp', protocol: 'TCP', port: 53, targetPort: 53 },
        { name: 'metrics', protocol: 'TCP', port: 9153, targetPort: 9153 },
      ],
    });
    const slices = cluster.endpointSlices.filter((s) => s.serviceName === 'kube-dns');
    expect(slices).toHaveLength(1);
    expect(slices[0]?.meta.namespace).toBe('kube-system');
    expect(slices[0]?.endpoints.map((e) => e.addresses[0])).toEqual(['10.244.0.2', '10.244.0.3']);
    expect(slices[0]?.ports).toEqual([
      { name: 'dns', port: 53, protocol: 'UDP' },
      { name: 'dns-tcp', port: 53, protocol: 'TCP' },
      { name: 'metrics', port: 9153, protocol: 'TCP' },
    ]);
    // The textbook's rule listing: these endpoints give exactly its KUBE-SEP chain names.
    expect(sepChain('kube-system/kube-dns:dns', 'udp', '10.244.0.2:53')).toBe(
      'KUBE-SEP-YIL6JZP7A3QYXJU2',
    );
    expect(sepChain('kube-system/kube-dns:dns', 'udp', '10.244.0.3:53')).toBe(
      'KUBE-SEP-6E7XQMQ4RAYOWTTM',
    );
  });

  it('has default/kubernetes at 10.96.0.1 → 192.168.1.10:6443', () => {
    expect(cluster.services.find((s) => s.meta.name === 'kubernetes')).toMatchObject({
      clusterIP: '10.96.0.1',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
    });
    expect(cluster.services.find((s) => s.meta.name === 'kubernetes')?.selector).toBeUndefined();
    expect(cluster.endpointSlices.find((s) => s.serviceName === 'kubernetes')).toMatchObject({
      managed: false,
      endpoints: [
        {
          addresses: ['192.168.1.10'],
          conditions: { ready: true, serving: true, terminating: false },
        },
      ],
      ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
    });
  });

  it('serves web on a ClusterIP and on NodePort 30080, targetPort http → 8080', () => {
    const web = cluster.services.find((s) => s.meta.name === 'web');
    const np = cluster.services.find((s) => s.meta.name === 'web-nodeport');
    expect(web).toMatchObject({
      type: 'ClusterIP',
      ports: [{ port: 80, targetPort: 'http', nodePort: 0 }],
    });
    expect(web?.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\./);
    expect(np).toMatchObject({
      type: 'NodePort',
      ports: [{ port: 80, targetPort: 'http', nodePort: 30080 }],
      externalTrafficPolicy: 'Cluster',
    });
    for (const name of ['web', 'web-nodeport']) {
      const slice = cluster.endpointSlices.find((s) => s.serviceName === name);
      expect(slice?.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
      expect(slice?.endpoints).toHaveLength(3);
    }
  });

  it('configures kube-proxy, the kubelet and the lab as the textbook does', () => {
    expect(cluster.kubeProxy).toMatchObject({ mode: 'iptables', clusterCIDR: '10.244.0.0/16' });
    expect(cluster.kubelet.hairpinMode).toBe('hairpin-veth');
    expect(cluster.lab).toMatchObject({
      seed: 1,
      serviceCIDR: '10.96.0.0/12',
      externalClients: [{ name: 'laptop', address: '192.168.1.100' }],
    });
  });

  it('reloads onto itself unchanged', () => {
    expect(loadScenario(DEFAULT_SCENARIO, { previous: cluster }).cluster).toEqual(cluster);
  });
});

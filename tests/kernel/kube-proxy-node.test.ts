/**
 * Differential test of a whole node: kubelet's boot, kube-proxy's jump rules and every
 * restore input it pipes (full sync, then partial syncs after changes) are replayed on the
 * real iptables (1.8.9, nf_tables) in a throwaway namespace. The kernel must accept every
 * restore, and `iptables-save` / `iptables -L -n -v` / `iptables -S` must read exactly as the
 * engine's views of the same node.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster, ClusterNode } from '../../src/engine/model/cluster';
import { iptablesList, iptablesRulesSpec, iptablesSave } from '../../src/engine/netfilter';
import { World } from '../../src/engine/sim/world';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import {
  cluster as makeCluster,
  endpoint,
  kubeProxyConfig,
  meta,
  port,
  service,
  slice,
  slicePort,
} from '../../src/engine/kube-proxy/testing/fixtures';
import { iptablesNftTables } from '../../src/engine/netfilter/nft-view/render';
import { createNftState, nftCommand } from '../../src/engine/nftables';
import { maskDates } from './differential';
import { netnsUnavailableReason, withNetns } from './netns';

const reason = netnsUnavailableReason();
if (reason !== undefined) console.log(`skipping node differential tests: ${reason}`);

const NODE: ClusterNode = {
  meta: meta('', 'node-1'),
  podCIDR: '10.244.0.0/24',
  addresses: [{ type: 'InternalIP', address: '192.168.1.10' }],
  internalIP: '192.168.1.10',
};

/** Every service shape kube-proxy writes differently (kube-proxy.md §1.4 of the notes). */
function shapes(): Cluster {
  const onNode = { node: 'node-1' };
  const offNode = { node: 'node-2' };
  const base = makeCluster(
    [
      service('default', 'web', '10.96.0.20', { ports: [port('http', 80, { targetPort: 8080 })] }),
      service('default', 'web-np', '10.96.0.21', {
        type: 'NodePort',
        ports: [port('http', 80, { targetPort: 8080, nodePort: 30080 })],
      }),
      service('default', 'local', '10.96.0.22', {
        type: 'NodePort',
        externalTrafficPolicy: 'Local',
        ports: [port('http', 80, { targetPort: 8080, nodePort: 30081 })],
      }),
      service('default', 'lb', '10.96.0.23', {
        type: 'LoadBalancer',
        ports: [port('http', 80, { targetPort: 8080, nodePort: 30082 })],
        loadBalancerIngress: [{ ip: '203.0.113.10' }],
        loadBalancerSourceRanges: ['203.0.113.0/25', '192.168.1.0/24'],
      }),
      service('default', 'sticky', '10.96.0.24', {
        sessionAffinity: 'ClientIP',
        externalIPs: ['192.168.1.200'],
        ports: [port('http', 80, { targetPort: 8080 })],
      }),
      service('default', 'empty', '10.96.0.25', { ports: [port('dns', 53, { protocol: 'UDP' })] }),
      service('default', 'internal-local', '10.96.0.26', {
        internalTrafficPolicy: 'Local',
        ports: [port('http', 80, { targetPort: 8080 })],
      }),
    ],
    [
      slice(
        'default',
        'web',
        [
          endpoint('10.244.0.4', onNode),
          endpoint('10.244.1.3', offNode),
          endpoint('10.244.1.4', offNode),
        ],
        [slicePort('http', 8080)],
      ),
      slice(
        'default',
        'web-np',
        [endpoint('10.244.0.4', onNode), endpoint('10.244.1.3', offNode)],
        [slicePort('http', 8080)],
      ),
      slice('default', 'local', [endpoint('10.244.1.3', offNode)], [slicePort('http', 8080)]),
      slice('default', 'lb', [endpoint('10.244.0.4', onNode)], [slicePort('http', 8080)]),
      slice(
        'default',
        'sticky',
        [endpoint('10.244.0.4', onNode), endpoint('10.244.1.3', offNode)],
        [slicePort('http', 8080)],
      ),
      slice(
        'default',
        'internal-local',
        [endpoint('10.244.1.4', offNode)],
        [slicePort('http', 8080)],
      ),
    ],
    kubeProxyConfig({ clusterCIDR: '10.244.0.0/16' }),
  );
  return { ...base, nodes: [NODE], lab: { ...base.lab, serviceCIDR: '10.96.0.0/12' } };
}

/** Scale `web` down to one endpoint and delete `sticky`: a partial sync with stale chains. */
function afterChanges(c: Cluster): Cluster {
  return {
    ...c,
    services: c.services.filter((s) => s.meta.name !== 'sticky'),
    endpointSlices: c.endpointSlices
      .filter((s) => s.serviceName !== 'sticky')
      .map((s) => (s.serviceName === 'web' ? { ...s, endpoints: s.endpoints.slice(0, 1) } : s)),
  };
}

describe.skipIf(reason !== undefined)('a node programmed by kubelet and kube-proxy', () => {
  it.each([
    ['first (full) sync', (c: Cluster) => [c]],
    ['then a partial sync after a scale-down and a deletion', (c: Cluster) => [c, afterChanges(c)]],
  ])('%s reads the same on the real kernel', (_name, versions) => {
    const [first, ...rest] = versions(shapes());
    const world = new World(first!, { recordKernelOps: true });
    for (const next of rest) world.setCluster(next);
    const kernel = world.kernel('node-1')!;
    withNetns((run) => {
      // kube-proxy creates its nfacct counters at start (pkg/proxy/metrics via nfacct.Ensure).
      for (const name of ['ct_state_invalid_dropped_pkts', 'localhost_nps_accepted_pkts']) {
        expect(run(['nfacct', 'add', name]).exitCode).toBe(0);
      }
      for (const op of kernel.ops ?? []) {
        if ('restore' in op) {
          const r = run(['iptables-restore', ...op.args], op.restore);
          expect(r.stderr, "the kernel accepts kube-proxy's restore input").toBe('');
          expect(r.exitCode).toBe(0);
        } else if ('iptables' in op) {
          run(['iptables', ...op.iptables]);
        } else if ('ipset' in op) run(['ipset', ...op.ipset]);
      }
      const engineSave = iptablesSave(kernel.netfilter, { nowEpochSeconds: world.wallSeconds() });
      // Not vacuous: kube-proxy wrote service chains and restored them.
      expect(kernel.ops?.filter((op) => 'restore' in op).length).toBe(versions(shapes()).length);
      expect(engineSave.stdout).toMatch(/-A KUBE-SVC-\w{16} /);
      expect(maskDates(engineSave.stdout).split('\n')).toEqual(
        maskDates(run(['iptables-save']).stdout).split('\n'),
      );
      for (const table of ['nat', 'filter', 'mangle']) {
        const list = iptablesList(kernel.netfilter, { table, numeric: true, verbose: true });
        expect(list.stdout.split('\n'), `iptables -t ${table} -L -n -v`).toEqual(
          run(['iptables', '-t', table, '-L', '-n', '-v']).stdout.split('\n'),
        );
        const spec = iptablesRulesSpec(kernel.netfilter, { table });
        expect(spec.stdout.split('\n'), `iptables -t ${table} -S`).toEqual(
          run(['iptables', '-t', table, '-S']).stdout.split('\n'),
        );
      }
      // nft's view of the same tables: chains in creation order (deleted stale chains gone),
      // the handles the partial sync's rewritten rules took.
      const nft = nftCommand(createNftState(), ['-a', 'list', 'ruleset'], 0, iptablesNftTables(kernel.netfilter)); // prettier-ignore
      const real = run(['nft', '-a', 'list', 'ruleset']);
      expect(nft.stdout.split('\n'), 'nft -a list ruleset').toEqual(real.stdout.split('\n'));
      expect(nft.stderr).toBe(real.stderr);
    });
  });
});

describe.skipIf(reason !== undefined)('the built-in scenario', () => {
  it.each(['node-1', 'node-2'])('%s reads the same on the real kernel', (nodeName) => {
    const { world, diagnostics } = World.fromScenario(DEFAULT_SCENARIO, { recordKernelOps: true });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const kernel = world.kernel(nodeName)!;
    withNetns((run) => {
      for (const name of ['ct_state_invalid_dropped_pkts', 'localhost_nps_accepted_pkts']) {
        run(['nfacct', 'add', name]);
      }
      for (const op of kernel.ops ?? []) {
        if ('restore' in op)
          expect(run(['iptables-restore', ...op.args], op.restore).exitCode).toBe(0);
        else if ('iptables' in op) run(['iptables', ...op.iptables]);
        else if ('ipset' in op) run(['ipset', ...op.ipset]);
      }
      const engine = iptablesSave(kernel.netfilter, { nowEpochSeconds: world.wallSeconds() });
      expect(engine.stdout).toContain('-j KUBE-SEP-YIL6JZP7A3QYXJU2');
      expect(maskDates(engine.stdout).split('\n')).toEqual(
        maskDates(run(['iptables-save']).stdout).split('\n'),
      );
      for (const chain of ['KUBE-SERVICES', 'KUBE-SVC-TCOU7JCQXEZGVUNU', 'KUBE-NODEPORTS']) {
        const list = iptablesList(kernel.netfilter, { table: 'nat', chain, numeric: true });
        expect(list.stdout.split('\n'), `iptables -t nat -L ${chain} -n`).toEqual(
          run(['iptables', '-t', 'nat', '-L', chain, '-n']).stdout.split('\n'),
        );
      }
    });
  });
});

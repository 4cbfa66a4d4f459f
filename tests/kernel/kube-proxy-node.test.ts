/**
 * Differential test of a whole node: kubelet's boot, kube-proxy's jump rules and every
 * restore input it pipes (full sync, then partial syncs after changes) are replayed on the
 * real iptables (1.8.9, nf_tables) in a throwaway namespace. The kernel must accept every
 * restore, and `iptables-save` / `iptables -L -n -v` / `iptables -S` must read exactly as the
 * engine's views of the same node.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/engine/model/cluster';
import { iptablesList, iptablesRulesSpec, iptablesSave } from '../../src/engine/netfilter';
import { World } from '../../src/engine/sim/world';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { iptablesNftTables } from '../../src/engine/netfilter/nft-view/render';
import { createNftState, nftCommand } from '../../src/engine/nftables';
import { maskDates } from './differential';
import { netnsUnavailableReason, withNetns } from './netns';
import { afterShapeChanges, serviceShapes } from './service-shapes';

const reason = netnsUnavailableReason();
if (reason !== undefined) console.log(`skipping node differential tests: ${reason}`);

describe.skipIf(reason !== undefined)('a node programmed by kubelet and kube-proxy', () => {
  it.each([
    ['first (full) sync', (c: Cluster) => [c]],
    [
      'then a partial sync after a scale-down and a deletion',
      (c: Cluster) => [c, afterShapeChanges(c)],
    ],
  ])('%s reads the same on the real kernel', (_name, versions) => {
    const [first, ...rest] = versions(serviceShapes());
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
      expect(kernel.ops?.filter((op) => 'restore' in op).length).toBe(
        versions(serviceShapes()).length,
      );
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

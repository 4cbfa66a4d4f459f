/**
 * Differential test of a node in IPVS mode: kubelet's boot, then every ipset command and
 * iptables operation kube-proxy's IPVS proxier ran (its jumps, its restore input) are replayed
 * in a throwaway namespace with the real ipset 7.17 and iptables 1.8.9 (nf_tables). The kernel
 * must accept them all, and `iptables-save` and `ipset list` (with the References the rules
 * hold) must read as the engine's views. IPVS itself is not in this kernel: its state is
 * checked in the unit tests. Sets are replayed with the engine's initval (the kernel would
 * draw a random one), so member order and "Size in memory" are compared too.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { findSet, runIpset } from '../../src/engine/ipset';
import { iptablesSave } from '../../src/engine/netfilter';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { ipsetEnv } from '../../src/engine/sim/ipvs-node';
import { World } from '../../src/engine/sim/world';
import { maskDates } from './differential';
import { netnsUnavailableReason, withNetns } from './netns';

const reason = netnsUnavailableReason();
const hasIpset = spawnSync('sh', ['-c', 'command -v ipset']).status === 0;

const IPVS_SCENARIO = DEFAULT_SCENARIO.replace(/^mode: iptables.*$/m, 'mode: ipvs');

/**
 * The default scenario plus a LoadBalancer with source ranges, an externalIP and eTP Local. A
 * range holds the node IP: otherwise kube-proxy writes a `-m ipvs` rule (KUBE-IPVS-OUT-FILTER),
 * which this kernel refuses (xt_ipvs needs the IPVS module it lacks).
 */
const EXTRA = `
---
apiVersion: v1
kind: Service
metadata: { name: lb, namespace: default }
spec:
  type: LoadBalancer
  selector: { app: web }
  externalTrafficPolicy: Local
  externalIPs: [192.168.1.200]
  loadBalancerSourceRanges: [203.0.113.0/25, 192.168.1.0/24]
  ports: [{ name: http, port: 80, targetPort: 8080, nodePort: 30090 }]
status:
  loadBalancer: { ingress: [{ ip: 203.0.113.10 }] }
`;

describe.skipIf(reason !== undefined || !hasIpset)('a node in IPVS mode on the real kernel', () => {
  it.each([
    ['the built-in scenario', IPVS_SCENARIO],
    ['with LB source ranges, externalIPs and eTP Local', IPVS_SCENARIO + EXTRA],
  ])('%s: iptables-save and ipset list read the same', (_name, text) => {
    const { world, diagnostics } = World.fromScenario(text, { recordKernelOps: true });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const kernel = world.kernel('node-1')!;
    expect(kernel.proxier.mode).toBe('ipvs');
    withNetns((run) => {
      for (const op of kernel.ops ?? []) {
        if ('restore' in op) {
          const r = run(['iptables-restore', ...op.args], op.restore);
          expect(r.stderr, "the kernel accepts kube-proxy's restore input").toBe('');
        } else if ('iptables' in op) run(['iptables', ...op.iptables]);
        // conntrack cleanups: no traffic runs here, their filters would find nothing.
        else if ('ipset' in op) {
          const argv = [...op.ipset];
          const set = argv[0] === 'create' ? findSet(kernel.ipsets, argv[1]!) : undefined;
          if (set !== undefined && set.type !== 'bitmap:port')
            argv.splice(argv.length - 1, 0, 'initval', `0x${set.initval.toString(16)}`);
          const r = run(['ipset', ...argv]);
          expect(r.stderr, `ipset ${argv.join(' ')}`).toBe('');
        }
      }
      const save = iptablesSave(kernel.netfilter, { nowEpochSeconds: world.wallSeconds() });
      expect(save.stdout).toContain('--match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT');
      expect(maskDates(save.stdout).split('\n')).toEqual(
        maskDates(run(['iptables-save']).stdout).split('\n'),
      );
      const engineList = runIpset(kernel.ipsets, ipsetEnv(kernel), ['list']).stdout;
      expect(engineList).toMatch(/References: [1-9]/);
      expect(engineList.split('\n')).toEqual(run(['ipset', 'list']).stdout.split('\n'));
    });
  });

  it.each([
    ['iptables → ipvs (nothing cleaned up)', DEFAULT_SCENARIO, 'ipvs'],
    ['ipvs → iptables (nothing cleaned up)', IPVS_SCENARIO, 'iptables'],
    ['ipvs → nftables (IPVS chains, jumps and ipsets removed)', IPVS_SCENARIO, 'nftables'],
  ])(
    'switching modes, %s: the kernel accepts every operation and reads the same',
    (_n, text, mode) => {
      const { world } = World.fromScenario(text, { recordKernelOps: true });
      const kernel = world.kernel('node-1')!;
      world.reloadScenario(text.replace(/^mode: \w+.*$/m, `mode: ${mode}`));
      expect(kernel.nftables !== undefined).toBe(mode === 'nftables');
      withNetns((run) => {
        for (const name of ['ct_state_invalid_dropped_pkts', 'localhost_nps_accepted_pkts'])
          run(['nfacct', 'add', name]);
        for (const op of kernel.ops ?? []) {
          if ('restore' in op) {
            const r = run(['iptables-restore', ...op.args], op.restore);
            expect(r.stderr, 'the kernel accepts the restore input').toBe('');
          } else if ('iptables' in op) run(['iptables', ...op.iptables]);
          // conntrack cleanups: no traffic runs here, their filters would find nothing.
          else if ('ipset' in op) {
            const argv = [...op.ipset];
            const set = argv[0] === 'create' ? findSet(kernel.ipsets, argv[1]!) : undefined;
            if (set !== undefined && set.type !== 'bitmap:port')
              argv.splice(argv.length - 1, 0, 'initval', `0x${set.initval.toString(16)}`);
            const r = run(['ipset', ...argv]);
            expect(r.stderr, `ipset ${argv.join(' ')}`).toBe('');
          }
        }
        const save = iptablesSave(kernel.netfilter, { nowEpochSeconds: world.wallSeconds() });
        expect(maskDates(save.stdout).split('\n')).toEqual(
          maskDates(run(['iptables-save']).stdout).split('\n'),
        );
        const engineList = runIpset(kernel.ipsets, ipsetEnv(kernel), ['list']).stdout;
        expect(engineList.split('\n')).toEqual(run(['ipset', 'list']).stdout.split('\n'));
        if (mode === 'nftables') expect(engineList).toBe('');
      });
    },
  );
});

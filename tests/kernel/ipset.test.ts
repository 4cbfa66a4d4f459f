/**
 * Differential test: the engine's ipsets against ipset 7.17 and the kernel's ip_set modules in a
 * throwaway network namespace. The same commands run on both sides; `ipset list` / `save`
 * must read the same line for line. Hash sets get the same initval on both sides (the kernel
 * otherwise draws a random one), so the member order (jhash2 buckets) and the "Size in memory"
 * are compared too.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createIpsetState, runIpset, type IpsetEnv } from '../../src/engine/ipset';
import { netnsUnavailableReason, withNetns } from './netns';

const reason = netnsUnavailableReason();
const hasIpset = spawnSync('sh', ['-c', 'command -v ipset']).status === 0;

const INITVALS = [0x12345678, 0x16fa47cc, 0x9b3e3db2, 0x263564e0, 0x29d1adfc, 0xdeadbeef];

/** kube-proxy's sets (pkg/proxy/ipvs/proxier.go ipsetInfo) with members of the default scenario's shape. */
function commands(): string[][] {
  const sets: [string, string, string[]][] = [
    [
      'KUBE-LOOP-BACK',
      'hash:ip,port,ip',
      [
        '10.244.1.5,tcp:8080,10.244.1.5',
        '10.244.1.7,udp:53,10.244.1.7',
        '10.244.1.9,tcp:9376,10.244.1.9',
      ],
    ],
    [
      'KUBE-CLUSTER-IP',
      'hash:ip,port',
      [
        '10.96.0.1,tcp:443',
        '10.96.0.10,udp:53',
        '10.96.0.10,tcp:53',
        '10.96.0.10,tcp:9153',
        '10.96.12.34,tcp:80',
        '10.96.200.7,udp:5353',
        '10.96.44.4,tcp:8080',
      ],
    ],
    [
      'KUBE-LOAD-BALANCER-SOURCE-CIDR',
      'hash:ip,port,net',
      ['203.0.113.10,tcp:80,198.51.100.0/24', '203.0.113.10,tcp:80,10.0.0.0/8'],
    ],
    [
      'KUBE-IPVS-IPS',
      'hash:ip',
      ['10.96.0.1', '10.96.0.10', '10.96.12.34', '10.96.200.7', '10.96.44.4', '203.0.113.10'],
    ],
  ];
  const out: string[][] = [];
  sets.forEach(([name, type, members], i) => {
    out.push([
      'create',
      name,
      type,
      'family',
      'inet',
      'hashsize',
      '1024',
      'maxelem',
      '65536',
      'initval',
      `0x${INITVALS[i]!.toString(16)}`,
    ]);
    for (const m of members) out.push(['add', name, m]);
  });
  out.push(['create', 'KUBE-NODE-PORT-TCP', 'bitmap:port', 'range', '0-65535']);
  for (const p of ['30080', '31000', '30001']) out.push(['add', 'KUBE-NODE-PORT-TCP', p]);
  out.push(['create', 'KUBE-HEALTH-CHECK-NODE-PORT', 'bitmap:port', 'range', '0-65535']);
  // Errors and edge cases.
  out.push(['add', 'KUBE-CLUSTER-IP', '10.96.0.1,tcp:443']);
  out.push(['add', 'KUBE-CLUSTER-IP', '10.96.0.1,tcp:443', '-exist']);
  out.push(['del', 'KUBE-CLUSTER-IP', '10.96.0.10,tcp:9153']);
  out.push(['del', 'KUBE-CLUSTER-IP', '10.96.9.9,tcp:1']);
  out.push(['add', 'KUBE-CLUSTER-IP', '10.96.77.7,tcp:80']);
  out.push(['add', 'NOPE', '1.2.3.4']);
  out.push(['create', 'KUBE-CLUSTER-IP', 'hash:ip,port']);
  out.push(['create', 'X', 'hash:foo']);
  out.push(['add', 'KUBE-IPVS-IPS', '10.0.0.300']);
  out.push(['add', 'KUBE-CLUSTER-IP', '10.0.0.5']);
  out.push(['test', 'KUBE-CLUSTER-IP', '10.96.0.10,udp:53']);
  out.push(['test', 'KUBE-CLUSTER-IP', '10.96.0.10,udp:54']);
  out.push(['bogus']);
  out.push(['list']);
  out.push(['list', 'KUBE-NODE-PORT-TCP']);
  out.push(['list', '-t', 'KUBE-CLUSTER-IP']);
  out.push(['list', '-n']);
  out.push(['list', 'NOPE']);
  out.push(['save']);
  return out;
}

describe.skipIf(reason !== undefined || !hasIpset)('ipset against the real kernel', () => {
  it('kube-proxy sets: list, save, errors read the same', () => {
    const state = createIpsetState();
    const env: IpsetEnv = { references: () => 0, initval: () => 0 };
    withNetns((run) => {
      for (const argv of commands()) {
        const real = run(['ipset', ...argv]);
        const engine = runIpset(state, env, argv);
        const label = `ipset ${argv.join(' ')}`;
        expect.soft(engine.stdout.split('\n'), `${label}: stdout`).toEqual(real.stdout.split('\n'));
        expect.soft(engine.stderr, `${label}: stderr`).toBe(real.stderr);
        expect.soft(engine.exitCode, `${label}: exit code`).toBe(real.exitCode);
      }
    });
  });

  it('ipset restore of the engine’s save output lists the same in the kernel', () => {
    const state = createIpsetState();
    const env: IpsetEnv = { references: () => 0, initval: () => 0 };
    for (const argv of commands().slice(0, 30)) runIpset(state, env, argv);
    const saved = runIpset(state, env, ['save']).stdout;
    withNetns((run) => {
      const restored = run(['ipset', 'restore'], saved);
      expect(restored.stderr).toBe('');
      expect(run(['ipset', 'list']).stdout).toBe(runIpset(state, env, ['list']).stdout);
    });
  });

  it('a hash set outgrows its 1024 buckets: the kernel doubles the table as kube-proxy adds Services', () => {
    // KUBE-CLUSTER-IP of a cluster with thousands of Services: a bucket holds 12 entries
    // (bucketsize 12); the 13th makes ip_set_hash_gen.h's mtype_add return -EAGAIN, and
    // mtype_resize rehashes into 2^(bits+1) buckets. Member order, hashsize and "Size in
    // memory" all change with it.
    const lines = [
      'create S hash:ip,port family inet hashsize 1024 maxelem 65536 initval 0x12345678',
    ];
    for (let i = 0; i < 12_000; i++) {
      const o = 100 + i;
      lines.push(`add S 10.${96 + (o >> 16)}.${(o >> 8) & 255}.${o & 255},tcp:80`);
    }
    const env: IpsetEnv = { references: () => 0, initval: () => 0 };
    withNetns((run) => {
      for (const n of [3_000, 5_000, 12_000]) {
        const input = `${lines.slice(0, n + 1).join('\n')}\n`;
        const state = createIpsetState();
        run(['ipset', 'destroy']);
        expect(run(['ipset', 'restore'], input).stderr).toBe('');
        expect(runIpset(state, env, ['restore'], input).stderr).toBe('');
        // Deleting some and adding others reuses freed slots in the grown table too.
        const churn = lines.slice(1, 400).map((l) => l.replace(/^add/, 'del'));
        const again = lines.slice(1, 200);
        for (const batch of [churn, again]) {
          const text = `${batch.join('\n')}\n`;
          expect(run(['ipset', 'restore'], text).stderr).toBe('');
          expect(runIpset(state, env, ['restore'], text).stderr).toBe('');
        }
        const real = run(['ipset', 'list', 'S']).stdout;
        const engine = runIpset(state, env, ['list', 'S']).stdout;
        expect(engine.split('\n').slice(0, 8), `${n} entries: header`).toEqual(
          real.split('\n').slice(0, 8),
        );
        expect(engine === real, `${n} entries: the members in the kernel's order`).toBe(true);
      }
    });
  });
  it('ipset restore: which errors name their line, as ipset 7.17 prints them', () => {
    // One-line errors get "Error in line N:"; usage errors (exit 2) and the three-line port
    // errors come out as the command alone prints them (seen on the real tool).
    const inputs = [
      'create Z hash:ip\nadd Z 1.2.3.4\nadd Z 1.2.3.4',
      'create Z hash:ip\nadd Z garbage',
      'add NOPE 1.2.3.4',
      'create Z hash:net\nadd Z 1.2.3.0/0',
      'create Z hash:ip maxelem x',
      'create Z hash:ip\nadd Z',
      'create A hash:ip foo 1',
      'create Y hash:ip,port\nadd Y 1.2.3.4,foo',
      'create Y hash:ip,port\nadd Y 1.2.3.0/30,80-81\nadd Y 1.2.3.4,tcp:80',
      'create B bitmap:port range 10',
    ];
    const env: IpsetEnv = { references: () => 0, initval: () => 0 };
    withNetns((run) => {
      for (const input of inputs) {
        run(['ipset', 'destroy']);
        const real = run(['ipset', 'restore'], `${input}\n`);
        const engine = runIpset(createIpsetState(), env, ['restore'], `${input}\n`);
        expect.soft(engine, JSON.stringify(input)).toEqual(real);
      }
    });
  });
});

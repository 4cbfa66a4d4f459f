/**
 * `conntrack -S`: the counters of struct ip_conntrack_stat the lab produces, and the tool's
 * lines. Expected values were printed by conntrack-tools 1.4.7 on kernel 6.18 (2 CPUs) in a
 * network namespace sending the same packets (tests/kernel/conntrack-stats.test.ts replays
 * them against the kernel); where a count comes from the source, the function is named.
 */
import { describe, expect, it } from 'vitest';
import {
  conntrackCommand,
  createConntrackTable,
  ctConfirm,
  ctLookupOrCreate,
  type CtPacket,
  type CtTable,
} from './index';
import { fixedRng, walk, type NatRules } from './testing';

const PFX = 'conntrack v1.4.7 (conntrack-tools): ';
const EMPTY_LINE =
  'found=0 invalid=0 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=0 clash_resolve=0 chaintoolong=0 \n';

const tcp = (sport: number, flags: NonNullable<CtPacket['tcpFlags']>): CtPacket => ({
  src: '10.0.0.1',
  dst: '10.0.0.2',
  sport,
  dport: 8080,
  proto: 'tcp',
  tcpFlags: flags,
});
const udp = (src: string, sport: number): CtPacket => ({
  src,
  dst: '10.0.0.2',
  sport,
  dport: 7000,
  proto: 'udp',
});
const snat3to1: NatRules = {
  POSTROUTING: (p) => (p.src === '10.0.0.3' ? { addr: '10.0.0.1' } : undefined),
};

const stats = (t: CtTable): string => conntrackCommand(t, ['-S'], 0).stdout;

describe('conntrack -S', () => {
  it('prints one line per CPU of a 2-CPU node, `cpu=%-4u\\t` and `name=%u ` fields', () => {
    expect(stats(createConntrackTable())).toBe(`cpu=0   \t${EMPTY_LINE}cpu=1   \t${EMPTY_LINE}`);
  });

  it('counts invalid packets, refused ICMP errors and NAT tuples found taken, all on cpu=0', () => {
    const t = createConntrackTable();
    const rng = fixedRng([]);
    // SYN|RST (tcp_error) and a lone RST (tcp_new) are not tracked: invalid=2.
    walk(t, 'local-out', tcp(41000, { syn: true, rst: true }), 0, rng);
    walk(t, 'local-out', tcp(41001, { rst: true }), 0, rng);
    // Port unreachable about a UDP flow that does not exist: icmp_error_message, error=1.
    const unreachable: CtPacket = {
      src: '10.0.0.1',
      dst: '10.0.0.2',
      proto: 'icmp',
      icmpType: 3,
      icmpCode: 3,
      icmpInner: { src: '10.0.0.2', dst: '10.0.0.1', proto: 'udp', sport: 7000, dport: 41002 },
    };
    walk(t, 'local-out', unreachable, 0, rng);
    // 10.0.0.3:40000 SNAT'd onto 10.0.0.1, whose port 40000 is taken: found=1.
    for (const [src, sport] of [
      ['10.0.0.1', 40000],
      ['10.0.0.1', 40001],
      ['10.0.0.3', 40000],
    ] as const)
      // prettier-ignore
      walk(t, 'local-out', udp(src, sport), 0, rng, snat3to1);
    expect(stats(t)).toBe(
      'cpu=0   \tfound=1 invalid=2 insert=0 insert_failed=0 drop=0 early_drop=0 error=1 search_restart=0 clash_resolve=0 chaintoolong=0 \n' +
        `cpu=1   \t${EMPTY_LINE}`,
    );
    // Three flows confirmed, and still insert=0: the packet path does not count it on 6.x.
    expect(conntrackCommand(t, ['-C'], 0).stdout).toBe('3\n');
  });

  it('a fixed-port DNAT onto a taken reply tuple counts only the SNAT lookups', () => {
    // The clash flow of tests/kernel/conntrack.test.ts, where 6.18 printed found=2: DNAT to
    // 10.0.0.2:8080 has one candidate, looked up by nf_nat_used_tuple_harder() (a SYN, last
    // attempts: no count); the null SNAT binding then finds 10.0.0.1:40020 taken twice
    // (get_unique_tuple: the original tuple, then the best tuple) before a random port.
    const t = createConntrackTable();
    const rules: NatRules = {
      OUTPUT: (p) => (p.dst === '10.96.0.20' ? { addr: '10.0.0.2', port: 8080 } : undefined),
    };
    const rng = fixedRng([]);
    walk(t, 'local-out', tcp(40020, { syn: true }), 0, rng, rules);
    walk(t, 'local-out', { ...tcp(40020, { syn: true }), dst: '10.96.0.20', dport: 80 }, 0, rng, rules); // prettier-ignore
    expect(t.stats.found).toBe(2);
  });

  it('an entry that clashes at confirmation counts insert_failed and drop', () => {
    const t = createConntrackTable();
    // Two packets of one flow both miss the hash before either is confirmed (two CPUs racing).
    const first = ctLookupOrCreate(t, tcp(40000, { syn: true }), 0);
    const second = ctLookupOrCreate(t, tcp(40000, { syn: true }), 0);
    if (first.kind !== 'tracked' || second.kind !== 'tracked') throw new Error('untracked');
    expect(ctConfirm(t, first.entry, 0).ok).toBe(true);
    expect(ctConfirm(t, second.entry, 0).ok).toBe(false);
    expect(t.stats).toMatchObject({ insert_failed: 1, drop: 1, insert: 0, clash_resolve: 0 });
  });

  it('says on stderr what the lab does not count', () => {
    const r = conntrackCommand(createConntrackTable(), ['--stats'], 0);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^lab: .*cpu=0.*early_drop, search_restart, clash_resolve/);
  });

  it('`-S expect` prints the expectation counters; the lab has no helpers, so they are 0', () => {
    const line = 'expect_new=0 expect_create=0 expect_delete=0 \n';
    expect(conntrackCommand(createConntrackTable(), ['-S', 'expect'], 0)).toEqual({
      stdout: `cpu=0   \t${line}cpu=1   \t${line}`,
      stderr: '',
      exitCode: 0,
    });
  });

  it('refuses options as the tool does (commands_v_options: -S takes none)', () => {
    expect(conntrackCommand(createConntrackTable(), ['-S', '-p', 'tcp'], 0)).toEqual({
      stdout: '',
      stderr: `${PFX}Illegal option \`--protonum' with this command\nTry \`conntrack -h' or 'conntrack --help' for more information.\n`,
      exitCode: 2,
    });
    expect(conntrackCommand(createConntrackTable(), ['-S', 'dying'], 0).stderr).toBe(
      `${PFX}Can't do that command with tables \`dying' and \`unconfirmed'\nTry \`conntrack -h' or 'conntrack --help' for more information.\n`,
    );
  });
});

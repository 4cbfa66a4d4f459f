/**
 * Differential test: `ipset create|add|del|test|list` with CIDRs, ranges, ports, families and
 * hash:net, the lab's engine against ipset v7.17 and the kernel's ip_set modules in a throwaway
 * network namespace. Every command runs on both sides in order; stdout, stderr and the exit
 * status must match. After each create the kernel's random initval is read back (`list -t`) and
 * given to the engine's set, so the member order (jhash buckets) and "Size in memory" compare
 * too. The expected texts are the real tool's: nothing here is written down by hand, except
 * the lab notes for what the lab refuses (IPv6 sets, unmodelled types).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createIpsetState, runIpset, type IpsetEnv } from '../../src/engine/ipset';
import { labNote } from '../../src/engine/model/lab-notes';
import { netnsUnavailableReason, withNetns } from './netns';

const reason = netnsUnavailableReason();
const hasIpset = spawnSync('sh', ['-c', 'command -v ipset']).status === 0;

/** The comparison the task started from, in its order. */
const BRIEF_CASES = `
create Z hash:ip
add Z garbage
add Z 1.2.3.4
add Z 1.2.3.4
add Z 1.2.3.4 -exist
add Z 1.2.3.0/24
add Z 300.1.1.1
add Z fd00::1
create Y hash:ip,port
add Y 1.2.3.4,foo
add Y 1.2.3.4,tcp:99999
add Y 1.2.3.4
add Y 1.2.3.4,udp:53
add Y 1.2.3.4,sctp:80
add Y 1.2.3.4,80
create W hash:ip family inet
create V hash:ip family foo
create U hash:ip hashsize 2048 maxelem 10
create T bitmap:port range 0-1024
create S hash:net
add S 10.0.0.0/33
add S 10.0.0.0/0
del Z 9.9.9.9
test Z 1.2.3.4
test Z 9.9.9.9
list -n
list W
destroy NOPE
list Z
list Y
flush Z
list Z
`;

/** More forms found by trying the real tool. */
const MORE_CASES = `
create M hash:ip maxelem 6
add M 0.0.0.0
add M 0.0.0.0/30
add M 1.2.3.1-1.2.3.3
add M 1.2.3.9-1.2.3.7
add M 1.2.3.5/31
add M 1.2.3.5/31 -exist
add M 10.0.0.0/foo
add M 10.0.0.0-foo
add M 10.0.0.0/-1
add M 10.0.0.0/8/8
add M 10.0.0.0/
add M /8
list M
test M 1.2.3.1-1.2.3.3
test M 1.2.3.4/30
test M 1.2.3.9-1.2.3.7
test M 1.2.3.8/32
del M 1.2.3.1-1.2.3.5
del M 1.2.3.1-1.2.3.5 -exist
list M
add Y 1.2.3.4,tcp:foo
add Y 1.2.3.4,bar:80
add Y 1.2.3.4,udp:-1
add Y 1.2.3.4,65536
add Y 1.2.3.4,http
add Y 1.2.3.4,tcp:http
add Y 1.2.3.4,tcp:
add Y 1.2.3.4,
add Y 1.2.3.4,udp
add Y 1.2.3.4,tcp:80-78
add Y 1.2.3.0/31,8080
add Y foo,80
test Y 1.2.3.1,8080
test Y 1.2.3.1,udp:8080
test Y 1.2.3.4,http
test Y 1.2.3.4,80-82
test Y 1.2.3.0/31,8080
list Y
add S 10.0.0.0/8
add S 10.1.2.3
add S 10.1.2.3/24
add S 192.168.1.0/24
add S 10.0.0.0/32
add S 10.0.0.1-10.0.0.6
add S 0.0.0.0
add S 10.0.0.0/8
test S 10.9.9.9
test S 10.0.0.0/8
test S 10.0.0.0/9
test S 11.0.0.0
test S 10.1.2.3/24
test S 10.0.0.0/32
test S 10.0.0.0-10.0.0.5
add S garbage
add S 10.0.0.0/8,foo
list S
save S
del S 10.0.0.0/8
del S 10.0.0.0/8
list S
create R hash:net family inet hashsize 64 maxelem 100
list R
create Q hash:ip family
create X2 hash:ip family INET
create X3 hash:ip family ipv4
create X4 hash:ip -4
create X5 hash:ip family inet family inet
create B bitmap:port range 0-1024
add B udp:80
add B 0-2000
add B 1020-1030
add B 100-102
add B foo
add B tcp:99999
test B udp:80
test B 100-102
test B 5
list B
create B2 bitmap:port
create PP hash:ip,port,ip
add PP 1.2.3.4,80,5.6.7.8
add PP 1.2.3.4,foo,5.6.7.8
add PP 1.2.3.0/30,80,5.6.7.8
add PP 1.2.3.4,80,5.6.7.0/30
list PP
create PN hash:ip,port,net
add PN 1.2.3.4,80,5.6.7.0/0
add PN 1.2.3.4,80,5.6.7.0/33
add PN 1.2.3.0/31,80,5.6.7.0/24
test PN 1.2.3.1,80,5.6.7.9
add PN 1.2.3.4,80,10.0.0.9/32
add PN 1.2.3.4,80,10.0.0.8/31
add PN 1.2.3.4,80,10.0.0.1-10.0.0.6
test PN 1.2.3.4,80,10.0.0.9/32
test PN 1.2.3.4,80,10.0.0.5
save PN
list PN
list -n
`;

/** Odd options and arguments: numbers in C notation, usage errors, bitmap ranges by name. */
const ODD_CASES = `
create OA hash:ip hashsize foo
create OA hash:ip hashsize 0
create OA hash:ip maxelem foo
create OA hash:ip maxelem 0
create OA hash:ip initval zz
create OA hash:ip bucketsize 4
create OA hash:ip family
create OB bitmap:port range 5-1
create OB bitmap:port range foo
create OB bitmap:port range 1-70000
create OB bitmap:port family inet range 1-10
create OC hash:net maxelem 2
add OC 10.0.0.0/30
add OC 10.0.0.1-10.0.0.9
list OC
test OC
add OC 10.0.0.0/8 -exist
add OC 1.2.3.4,udp:1-3
create OD hash:ip,port,ip
add OD 1.2.3.4,tcp:80,1.1.1.1-1.1.1.3
test OD 1.2.3.4,tcp:80-81,1.1.1.1
add OD 1.2.3.4,80
create OE hash:ip,port,net
add OE 1.2.3.4,80,10.0.0.1-10.0.0.6
add OE 1.2.3.4,80,10.0.0.9
list OE
test OE 1.2.3.4,80,10.0.0.5
test OE 1.2.3.4,80,10.0.0.0-10.0.0.3
test OE 1.2.3.4,80,10.0.0.0/30
create OA hash:ip foo 1
create OA hash:ip hashsize 0
list -t OA
create OA2 hash:ip maxelem 0 hashsize 100000000
list -t OA2
create OA3 hash:ip initval 17 maxelem 0x10
list -t OA3
add OA
del OA
add
create OB bitmap:port range 10
create OB2 bitmap:port range 10-5
list -t OB2
create OB3 bitmap:port range http-https
list -t OB3
create OE hash:ip,port,net
add OE 1.2.3.4,80,10.0.0.9/32
add OE 1.2.3.4,80,10.0.0.8/31
save OE
test OE 1.2.3.4,80,10.0.0.9/32
test OE 1.2.3.4,80,10.0.0.9
create
create OA
create OA hash:ip maxelem 99999999999
create OA hash:ip maxelem -1
create OA hash:ip hashsize 0x
create OA hash:ip maxelem 010
list -t OA
create OB bitmap:port range 1-foo
create OB bitmap:port range -5
create OB bitmap:port range 5-
create OB bitmap:port range udp:5-6
test
create OC hash:ip family inet6 foo
create OD hash:ip family inet6 family
`;

const parse = (text: string): string[][] =>
  text
    .trim()
    .split('\n')
    .map((l) => l.split(' '));

function compare(cases: string[][]): void {
  const state = createIpsetState();
  const initvals = new Map<string, number>();
  const env: IpsetEnv = { references: () => 0, initval: (name) => initvals.get(name) ?? 0 };
  withNetns((run) => {
    for (const argv of cases) {
      const real = run(['ipset', ...argv]);
      if (argv[0] === 'create' && real.exitCode === 0) {
        const head = run(['ipset', 'list', '-t', argv[1]!]).stdout;
        const initval = /initval (0x[0-9a-f]+)/.exec(head)?.[1];
        if (initval !== undefined) initvals.set(argv[1]!, Number(initval));
      }
      const engine = runIpset(state, env, argv);
      const label = `ipset ${argv.join(' ')}`;
      expect.soft(engine.stdout, `${label}: stdout`).toBe(real.stdout);
      expect.soft(engine.stderr, `${label}: stderr`).toBe(real.stderr);
      expect.soft(engine.exitCode, `${label}: exit status`).toBe(real.exitCode);
    }
  });
}

describe.skipIf(reason !== undefined || !hasIpset)('ipset elements against the real tool', () => {
  it('the brief’s cases read the same', () => compare(parse(BRIEF_CASES)));
  it('CIDRs, ranges, ports, families, hash:net and bitmap:port read the same', () =>
    compare(parse(BRIEF_CASES).concat(parse(MORE_CASES))));
  it('odd options and arguments read the same', () => compare(parse(ODD_CASES)));
  it('past maxelem: a set of several lock regions still takes elements that land in emptier ones', () => {
    // mtype_add checks the element's region against maxelem / regions before the whole set.
    const cases = [
      ['create', 'Z', 'hash:ip', 'initval', '0x12345678'],
      ['add', 'Z', '10.0.0.0/16'],
      ...Array.from({ length: 60 }, (_, i) => ['add', 'Z', `10.1.0.${i}`]),
      ['list', '-t', 'Z'],
      ['create', 'Q', 'hash:ip,port', 'initval', '0x9b3e3db2', 'maxelem', '3000'],
      ['add', 'Q', '10.0.0.0/24,80-100'],
      ...Array.from({ length: 30 }, (_, i) => ['add', 'Q', `10.2.0.${i},tcp:1`]),
      ['list', '-t', 'Q'],
    ];
    compare(cases);
  });
});

describe('what the lab refuses, it says so', () => {
  const env: IpsetEnv = { references: () => 0, initval: () => 0 };
  it('an IPv6 set: a lab note, not "Unknown argument" (the real tool creates it)', () => {
    for (const argv of [
      ['create', 'X', 'hash:ip', 'family', 'inet6'],
      ['create', 'X', 'hash:net', '-6'],
    ]) {
      const r = runIpset(createIpsetState(), env, argv);
      expect(r).toEqual({ stdout: '', stderr: labNote('ipset.inet6'), exitCode: 1 });
    }
  });

  it('a set type ipset knows but the lab does not model: a lab note naming it', () => {
    const r = runIpset(createIpsetState(), env, ['create', 'N', 'hash:net,port']);
    expect(r.stderr).toMatch(/^lab: ipset set type hash:net,port is not modelled/);
    expect(r.exitCode).toBe(1);
  });

  it('a walk over 2^31 addresses is refused with a lab note, not run', () => {
    const state = createIpsetState();
    runIpset(state, env, ['create', 'Z', 'hash:ip', 'maxelem', '4294967295']);
    const r = runIpset(state, env, ['add', 'Z', '10.0.0.0/1']);
    expect(r.stderr).toMatch(/^lab: 10\.0\.0\.0\/1 holds 2147483648 addresses/);
  });
});

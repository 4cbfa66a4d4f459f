/**
 * The packet test iptables' `-m set --match-set NAME src` makes (testTuple) for hash:net and
 * hash:ip,port,net: a packet's address matches a network the set holds at any prefix, longest
 * first (ip_set_hash_gen.h mtype_test_cidrs). The same answers as `ipset test` gives on the
 * real tool (tests/kernel/ipset-elements.test.ts: "test S 10.9.9.9" is in a set holding 10.0.0.0/8).
 */
import { describe, expect, it } from 'vitest';
import { createIpsetState, findSet, runIpset, testTuple, type IpsetEnv } from './index';

const env: IpsetEnv = { references: () => 0, initval: () => 0x12345678 };

function setWith(type: string, elements: string[]) {
  const state = createIpsetState();
  expect(runIpset(state, env, ['create', 'S', type]).stderr).toBe('');
  for (const e of elements) expect(runIpset(state, env, ['add', 'S', e]).stderr).toBe('');
  return findSet(state, 'S')!;
}

describe('testTuple: packets against network sets', () => {
  it('hash:net: an address inside any of the networks matches', () => {
    const set = setWith('hash:net', ['10.0.0.0/8', '192.168.1.0/24', '172.16.0.1']);
    expect(testTuple(set, { ip: '10.9.9.9' })).toBe(true);
    expect(testTuple(set, { ip: '192.168.1.77' })).toBe(true);
    expect(testTuple(set, { ip: '172.16.0.1' })).toBe(true);
    expect(testTuple(set, { ip: '172.16.0.2' })).toBe(false);
    expect(testTuple(set, { ip: '11.0.0.1' })).toBe(false);
  });

  it('hash:ip,port,net: the third address is matched against the stored networks', () => {
    const set = setWith('hash:ip,port,net', ['203.0.113.10,tcp:80,198.51.100.0/24']);
    const packet = { ip: '203.0.113.10', proto: 'tcp', port: 80 };
    expect(testTuple(set, { ...packet, ip2: '198.51.100.9' })).toBe(true);
    expect(testTuple(set, { ...packet, ip2: '198.51.101.9' })).toBe(false);
    expect(testTuple(set, { ...packet, port: 81, ip2: '198.51.100.9' })).toBe(false);
  });
});

/**
 * libxtables' number and address readers (xt-addr.ts, ext.ts strtoui()). The expected values
 * are what iptables 1.8.9 stored for the same arguments on the kernel
 * (tests/kernel/iptables-addresses.test.ts runs them there), or, for strtoui() alone,
 * strtoumax()'s rules in base 0 (C11 7.22.1.4): leading blanks and a sign, `0x` hex, `0` octal.
 */
import { describe, expect, it } from 'vitest';
import { createNetfilter, iptablesCommand } from './index';
import { strtoui } from './ext';
import { xtHostNetwork, xtNumericToIpaddr, xtParseIpmask } from './xt-addr';

describe('strtoui (xtables_strtoui, base 0)', () => {
  it.each([
    ['10', 10],
    ['010', 8],
    ['0x1f', 31],
    ['0X1F', 31],
    ['0', 0],
    [' 7', 7],
    ['+7', 7],
    ['-0', 0],
  ])('reads %j as %d', (text, value) => {
    expect(strtoui(text)).toBe(value);
  });

  it.each(['', ' ', '08', '0x', '0xg', '1a', '7 ', '-1', '+', '99999999999999999999'])(
    'refuses %j',
    (text) => {
      expect(strtoui(text)).toBeUndefined();
    },
  );

  it('keeps to [min, max]', () => {
    expect(strtoui('256', 0, 255)).toBeUndefined();
    expect(strtoui('255', 0, 255)).toBe(255);
    expect(strtoui('3', 5, 9)).toBeUndefined();
  });
});

describe('xtables_numeric_to_ipaddr', () => {
  it.each([
    ['10.1', '10.1.0.0'],
    ['10.1.2', '10.1.2.0'],
    ['1', '1.0.0.0'],
    ['010.0x10.0.1', '8.16.0.1'],
    ['+10.1', '10.1.0.0'],
    // Only the first 19 characters are read (a 20-byte buffer): 10.0.0.000000000000.
    ['10.0.0.00000000000000001', '10.0.0.0'],
  ])('reads %j as %s', (text, addr) => {
    expect(xtNumericToIpaddr(text)).toBe(addr);
  });

  it.each(['', '256.1', '10..1', '1.2.3.4.5', '08.1.1.1', 'x'])('refuses %j', (text) => {
    expect(xtNumericToIpaddr(text)).toBeUndefined();
  });

  it("knows a Debian node's /etc/networks and /etc/hosts names, and no others", () => {
    expect(xtHostNetwork('default')).toBe('0.0.0.0');
    expect(xtHostNetwork('loopback')).toBe('127.0.0.0');
    expect(xtHostNetwork('link-local')).toBe('169.254.0.0');
    expect(xtHostNetwork('localhost')).toBe('127.0.0.1');
    expect(() => xtHostNetwork('toString')).toThrow("host/network `toString' not found");
  });

  it('reads masks dotted (all four parts) or as a prefix length', () => {
    expect(xtParseIpmask('255.255.0.0')).toEqual({ prefix: 16 });
    expect(xtParseIpmask('0x10')).toEqual({ prefix: 16 });
    expect(xtParseIpmask('255.0.255.0')).toEqual({ dotted: '255.0.255.0' });
    expect(() => xtParseIpmask('255.255')).toThrow("invalid mask `255.255' specified");
    expect(() => xtParseIpmask('33')).toThrow("invalid mask `33' specified");
  });
});

describe('a netmask that is not contiguous', () => {
  it('gets the lab note (the real tool keeps it as 10.0.0.0/255.0.255.0)', () => {
    const state = createNetfilter();
    const r = iptablesCommand(state, ['-A', 'INPUT', '-s', '10.0.0.0/255.0.255.0', '-j', 'DROP']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('lab: a netmask whose bits are not contiguous (255.0.255.0)');
    expect(state.tables.filter).toBeUndefined();
  });
});

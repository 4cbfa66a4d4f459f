import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base32Encode,
  endpointChainName,
  nftEndpointChainNameBase,
  nftServicePortChainNameBase,
  servicePortChainName,
  sha256,
  utf8Encode,
} from './hash';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('sha256', () => {
  it('matches the FIPS 180-4 test vectors', () => {
    expect(hex(sha256(utf8Encode('')))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(hex(sha256(utf8Encode('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('agrees with node:crypto on arbitrary byte strings (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(hex(sha256(bytes))).toBe(createHash('sha256').update(bytes).digest('hex'));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with node:crypto on strings, UTF-8 encoded like Go []byte(s) (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
        expect(hex(sha256(utf8Encode(text)))).toBe(
          createHash('sha256').update(text, 'utf8').digest('hex'),
        );
      }),
    );
  });
});

describe('base32Encode (RFC 4648 std, padded)', () => {
  it.each([
    ['', ''],
    ['f', 'MY======'],
    ['fo', 'MZXQ===='],
    ['foo', 'MZXW6==='],
    ['foob', 'MZXW6YQ='],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI======'],
  ])('%j → %j (RFC 4648 §10)', (input, expected) => {
    expect(base32Encode(utf8Encode(input))).toBe(expected);
  });

  it('encodes a 32-byte digest as 52 characters + 4 padding', () => {
    expect(base32Encode(new Uint8Array(32))).toMatch(/^A{52}====$/);
  });
});

describe('chain names (pkg/proxy/iptables/proxier.go portProtoHash)', () => {
  // Names seen on real clusters and in proxier_test.go expected dumps.
  it.each([
    ['default/kubernetes:https', 'TCP', 'KUBE-SVC-NPX46M4PTMTKRN6Y'],
    ['kube-system/kube-dns:dns', 'UDP', 'KUBE-SVC-TCOU7JCQXEZGVUNU'],
    ['kube-system/kube-dns:dns-tcp', 'TCP', 'KUBE-SVC-ERIFXISQEP7F7OF4'],
    ['kube-system/kube-dns:metrics', 'TCP', 'KUBE-SVC-JD5MR3NA4I4DYORP'],
    ['ns1/svc1:p80', 'TCP', 'KUBE-SVC-XPGD46QRK7WJZT7O'],
    ['ns2/svc2:p80', 'tcp', 'KUBE-SVC-GNZBNJ2PO5MGZ6GT'],
    ['ns5/svc5:p80', 'TCP', 'KUBE-SVC-NUKIZ6OKUXPJNT4C'],
  ])('%s %s → %s', (name, proto, expected) => {
    expect(servicePortChainName('KUBE-SVC-', name, proto)).toBe(expected);
  });

  it('SVL, EXT and FW share the SVC hash', () => {
    const h = 'XPGD46QRK7WJZT7O';
    expect(servicePortChainName('KUBE-SVL-', 'ns1/svc1:p80', 'TCP')).toBe(`KUBE-SVL-${h}`);
    expect(servicePortChainName('KUBE-EXT-', 'ns1/svc1:p80', 'TCP')).toBe(`KUBE-EXT-${h}`);
    expect(servicePortChainName('KUBE-FW-', 'ns1/svc1:p80', 'TCP')).toBe(`KUBE-FW-${h}`);
  });

  it.each([
    ['ns1/svc1:p80', 'TCP', '10.180.0.1:80', 'KUBE-SEP-SXIVWICOYRO3J4NJ'],
    ['kube-system/kube-dns:dns', 'UDP', '10.244.0.2:53', 'KUBE-SEP-YIL6JZP7A3QYXJU2'],
    ['kube-system/kube-dns:dns', 'UDP', '10.244.0.3:53', 'KUBE-SEP-6E7XQMQ4RAYOWTTM'],
    // The same endpoint under two service ports gives two chains.
    ['ns3/svc3:p80', 'TCP', '10.180.0.3:80', 'KUBE-SEP-OYPFS5VJICHGATKP'],
    ['ns5/svc5:p80', 'TCP', '10.180.0.3:80', 'KUBE-SEP-I77PXRDZVX7PMWMN'],
  ])('SEP %s %s %s → %s', (name, proto, ep, expected) => {
    expect(endpointChainName(name, proto, ep)).toBe(expected);
  });
});

describe('chain-name hashing fast path (one-block ASCII inputs)', () => {
  const expected = (text: string): string =>
    base32Encode(createHash('sha256').update(text, 'utf8').digest()).slice(0, 16);

  it('agrees with node:crypto around the one-block limit (55 bytes) and for non-ASCII (property)', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 70 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.integer({ min: 50, max: 60 }).map((n) => 'x'.repeat(n)),
    );
    fc.assert(
      fc.property(text, fc.constantFrom('TCP', 'UDP'), text, (name, proto, ep) => {
        const sep = endpointChainName(name, proto, ep);
        expect(sep).toBe('KUBE-SEP-' + expected(name + proto.toLowerCase() + ep));
        const svc = servicePortChainName('KUBE-SVC-', name, proto);
        expect(svc).toBe('KUBE-SVC-' + expected(name + proto.toLowerCase()));
      }),
      { numRuns: 500 },
    );
  });
});

describe('nftables names (pkg/proxy/nftables/proxier.go hashAndTruncate)', () => {
  it('service-ULMVA6XW-ns1/svc1/tcp/p80 (nftables proxier_test.go)', () => {
    expect('service-' + nftServicePortChainNameBase('ns1', 'svc1', 'TCP', 'p80')).toBe(
      'service-ULMVA6XW-ns1/svc1/tcp/p80',
    );
  });
  it('endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 (nftables proxier.go comment)', () => {
    expect(
      'endpoint-' + nftEndpointChainNameBase('ns1', 'svc1', 'TCP', 'p80', '10.180.0.1:80'),
    ).toBe('endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80');
  });
});

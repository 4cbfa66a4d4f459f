import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kubeProxyConfig } from '../testing/fixtures';
import { computeProbability, formatFixedGo, localDetectorFor, masqueradeMark } from './format';

describe('computeProbability (fmt.Sprintf("%0.10f", 1/n))', () => {
  // proxier_test.go TestComputeProbability and the statistic ladder in expected dumps.
  it.each([
    [1, '1.0000000000'],
    [2, '0.5000000000'],
    [3, '0.3333333333'],
    [4, '0.2500000000'],
    [5, '0.2000000000'],
    [6, '0.1666666667'],
    [7, '0.1428571429'],
    [8, '0.1250000000'],
    [9, '0.1111111111'],
    [10, '0.1000000000'],
    [1000, '0.0010000000'],
  ])('n=%i → %s', (n, expected) => {
    expect(computeProbability(n)).toBe(expected);
  });

  it('rounds an exact tie to even like Go (1/2048 = 0.00048828125)', () => {
    expect(computeProbability(2048)).toBe('0.0004882812');
    expect((1 / 2048).toFixed(10)).toBe('0.0004882813'); // what JS toFixed would say
  });

  it('equals toFixed wherever the double is not an exact decimal midpoint (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), (n) => {
        fc.pre(n !== 2048);
        expect(computeProbability(n)).toBe((1 / n).toFixed(10));
      }),
      { numRuns: 2000 },
    );
  });

  it('formats other precisions', () => {
    expect(formatFixedGo(0.5, 0)).toBe('0');
    expect(formatFixedGo(1.5, 0)).toBe('2');
    expect(formatFixedGo(2.5, 0)).toBe('2');
    expect(formatFixedGo(123.456, 2)).toBe('123.46');
  });
});

describe('masqueradeMark (fmt.Sprintf("%#08x", 1<<bit))', () => {
  it('pads the digits to 8 and then adds 0x', () => {
    expect(masqueradeMark(14)).toBe('0x00004000');
    expect(masqueradeMark(0)).toBe('0x00000001');
    expect(masqueradeMark(31)).toBe('0x80000000');
  });
});

describe('localDetectorFor (cmd/kube-proxy/app/server_linux.go getLocalDetectors)', () => {
  it('ClusterCIDR: first IPv4 CIDR, printed as a network', () => {
    const d = localDetectorFor(kubeProxyConfig({ clusterCIDR: '10.244.1.7/16,fd00::/64' }), '');
    expect(d).toEqual({
      ifLocal: ['-s', '10.244.0.0/16'],
      ifNotLocal: ['!', '-s', '10.244.0.0/16'],
    });
  });
  it('ClusterCIDR without a clusterCIDR is the no-op detector', () => {
    expect(localDetectorFor(kubeProxyConfig({ clusterCIDR: '' }), '10.244.1.0/24').ifLocal).toEqual(
      [],
    );
  });
  it('NodeCIDR uses the node podCIDR', () => {
    const d = localDetectorFor(kubeProxyConfig({ detectLocalMode: 'NodeCIDR' }), '10.244.1.0/24');
    expect(d.ifNotLocal).toEqual(['!', '-s', '10.244.1.0/24']);
  });
  it('BridgeInterface and InterfaceNamePrefix match the input interface', () => {
    const br = localDetectorFor(
      kubeProxyConfig({ detectLocalMode: 'BridgeInterface', bridgeInterface: 'cni0' }),
      '',
    );
    expect(br).toEqual({ ifLocal: ['-i', 'cni0'], ifNotLocal: ['!', '-i', 'cni0'] });
    const pre = localDetectorFor(
      kubeProxyConfig({ detectLocalMode: 'InterfaceNamePrefix', interfaceNamePrefix: 'veth' }),
      '',
    );
    expect(pre).toEqual({ ifLocal: ['-i', 'veth+'], ifNotLocal: ['!', '-i', 'veth+'] });
  });
});

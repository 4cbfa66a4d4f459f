// Byte-for-byte checks against the real iproute2 6.1 live in tests/kernel/ip-views.test.ts;
// these pin the argument handling and errors (taken from the same tool's runs).
import { describe, expect, it } from 'vitest';
import { cluster, node, pod } from '../../../tests/helpers/cluster-fixtures';
import { runIp } from './ip-command';
import { hostNetwork, withDummyInterface } from './topology';

const lab = cluster({
  nodes: [node('node-1', '192.168.1.10', '10.244.0.0/24')],
  pods: [pod('web-1', 'node-1', '10.244.0.2')],
});
const nodeNet = hostNetwork(lab, { kind: 'node', name: 'node-1' })!;
const ip = (...args: string[]) => runIp(nodeNet, args);

describe('ip', () => {
  it("prints routes with iproute2's trailing spaces", () => {
    expect(ip('route').stdout).toBe(
      'default via 192.168.1.1 dev eth0 \n10.244.0.0/24 dev cni0 proto kernel scope link src 10.244.0.1 \n192.168.1.0/24 dev eth0 proto kernel scope link src 192.168.1.10 \n',
    );
    expect(ip('r', 's', 'dev', 'eth0').stdout).toBe(
      'default via 192.168.1.1 \n192.168.1.0/24 proto kernel scope link src 192.168.1.10 \n',
    );
  });

  it('answers route get from the local table, then by longest prefix', () => {
    expect(ip('route', 'get', '10.96.0.1').stdout).toBe(
      '10.96.0.1 via 192.168.1.1 dev eth0 src 192.168.1.10 uid 0 \n    cache \n',
    );
    expect(ip('route', 'get', '10.244.0.1').stdout).toBe(
      'local 10.244.0.1 dev lo src 10.244.0.1 uid 0 \n    cache <local> \n',
    );
    expect(ip('route', 'get', '10.244.0.2').stdout).toBe(
      '10.244.0.2 dev cni0 src 10.244.0.1 uid 0 \n    cache \n',
    );
  });

  it('prints lo as iproute2 does', () => {
    expect(ip('addr', 'show', 'lo').stdout).toBe(
      '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n' +
        '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n' +
        '    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n' +
        '    inet6 ::1/128 scope host \n       valid_lft forever preferred_lft forever\n',
    );
  });

  it("uses iproute2's errors and exit statuses", () => {
    expect(ip('addr', 'show', 'foo')).toEqual({
      stdout: '',
      stderr: 'Device "foo" does not exist.\n',
      exitCode: 1,
    });
    expect(ip('foo')).toEqual({
      stdout: '',
      stderr: 'Object "foo" is unknown, try "ip help".\n',
      exitCode: 1,
    });
    expect(ip('addr', 'frob')).toEqual({
      stdout: '',
      stderr: 'Command "frob" is unknown, try "ip address help".\n',
      exitCode: 255,
    });
    expect(ip('-x', 'addr')).toEqual({
      stdout: '',
      stderr: 'Option "-x" is unknown, try "ip -help".\n',
      exitCode: 255,
    });
    expect(ip('route', 'get')).toEqual({
      stdout: '',
      stderr: 'need at least a destination address\n',
      exitCode: 1,
    });
    expect(ip('route', 'get', 'abc').stderr).toBe(
      'Error: any valid prefix is expected rather than "abc".\n',
    );
    expect(ip().stderr).toMatch(/^Usage: ip \[ OPTIONS \] OBJECT/);
    expect(ip('-V').stdout).toBe('ip utility, iproute2-6.1.0, libbpf 1.1.2\n');
  });

  it('selects links by kind, master and admin state (values from iproute2 6.1 runs)', () => {
    const names = (...args: string[]) =>
      [...ip(...args).stdout.matchAll(/^\d+: (\S+?)[:@]/gm)].map((m) => m[1]);
    expect(names('link', 'show', 'type', 'bridge')).toEqual(['cni0']);
    expect(names('link', 'show', 'type', 'bridge_slave')).toEqual([names('link')[3]]);
    expect(names('link', 'show', 'master', 'cni0')).toEqual(names('link', 'show', 'type', 'veth'));
    expect(names('link', 'show', 'nomaster')).toEqual(['lo', 'eth0', 'cni0']);
    expect(ip('link', 'show', 'type', 'tun')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    // kube-ipvs0 is never set up: `up` leaves it out; its ClusterIPs are still local routes.
    const ipvs = withDummyInterface(nodeNet, 'kube-ipvs0', ['10.96.0.10']);
    expect(runIp(ipvs, ['link', 'show', 'up']).stdout).not.toContain('kube-ipvs0');
    expect(runIp(ipvs, ['link', 'show', 'type', 'dummy']).stdout).toContain('kube-ipvs0');
    expect(runIp(ipvs, ['route', 'show', 'table', 'local', 'dev', 'kube-ipvs0']).stdout).toBe(
      'local 10.96.0.10 proto kernel scope host src 10.96.0.10 \n',
    );
  });

  it('prints records on one line under -o', () => {
    expect(ip('-o', '-4', 'addr', 'show', 'lo').stdout).toBe(
      '1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n',
    );
    expect(ip('-o', 'link', 'show', 'lo').stdout).toBe(
      '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\\    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n',
    );
  });

  it('refuses selectors and tables as iproute2 does, and names what the lab does not model', () => {
    expect(ip('link', 'show', 'master', 'nosuch')).toEqual({
      stdout: '',
      stderr: 'Error: argument "nosuch" is wrong: Device does not exist\n\n',
      exitCode: 255,
    });
    expect(ip('route', 'show', 'table', 'foo').stderr).toBe(
      'Error: argument "foo" is wrong: table id value is invalid\n\n',
    );
    expect(ip('route', 'show', 'table', '100')).toEqual({
      stdout: '',
      stderr: 'Error: ipv4: FIB table does not exist.\nDump terminated\n',
      exitCode: 2,
    });
    for (const words of [
      ['addr', 'show', 'label', 'eth0'],
      ['link', 'show', 'group', '0'],
      ['addr', 'show', 'permanent'],
    ])
      expect(ip(...words).stderr).toMatch(/^lab: .* is not modelled/);
  });

  it('says so instead of pretending to change the topology', () => {
    expect(ip('route', 'add', '10.0.0.0/8', 'via', '192.168.1.1').exitCode).toBe(2);
    expect(ip('link', 'set', 'eth0', 'down').stderr).toMatch(
      /^lab: `ip link set eth0 down` is not modelled/,
    );
    expect(ip('l', 's', 'lo')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});

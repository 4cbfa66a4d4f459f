// `ip neigh` over given entries: the expected texts and exit statuses are iproute2 6.1.0's own,
// from runs in a throwaway namespace on this machine (a bridge cni0 10.244.0.1/24 with a veth to
// a second namespace holding 10.244.0.4, MAC 0a:58:0a:f4:00:04; one ping to it, one to the
// unanswered 10.244.0.99). tests/kernel/ip-neigh.test.ts compares the lab with such a run.
import { describe, expect, it } from 'vitest';
import { cluster, node } from '../../../tests/helpers/cluster-fixtures';
import { labNote } from '../model/lab-notes';
import { runIp } from './ip-command';
import type { NeighbourRow } from './ip-neigh';
import { hostNetwork } from './topology';

const lab = cluster({ nodes: [node('node-1', '192.168.1.10', '10.244.0.0/24')], pods: [] });
const nodeNet = hostNetwork(lab, { kind: 'node', name: 'node-1' })!;

const ROWS: NeighbourRow[] = [
  { dst: '10.244.0.4', dev: 'cni0', state: 'REACHABLE', lladdr: '0a:58:0a:f4:00:04' },
  // A FAILED entry keeps no lladdr in a dump (neigh_fill_info: NUD_VALID states only).
  { dst: '10.244.0.99', dev: 'cni0', state: 'FAILED', lladdr: '0a:58:0a:f4:00:63' },
  { dst: '10.244.0.7', dev: 'cni0', state: 'STALE', lladdr: '0a:58:0a:f4:00:07' },
  { dst: '10.244.0.8', dev: 'cni0', state: 'INCOMPLETE', lladdr: undefined },
];
const ip = (...args: string[]) => runIp(nodeNet, args, () => ROWS);
const NOTE = labNote('ip.neigh');

describe('ip neigh show', () => {
  it('prints ADDR dev DEV [lladdr MAC] STATE with trailing spaces, and the lab note', () => {
    expect(ip('neigh')).toEqual({
      stdout:
        '10.244.0.4 dev cni0 lladdr 0a:58:0a:f4:00:04 REACHABLE \n' +
        '10.244.0.99 dev cni0 FAILED \n' +
        '10.244.0.7 dev cni0 lladdr 0a:58:0a:f4:00:07 STALE \n' +
        '10.244.0.8 dev cni0 INCOMPLETE \n',
      stderr: NOTE,
      exitCode: 0,
    });
    // ip.c's object table: `n`, `neighbor` and `neighbour` are the same; `s`, `list`, `lst` show.
    for (const argv of [['n'], ['neighbor', 'show'], ['neighbour', 'list'], ['n', 'lst']])
      expect(ip(...argv).stdout).toBe(ip('neigh').stdout);
  });

  it('leaves `dev DEV` out under a dev filter and refuses a device the host lacks', () => {
    expect(ip('neigh', 'show', 'dev', 'cni0').stdout).toBe(
      '10.244.0.4 lladdr 0a:58:0a:f4:00:04 REACHABLE \n10.244.0.99 FAILED \n' +
        '10.244.0.7 lladdr 0a:58:0a:f4:00:07 STALE \n10.244.0.8 INCOMPLETE \n',
    );
    expect(ip('neigh', 'show', 'dev', 'eth0').stdout).toBe('');
    expect(ip('neigh', 'show', 'dev', 'nosuch')).toEqual({
      stdout: '',
      stderr: 'Cannot find device "nosuch"\n',
      exitCode: 1,
    });
    expect(ip('neigh', 'show', 'dev', 'lo', 'dev', 'lo').stderr).toBe(
      'Error: duplicate "dev": "lo" is the second value.\n',
    );
  });

  it('selects by nud state and by [to] prefix', () => {
    expect(ip('neigh', 'show', 'nud', 'failed').stdout).toBe('10.244.0.99 dev cni0 FAILED \n');
    expect(ip('neigh', 'show', 'nud', 'fail', 'nud', 'stale').stdout).toBe(
      '10.244.0.99 dev cni0 FAILED \n10.244.0.7 dev cni0 lladdr 0a:58:0a:f4:00:07 STALE \n',
    );
    expect(ip('neigh', 'show', 'nud', 'all').stdout).toBe(ip('neigh').stdout);
    expect(ip('neigh', 'show', '10.244.0.4').stdout).toBe(
      '10.244.0.4 dev cni0 lladdr 0a:58:0a:f4:00:04 REACHABLE \n',
    );
    expect(ip('neigh', 'show', 'to', '10.244.0.0/29').stdout).toBe(
      '10.244.0.4 dev cni0 lladdr 0a:58:0a:f4:00:04 REACHABLE \n' +
        '10.244.0.7 dev cni0 lladdr 0a:58:0a:f4:00:07 STALE \n',
    );
    // The lab's entries are all IPv4 (arp_tbl): -6 and an IPv6 prefix select none.
    expect(ip('-6', 'neigh').stdout).toBe('');
    expect(ip('neigh', 'show', 'fe80::/64').stdout).toBe('');
    expect(ip('-4', 'neigh').stdout).toBe(ip('neigh').stdout);
  });

  it("answers bad arguments with iproute2's words and exit statuses", () => {
    const refused = (stderr: string, exitCode: number) => ({ stdout: '', stderr, exitCode });
    expect(ip('neigh', 'show', 'nud', 'bogus')).toEqual(
      refused('Error: argument "bogus" is wrong: nud state is bad\n', 255),
    );
    expect(ip('neigh', 'show', 'nud', 'FAILED').exitCode).toBe(255); // strcmp: lower case only
    expect(ip('neigh', 'show', 'dev')).toEqual(
      refused('Command line is not complete. Try option "help"\n', 255),
    );
    expect(ip('neigh', 'show', 'bogus')).toEqual(
      refused('Error: any valid prefix is expected rather than "bogus".\n', 1),
    );
    expect(ip('neigh', 'show', '10.0.0.0/33').exitCode).toBe(1);
    expect(ip('-6', 'neigh', 'show', '10.0.0.1')).toEqual(
      refused('Error: inet6 prefix is expected rather than "10.0.0.1".\n', 1),
    );
    expect(ip('neigh', 'foo')).toEqual(
      refused('Command "foo" is unknown, try "ip neigh help".\n', 255),
    );
    expect(ip('neigh', 'flush')).toEqual(refused('Flush requires arguments.\n', 1));
  });

  it('says that changing the table is not modelled', () => {
    for (const argv of [
      ['neigh', 'add', '10.244.0.9', 'lladdr', '0a:58:0a:f4:00:09', 'dev', 'cni0'],
      ['neigh', 'del', '10.244.0.4', 'dev', 'cni0'],
      ['neigh', 'flush', 'dev', 'cni0'],
      ['neigh', 'get', '10.244.0.4', 'dev', 'cni0'],
    ]) {
      const r = ip(...argv);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^lab: `ip neigh .*` is not modelled/);
      expect(r.exitCode).toBe(2);
    }
  });
});

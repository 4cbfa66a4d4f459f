/**
 * sysctl, bridge, conntrack and sleep on a node, as the CLI runs them. Expected texts are the
 * real tools' (procps sysctl, iproute2 bridge, conntrack-tools 1.4.7), run in a namespace here.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run';

const run = (script: string) => runCli(script);

describe('node tools', () => {
  it('bridge fdb: what cni0 learned, newest first per port, gone after the 300 s ageing time', async () => {
    // The port MACs and pod MACs are the lab's (`ip link` on the node and in the pods); the
    // line shapes, the per-device order and the errors are iproute2 6.1's on kernel 6.18
    // (tests/kernel/ip-views.test.ts compares the permanent entries, experiment 02 the learned).
    const learned = 'node-1$ bridge fdb show br cni0 dynamic';
    const r = await run(
      [
        learned,
        'pod/client$ curl -s -o /dev/null http://10.244.0.4:8080/',
        learned,
        'pod/client$ ip link show eth0 | tail -1',
        'node-1$ bridge fdb show dev vethdbb5fd30',
        'node-1$ sleep 299',
        learned,
        'node-1$ sleep 1',
        learned,
      ].join('\n'),
    );
    const lines = r.out.split('\n');
    const client = /link\/ether ([0-9a-f:]{17})/.exec(r.out)?.[1];
    expect(client).toMatch(/^[0-9a-f:]{17}$/);
    // Nothing before traffic; then the client (its port) and web-1 (its port): two lines.
    expect(lines[0]).toMatch(/^[0-9a-f:]{17} dev veth\w+ master cni0 $/);
    expect(lines.slice(0, 2).some((l) => l === `${client} dev vethdbb5fd30 master cni0 `)).toBe(true); // prettier-ignore
    // One port: its learned MAC, its own (permanent), its multicast groups.
    const portLines = lines.slice(3, 8);
    expect(portLines[0]).toBe(`${client} master cni0 `);
    expect(portLines[1]).toMatch(/^[0-9a-f:]{17} master cni0 permanent$/);
    expect(portLines.slice(2)).toEqual(['33:33:00:00:00:01 self permanent', '01:00:5e:00:00:01 self permanent', expect.stringMatching(/^33:33:ff:[0-9a-f:]{8} self permanent$/)]); // prettier-ignore
    // 299 s later both entries are still there; at 300 s they have aged out.
    expect(lines.slice(8, 10)).toEqual(lines.slice(0, 2));
    expect(lines.slice(10)).toEqual(['']);
    const errors = await run(
      ['node-1$ bridge fdb show dev nosuch', 'node-1$ bridge fdb frob', 'node-1$ bridge -x fdb', 'node-1$ bridge fdb show br'].join('\n'), // prettier-ignore
    );
    expect(errors.err).toBe(
      'Cannot find device "nosuch"\nCommand "frob" is unknown, try "bridge fdb help".\nOption "-x" is unknown, try "bridge help".\nCommand line is not complete. Try option "help"\n',
    );
    expect(errors.status).toBe(255);
  });

  it('sysctl reads and writes the node setting the bridge consults', async () => {
    const r = await run(
      [
        'node-1$ sysctl net.bridge.bridge-nf-call-iptables',
        'node-1$ sysctl -w net.bridge.bridge-nf-call-iptables=0',
        'node-1$ cat /proc/sys/net/bridge/bridge-nf-call-iptables',
        'node-2$ sysctl -n net.bridge.bridge-nf-call-iptables',
      ].join('\n'),
    );
    expect(r.out).toBe(
      'net.bridge.bridge-nf-call-iptables = 1\nnet.bridge.bridge-nf-call-iptables = 0\n0\n1\n',
    );
    expect(r.status).toBe(0);
  });

  it('sysctl says what it does not model: a real key, -a, -p', async () => {
    const has =
      'the lab models net.bridge.bridge-nf-call-iptables, net.ipv4.ip_forward, net.netfilter.nf_conntrack_count, net.netfilter.nf_conntrack_*timeout*, net.netfilter.nf_conntrack_tcp_be_liberal, net.netfilter.nf_conntrack_tcp_loose, net.netfilter.nf_conntrack_tcp_max_retrans';
    const key = await run('node-1$ sysctl net.netfilter.nf_conntrack_max');
    expect(key).toEqual({ status: 1, out: '', err: `lab: net.netfilter.nf_conntrack_max is not modelled; ${has}\n` }); // prettier-ignore
    const all = await run('node-1$ sysctl -a | grep bridge');
    expect(all.out).toBe('net.bridge.bridge-nf-call-iptables = 1\n');
    expect(all.err).toBe('lab: sysctl -a lists only the keys the lab models; a real node has hundreds\n'); // prettier-ignore
    const load = await run('node-1$ sysctl -p /etc/sysctl.conf');
    expect(load.err).toBe(`lab: sysctl -p is not modelled; ${has}\n`);
  });

  it('sysctl on an unknown key fails like procps', async () => {
    const r = await run('node-1$ sysctl net.foo.bar');
    expect(r.err).toBe('sysctl: cannot stat /proc/sys/net/foo/bar: No such file or directory\n');
    expect(r.status).toBe(1);
  });

  it('sysctl in a pod says the lab models node sysctls only, not that the key is missing', async () => {
    const r = await run('pod/client$ sysctl net.ipv4.ip_forward');
    expect(r.err).toBe("sysctl: the lab models the nodes' sysctls only; run it on a node\n");
    expect(r.status).toBe(1);
  });

  it('bridge link shows and sets the hairpin flag of a pod port', async () => {
    const r = await run(
      ['node-1$ bridge -d link | grep -c "hairpin on"', 'node-1$ bridge link | head -n 1'].join(
        '\n',
      ),
    );
    // The built-in scenario's kubelet runs hairpin-veth: every pod port has the flag.
    expect(r.out.split('\n')[0]).toBe('4');
    // `@eth0`, not `@if2`: iproute2's bridge names the peer ifindex in the node's own namespace
    // (tests/kernel/experiments-a.test.ts, experiment 03, compares it with the kernel).
    expect(r.out.split('\n')[1]).toMatch(
      /^4: veth[0-9a-f]{8}@eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 master cni0 state forwarding priority 32 cost 2 $/,
    );
    const port = /veth[0-9a-f]{8}/.exec(r.out)![0];
    const off = await run(
      `node-1$ bridge link set dev ${port} hairpin off\nnode-1$ bridge -d link show dev ${port} | grep -c "hairpin off"`,
    );
    expect(off.out).toBe('1\n');
    const bad = await run('node-1$ bridge link set dev nope hairpin on');
    expect(bad.err).toBe('Cannot find bridge device "nope"\n');
    expect(bad.status).toBe(255);
  });

  it('conntrack -L on a quiet node shows no entries (footer on stderr)', async () => {
    const r = await run('node-1$ conntrack -L');
    expect(r.out).toBe('');
    expect(r.err).toBe('conntrack v1.4.7 (conntrack-tools): 0 flow entries have been shown.\n');
  });

  it('sleep takes coreutils arguments and rejects bad ones', async () => {
    expect((await run('node-1$ sleep 1.5 2m')).status).toBe(0);
    const r = await run('node-1$ sleep soon');
    expect(r.err).toBe(
      "sleep: invalid time interval 'soon'\nTry 'sleep --help' for more information.\n",
    );
  });

  it('sleep moves the clock up to its end (9999-12-31 23:59:59 UTC), not past it, and the lab goes on', async () => {
    // The default scenario's clock starts 10 days after 2026-03-02T08:00:00Z: 251,628,998,399 s
    // are left to 9999-12-31T23:59:59Z. Past it, dates would not print (JavaScript's Date ends
    // in 275760) and timers of a few hundred ms would no longer move a clock held in a double.
    const header = 'node-1$ iptables-save -t nat | head -1';
    const curl = 'pod/client$ curl -sS -m 5 http://10.96.1.1/';
    const past = await run(['node-1$ sleep 1e18', header, curl].join('\n'));
    expect(past.err).toBe(
      "lab: the virtual clock ends at 9999-12-31 23:59:59 UTC; 'sleep 1e18' would go past it, so the clock did not move\n",
    );
    expect(past.status).toBe(1);
    expect(past.out).toMatch(
      /^# Generated by iptables-save v1\.8\.9 \(nf_tables\) on Thu Mar 12 08:00:00 2026\nweb-/,
    );
    const last = await run(
      ['node-1$ sleep 251628998399', header, curl, 'node-1$ sleep 1'].join('\n'),
    );
    expect(last.out).toMatch(/^# Generated by iptables-save v1\.8\.9 \(nf_tables\) on Fri Dec 31 23:59:59 9999\nweb-\S+ \(10\.244\.\d+\.\d+:8080\): you are 10\.244\.0\.5:\d+\n$/); // prettier-ignore
    expect(last.err).toBe(
      "lab: the virtual clock ends at 9999-12-31 23:59:59 UTC; 'sleep 1' would go past it, so the clock did not move\n",
    );
  });
});

describe("a pod's own iptables rules", () => {
  it('are kept and listed but not applied, and the lab says so when a command changes them', async () => {
    const note =
      "lab: this host's own iptables rules are kept and listed, but the lab runs netfilter on nodes only: they do not act on its packets\n";
    const r = await run(
      [
        'pod/client$ iptables -A OUTPUT -p icmp -j DROP',
        'pod/client$ iptables -S OUTPUT',
        'pod/client$ iptables -D OUTPUT -p icmp -j ACCEPT',
        'node-1$ iptables -N MINE',
      ].join('\n'),
    );
    // Once: for the rule appended; not for the listing, the failed delete or the node's chain.
    expect(r.err.split(note).length - 1).toBe(1);
    expect(r.out).toContain('-A OUTPUT -p icmp -j DROP\n');
    expect(r.err).toContain('iptables: Bad rule (does a matching rule exist in that chain?).\n');
  });
});

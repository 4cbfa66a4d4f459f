/**
 * The simulated hosts' own files: `cat` in a pod shows the files kubelet and the container
 * runtime wrote for it, never a file of the machine running the lab; a user's files (a
 * manifest for `kubectl apply -f`, rules for `iptables-restore`) are read from where the lab
 * runs.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run';

/** Every file of "the machine running the lab" reads as MACHINE:path. */
const run = (script: string) => runCli(script, { readFile: (path) => `MACHINE:${path}\n` });

const NOT_MODELLED = (path: string) =>
  `lab: ${path} is not modelled on this host; the lab has /etc/resolv.conf, a pod's /etc/hosts, ` +
  'and on nodes /proc/net/nf_conntrack, /proc/net/ip_vs_conn and the /proc/sys/… files of the sysctls it models\n';

describe('host files', () => {
  it("a pod's /etc/resolv.conf is the one containerd writes from kubelet's ClusterFirst DNS config", async () => {
    // containerd CRI parseDNSOptions: search, then nameserver, then options; kubelet's
    // ClusterFirst: <ns>.svc.cluster.local svc.cluster.local cluster.local, clusterDNS, ndots:5.
    const r = await run('pod/client$ cat /etc/resolv.conf');
    expect(r.out).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local\n' +
        'nameserver 10.96.0.10\n' +
        'options ndots:5\n',
    );
    expect(r.status).toBe(0);
  });

  it("a pod's /etc/hosts is kubelet's managed hosts file", async () => {
    // pkg/kubelet/kubelet_pods.go managedHostsFileContent: header, loopback names, pod IP → name.
    const r = await run('pod/client$ cat /etc/hosts');
    expect(r.out).toBe(
      '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n' +
        '::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\n' +
        'fe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n' +
        '10.244.0.5\tclient\n',
    );
  });

  it("a node's resolver is the LAN gateway the lab's resolver asks (no cluster names)", async () => {
    const r = await run('node-1$ grep nameserver /etc/resolv.conf');
    expect(r.out).toBe('nameserver 192.168.1.1\n');
  });

  it('a system file the lab does not model is never read from the machine running it', async () => {
    const r = await run(
      [
        'node-1$ cat /etc/passwd',
        'node-1$ cat /etc/hosts',
        'pod/client$ cat /proc/sys/net/ipv4/ip_forward',
        'node-1$ grep root /etc/shadow',
        'node-1$ iptables-restore < /etc/iptables/rules.v4',
        'node-1$ kubectl apply -f /etc/kubernetes/web.yaml',
      ].join('\n'),
    );
    expect(r.out).toBe('');
    expect(r.err).toBe(
      [
        '/etc/passwd',
        '/etc/hosts',
        '/proc/sys/net/ipv4/ip_forward',
        '/etc/shadow',
        '/etc/iptables/rules.v4',
        '/etc/kubernetes/web.yaml',
      ]
        .map(NOT_MODELLED)
        .join(''),
    );
    expect(r.status).not.toBe(0);
  });

  it('/dev/null reads as empty', async () => {
    const r = await run('node-1$ cat /dev/null\nnode-1$ wc -l < /dev/null');
    expect(r).toEqual({ status: 0, out: '0\n', err: '' });
  });

  it("a user's file is read from where the lab runs", async () => {
    const r = await run('node-1$ cat notes/rules.txt\nnode-1$ cat /home/me/x');
    expect(r.out).toBe('MACHINE:notes/rules.txt\nMACHINE:/home/me/x\n');
  });
});

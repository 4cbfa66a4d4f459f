/**
 * Traffic end to end through the CLI: client programs send packets that the datapath carries
 * through the nodes' kernels, and conntrack/tcpdump show what happened.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { runCli } from '../helpers/cli-run';

const run = (script: string) => runCli(script, { echo: true });

describe('traffic', () => {
  it("keeps each host's shell from line to line: $? of the previous line, its variables", async () => {
    const r = await runCli(
      [
        'pod/client$ curl -s -m 1 http://10.96.1.1:81/',
        'pod/client$ echo "curl said $?"',
        'pod/client$ ip=10.96.1.1',
        'node-1$ echo "[$ip] $?"',
        'pod/client$ curl -s $ip/hostname; echo',
      ].join('\n'),
    );
    const lines = r.out.split('\n');
    expect(lines.slice(0, 2)).toEqual(['curl said 28', '[] 0']);
    expect(lines[2]).toMatch(/^web-\S+$/);
  });

  it('curl -o and -w: each -o with its URL, -w after each transfer, one kept-alive connection', async () => {
    const r = await runCli(
      "pod/client$ curl -s -w '%{urlnum} %{http_code} %{num_connects} %{local_port} [%{filename_effective}] %{size_download}\\n' http://10.96.1.1/ http://10.96.1.1/ -o /dev/null\n" +
        "pod/client$ curl -sS -o /dev/null -w 'code %{http_code} exit %{exitcode}\\n' -m 1 http://10.96.1.1:81/\n" +
        'pod/client$ curl -o notes.txt http://10.96.1.1/',
    );
    const lines = r.out.split('\n');
    // The second URL has no -o: its body goes to stdout, before its -w line.
    const [first, body, second] = lines;
    expect(first).toMatch(/^0 200 1 (\d+) \[\/dev\/null\] 65$/);
    expect(body).toMatch(/^web-\S+ \(10\.244\.\d\.\d+:8080\): you are 10\.244\.0\.5:\d+$/);
    // Same connection (curl re-uses the kept-alive one): no new connect, same local port.
    expect(second).toBe(`1 200 0 ${/^0 200 1 (\d+)/.exec(first!)?.[1]} [] 65`);
    expect(lines[3]).toBe('code 000 exit 28');
    expect(r.err).toBe(
      'curl: (28) Connection timed out after 1001 milliseconds\n' +
        "curl: the lab's curl writes to stdout or /dev/null only, not to notes.txt\n",
    );
    expect(r.status).toBe(2);
  });

  it('a pod reaches a Service: DNAT to a web pod, which sees the client pod address', async () => {
    const r = await run('pod/client$ curl -sS http://10.96.1.1/\nnode-1$ conntrack -L -p tcp');
    expect(r.status).toBe(0);
    // The web pods answer with their name, the address they were reached at and the peer seen.
    expect(r.out).toMatch(/^web-\w+-\w+ \(10\.244\.[01]\.\d+:8080\): you are 10\.244\.0\.5:\d+$/m);
    // The client's node tracked the connection: original to the ClusterIP, reply from the pod.
    expect(r.out).toMatch(
      /^tcp +6 \d+ TIME_WAIT src=10\.244\.0\.5 dst=10\.96\.1\.1 sport=\d+ dport=80 src=10\.244\.[01]\.\d+ dst=10\.244\.0\.5 sport=8080 dport=\d+ \[ASSURED\] mark=0 use=1$/m,
    );
  });

  it("curl reads a URL's port as curl 7.88 does: empty is 80, leading zeros go, above 65535 is error 3", async () => {
    // Checked with curl 7.88.1 against 127.0.0.1 in a namespace: `:` and `:00080` connect to
    // port 80, `:65536` and `:99999` fail before any socket with (3), exit 3.
    const r = await runCli(
      ['http://10.96.1.1:/', 'http://10.96.1.1:00080/', 'http://web:99999/', '10.96.1.1:65536']
        .map((url) => `pod/client$ curl -sS ${url}; echo "exit $?"`)
        .join('\n'),
    );
    const answer = /^web-\w+-\w+ \(10\.244\.[01]\.\d+:8080\): you are 10\.244\.0\.5:\d+$/;
    const lines = r.out.trimEnd().split('\n');
    expect(lines.filter((l) => answer.test(l))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('exit '))).toEqual(['exit 0', 'exit 0', 'exit 3', 'exit 3']); // prettier-ignore
    expect(r.err).toBe('curl: (3) URL using bad/illegal format or missing URL\n'.repeat(2));
  });

  it('0.0.0.0 as a destination is this host, over lo to 127.0.0.1, as Linux routes it', async () => {
    // Seen in a namespace with curl 7.88.1, iputils ping 20221126 and tcpdump on lo: the SYN to
    // 0.0.0.0:81 leaves as 127.0.0.1 > 127.0.0.1.81 and the host refuses it at once (7);
    // `ping 0.0.0.0` prints `PING 0.0.0.0 (127.0.0.1)` and gets its reply.
    const r = await runCli(
      [
        'laptop$ curl -sS http://0.0.0.0:81/; echo "exit $?"',
        'node-1$ curl -s 0.0.0.0:10256/healthz | grep -c nodeEligible',
        'node-1$ ping -c 1 0.0.0.0 | head -2',
      ].join('\n'),
    );
    expect(r.err).toBe("curl: (7) Failed to connect to 0.0.0.0 port 81 after 0 ms: Couldn't connect to server\n"); // prettier-ignore
    expect(r.out).toMatch(/^exit 7\n1\nPING 0\.0\.0\.0 \(127\.0\.0\.1\) 56\(84\) bytes of data\.\n64 bytes from 127\.0\.0\.1: icmp_seq=1 ttl=64 /); // prettier-ignore
  });

  it('DNS through kube-dns: the textbook query from 10.244.0.5 to 10.96.0.10:53/UDP', async () => {
    const r = await run(
      'pod/client$ dig +short kube-dns.kube-system.svc.cluster.local\nnode-1$ conntrack -L -p udp',
    );
    expect(r.out).toContain('\n10.96.0.10\n');
    expect(r.out).toMatch(
      /^udp +17 \d+ src=10\.244\.0\.5 dst=10\.96\.0\.10 sport=\d+ dport=53 src=10\.244\.0\.[23] dst=10\.244\.0\.5 sport=53 dport=\d+ mark=0 use=1$/m,
    );
  });

  it('dig uses the search list with +search only, and +noall +answer prints the answer line', async () => {
    // BIND 9.18 dig: no search list by default (kube-dns is asked for "kube-dns." and says
    // NXDOMAIN); +search walks resolv.conf's list (dighost next_origin()) until a name exists.
    const r = await run(
      [
        'pod/client$ dig +short kube-dns',
        'pod/client$ echo ---',
        'pod/client$ dig +short +search kube-dns.kube-system',
        'pod/client$ dig kube-dns.kube-system.svc.cluster.local +noall +answer',
      ].join('\n'),
    );
    const out = r.out.split('\n').filter((l) => !l.startsWith('pod/client$') && l !== '');
    expect(out).toEqual([
      '---',
      '10.96.0.10',
      'kube-dns.kube-system.svc.cluster.local.\t30 IN A\t10.96.0.10',
    ]);
  });

  it("NodePort from outside: a pod on the other node sees node-1's address (masquerade)", async () => {
    const r = await run(
      'laptop$ curl -sS http://192.168.1.10:30080/\nnode-1$ tcpdump -n -i eth0 -c 2',
    );
    const seen = /you are ([\d.]+):\d+/.exec(r.out)?.[1];
    // Pod on node-1: MASQUERADE takes cni0's address; pod on node-2: node-1's eth0 address.
    const answered = /\((10\.244\.(\d)\.\d+):8080\)/.exec(r.out);
    expect(answered).not.toBeNull();
    expect(seen).toBe(answered![2] === '0' ? '10.244.0.1' : '192.168.1.10');
    expect(r.out).toMatch(/IP 192\.168\.1\.100\.\d+ > 192\.168\.1\.10\.30080: Flags \[S\]/);
  });
});

describe('--json', () => {
  it('prints every command with the trace steps of the packets it caused', async () => {
    let out = '';
    const status = await main(['run', '--json'], {
      stdout: (t) => (out += t),
      stderr: () => undefined,
      readFile: () => undefined,
      readStdin: () => 'pod/client$ dig +short kube-dns.kube-system.svc.cluster.local\n',
    });
    expect(status).toBe(0);
    const doc = JSON.parse(out) as {
      version: number;
      commands: {
        line: string;
        stdout: string;
        steps: { kind: string; chain?: string; matched?: boolean; seq: number }[];
      }[];
    };
    expect(doc.version).toBe(3);
    const [dig] = doc.commands;
    expect(dig!.line).toBe('pod/client$ dig +short kube-dns.kube-system.svc.cluster.local');
    expect(dig!.stdout).toBe('10.96.0.10\n');
    // The query walked KUBE-SERVICES → the dns port's KUBE-SVC chain → a KUBE-SEP chain (DNAT).
    const matched = dig!.steps.filter((s) => s.kind === 'rule' && s.matched).map((s) => s.chain);
    expect(matched).toContain('KUBE-SERVICES');
    expect(matched).toContain('KUBE-SVC-TCOU7JCQXEZGVUNU');
    expect(
      matched.some((c) => c === 'KUBE-SEP-YIL6JZP7A3QYXJU2' || c === 'KUBE-SEP-6E7XQMQ4RAYOWTTM'),
    ).toBe(true);
    expect(dig!.steps.some((s) => s.kind === 'nat')).toBe(true);
    // Steps are numbered in order.
    const seqs = dig!.steps.map((s) => s.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('a program that would wait for ever is stopped at the lab’s limit, and the lab says so', async () => {
    // The web pods' Go server sets no read timeout: it waits for a request nc never sends, and
    // nc (stdin at its end, no -N) waits for the server: a real one until Ctrl-C.
    const r = await run('pod/client$ nc 10.96.1.1 80\nnode-1$ conntrack -L -p tcp');
    expect(r.status).toBe(130);
    expect(r.err).toBe(
      'lab: nc was still running after 15 minutes (virtual time), so the lab stopped it as ' +
        'Ctrl-C would (exit status 130); give -w SECONDS to set a limit\n' +
        'conntrack v1.4.7 (conntrack-tools): 1 flow entries have been shown.\n',
    );
    // Nothing of nc's own: Ctrl-C prints nothing. The entry is still ESTABLISHED, 900 s
    // into kube-proxy's 86,400 s (conntrack.tcpEstablishedTimeout, 24 h).
    expect(r.out).toMatch(/^pod\/client\$ nc 10\.96\.1\.1 80\nnode-1\$ conntrack/);
    expect(r.out).toMatch(/^tcp +6 85500 ESTABLISHED src=10\.244\.0\.5 dst=10\.96\.1\.1 /m);
    // With -w, nc's own idle timeout ends it, and the lab adds nothing.
    const bounded = await run('pod/client$ nc -w 2 10.96.1.1 80');
    expect(bounded).toMatchObject({ status: 0, err: '' });
  });

  it('CoreDNS closes a TCP connection that sends no DNS message after its 3 s read timeout', async () => {
    // curl's request is no DNS message: CoreDNS (miekg/dns serveTCPConn) reads "GE" as a
    // length and waits for the rest until its ReadTimeout (3 s, core/dnsserver/server.go), then
    // closes; curl gets an orderly close with no reply.
    const r = await run('pod/client$ curl -sS http://10.96.0.10:53\nnode-1$ tcpdump -n -i cni0');
    expect(r.err).toMatch(/^curl: \(52\) Empty reply from server\n/);
    expect(r.out).toMatch(/^08:00:03\.000000 IP 10\.244\.0\.[23]\.53 > 10\.244\.0\.5\.\d+: Flags \[F\.\], seq 1, ack 78,/m); // prettier-ignore
  });

  it('tcpdump -e: MACs looked up when it runs; a frame of a pod that is gone prints without them', async () => {
    // The capture still holds the exchange with web's pod on node-1 after that pod went away
    // (deleted, its 30 s of grace over): its MAC went with it, and the lab says so.
    const curl = 'pod/client$ curl -s -o /dev/null http://10.244.0.4:8080/';
    const kept = await runCli(`${curl}\nnode-1$ tcpdump -e -n -i cni0 -c 1`);
    expect(kept.out).toMatch(/^08:00:00\.000000 ([0-9a-f:]{17}) > ([0-9a-f:]{17}), ethertype IPv4 \(0x0800\), length 74: 10\.244\.0\.5\.\d+ > 10\.244\.0\.4\.8080: Flags \[S\]/); // prettier-ignore
    expect(kept.err).not.toMatch(/^lab: /m);
    const gone = await runCli(
      `${curl}\nnode-1$ kubectl delete pod web-6bc869c565-wtj7t; sleep 40; tcpdump -e -n -i cni0 -c 2`,
    );
    expect(gone.out).toMatch(/\n08:00:00\.000000 IP 10\.244\.0\.5\.\d+ > 10\.244\.0\.4\.8080: Flags \[S\],/); // prettier-ignore
    expect(gone.err).toContain(
      "0 packets dropped by kernel\nlab: tcpdump printed 2 of these packets without -e's MACs: a pod that sent or received them is gone, and its MAC with it\n",
    );
  });

  it('tcpdump on lo: each packet once (In with -i any), all-zero MACs with -e', async () => {
    // Seen with tcpdump 4.99.3 on kernel 6.18 (`ping` over lo in a namespace): libpcap drops
    // the outgoing copy on the loopback device, and lo's frames carry 00:00:00:00:00:00.
    const curl = 'node-1$ curl -s -o /dev/null http://127.0.0.1:10249/proxyMode';
    const lo = await runCli(`${curl}\nnode-1$ tcpdump -n -e -i lo -c 2`);
    const zero = '00:00:00:00:00:00 > 00:00:00:00:00:00, ethertype IPv4 (0x0800), length 74: ';
    const [syn, synAck] = lo.out.split('\n').map((l) => l.slice(16));
    expect(syn).toMatch(/^00:00:00:00:00:00 > 00:00:00:00:00:00, ethertype IPv4 \(0x0800\), length 74: 127\.0\.0\.1\.\d+ > 127\.0\.0\.1\.10249: Flags \[S\],/); // prettier-ignore
    expect(synAck?.startsWith(`${zero}127.0.0.1.10249 > 127.0.0.1.`)).toBe(true);
    const any = await runCli(`${curl}\nnode-1$ tcpdump -n -i any port 10249`);
    const lines = any.out.trimEnd().split('\n');
    expect(lines.length).toBe(10);
    expect(lines.every((l) => / lo {4}In {2}IP 127\.0\.0\.1\./.test(l))).toBe(true);
  });

  it('curl shows its progress meter when stdout is no terminal (a pipe, a file), as curl does', async () => {
    const header =
      '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n' +
      '                                 Dload  Upload   Total   Spent    Left  Speed\n';
    const piped = await run('pod/client$ curl http://10.96.1.1/ | head -1');
    expect(piped.out).toMatch(/\nweb-\w+-\w+ \(10\.244\.\d+\.\d+:8080\): you are /);
    expect(piped.err.startsWith(header)).toBe(true);
    expect(piped.err).toMatch(/\r100 {4}65 {2}100 {4}65 {4}0 {5}0 .*\n$/);
    const toFile = await run('pod/client$ curl http://10.96.1.1/ > /dev/null');
    expect(toFile.err.startsWith(header)).toBe(true);
    // On the terminal, or with -s, no meter.
    expect((await run('pod/client$ curl http://10.96.1.1/')).err).toBe('');
    expect((await run('pod/client$ curl -s http://10.96.1.1/ | head -1')).err).toBe('');
  });

  it("the transcript prints a command's stdout, then its stderr (curl -v)", async () => {
    // The CLI's contract (issue 2); the web lab's terminal shows the real interleaving.
    let screen = '';
    const both = (t: string) => {
      screen += t;
    };
    await main(['run'], {
      stdout: both,
      stderr: both,
      readFile: () => undefined,
      readStdin: () => 'pod/client$ curl -sv http://10.96.1.1/',
    });
    expect(screen).toMatch(
      /^web-\S+ \(10\.244\.\d+\.\d+:8080\): you are 10\.244\.0\.5:\d+\n\* {3}Trying /,
    );
    expect(screen.endsWith('* Connection #0 to host 10.96.1.1 left intact\n')).toBe(true);
  });
});

/**
 * The course's experiments (scenarios/NN-name/{scenario.yaml,script.txt}) run through the CLI,
 * with the key fact of each one asserted. The expected values are the Linux kernel's behaviour
 * (checked on a real kernel), not whatever the lab happens to print: if the lab disagrees, the
 * engine is wrong.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

interface Block {
  readonly line: string;
  readonly text: string;
}

interface Run {
  readonly status: number;
  /** stdout and stderr interleaved, in order, with each prompt line (--echo). */
  readonly all: string;
  /** The output of each command, in script order. */
  readonly blocks: readonly Block[];
}

const PROMPT = /^(?:node-\d+|pod\/[\w./-]+|laptop)\$ /;

async function runExperiment(name: string): Promise<Run> {
  let all = '';
  const status = await main(
    ['run', '--echo', `scenarios/${name}/scenario.yaml`, `scenarios/${name}/script.txt`],
    {
      stdout: (t) => (all += t),
      stderr: (t) => (all += t),
      readFile: (path) => {
        try {
          return readFileSync(path, 'utf8');
        } catch {
          return undefined;
        }
      },
      readStdin: () => '',
    },
  );
  const blocks: Block[] = [];
  for (const l of all.split('\n')) {
    if (PROMPT.test(l)) blocks.push({ line: l, text: '' });
    else if (blocks.length > 0) {
      const last = blocks[blocks.length - 1]!;
      blocks[blocks.length - 1] = { line: last.line, text: `${last.text}${l}\n` };
    }
  }
  return { status, all, blocks };
}

/** The outputs of the commands whose prompt line contains `needle`, in order. */
function outputsOf(r: Run, needle: string): string[] {
  return r.blocks.filter((b) => b.line.includes(needle)).map((b) => b.text);
}

const CURL_OK = (pod: string, addr: string, seen: string) =>
  new RegExp(
    `^${pod} \\(${addr.replace(/\./g, '\\.')}:8080\\): you are ${seen.replace(/\./g, '\\.')}:\\d+$`,
    'm',
  );
const CURL_TIMEOUT = /^curl: \(28\) Connection timed out after \d+ milliseconds$/m;

const checks: Record<string, (r: Run) => void> = {
  '01-cross-node-clusterip': (r) => {
    expect(r.status).toBe(0);
    // No SNAT for pod-to-ClusterIP traffic (KUBE-SVC masquerades only ! -s clusterCIDR):
    // web-2 on node-2 sees the client pod's own address.
    expect(outputsOf(r, 'curl')[0]).toMatch(CURL_OK('web-2', '10.244.1.2', '10.244.0.5'));
    // The DNAT is done on the client's node (nat PREROUTING on node-1): node-1's eth0 already
    // carries the pod address as destination.
    expect(outputsOf(r, 'tcpdump -n -i eth0')[0]).toMatch(
      /IP 10\.244\.0\.5\.\d+ > 10\.244\.1\.2\.8080: Flags \[S\]/,
    );
    // node-1's conntrack: original tuple to the ClusterIP, reply tuple from the pod.
    const [ct1, ct2] = outputsOf(r, 'conntrack -L');
    expect(ct1).toMatch(
      /TIME_WAIT src=10\.244\.0\.5 dst=10\.96\.1\.10 sport=\d+ dport=80 src=10\.244\.1\.2 dst=10\.244\.0\.5 sport=8080 .*\[ASSURED\]/,
    );
    // node-2 only sees pod addresses: no NAT there.
    expect(ct2).toMatch(
      /src=10\.244\.0\.5 dst=10\.244\.1\.2 sport=\d+ dport=8080 src=10\.244\.1\.2 dst=10\.244\.0\.5/,
    );
  },

  '02-same-node-bridge-nf': (r) => {
    const curls = outputsOf(r, 'curl');
    // bridge-nf-call-iptables=1: br_netfilter passes the bridged reply to conntrack, which
    // undoes the DNAT: the connection works, web-1 sees the client.
    expect(curls[0]).toMatch(CURL_OK('web-1', '10.244.0.4', '10.244.0.5'));
    // bridge-nf-call-iptables=0 (Linux br_netfilter: bridged frames skip netfilter): the reply
    // is never de-NATed, the client drops/RSTs it, curl -m gives up with exit 28.
    expect(curls[1]).toMatch(CURL_TIMEOUT);
    const cni0: [string, string] = [outputsOf(r, 'tcpdump -e -n -i cni0')[0]!, outputsOf(r, 'tcpdump -n -i cni0')[0]!]; // prettier-ignore
    // The SYN-ACK comes from the pod's own address, and the client answers RST.
    expect(cni0[0]).toMatch(/: 10\.244\.0\.4\.8080 > 10\.244\.0\.5\.\d+: Flags \[S\.\]/);
    expect(cni0[0]).toMatch(/: 10\.244\.0\.5\.\d+ > 10\.244\.0\.4\.8080: Flags \[R\]/);
    expect(cni0[0]).not.toMatch(/: 10\.96\.1\.11\.80 > /);
    // -e: the SYN goes up to cni0's MAC and comes back out routed, from cni0's MAC; the SYN-ACK
    // is bridged from web-1's MAC straight to the client's, past the host.
    const frame = (ends: RegExp) =>
      cni0[0].split('\n').find((l) => ends.test(l))?.match(/^\S+ ([0-9a-f:]{17}) > ([0-9a-f:]{17}),/)?.slice(1); // prettier-ignore
    const [client, gateway] = frame(/ 10\.244\.0\.5\.\d+ > 10\.96\.1\.11\.80: Flags \[S\]/) ?? [];
    const [routedFrom, web1] =
      frame(/ 10\.244\.0\.5\.\d+ > 10\.244\.0\.4\.8080: Flags \[S\]/) ?? [];
    expect(client).toMatch(/^[0-9a-f:]{17}$/);
    expect(routedFrom).toBe(gateway);
    expect(frame(/ 10\.244\.0\.4\.8080 > 10\.244\.0\.5\.\d+: Flags \[S\.\]/)).toEqual([
      web1,
      client,
    ]);
    expect(new Set([client, gateway, web1]).size).toBe(3);
    // conntrack never saw the reply: SYN_SENT … [UNREPLIED].
    const ct = outputsOf(r, 'conntrack -L -p tcp');
    expect(ct[0]).toMatch(/TIME_WAIT src=10\.244\.0\.5 dst=10\.96\.1\.11 .*\[ASSURED\]/);
    expect(ct[1]).toMatch(
      /SYN_SENT src=10\.244\.0\.5 dst=10\.96\.1\.11 sport=\d+ dport=80 \[UNREPLIED\] src=10\.244\.0\.4 dst=10\.244\.0\.5/,
    );
    // UDP: the DNS answer comes from 10.244.0.2:53, the client answers ICMP port unreachable,
    // dig times out; the UDP entry stays [UNREPLIED].
    expect(outputsOf(r, 'dig')[0]).toMatch(/timed out/);
    expect(cni0[1]).toMatch(/IP 10\.244\.0\.2\.53 > 10\.244\.0\.5\.\d+:/);
    expect(cni0[1]).toMatch(/ICMP 10\.244\.0\.5 udp port \d+ unreachable/);
    expect(outputsOf(r, 'conntrack -L -p udp')[0]).toMatch(
      /src=10\.244\.0\.5 dst=10\.96\.0\.10 sport=\d+ dport=53 \[UNREPLIED\]/,
    );
    // "2 times out of 3": replies from node-2 are routed through node-1 (not bridged), so only
    // the connections that picked web-1 fail; web-1 never answers.
    const mixed = curls.slice(2);
    const failed = mixed.filter((o) => CURL_TIMEOUT.test(o)).length;
    const fromNode2 = mixed.filter((o) => /^web-[23] \(10\.244\.1\.\d:8080\)/m.test(o)).length;
    expect(mixed.some((o) => /^web-1 /m.test(o))).toBe(false);
    expect(failed + fromNode2).toBe(mixed.length);
    expect(failed).toBeGreaterThan(0);
    expect(fromNode2).toBeGreaterThan(failed);
    // One [UNREPLIED] entry per failed connection.
    expect(r.blocks.at(-1)!.text).toMatch(new RegExp(`^${failed}$`, 'm'));
  },

  '03-hairpin': (r) => {
    // Cases A–H in script order, then A again after restoring the rule by hand.
    // Real kernel: with bridge-nf 1 it works only with the port's hairpin flag AND the SEP
    // masquerade rule; with bridge-nf 0 only the masquerade rule matters.
    const curls = outputsOf(r, 'curl');
    expect(curls).toHaveLength(9);
    const works = [true, false, true, true, false, false, false, false, true];
    curls.forEach((o, i) => {
      // When it works, MASQUERADE rewrote the source to cni0's address, 10.244.0.1.
      if (works[i]) expect(o, `case ${i}`).toMatch(CURL_OK('web-1', '10.244.0.4', '10.244.0.1'));
      else expect(o, `case ${i}`).toMatch(CURL_TIMEOUT);
    });
    const ct = outputsOf(r, 'conntrack -L -p tcp');
    // Case A: the reply tuple goes to 10.244.0.1 (SNAT).
    expect(ct[0]).toMatch(
      /TIME_WAIT src=10\.244\.0\.4 dst=10\.96\.1\.11 sport=\d+ dport=80 src=10\.244\.0\.4 dst=10\.244\.0\.1 .*\[ASSURED\]/,
    );
    // Case A on web-1's port with -e: the SYN comes in addressed to cni0 (the pod's gateway)
    // and, DNATed on the bridge to web-1 itself, goes back out of the same port, from web-1's
    // MAC to web-1's MAC, masqueraded to cni0's address. (web-1's MAC: its `ip link` above.)
    const link = (host: string, dev: string) =>
      new RegExp(`\\d+: ${dev}[@:][^\\n]*\\n +link/ether ([0-9a-f:]{17})`).exec(outputsOf(r, `${host}$ ip link`)[0] ?? '')?.[1]; // prettier-ignore
    const pod = link('pod/web-1', 'eth0');
    expect(pod).toMatch(/^[0-9a-f:]{17}$/);
    const frames = outputsOf(r, 'tcpdump -e')[0]!.split('\n');
    const cni0 = /^\S+ [0-9a-f:]{17} > ([0-9a-f:]{17}),/.exec(frames[0] ?? '')?.[1];
    expect(frames[0]).toContain(`${pod} > ${cni0}, ethertype IPv4 (0x0800), length 74: 10.244.0.4.`); // prettier-ignore
    expect(frames[0]).toContain(' > 10.96.1.11.80: Flags [S]');
    expect(frames[1]).toContain(`${pod} > ${pod}, ethertype IPv4 (0x0800), length 74: 10.244.0.1.`); // prettier-ignore
    expect(frames[1]).toContain(' > 10.244.0.4.8080: Flags [S]');
    expect(cni0).not.toBe(pod);
    // Case B: dropped by the bridge before conntrack confirmed the entry: nothing listed.
    expect(ct[1]).toMatch(/0 flow entries have been shown/);
    // Cases E and H: no SNAT, the reply stays in the pod: SYN_SENT [UNREPLIED], dst=10.244.0.4.
    for (const c of [ct[2], ct[3]]) {
      expect(c).toMatch(
        /SYN_SENT src=10\.244\.0\.4 dst=10\.96\.1\.11 sport=\d+ dport=80 \[UNREPLIED\] src=10\.244\.0\.4 dst=10\.244\.0\.4/,
      );
    }
  },

  '04-nodeport-source': (r) => {
    expect(r.status).toBe(0);
    const curls = outputsOf(r, 'laptop$ curl');
    // MASQUERADE takes the outgoing interface's address: cni0's for a pod on the same node…
    expect(curls[0]).toMatch(CURL_OK('web-1', '10.244.0.4', '10.244.0.1'));
    // …node-1's eth0 address for a pod on another node.
    expect(curls[1]).toMatch(CURL_OK('web-2', '10.244.1.2', '192.168.1.10'));
    const ct = outputsOf(r, 'conntrack -L');
    expect(ct[0]).toMatch(
      /src=192\.168\.1\.100 dst=192\.168\.1\.10 sport=\d+ dport=30081 src=10\.244\.0\.4 dst=10\.244\.0\.1 /,
    );
    expect(ct[1]).toMatch(
      /src=192\.168\.1\.100 dst=192\.168\.1\.10 sport=\d+ dport=30082 src=10\.244\.1\.2 dst=192\.168\.1\.10 /,
    );
    // On eth0 the forwarded SYN is both DNATed and SNATed to node-1's address.
    expect(outputsOf(r, 'tcpdump')[0]).toMatch(
      /IP 192\.168\.1\.10\.\d+ > 10\.244\.1\.2\.8080: Flags \[S\]/,
    );
  },

  '05-external-traffic-policy-local': (r) => {
    // kube-proxy (iptables mode): KUBE-EXT jumps to KUBE-SVL only where there are local
    // endpoints, and node-1 gets a "has no local endpoints" DROP in KUBE-EXTERNAL-SERVICES.
    const [ext2, svl2, ext1] = outputsOf(r, 'iptables -t nat -S');
    expect(ext2).toMatch(/^-A KUBE-EXT-\w+ -j KUBE-SVL-\w+$/m);
    // Outside traffic is not marked for masquerade: the only KUBE-MARK-MASQ is for LOCAL sources.
    const masq = ext2!.split('\n').filter((l) => l.endsWith('-j KUBE-MARK-MASQ'));
    expect(masq.every((l) => l.includes('--src-type LOCAL'))).toBe(true);
    expect(svl2).toMatch(/default\/web-local-only -> 10\.244\.1\.2:8080/);
    expect(ext1).not.toMatch(/-j KUBE-SVL-/);
    const [filter1, filter2] = outputsOf(r, 'iptables -S KUBE-EXTERNAL-SERVICES');
    expect(filter1).toMatch(
      /has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 30090 -j DROP/,
    );
    expect(filter2).not.toMatch(/DROP/);
    const curls = outputsOf(r, 'curl');
    // Through node-2: no SNAT, the pod sees the laptop's own address.
    expect(curls[0]).toMatch(CURL_OK('web-2', '10.244.1.2', '192.168.1.100'));
    // Through node-1: dropped, curl times out; never confirmed, so no conntrack entry.
    expect(curls[1]).toMatch(CURL_TIMEOUT);
    const [ct2, ct1] = outputsOf(r, 'conntrack -L');
    expect(ct2).toMatch(
      /src=192\.168\.1\.100 dst=192\.168\.1\.11 sport=\d+ dport=30090 src=10\.244\.1\.2 dst=192\.168\.1\.100 /,
    );
    expect(ct1).toMatch(/0 flow entries have been shown/);
    // From a pod, KUBE-EXT's "pod traffic" rule uses any endpoint: it works through node-1.
    expect(curls[2]).toMatch(CURL_OK('web-2', '10.244.1.2', '10.244.0.5'));
  },

  '06-load-distribution': (r) => {
    expect(r.status).toBe(0);
    // The ladder: 1/3, then 1/2 of the rest, then the last endpoint unconditionally.
    const ladder = outputsOf(r, 'iptables -t nat -S')[0]!;
    expect(ladder).toMatch(
      /10\.244\.0\.4:8080" -m statistic --mode random --probability 0\.333333333\d+ -j KUBE-SEP-/,
    );
    expect(ladder).toMatch(
      /10\.244\.1\.2:8080" -m statistic --mode random --probability 0\.50000000000 -j KUBE-SEP-/,
    );
    expect(ladder).toMatch(/10\.244\.1\.3:8080" -j KUBE-SEP-\w+$/m);
    const curls = outputsOf(r, 'curl');
    expect(curls).toHaveLength(300);
    const count = (pod: string) => curls.filter((o) => o.startsWith(`${pod} `)).length;
    const counts = ['web-1', 'web-2', 'web-3'].map(count);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(300);
    // Binomial(300, 1/3): mean 100, standard deviation ≈ 8.2; 70..130 is beyond 3.5 sigma.
    for (const c of counts) {
      expect(c).toBeGreaterThanOrEqual(70);
      expect(c).toBeLessThanOrEqual(130);
    }
    // conntrack holds one entry per connection, split by the reply tuple's source.
    const greps = outputsOf(r, 'grep -c').map((o) => Number(/^(\d+)$/m.exec(o)?.[1]));
    expect(greps).toEqual(counts);
  },

  '07-rolling-update-long-tcp': (r) => {
    // Two `lab flow send` fail by design (end of stream, then EHOSTUNREACH).
    expect(r.status).toBe(1);
    const sends = outputsOf(r, 'lab flow send long');
    const OLD = /^web-6bc869c565-wtj7t \(10\.244\.0\.4:8080\): you are 10\.244\.0\.5:(\d+)$/m;
    // Before and after the rollout the long connection is answered by the same old pod, from
    // the same client port: its conntrack entry keeps the DNAT (no nat lookup after the first
    // packet), and the Terminating pod still serves.
    expect(sends[0]).toMatch(OLD);
    expect(sends[1]).toMatch(OLD);
    expect(OLD.exec(sends[1]!)![1]).toBe(OLD.exec(sends[0]!)![1]);
    // A new template hash: a new ReplicaSet, the old one scaled to 0.
    const rs = outputsOf(r, 'kubectl get rs')[0]!;
    expect(rs).toMatch(/^web-6bc869c565 +0 +0 +0 +10d$/m);
    const fresh = /^(web-(?!6bc869c565)\w+) +3 +3 +3 +0s$/m.exec(rs)?.[1];
    expect(fresh).toBeDefined();
    // kube-proxy's chain lists the new pods only, so new connections go there.
    const svc = outputsOf(r, 'iptables -t nat -S KUBE-SVC')[0]!;
    expect(svc).not.toContain('10.244.0.4');
    expect(svc.match(/-j KUBE-SEP-/g)).toHaveLength(3);
    expect(outputsOf(r, 'curl')[0]).toMatch(new RegExp(`^${fresh}-\\w+ \\(10\\.244\\.`, 'm'));
    // SIGKILL at the end of the grace period: the old pod's FIN arrived (CLOSE_WAIT), and
    // kube-proxy left the TCP entry alone: it still DNATs to the dead address.
    const lists = outputsOf(r, 'lab flow list');
    expect(lists[0]).toMatch(/^long tcp 10\.244\.0\.5:\d+ -> 10\.96\.1\.1:80 CLOSE_WAIT$/m);
    const ct = outputsOf(r, 'conntrack -L -p tcp')[1]!;
    expect(ct).toMatch(/ src=10\.244\.0\.5 dst=10\.96\.1\.1 sport=\d+ dport=80 src=10\.244\.0\.4 /);
    expect(sends[2]).toContain(
      'lab flow: long: read: end of stream (the peer closed the connection)',
    );
    // node-1 still has the dead pod's MAC (its neighbour entry) and sends the write there;
    // cni0's fdb lost that MAC with the port, so it floods the frame, back to the client too
    // (hairpin): the capture shows the write, then node-1's DNATed copy.
    const capture = outputsOf(r, 'tcpdump')[0]!.split('\n');
    expect(capture[0]).toMatch(
      /IP 10\.244\.0\.5\.\d+ > 10\.96\.1\.1\.80: Flags \[P\.\].*HTTP: GET \/ HTTP\/1\.1/,
    );
    expect(capture[1]).toMatch(
      /IP 10\.244\.0\.5\.\d+ > 10\.244\.0\.4\.8080: Flags \[P\.\].*HTTP: GET \/ HTTP\/1\.1/,
    );
    // tcp_retries2 retransmissions later the kernel gives up. node-1's neighbour entry failed
    // long before: it answered the retransmissions with ICMP host unreachable, which the client
    // kept as the socket's soft error and reports instead of ETIMEDOUT (tcp_write_err).
    expect(lists[1]).toMatch(/^long tcp - -> 10\.96\.1\.1:80 CLOSED$/m);
    expect(sends[3]).toContain('lab flow: long: write: No route to host');
    // A new long connection reaches a new pod.
    expect(sends[4]).toMatch(new RegExp(`^${fresh}-\\w+ \\(10\\.244\\.`, 'm'));
  },

  '08-udp-conntrack-cleanup': (r) => {
    expect(r.status).toBe(1); // the datagram sent into the black hole gets no answer
    const sends = outputsOf(r, 'lab flow send q');
    const DEAD = /^echo-5bbcdfbcfd-c7r7p \(10\.244\.1\.3:5353\/udp\): you are 10\.244\.0\.4:\d+/m;
    expect(sends[0]).toMatch(DEAD);
    // Terminating, its endpoint still serving: out of kube-proxy's rules, but the entry stays
    // (the cleanup ignores the terminating state) and the pod keeps answering.
    expect(outputsOf(r, 'iptables -t nat -S KUBE-SVC')[0]).not.toContain('10.244.1.3');
    expect(outputsOf(r, 'get endpointslices')[0]).toMatch(
      /- 10\.244\.1\.3\n {4}conditions:\n {6}ready: false\n {6}serving: true\n {6}terminating: true/,
    );
    expect(sends[1]).toMatch(DEAD);
    expect(sends[2]).toMatch(DEAD);
    // Killed, but its endpoint not yet gone: the entry sends the datagram to a dead address.
    expect(sends[3]).toContain('lab flow: q: no answer within 0.5 s');
    const cts = outputsOf(r, 'conntrack -L -p udp');
    expect(cts[1]).toMatch(/dport=5353 src=10\.244\.1\.3 dst=10\.244\.0\.4 sport=5353 /);
    // kube-proxy's sync deleted it ([USERSPACE]: by a process, kube-proxy, PID 1 in its container).
    expect(cts[2]).toMatch(/0 flow entries have been shown/);
    expect(outputsOf(r, 'conntrack -E')[0]).toMatch(
      /^\[DESTROY\] udp +17 \d+ src=10\.244\.0\.4 dst=10\.96\.1\.53 sport=\d+ dport=5353 src=10\.244\.1\.3 .*\[USERSPACE\] portid=1$/m,
    );
    // The next datagram is a new flow: DNATed to a live pod.
    expect(sends[4]).toMatch(/^echo-5bbcdfbcfd-(?!c7r7p)\w+ \(10\.244\.\d\.\d+:5353\/udp\)/m);
    expect(cts[3]).not.toContain('src=10.244.1.3');
  },

  '10-conntrack-flush': (r) => {
    expect(r.status).toBe(1); // the reset connection, and the segment nobody answered
    expect(outputsOf(r, 'sysctl net.netfilter')[0]).toBe(
      'net.netfilter.nf_conntrack_tcp_loose = 1\nnet.netfilter.nf_conntrack_tcp_timeout_established = 86400\n',
    );
    const sends = outputsOf(r, 'lab flow send');
    expect(sends[0]).toMatch(/^web-6bc869c565-wtj7t \(10\.244\.0\.4:8080\)/m);
    // Picked up after the flush, DNATed by a new draw to a pod without the connection: a RST,
    // and conntrack deletes an entry whose only reply was a RST.
    expect(sends[1]).toContain('lab flow: a: read: Connection reset by peer');
    const events = outputsOf(r, 'conntrack -E')[0]!;
    expect(events).toMatch(/^\[DESTROY\] tcp +6 \d+ ESTABLISHED .*\[USERSPACE\] portid=\d+$/m);
    expect(events).toMatch(/^ +\[NEW\] tcp +6 300 ESTABLISHED src=10\.244\.0\.5 .*\[UNREPLIED\] src=10\.244\.1\.3 /m); // prettier-ignore
    expect(events).toMatch(/^\[DESTROY\] tcp +6 \d+ CLOSE .*\[UNREPLIED\] src=10\.244\.1\.3 /m);
    // Without pick-up the segment is INVALID: no entry, no DNAT, dropped in KUBE-FORWARD.
    expect(sends[3]).toContain('lab flow: b: no answer within 1 s');
    const lists = outputsOf(r, 'conntrack -L -p tcp');
    expect(lists[2]).toBe('conntrack v1.4.7 (conntrack-tools): 0 flow entries have been shown.\n');
  },

  '11-own-rules': (r) => {
    // The run's status is its last failure's: curl's 28 (NOTRACK; ping's 1 and curl's 7 before).
    // The rate-limited ping exits 0: some replies came (iputils exits 1 only when none did).
    expect(r.status).toBe(28);
    const pings = outputsOf(r, 'ping ');
    expect(pings[0]).toContain('1 packets transmitted, 1 received, 0% packet loss');
    // The icmp match stores the type as a number (8), -L names it; the policy never counted:
    // nobody set FORWARD's policy, so its base chain has no counters (seen on the kernel).
    expect(pings[1]).toContain('1 packets transmitted, 0 received, 100% packet loss');
    expect(outputsOf(r, 'iptables -S FORWARD 1')[0]).toBe('-A FORWARD -p icmp -m icmp --icmp-type 8 -j DROP\n'); // prettier-ignore
    expect(outputsOf(r, 'iptables -L FORWARD -v --line-numbers')[0]).toMatch(
      /^Chain FORWARD \(policy ACCEPT 0 packets, 0 bytes\)\n.*\n1 +1 +84 DROP +icmp -- +any +any +anywhere +anywhere +icmp echo-request\n$/,
    );
    expect(outputsOf(r, 'curl')[0]).toMatch(/^web-2 \(10\.244\.1\.2:8080\): you are 10\.244\.0\.5:\d+\n$/); // prettier-ignore
    expect(pings[2]).toContain('1 packets transmitted, 1 received, 0% packet loss');
    // state NEW: the client's SYN to web-1 is rejected; web-1's own connection is let back in.
    expect(outputsOf(r, 'curl')[1]).toBe(
      "curl: (7) Failed to connect to 10.244.0.4 port 8080 after 0 ms: Couldn't connect to server\n",
    );
    expect(outputsOf(r, 'pod/web-1$ curl')[0]).toMatch(/^web-2 \(10\.244\.1\.2:8080\): you are 10\.244\.0\.4:\d+\n$/); // prettier-ignore
    expect(outputsOf(r, 'iptables -L FORWARD 1')[0]).toMatch(/^ +1 +60 REJECT .* state NEW reject-with icmp-port-unreachable\n$/); // prettier-ignore
    // REDIRECT: to eth0's first address, port 9100, where the hostNetwork pod answers (its
    // hostname is its node's).
    expect(outputsOf(r, 'laptop$ curl')[0]).toMatch(/^node-1 \(192\.168\.1\.10:9100\): you are 192\.168\.1\.100:\d+\n$/); // prettier-ignore
    // limit 2/s, burst 1, a ping every 0.3 s: every other request is answered, the rest dropped.
    expect(pings[3]).toContain('6 packets transmitted, 3 received, 50% packet loss');
    expect(outputsOf(r, 'iptables -L INPUT 2')[0]).toMatch(/^ +3 +252 DROP /);
    expect(outputsOf(r, 'nft list chain ip filter INPUT')[0]).toContain('limit rate 2/second burst 1 packets counter packets 3 bytes 252 accept'); // prettier-ignore
    // NOTRACK: no entry, no DNAT; the SYN and its retransmission leave unanswered: curl 28.
    // Without the rule, the next connection is DNATed to web-2 again.
    const clusterIP = outputsOf(r, 'curl -sS -m 2 http://10.96.1.10/');
    expect(clusterIP[0]).toBe('curl: (28) Connection timed out after 2001 milliseconds\n');
    expect(outputsOf(r, 'conntrack -L -d 10.96.1.10')[0]).toBe('conntrack v1.4.7 (conntrack-tools): 0 flow entries have been shown.\n'); // prettier-ignore
    expect(outputsOf(r, 'iptables -t raw -L PREROUTING')[0]).toMatch(/\n +2 +120 CT +6 +-- .* NOTRACK\n$/); // prettier-ignore
    expect(clusterIP[1]).toMatch(/^web-2 \(10\.244\.1\.2:8080\): you are 10\.244\.0\.5:\d+\n/);
    expect(outputsOf(r, '--orig-port-dst 80')[0]).toMatch(
      /src=192\.168\.1\.100 dst=192\.168\.1\.10 sport=\d+ dport=80 src=192\.168\.1\.10 dst=192\.168\.1\.100 sport=9100 /,
    );
  },

  '09-ping': (r) => {
    // The ClusterIP's ping got no answer (1); the run ends with curl's 7 (the last failure).
    expect(r.status).toBe(7);
    const pings = outputsOf(r, 'ping ');
    // Two routers (node-1, node-2) lowered the TTL from 64 (ip_default_ttl) to 62.
    expect(pings[0]).toContain('64 bytes from 10.244.1.2: icmp_seq=2 ttl=62 time=0.000 ms');
    expect(pings[0]).toContain('2 packets transmitted, 2 received, 0% packet loss');
    const any = outputsOf(r, 'tcpdump')[0]!;
    expect(any).toMatch(/ 10\.244\.1\.2 > 10\.244\.0\.5: ICMP echo reply, id \d+, seq 2, length 64/); // prettier-ignore
    // -e: the frame's source MAC. Each hop frames the packet anew (out of eth0 node-1's MAC, in
    // on eth0 node-2's), the addresses stay; the bridge forwards the client's frame as it is.
    const from = (dev: string, dir: string, ends: string) =>
      new RegExp(`${dev} +${dir} +ifindex \\d+ ([0-9a-f:]{17}) ethertype IPv4 \\(0x0800\\), length 104: ${ends.replace(/\./g, '\\.')}: ICMP`).exec(any)?.[1]; // prettier-ignore
    const request = '10.244.0.5 > 10.244.1.2';
    const reply = '10.244.1.2 > 10.244.0.5';
    const client = from('veth\\w+', 'P', request);
    expect(client).toMatch(/^[0-9a-f:]{17}$/);
    expect(from('cni0', 'In', request)).toBe(client);
    expect(from('eth0', 'Out', request)).not.toBe(client);
    expect(from('eth0', 'In', reply)).not.toBe(from('eth0', 'Out', request));
    expect(from('cni0', 'Out', reply)).toBe(from('veth\\w+', 'Out', reply));
    expect([from('cni0', 'Out', reply), from('eth0', 'In', reply)]).not.toContain(undefined);
    // The ClusterIP: no rule for ICMP, no DNAT, routed out of the cluster, no answer.
    expect(pings[1]).toContain('1 packets transmitted, 0 received, 100% packet loss');
    expect(outputsOf(r, 'tcpdump')[1]).toMatch(/^\S+ IP 10\.244\.0\.5 > 10\.96\.1\.10: ICMP echo request/); // prettier-ignore
    expect(outputsOf(r, 'iptables -t nat -L KUBE-SERVICES')[0]).toMatch(/^ +0 +0 KUBE-SVC-/);
    expect(outputsOf(r, 'conntrack -L -p icmp -d')[0]).toMatch(/type=8 code=0 id=\d+ \[UNREPLIED\]/); // prettier-ignore
    // Nobody has 10.244.0.99: the client's own ARP fails after three probes (3 s) and its
    // kernel reports host unreachable to the socket (curl 7 after about 3.05 s on Linux).
    expect(outputsOf(r, 'curl')[1]).toBe(
      "curl: (7) Failed to connect to 10.244.0.99 port 8080 after 3000 ms: Couldn't connect to server\n\n",
    );
  },
};

const folders = readdirSync('scenarios', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('experiments', () => {
  it('every folder has a check, every check a folder', () => {
    expect(folders).toEqual(Object.keys(checks).sort());
  });

  it.each(folders)('%s', async (name) => {
    const r = await runExperiment(name);
    // Each scenario is valid: no diagnostics printed.
    expect(r.all).not.toMatch(/scenario\.yaml:\d+:\d+:/);
    const check = checks[name];
    expect(check, `no check for ${name}`).toBeDefined();
    check!(r);
  });
});

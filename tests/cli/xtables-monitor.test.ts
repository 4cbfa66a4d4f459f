/**
 * `-j TRACE` and `xtables-monitor` as the CLI runs them. The walk's events are compared with
 * the kernel's in tests/kernel/nftrace.test.ts; the texts here are xtables-monitor 1.8.9's
 * (iptables/xtables-monitor.c; its usage, version and errors were run in a namespace here). A
 * goto to a chain that REJECTs, traced on kernel 6.18 in a namespace, printed:
 *
 *   PACKET: 2 cb67f04c IN=v2 MACSRC=… MACDST=… MACPROTO=0800 SRC=10.9.0.1 DST=10.9.0.2 LEN=60
 *     TOS=0x0 TTL=64 ID=34312 DF SPORT=46934 DPORT=9999 SYN
 *    TRACE: 2 cb67f04c filter:INPUT:rule:0x6:CONTINUE  -4 -t filter -A INPUT -p tcp -m tcp --dport 9999 -j TRACE
 *    TRACE: 2 cb67f04c filter:INPUT:rule:0x7:GOTO:TR-IN  -4 -t filter -A INPUT -p tcp -m tcp --dport 9999 -g TR-IN
 *    TRACE: 2 cb67f04c filter:TR-IN:rule:0x5:DROP  -4 -t filter -A TR-IN -p tcp -m tcp --dport 9999 -j REJECT --reject-with tcp-reset
 *
 * (the REJECT target returns NF_DROP; handles count chains and rules of the table in the order
 * they were made).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run';

const SETUP = [
  'node-1$ iptables -N TR-IN',
  'node-1$ iptables -A TR-IN -p tcp --dport 9999 -j REJECT --reject-with tcp-reset',
  'node-1$ iptables -I INPUT 1 -p tcp --dport 9999 -j TRACE',
  'node-1$ iptables -I INPUT 2 -p tcp --dport 9999 -g TR-IN',
  'pod/client$ curl -sS -m 2 http://192.168.1.10:9999/',
];

const TRACE_NOTE =
  'lab: xtables-monitor printed the trace events of this node since it booted and stopped, as Ctrl-C stops it; the IP ID and the DF bit are not modelled (ID=0, no DF)\n';

/** stdout of the last command of the script. */
async function last(script: readonly string[]) {
  const all = await runCli(script.join('\n'));
  const before = await runCli(script.slice(0, -1).join('\n'));
  return { ...all, out: all.out.slice(before.out.length), err: all.err.slice(before.err.length) };
}

describe('xtables-monitor --trace', () => {
  it('prints a traced packet: its packet line, then each matched rule with its verdict', async () => {
    const r = await last([...SETUP, 'node-1$ xtables-monitor --trace']);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(
      /^PACKET: 2 [0-9a-f]{8} IN=cni0 MACSRC=([0-9a-f]{1,2}:){5}[0-9a-f]{1,2} MACDST=([0-9a-f]{1,2}:){5}[0-9a-f]{1,2} MACPROTO=0800 SRC=10\.244\.0\.5 DST=192\.168\.1\.10 LEN=60 TOS=0x0 TTL=64 ID=0 SPORT=\d+ DPORT=9999 SYN $/,
    );
    const id = lines[0]!.split(' ')[2]!;
    // Handles: TR-IN's rule (0x1d) after kubelet's and kube-proxy's chains and rules, then the
    // two rules inserted into INPUT (listed first, but made last).
    expect(lines.slice(1)).toEqual([
      ` TRACE: 2 ${id} filter:INPUT:rule:0x1e:CONTINUE  -4 -t filter -A INPUT -p tcp -m tcp --dport 9999 -j TRACE`,
      ` TRACE: 2 ${id} filter:INPUT:rule:0x1f:GOTO:TR-IN  -4 -t filter -A INPUT -p tcp -m tcp --dport 9999 -g TR-IN`,
      ` TRACE: 2 ${id} filter:TR-IN:rule:0x1d:DROP  -4 -t filter -A TR-IN -p tcp -m tcp --dport 9999 -j REJECT --reject-with tcp-reset`,
      '',
    ]);
    expect(r.err).toBe(TRACE_NOTE);
  });

  it('-c prints each rule with the counters it had; -6 shows nothing (the lab is IPv4 only)', async () => {
    const c = await last([...SETUP, 'node-1$ xtables-monitor -t -c']);
    expect(c.out).toContain(
      ':CONTINUE  -4 -t filter [1:60] -A INPUT -p tcp -m tcp --dport 9999 -j TRACE\n',
    );
    const six = await last([...SETUP, 'node-1$ xtables-monitor -t -6']);
    expect(six.out).toBe('');
  });

  it('traces stop at the node: another node and a packet without TRACE rule show nothing', async () => {
    expect((await last([...SETUP, 'node-2$ xtables-monitor -t'])).out).toBe('');
    const none = await last([
      'pod/client$ curl -sS -m 2 http://10.96.1.1/',
      'node-1$ xtables-monitor --trace',
    ]);
    expect(none.out).toBe('');
    // The same script gives the same trace (ids included): the lab is deterministic.
    const a = await last([...SETUP, 'node-1$ xtables-monitor --trace']);
    const b = await last([...SETUP, 'node-1$ xtables-monitor --trace']);
    expect(a.out).toBe(b.out);
  });

  it('on a pod, and with --event, says what it does not model', async () => {
    const pod = await last(['pod/client$ xtables-monitor --trace']);
    expect(pod).toMatchObject({
      status: 0,
      out: '',
      err: 'lab: the lab traces the tables of nodes only; run xtables-monitor on a node\n',
    });
    const ev = await last(['node-1$ xtables-monitor --tr --ev']);
    expect(ev.err).toBe(
      `lab: xtables-monitor --event (changes to the ruleset) is not modelled; --trace is\n${TRACE_NOTE}`,
    );
  });

  it('takes its options and refuses bad ones as xtables-monitor 1.8.9 does', async () => {
    const usage = await last(['node-1$ xtables-monitor']);
    expect(usage.status).toBe(1);
    expect(usage.out).toBe(
      'xtables-monitor 1.8.9 (nf_tables)\n' +
        'Usage: xtables-monitor [ -t | -e ]\n' +
        '        --trace    -t    trace ruleset traversal of packets tagged via -j TRACE rule\n' +
        '        --event    -e    show events that modify the ruleset\n' +
        'Optional arguments:\n' +
        '        --ipv4     -4    only monitor IPv4\n' +
        '        --ipv6     -6    only monitor IPv6\n' +
        '\t--counters -c    show counters in rules\n',
    );
    expect((await last(['node-1$ xtables-monitor -c'])).out).toBe(usage.out);
    expect((await last(['node-1$ xtables-monitor -h'])).status).toBe(1);
    expect((await last(['node-1$ xtables-monitor -V'])).out).toBe('xtables-monitor 1.8.9\n');
    for (const bad of ['-x', '--foo']) {
      const r = await last([`node-1$ xtables-monitor ${bad}`]);
      expect(r).toMatchObject({
        status: 2,
        out: '',
        err: "xtables-monitor 1.8.9: Bad argument.\nTry `xtables-monitor -h' for more information.\n",
      });
    }
  });
});

describe('the TRACE target', () => {
  it('lists as iptables and nft print it (xt_TRACE is `meta nftrace set 1` in nf_tables)', async () => {
    const r = await runCli(
      [
        'node-1$ iptables -t raw -A PREROUTING -p icmp -j TRACE',
        'node-1$ iptables -t raw -S PREROUTING',
        'node-1$ iptables -t raw -L PREROUTING -n',
        'node-1$ nft list chain ip raw PREROUTING',
      ].join('\n'),
    );
    expect(r.out).toBe(
      '-P PREROUTING ACCEPT\n-A PREROUTING -p icmp -j TRACE\n' +
        'Chain PREROUTING (policy ACCEPT)\ntarget     prot opt source               destination         \n' +
        'TRACE      1    --  0.0.0.0/0            0.0.0.0/0           \n' +
        'table ip raw {\n\tchain PREROUTING {\n\t\ttype filter hook prerouting priority raw; policy accept;\n' +
        '\t\tmeta l4proto icmp counter packets 0 bytes 0 meta nftrace set 1\n\t}\n}\n',
    );
  });
});

describe('xtables-monitor on random scripts', () => {
  // Words of TRACE rules, the tcp flags, traffic and the monitor's options.
  const RULE = fc.constantFrom(
    'iptables -t raw -A PREROUTING -j TRACE',
    'iptables -t raw -I PREROUTING -p tcp --syn -j TRACE',
    'iptables -t raw -A PREROUTING -p udp --dport 53 -j TRACE',
    'iptables -t mangle -A POSTROUTING -p tcp ! --tcp-flags SYN,ACK NONE -j TRACE',
    'iptables -A INPUT -p tcp --tcp-flags ALL SYN -j TRACE',
    'iptables -t nat -I PREROUTING -p tcp --dport 30080 -j TRACE',
    'iptables -A FORWARD -p tcp --tcp-flags FIN,RST RST -j DROP',
    'iptables -t raw -F',
    'iptables -t raw -D PREROUTING 1',
  );
  const TRAFFIC = fc.constantFrom(
    'pod/client$ curl -s -m 1 http://10.96.1.1/',
    'pod/client$ dig @10.96.0.10 +short web.default.svc.cluster.local',
    'laptop$ curl -s -m 1 http://192.168.1.10:30080/',
    'pod/client$ ping -c 1 -W 1 10.244.1.2',
    'node-1$ curl -s -m 1 http://10.96.1.1/',
  );
  const MONITOR = fc
    .subarray(['-t', '-c', '-4', '-6', '-e', '--trace', '--counters', '-x'])
    .map((o) => `node-1$ xtables-monitor ${o.join(' ')}`);
  const LINE =
    /^(PACKET: 2 [0-9a-f]{8} (IN=\S+ )?(OUT=\S+ )?((MACSRC|LL)=.* )?SRC=\S+ DST=\S+ LEN=\d+ TOS=0x0 TTL=\d+ ID=0 .*| TRACE: 2 [0-9a-f]{8} (raw|mangle|nat|filter):[\w-]+:(rule:0x[0-9a-f]+:(CONTINUE|ACCEPT|DROP|0xfffffffb|(JUMP|GOTO):[\w-]+) {2}-4 -t \w+ (\[\d+:\d+\] )?-A .*|policy:(ACCEPT|DROP) ))$/;

  it('never throws, and prints only PACKET and TRACE lines of their shapes (seed 20261205)', async () => {
    let traced = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            RULE.map((r) => `node-1$ ${r}`),
            TRAFFIC,
            MONITOR,
          ),
          { maxLength: 8 },
        ),
        async (lines) => {
          const r = await runCli(lines.join('\n'));
          expect(r.status).toBeGreaterThanOrEqual(0);
          for (const l of r.out.split('\n')) {
            if (!l.startsWith('PACKET:') && !l.startsWith(' TRACE:')) continue;
            expect(l).toMatch(LINE);
            traced++;
          }
        },
      ),
      { seed: 20261205, numRuns: 60 },
    );
    // Not vacuous: the scripts traced packets.
    expect(traced).toBeGreaterThan(20);
  });
});

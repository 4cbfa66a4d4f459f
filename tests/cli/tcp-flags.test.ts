/**
 * The tcp match's `--syn` and `--tcp-flags MASK COMP` (libxt_tcp, xt_tcp's tcp_mt()). Expected
 * texts are what iptables 1.8.9 (nf_tables) and nft 1.0.6 printed for the same rules in a
 * network namespace on this machine's kernel 6.18; tests/kernel/nft-iptables.test.ts and
 * iptables-views.test.ts compare more of them with the real tools, and tests/kernel/
 * nftrace.test.ts traces `--syn` packets on both sides.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run';

const RULES = [
  '-p tcp --syn',
  '-p tcp ! --syn',
  '-p tcp --tcp-flags SYN,ACK SYN',
  '-p tcp --tcp-flags ALL NONE',
  '-p tcp --tcp-flags SYN,RST RST --dport 80',
  '-p tcp --tcp-flags SYN SYN',
  '-p tcp ! --tcp-flags SYN,ACK NONE',
].map((r) => `node-1$ iptables -A INPUT ${r} -j ACCEPT`);

describe('tcp --syn and --tcp-flags', () => {
  it('save, list and nft show them as the real tools do', async () => {
    const r = await runCli(
      [
        'node-1$ iptables -F INPUT',
        ...RULES,
        'node-1$ iptables -S INPUT',
        'node-1$ iptables -L INPUT -n',
        'node-1$ iptables -L INPUT',
        'node-1$ nft list chain ip filter INPUT',
      ].join('\n'),
    );
    expect(r.err).toBe('');
    const rule = (s: string) =>
      `ACCEPT     6    --  0.0.0.0/0            0.0.0.0/0            ${s}\n`;
    const named = (s: string) =>
      `ACCEPT     tcp  --  anywhere             anywhere             ${s}\n`;
    expect(r.out).toBe(
      '-P INPUT ACCEPT\n' +
        '-A INPUT -p tcp -m tcp --tcp-flags FIN,SYN,RST,ACK SYN -j ACCEPT\n' +
        '-A INPUT -p tcp -m tcp ! --tcp-flags FIN,SYN,RST,ACK SYN -j ACCEPT\n' +
        '-A INPUT -p tcp -m tcp --tcp-flags SYN,ACK SYN -j ACCEPT\n' +
        '-A INPUT -p tcp -m tcp --tcp-flags FIN,SYN,RST,PSH,ACK,URG NONE -j ACCEPT\n' +
        '-A INPUT -p tcp -m tcp --dport 80 --tcp-flags SYN,RST RST -j ACCEPT\n' +
        '-A INPUT -p tcp -m tcp --tcp-flags SYN SYN -j ACCEPT\n' +
        '-A INPUT -p tcp -m tcp ! --tcp-flags SYN,ACK NONE -j ACCEPT\n' +
        'Chain INPUT (policy ACCEPT)\ntarget     prot opt source               destination         \n' +
        rule('tcp flags:0x17/0x02') +
        rule('tcp flags:!0x17/0x02') +
        rule('tcp flags:0x12/0x02') +
        rule('tcp flags:0x3F/0x00') +
        rule('tcp dpt:80 flags:0x06/0x04') +
        rule('tcp flags:0x02/0x02') +
        rule('tcp flags:!0x12/0x00') +
        'Chain INPUT (policy ACCEPT)\ntarget     prot opt source               destination         \n' +
        named('tcp flags:FIN,SYN,RST,ACK/SYN') +
        named('tcp flags:!FIN,SYN,RST,ACK/SYN') +
        named('tcp flags:SYN,ACK/SYN') +
        named('tcp flags:FIN,SYN,RST,PSH,ACK,URG/NONE') +
        named('tcp dpt:http flags:SYN,RST/RST') +
        named('tcp flags:SYN/SYN') +
        named('tcp flags:!SYN,ACK/NONE') +
        'table ip filter {\n\tchain INPUT {\n\t\ttype filter hook input priority filter; policy accept;\n' +
        '\t\ttcp flags syn / fin,syn,rst,ack counter packets 0 bytes 0 accept\n' +
        '\t\ttcp flags != syn / fin,syn,rst,ack counter packets 0 bytes 0 accept\n' +
        '\t\ttcp flags syn / syn,ack counter packets 0 bytes 0 accept\n' +
        '\t\ttcp flags ! fin,syn,rst,psh,ack,urg counter packets 0 bytes 0 accept\n' +
        '\t\ttcp flags rst / syn,rst tcp dport 80 counter packets 0 bytes 0 accept\n' +
        '\t\ttcp flags & syn == syn counter packets 0 bytes 0 accept\n' +
        '\t\ttcp flags syn,ack counter packets 0 bytes 0 accept\n\t}\n}\n',
    );
  });

  it('refuses what libxt_tcp refuses, with its words', async () => {
    const err = async (rule: string) =>
      (await runCli(`node-1$ iptables -A INPUT ${rule} -j ACCEPT`)).err.split('\n')[0];
    expect(await err('-p tcp --tcp-flags FOO SYN')).toBe(
      "iptables v1.8.9 (nf_tables): Unknown TCP flag `FOO'",
    );
    expect(await err('-p tcp --tcp-flags SYN')).toBe(
      'iptables v1.8.9 (nf_tables): --tcp-flags requires two args.',
    );
    expect(await err('-p tcp --tcp-flags SYN ! ACK')).toBe(
      'iptables v1.8.9 (nf_tables): --tcp-flags requires two args.',
    );
    for (const both of ['--syn --syn', '--syn --tcp-flags SYN SYN', '--tcp-flags SYN SYN --syn'])
      expect(await err(`-p tcp ${both}`)).toBe(
        "iptables v1.8.9 (nf_tables): Only one of `--syn' or `--tcp-flags'  allowed",
      );
    // Without -p tcp no tcp match is loaded: the option is unknown; with -m tcp, the flags
    // are a native compare, which needs the protocol (nft.c add_nft_tcp()).
    expect(await err('--syn')).toBe('iptables v1.8.9 (nf_tables): unknown option "--syn"');
    expect(await err('-m tcp --syn')).toBe(
      "iptables v1.8.9 (nf_tables): TCP match requires '-p tcp'",
    );
  });

  it('a second -m tcp folds into the first, as iptables-nft reads the rule back', async () => {
    const r = await runCli(
      [
        'node-1$ iptables -F INPUT',
        'node-1$ iptables -A INPUT -p tcp -m tcp --syn -m tcp --dport 80 -j ACCEPT',
        'node-1$ iptables -S INPUT',
      ].join('\n'),
    );
    expect(r.out).toBe(
      '-P INPUT ACCEPT\n-A INPUT -p tcp -m tcp --dport 80 --tcp-flags FIN,SYN,RST,ACK SYN -j ACCEPT\n',
    );
  });

  it('match on the packet: a connection has one SYN and one FIN from the client', async () => {
    const r = await runCli(
      [
        'node-1$ iptables -t raw -A PREROUTING -p tcp -d 10.96.1.1',
        'node-1$ iptables -t raw -A PREROUTING -p tcp -d 10.96.1.1 --syn',
        'node-1$ iptables -t raw -A PREROUTING -p tcp -d 10.96.1.1 ! --syn',
        'node-1$ iptables -t raw -A PREROUTING -p tcp -d 10.96.1.1 --tcp-flags FIN FIN',
        'pod/client$ curl -s http://10.96.1.1/',
        'node-1$ iptables -t raw -S PREROUTING -v',
      ].join('\n'),
    );
    const counts = [...r.out.matchAll(/^-A PREROUTING .* -c (\d+) \d+$/gm)].map((m) =>
      Number(m[1]),
    );
    const [all, syn, notSyn, fin] = counts;
    expect(syn).toBe(1);
    expect(fin).toBe(1);
    expect(notSyn).toBe(all! - 1);
    expect(all).toBeGreaterThan(3);
  });
});

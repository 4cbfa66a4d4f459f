/**
 * `conntrack` and /proc/net/nf_conntrack views. Every expected text was printed by
 * conntrack-tools 1.4.7 (Debian bookworm) on kernel 6.18 in a network namespace with the
 * same flows (ports and timers as there).
 */
import { describe, expect, it } from 'vitest';
import {
  conntrackCommand,
  createConntrackTable,
  kernelDefaultConfig,
  procNfConntrack,
  type CtPacket,
  type CtTable,
} from './index';
import { fixedRng, walk, type NatRules } from './testing';

const PFX = 'conntrack v1.4.7 (conntrack-tools): ';
const TRY = "Try `conntrack -h' or 'conntrack --help' for more information.\n";

/** The flows of the kernel run: DNAT'd DNS, SNAT'd TCP, a plain UDP exchange, an ICMP echo. */
function lab(acct = false): CtTable {
  const t = createConntrackTable({ ...kernelDefaultConfig(), acct });
  const rules: NatRules = {
    OUTPUT: (p) => (p.dst === '10.96.0.10' ? { addr: '10.0.0.2', port: 5353 } : undefined),
    POSTROUTING: (p) => (p.src === '10.0.0.3' ? { addr: '10.0.0.1' } : undefined),
  };
  const rng = fixedRng([]);
  const go = (path: 'local-out' | 'local-in', p: CtPacket): void => {
    walk(t, path, p, 0, rng, rules);
  };
  const u = (src: string, dst: string, sport: number, dport: number): CtPacket => ({
    src,
    dst,
    sport,
    dport,
    proto: 'udp',
    payloadBytes: 4,
  });
  go('local-out', u('10.0.0.1', '10.96.0.10', 40030, 53));
  go('local-in', u('10.0.0.2', '10.0.0.1', 5353, 40030));
  const tcp = (src: string, dst: string, sport: number, dport: number, f: string): CtPacket => ({
    src,
    dst,
    sport,
    dport,
    proto: 'tcp',
    tcpFlags: { syn: f.includes('S'), ack: f.includes('A') },
  });
  go('local-out', tcp('10.0.0.3', '10.0.0.2', 40013, 8080, 'S'));
  go('local-in', tcp('10.0.0.2', '10.0.0.1', 8080, 40013, 'SA'));
  go('local-out', tcp('10.0.0.3', '10.0.0.2', 40013, 8080, 'A'));
  go('local-out', u('10.0.0.1', '10.0.0.2', 40050, 7000));
  go('local-in', { ...u('10.0.0.2', '10.0.0.1', 7000, 40050), payloadBytes: 9 });
  const echo = { src: '10.0.0.1', dst: '10.0.0.2', proto: 'icmp', icmpType: 8, icmpId: 4242 };
  go('local-out', { ...echo, payloadBytes: 8 } as CtPacket);
  return t;
}

const DNS =
  'udp      17 28 src=10.0.0.1 dst=10.96.0.10 sport=40030 dport=53 src=10.0.0.2 dst=10.0.0.1 sport=5353 dport=40030 mark=0 use=1';
const SNAT =
  'tcp      6 431998 ESTABLISHED src=10.0.0.3 dst=10.0.0.2 sport=40013 dport=8080 src=10.0.0.2 dst=10.0.0.1 sport=8080 dport=40013 [ASSURED] mark=0 use=1';
const ICMP =
  'icmp     1 28 src=10.0.0.1 dst=10.0.0.2 type=8 code=0 id=4242 [UNREPLIED] src=10.0.0.2 dst=10.0.0.1 type=0 code=0 id=4242 mark=0 use=1';

function ct(t: CtTable, args: string): { stdout: string; stderr: string; exitCode: number } {
  return conntrackCommand(t, args === '' ? [] : args.split(' '), 2000);
}

describe('conntrack -L and filters', () => {
  it('lists entries with the footer on stderr', () => {
    const r = ct(lab(), '-L');
    expect(r.stdout.split('\n')).toContain(DNS);
    expect(r.stdout.split('\n')).toContain(SNAT);
    expect(r.stderr).toBe(`${PFX}4 flow entries have been shown.\n`);
  });

  it.each([
    ['-L --dst-nat 10.0.0.2:5353', [DNS]],
    ['-L --dst-nat 10.0.0.2:53', []],
    ['-L --src-nat 10.0.0.1', [SNAT]],
    ['-L --src-nat 10.0.0.9', []],
    ['-L -s 10.0.0.3', [SNAT]],
    ['-L -s 10.0.0.0/24 -p icmp', [ICMP]],
    ['-L -p tcp --dport 8080 --state ESTABLISHED', [SNAT]],
    ['-L -q 10.0.0.1 -p udp --reply-port-src 5353', [DNS]],
    ['-L -r 10.0.0.2 -p icmp --icmp-id 4242', [ICMP]],
    ['-L -p 17 --sport 40030', [DNS]],
    ['-L -f ipv6', []],
    // libnetfilter_conntrack 1.0.9 compares the ICMP id with the reply's type/code as
    // "ports": with the (null) NAT bindings done, every ICMP entry reads as SNAT and DNAT.
    ['-L --src-nat -p icmp', [ICMP]],
    ['-L --dst-nat -p icmp', [ICMP]],
  ])('%s', (args, want) => {
    expect(ct(lab(), args).stdout).toBe(want.map((l) => `${l}\n`).join(''));
  });

  it('-o extended,id adds the layer-3 prefix and the id', () => {
    expect(ct(lab(), '-L -p icmp -o extended,id').stdout).toBe(`ipv4     2 ${ICMP} id=4\n`);
  });

  it('accounting prints packets= and bytes= per direction', () => {
    const line = ct(lab(true), '-L -p udp --sport 40050').stdout;
    expect(line).toBe(
      'udp      17 28 src=10.0.0.1 dst=10.0.0.2 sport=40050 dport=7000 packets=1 bytes=32 src=10.0.0.2 dst=10.0.0.1 sport=7000 dport=40050 packets=1 bytes=37 mark=0 use=1\n',
    );
  });

  it('/proc/net/nf_conntrack: l3 prefix, zone=0 and use=2', () => {
    const text = procNfConntrack(lab(), 2000);
    expect(text.split('\n')).toContain(
      'ipv4     2 tcp      6 431998 ESTABLISHED src=10.0.0.3 dst=10.0.0.2 sport=40013 dport=8080 src=10.0.0.2 dst=10.0.0.1 sport=8080 dport=40013 [ASSURED] mark=0 zone=0 use=2',
    );
    expect(procNfConntrack(lab(true), 2000).split('\n')).toContain(
      'ipv4     2 icmp     1 28 src=10.0.0.1 dst=10.0.0.2 type=8 code=0 id=4242 packets=1 bytes=36 [UNREPLIED] src=10.0.0.2 dst=10.0.0.1 type=0 code=0 id=4242 packets=0 bytes=0 mark=0 zone=0 use=2',
    );
  });
});

describe('conntrack -D, -F, -C, -E', () => {
  it('-D prints what it deletes; none deleted exits 1', () => {
    const t = lab();
    // (toMatchObject: the writes are model/stdio.test.ts's.)
    expect(ct(t, '-D -p udp --sport 40030')).toMatchObject({
      stdout: `${DNS}\n`,
      stderr: `${PFX}1 flow entries have been deleted.\n`,
      exitCode: 0,
    });
    expect(ct(t, '-D -s 10.9.9.9')).toMatchObject({
      stdout: '',
      stderr: `${PFX}0 flow entries have been deleted.\n`,
      exitCode: 1,
    });
    expect(ct(t, '-E -e DESTROY').stdout).toBe(
      `[DESTROY] ${DNS.replace(' mark=0 use=1', '')} [USERSPACE] portid=31154\n`,
    );
  });

  it('-F empties the table, -C counts', () => {
    const t = lab();
    expect(ct(t, '-C')).toEqual({ stdout: '4\n', stderr: '', exitCode: 0 });
    expect(ct(t, '-F')).toEqual({
      stdout: '',
      stderr: `${PFX}connection tracking table has been emptied.\n`,
      exitCode: 0,
    });
    expect(ct(t, '-C').stdout).toBe('0\n');
    expect(ct(t, '-E').stderr).toBe(`${PFX}12 flow events have been shown.\n`);
  });
});

describe('argument errors (exit 2 with the try line unless noted)', () => {
  it.each([
    ['-L -x', "unknown option `-x'"],
    ['-L --foo', "unknown option `--foo'"],
    ['-L --sport 80', "unknown option `--sport'"],
    ['-L --sr 10.0.0.1', "unknown option `--sr'"],
    ['-L -s', "option `-s' requires an argument"],
    ['-L -s foo', "Invalid IP address `foo'"],
    ['-L -r 10.0.0.0/24', "CIDR notation unavailable for `--reply-src'"],
    ['-L -g 1.2.3.4/24', "CIDR notation unavailable for `--dst-nat'"],
    ['-L -d 1.2.3.4/33', 'Invalid netmask'],
    ['-L -p foo', "`foo' unsupported protocol"],
    ['-L -p 256', "`256' unsupported protocol"],
    ['-L -p tcp --state FOO', "unknown TCP state `FOO'"],
    ['-L -p udp --state ESTABLISHED', "unknown option `--state'"],
    ['-L -o foo', "Bad parameter `foo'"],
    ['-L -o extended,foo', "Bad parameter `foo'"],
    ['-L -L', 'Invalid commands combination'],
    ['-L extra', "unknown type `extra'"],
    ['-C -p tcp', "Illegal option `--protonum' with this command"],
    ['-F -p tcp', "Illegal option `--protonum' with this command"],
    ['-s 1.2.3.4', "Illegal option `--src' with this command"],
    ['-L --dst-nat 1.2.3.4:', "No port specified after `:'"],
    ['-L --dst-nat 1.2.3.4:99999', "Invalid port `99999'"],
    ['-L -s 1.2.3.4 -r 10.0.0.1 -f ipv6', 'mismatched address family'],
    ['-E -p tcp -e FOO', "Bad parameter `FOO'"],
  ])('%s', (args, msg) => {
    expect(ct(lab(), args)).toEqual({ stdout: '', stderr: `${PFX}${msg}\n${TRY}`, exitCode: 2 });
  });

  it.each([
    ['-Lp tcp', 1],
    ['-Lptcp', 1],
    ['-L --orig-s 10.0.0.1', 3],
    ['-L -s 1.2.3', 0],
    ['-L -p tcp --sport abc', 0],
    ['-L -p tcp --sport 40013 extra', 1],
  ])('%s is accepted like getopt_long does (%i entries)', (args, n) => {
    const r = ct(lab(), args);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(`${PFX}${n} flow entries have been shown.\n`);
  });

  it('-o s warns like the tool (SRC_NAT prefix)', () => {
    expect(ct(lab(), '-L -o s -p icmp').stderr).toBe(
      `WARNING: ignoring SRC_NAT, use --src-nat instead\n${PFX}1 flow entries have been shown.\n`,
    );
  });

  it('-V, -h and no arguments', () => {
    expect(ct(lab(), '-V').stdout).toBe('conntrack v1.4.7 (conntrack-tools)\n');
    expect(ct(lab(), '-h').stdout).toMatch(/^Command line interface .* Version 1\.4\.7\n/);
    expect(ct(lab(), '').stdout).toBe(ct(lab(), '-h').stdout);
    expect(ct(lab(), '-h -p tcp').stdout).toMatch(/--state\t\t\tTCP state, fe\. ESTABLISHED\n$/);
  });

  it('options the lab does not model are refused in its own voice', () => {
    expect(ct(lab(), '-L -o xml')).toEqual({
      stdout: '',
      stderr: 'conntrack: kube-proxy-lab does not model -o xml\n',
      exitCode: 2,
    });
  });
});

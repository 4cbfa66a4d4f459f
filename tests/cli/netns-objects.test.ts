/**
 * A rule typed in the lab names that host's own ip sets and nfacct objects
 * (commands/iptables.ts netnsObjects()): a node's sets made with `ipset create`, and the
 * counters kube-proxy's iptables mode made; a pod's network namespace has none.
 * tests/kernel/iptables-netns-objects.test.ts compares the messages with the kernel's.
 */
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../src/cli/main';

function io(stdin: string): CliIo & { out: string; err: string } {
  const captured = {
    out: '',
    err: '',
    stdout: (t: string) => void (captured.out += t),
    stderr: (t: string) => void (captured.err += t),
    readFile: () => undefined,
    readStdin: () => stdin,
  };
  return captured;
}

const MISSING = (name: string) =>
  `iptables v1.8.9 (nf_tables): Set ${name} doesn't exist.\n\nTry \`iptables -h' or 'iptables --help' for more information.\n`;

describe('-m set rules in the lab', () => {
  it("take a node's own set, and refuse one it does not have or no longer has", async () => {
    const c = io(
      [
        'node-1$ iptables -A INPUT -m set --match-set allowed src -j ACCEPT',
        'node-1$ ipset create allowed hash:ip',
        'node-1$ iptables -A INPUT -m set --match-set allowed src -j ACCEPT',
        'node-1$ iptables -S INPUT | grep allowed',
        'node-2$ iptables -A INPUT -m set --match-set allowed src -j ACCEPT',
        'pod/client$ iptables -A INPUT -m set --match-set allowed src -j ACCEPT',
        'node-1$ iptables -D INPUT -m set --match-set allowed src -j ACCEPT',
        'node-1$ ipset destroy allowed',
        'node-1$ printf "*filter\\n-A INPUT -m set --match-set allowed src -j ACCEPT\\nCOMMIT\\n" | iptables-restore --noflush',
      ].join('\n'),
    );
    expect(await main(['run'], c)).toBe(2);
    expect(c.out).toBe('-A INPUT -m set --match-set allowed src -j ACCEPT\n');
    expect(c.err).toBe(
      MISSING('allowed') +
        MISSING('allowed') +
        MISSING('allowed') +
        "iptables-restore v1.8.9 (nf_tables): Set allowed doesn't exist.\n\nError occurred at line: 2\nTry `iptables-restore -h' or 'iptables-restore --help' for more information.\n",
    );
  });

  it("name kube-proxy's nfacct counters on a node; the kernel refuses other names", async () => {
    const rule = (name: string) => `iptables -A INPUT -m nfacct --nfacct-name ${name} -j ACCEPT`;
    const c = io(
      [
        `node-1$ ${rule('ct_state_invalid_dropped_pkts')}`,
        `node-1$ ${rule('localhost_nps_accepted_pkts')}`,
        `node-1$ ${rule('nosuch')}`,
        `pod/client$ ${rule('ct_state_invalid_dropped_pkts')}`,
        'node-1$ iptables -S INPUT | grep -c nfacct',
      ].join('\n'),
    );
    expect(await main(['run'], c)).toBe(4);
    expect(c.out).toBe('2\n');
    const refused =
      'iptables v1.8.9 (nf_tables):  RULE_APPEND failed (No such file or directory): rule in chain INPUT\n';
    expect(c.err).toBe(refused + refused);
  });
});

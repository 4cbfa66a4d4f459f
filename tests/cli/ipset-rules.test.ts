/**
 * A `-m set` rule typed in the lab names one of that host's ip sets (commands/iptables.ts
 * ipsetsOf()): a node's, made with `ipset create`; a pod's network namespace has none.
 * tests/kernel/iptables-sets.test.ts compares the messages with the kernel's.
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
});

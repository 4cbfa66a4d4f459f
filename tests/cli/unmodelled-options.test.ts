/**
 * Real options the lab does not model: the lab says so in its own words (a `lab:` line, which
 * the web lab shows in zh-CN too) instead of the tool's "invalid option", which would tell a
 * learner the option does not exist. Options that exist in neither tool keep the tool's error.
 * The option lists are nft 1.0.6's and ipvsadm 1.31's getopt tables (Debian bookworm).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run';

describe('real options the lab does not model', () => {
  it('nft -j / --json / -t: a lab note; nft -Q: nft\'s own "invalid option"', async () => {
    const r = await runCli(
      [
        'nft -j list ruleset',
        'nft --json list ruleset',
        'nft -t list ruleset',
        'nft -Q list ruleset',
      ]
        .map((c) => `node-1$ ${c}; echo "exit $?"`)
        .join('\n'),
    );
    const note = (o: string) =>
      `lab: nft ${o} is not modelled in kube-proxy-lab (its nft lists rulesets, tables, chains, sets and maps, with -a, -n and -s)\n`;
    expect(r.err).toBe(`${note('-j')}${note('--json')}${note('-t')}nft: invalid option -- 'Q'\n`);
    expect(r.out).toBe('exit 1\n'.repeat(4));
  });

  it('ipvsadm -Z / --zero / -S: a lab note; ipvsadm -Q: ipvsadm\'s own "invalid option"', async () => {
    const r = await runCli(
      ['ipvsadm -Z', 'ipvsadm -L -n --zero', 'ipvsadm -S -n', 'ipvsadm -Q']
        .map((c) => `node-1$ ${c}; echo "exit $?"`)
        .join('\n'),
    );
    const note = (o: string) =>
      `lab: ipvsadm ${o} is not modelled in kube-proxy-lab (its ipvsadm lists, adds, edits, deletes and clears services and servers, and sets timeouts)\n`;
    expect(r.err).toBe(`${note('-Z')}${note('--zero')}${note('-S')}invalid option \`-Q'\n`);
    expect(r.out).toBe('exit 2\n'.repeat(4));
  });
});

/**
 * `run --json`: a rule a packet walked past names the condition that failed, in iptables mode
 * (the walk's ipt order as iptables-nft runs it) and in nftables mode (the statement that ended
 * the rule).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';

interface Step {
  kind: string;
  matched?: boolean;
  why: { id: string; params?: Record<string, string> };
}

async function skipped(scenario: string): Promise<string[]> {
  let out = '';
  await main(['run', '--json', 's.yaml'], {
    stdout: (t) => (out += t),
    stderr: () => {},
    readFile: () => scenario,
    readStdin: () => 'pod/client$ curl -s -o /dev/null http://10.96.1.1/\n',
  });
  const steps = (JSON.parse(out) as { commands: { steps: Step[] }[] }).commands[0]!.steps;
  return steps
    .filter((s) => s.matched === false && /\.skipped\./.test(s.why.id))
    .map((s) => `${s.why.id} | ${s.why.params?.condition} | ${s.why.params?.value}`);
}

describe('why a rule did not match, in the trace', () => {
  it('iptables mode', async () => {
    const why = await skipped(DEFAULT_SCENARIO);
    expect(why).toContain('datapath.rule.skipped.destination | -d 10.96.0.1/32 | 10.96.1.1');
    expect(why).toContain('datapath.rule.skipped.source | ! -s 10.244.0.0/16 | 10.244.0.5');
    expect(why).toContain('datapath.rule.skipped.mark | -m mark --mark 0x4000/0x4000 | 0x0');
  });

  it('nftables mode', async () => {
    const text = DEFAULT_SCENARIO.replace(/^mode: iptables/m, 'mode: nftables');
    expect(text).not.toBe(DEFAULT_SCENARIO);
    const why = await skipped(text);
    expect(why).toContain('datapath.nft.skipped.source | ip saddr != 10.244.0.0/16 | 10.244.0.5');
    expect(why).toContain('datapath.nft.skipped.other | fib daddr type local | ');
  });
});

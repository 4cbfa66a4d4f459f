/**
 * A kube-proxy rule names its Service port in its comment (pkg/proxy ServicePortName.String());
 * the Inspector finds that Service's document in the scenario. Checked on every rule the
 * engine writes for the built-in scenario.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import { ruleService, serviceLine } from '../../src/ui/panels/rule-origin';

function run(line: string): string {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  let out = '';
  runScript(world, line, { readFile: () => undefined, onOutput: (_l, r) => (out += r.stdout) });
  return out;
}

describe('the Service behind a rule', () => {
  it('is read from the comment of every kube-proxy rule, and only of those', () => {
    const services = new Set(
      run('node-1$ kubectl get svc -A --no-headers')
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/).slice(0, 2).join('/')),
    );
    const rules = run('node-1$ iptables-save')
      .split('\n')
      .filter((l) => l.startsWith('-A '));
    let named = 0;
    for (const rule of rules) {
      const svc = ruleService(rule);
      const comment = /--comment "([^"]*)"/.exec(rule)?.[1] ?? '';
      if (comment === '' || comment.startsWith('kubernetes ') || comment.startsWith('block ')) {
        expect(svc, rule).toBeUndefined();
        continue;
      }
      named++;
      expect(services.has(`${svc?.namespace}/${svc?.name}`), rule).toBe(true);
    }
    expect(named).toBeGreaterThan(20);
    expect(ruleService('-A KUBE-SEP-X -p udp -m comment --comment "kube-system/kube-dns:dns" -m udp -j DNAT --to-destination 10.244.0.3:53')).toEqual({ namespace: 'kube-system', name: 'kube-dns', port: 'dns' }); // prettier-ignore
    expect(ruleService('-A KUBE-SERVICES -d 10.96.1.1/32 -p tcp -m comment --comment "default/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-X')).toEqual({ namespace: 'default', name: 'web' }); // prettier-ignore
    expect(ruleService('-A KUBE-EXT-X -m comment --comment "masquerade traffic for default/web-nodeport external destinations" -j KUBE-MARK-MASQ')).toEqual({ namespace: 'default', name: 'web-nodeport' }); // prettier-ignore
  });

  it("is found at its metadata.name line, not at a Deployment's of the same name", async () => {
    const lines = DEFAULT_SCENARIO.split('\n');
    const at = await serviceLine(DEFAULT_SCENARIO, { namespace: 'default', name: 'web' });
    expect(lines[at! - 1]).toBe('  name: web');
    expect(
      lines
        .slice(0, at)
        .reverse()
        .find((l) => l.startsWith('kind: ')),
    ).toBe('kind: Service');
    const dns = await serviceLine(DEFAULT_SCENARIO, { namespace: 'kube-system', name: 'kube-dns' });
    expect(lines[dns! - 1]).toBe('  name: kube-dns');
    expect(
      await serviceLine(DEFAULT_SCENARIO, { namespace: 'other', name: 'web' }),
    ).toBeUndefined();
    expect(await serviceLine('kind: [', { namespace: 'default', name: 'web' })).toBeUndefined();
  });
});

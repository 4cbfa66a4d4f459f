/**
 * kubectl patch service against the built-in scenario (web: ClusterIP 10.96.1.1, port 80 →
 * targetPort http, selector app=web). Expected values from kubectl v1.30–v1.32 and the API
 * server: pkg/cmd/patch/patch.go (its flag errors; `patched`, `patched (no change)` when the
 * object is the same afterwards; YAML patches turned into JSON), apimachinery strategicpatch
 * (spec.ports merged by `port`, a new port first — normalizeElementOrder; `$patch: delete`;
 * `null` deletes a key), RFC 7386 (`--type merge`: lists replaced) and RFC 6902
 * (`--type json`), and registry/core/service/strategy.go (dropTypeDependentFields,
 * normalizeClusterIPs) before validation.
 */
import { describe, expect, it } from 'vitest';
import { runBlocks } from '../helpers/cli-run';

const ports = "node-1$ kubectl get svc web -o jsonpath='{.spec.ports}'; echo";

describe('kubectl patch service', () => {
  it('turns web into a NodePort and back; kube-proxy follows each change', async () => {
    const [toNodePort, svc, nodePorts, again, local, policy, back, yaml, after] = await runBlocks(
      [
        `node-1$ kubectl patch svc web -p '{"spec":{"type":"NodePort"}}'`,
        'node-1$ kubectl get svc web --no-headers',
        'node-1$ iptables -t nat -S KUBE-NODEPORTS | grep -c \'"default/web"\'',
        `node-1$ kubectl patch svc web -p '{"spec":{"type":"NodePort"}}'`,
        "node-1$ kubectl patch svc web -p 'spec: {externalTrafficPolicy: Local}'",
        "node-1$ kubectl get svc web -o jsonpath='{.spec.externalTrafficPolicy}'; echo",
        `node-1$ kubectl patch svc web --type json -p '[{"op":"replace","path":"/spec/type","value":"ClusterIP"}]'`,
        'node-1$ kubectl get svc web -o yaml',
        'node-1$ iptables -t nat -S KUBE-NODEPORTS | grep -c \'"default/web"\'',
      ].join('\n'),
    );
    expect(toNodePort).toBe('service/web patched\n');
    expect(svc).toMatch(/^web +NodePort +10\.96\.1\.1 +<none> +80:3\d{4}\/TCP +10d\n$/);
    expect(Number(nodePorts)).toBeGreaterThan(0);
    expect(again).toBe('service/web patched (no change)\n');
    expect(local).toBe('service/web patched\n');
    expect(policy).toBe('Local\n');
    // Back to ClusterIP: the nodePort and the policy it no longer uses are dropped, not refused.
    expect(back).toBe('service/web patched\n');
    expect(yaml).toContain('  type: ClusterIP\n');
    expect(yaml).not.toContain('nodePort');
    expect(yaml).not.toContain('externalTrafficPolicy');
    expect(after).toBe('0\n');
  });

  it('merges ports by port (a new one first), deletes with $patch, replaces with merge', async () => {
    const out = await runBlocks(
      [
        `node-1$ kubectl patch svc web -p '{"spec":{"ports":[{"port":443,"targetPort":8080,"name":"https"},{"port":80,"name":"http"}]}}'`,
        ports,
        `node-1$ kubectl patch svc web -p '{"spec":{"ports":[{"port":443,"$patch":"delete"}]}}'`,
        ports,
        `node-1$ kubectl patch svc web --type merge -p '{"spec":{"ports":[{"port":81,"targetPort":8080}]}}'`,
        ports,
        `node-1$ kubectl patch svc web -p '{"spec":{"selector":{"app":null,"tier":"db"}}}'`,
        "node-1$ kubectl get svc web -o jsonpath='{.spec.selector}'; echo",
        'node-1$ kubectl get endpoints web --no-headers',
      ].join('\n'),
    );
    expect(out).toEqual([
      'service/web patched\n',
      '[{"name":"https","port":443,"protocol":"TCP","targetPort":8080},{"name":"http","port":80,"protocol":"TCP","targetPort":"http"}]\n',
      'service/web patched\n',
      '[{"name":"http","port":80,"protocol":"TCP","targetPort":"http"}]\n',
      'service/web patched\n',
      '[{"port":81,"protocol":"TCP","targetPort":8080}]\n',
      'service/web patched\n',
      '{"tier":"db"}\n',
      expect.stringMatching(/^web +<none> +10d\n$/) as unknown as string,
    ]);
  });

  it('bad input: kubectl’s and the API server’s errors; the Service stays as it was', async () => {
    const out = await runBlocks(
      [
        'node-1$ kubectl patch svc web',
        "node-1$ kubectl patch svc web -p '{}' --type foo",
        "node-1$ kubectl patch svc nosuch -p '{}'",
        `node-1$ kubectl patch svc web -p '{"spec":{"clusterIP":"10.96.9.9"}}'`,
        `node-1$ kubectl patch svc web -p '{"spec":{"ports":[{"port":443,"targetPort":8080}]}}'`,
        "node-1$ kubectl patch deployment web -p '{}'",
        "node-1$ kubectl patch svc web -p '{bad'",
        "node-1$ kubectl patch svc web -p '{}' --dry-run=client",
        'node-1$ kubectl get svc web --no-headers',
      ].join('\n'),
    );
    expect(out).toEqual([
      'error: must specify --patch or --patch-file containing the contents of the patch\n',
      'error: --type must be one of [json merge strategic], not "foo"\n',
      'Error from server (NotFound): services "nosuch" not found\n',
      'The Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.9.9"]: may not change once set\n',
      // Two ports now, neither named: each needs a name (validation.go validateServicePort).
      'The Service "web" is invalid: \n* spec.ports[0].name: Required value\n* spec.ports[1].name: Required value\n',
      'lab: `kubectl patch deployments` is not modelled in kube-proxy-lab\n',
      expect.stringMatching(/^lab: the API server refuses this patch \(a patch that does not parse as JSON \(.+\)\); the lab does not model its exact words\n$/) as unknown as string, // prettier-ignore
      'lab: `kubectl patch --dry-run` is not modelled in kube-proxy-lab\n',
      expect.stringMatching(/^web +ClusterIP +10\.96\.1\.1 +<none> +80\/TCP +10d\n$/) as unknown as string, // prettier-ignore
    ]);
  });
});

/**
 * kubectl label pod against the built-in scenario (web: ReplicaSet web-6bc869c565, pods
 * 10.244.1.2 and 10.244.1.3 on node-2, 10.244.0.4 (…-wtj7t) on node-1). Expected values from
 * kubectl v1.32's pkg/cmd/label/label.go (`labeled`, `unlabeled`, `not labeled`,
 * `label "k" not found.`, its errors) and the ReplicaSet controller
 * (controller_ref_manager.go ClaimPods: a pod that leaves the selector is released and
 * replaced; an orphan that matches again is adopted and the excess pod deleted).
 */
import { describe, expect, it } from 'vitest';
import { runBlocks } from '../helpers/cli-run';

const POD = 'web-6bc869c565-wtj7t';

describe('kubectl label pod', () => {
  it('takes a pod out of its Service: released, replaced, and kube-proxy follows', async () => {
    const [refused, labeled, pods, endpoints, seps, back, after] = await runBlocks(
      [
        `node-1$ kubectl label pod ${POD} app=debug`,
        `node-1$ kubectl label pod ${POD} app=debug --overwrite`,
        'node-1$ kubectl get pods -l app=web --no-headers -o wide',
        "node-1$ kubectl get endpointslices -l kubernetes.io/service-name=web -o jsonpath='{.items[0].endpoints[*].addresses[0]}'; echo",
        'node-1$ iptables -t nat -S | grep -c \'"default/web -> 10.244.0.4:8080"\'',
        `node-1$ kubectl label pod ${POD} app=web --overwrite`,
        'node-1$ kubectl get pods -l app=web --no-headers',
      ].join('\n'),
    );
    expect(refused).toBe("error: 'app' already has a value (web), and --overwrite is false\n");
    expect(labeled).toBe(`pod/${POD} labeled\n`);
    // A new pod of the ReplicaSet on node-1 (fewest pods of the Deployment), the next address.
    const web = pods?.split('\n').filter(Boolean) ?? [];
    expect(web).toHaveLength(3);
    expect(web.some((l) => l.startsWith(POD))).toBe(false);
    expect(web.find((l) => / 0s +10\.244\.0\.6 +node-1 /.test(l))).toBeDefined();
    expect(endpoints?.split(' ').map((a) => a.trim()).sort()).toEqual(['10.244.0.6', '10.244.1.2', '10.244.1.3']); // prettier-ignore
    expect(seps).toBe('0\n');
    // Labelled back: adopted again, and the ReplicaSet, one pod over, deletes the newest.
    expect(back).toBe(`pod/${POD} labeled\n`);
    expect(after).toMatch(new RegExp(`^${POD} +1/1 +Running `, 'm'));
    expect(after).toMatch(/^web-6bc869c565-\w+ +1\/1 +Terminating +0 +0s\n/m);
  });

  it('adds, removes and reports as kubectl does; bad input changes nothing', async () => {
    const out = await runBlocks(
      [
        'node-1$ kubectl label pod client tier=front',
        'node-1$ kubectl label pod client tier=front',
        'node-1$ kubectl label pod client tier-',
        'node-1$ kubectl label pod client tier-',
        'node-1$ kubectl label pod client',
        'node-1$ kubectl label pod client a=b=c',
        'node-1$ kubectl label pod client a=b a-',
        'node-1$ kubectl label pod nope a=b',
        'node-1$ kubectl label svc web a=b',
        'node-1$ kubectl label pod client x=1 pod/other',
        'node-1$ kubectl get pod client --show-labels --no-headers',
      ].join('\n'),
    );
    expect(out.slice(0, 10)).toEqual([
      'pod/client labeled\n',
      'pod/client not labeled\n',
      'pod/client unlabeled\n',
      'label "tier" not found.\npod/client not labeled\n',
      'error: at least one label update is required\n',
      'error: invalid label spec: a=b=c\n',
      'error: can not both modify and remove a label in the same command\n',
      'Error from server (NotFound): pods "nope" not found\n',
      'lab: `kubectl label services` is not modelled in kube-proxy-lab\n',
      'error: all resources must be specified before label changes: pod/other\n',
    ]);
    expect(out[10]).toMatch(/ <none>\n$/);
  });
});

/**
 * kubectl scale / delete pod, service, deployment / rollout restart against the built-in scenario (web: 3 replicas
 * of ReplicaSet web-6bc869c565 at 10.244.1.2, 10.244.1.3 on node-2 and 10.244.0.4 on node-1;
 * client at 10.244.0.5), through the CLI. Expected texts are kubectl v1.32's (cmd/scale,
 * cmd/delete, cmd/rollout print `<resource>.<group>/<name> <verb>` and `<kind> "<name>"
 * deleted`), the control plane's behaviour the controllers' (ReplicaSet controller counts only
 * active pods; the API server sets deletionTimestamp = now + grace period; EndpointSlice
 * conditions ready/serving/terminating).
 */
import { describe, expect, it } from 'vitest';
import { runBlocks, runCli } from '../helpers/cli-run';

const rawBlocks = (script: string) => runBlocks(script, { raw: true });

async function run(script: string) {
  const r = await runCli(script, { echo: true });
  return { ...r, all: r.out + r.err };
}

const podRows = (text: string) =>
  text
    .split('\n')
    .slice(1)
    .filter((l) => l.startsWith('web-'))
    .map((l) => l.split(/\s+/));

describe('kubectl scale', () => {
  it('scales up: new pods of the same ReplicaSet with new addresses, and kube-proxy follows', async () => {
    const [scaled, pods, svc] = await rawBlocks(
      [
        'node-1$ kubectl scale deployment/web --replicas=5',
        'node-1$ kubectl get pods -o wide',
        'node-1$ iptables -t nat -S | grep -c "default/web -> "',
      ].join('\n'),
    );
    expect(scaled).toBe('deployment.apps/web scaled\n');
    const rows = podRows(pods!);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r[0]!.startsWith('web-6bc869c565-') && r[2] === 'Running')).toBe(true);
    const ips = rows.map((r) => r[5]);
    expect(new Set(ips).size).toBe(5);
    // host-local hands out the next free address of the chosen node's podCIDR.
    expect(ips).toEqual(expect.arrayContaining(['10.244.1.2', '10.244.1.3', '10.244.0.4']));
    expect(ips.filter((ip) => !['10.244.1.2', '10.244.1.3', '10.244.0.4'].includes(ip!))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^10\.244\.[01]\.\d+$/)]),
    );
    // The web Service's chain now has five SVC→SEP rules (web-nodeport's say "web-nodeport").
    expect(svc!.trim()).toBe('5');
  });

  it('scales down: the chosen pods turn Terminating, then are gone after the grace period', async () => {
    const [, during, , after] = await rawBlocks(
      [
        'node-1$ kubectl scale deployment web --replicas=1',
        'node-1$ kubectl get pods',
        'node-1$ sleep 32',
        'node-1$ kubectl get pods',
      ].join('\n'),
    );
    const d = podRows(during!);
    expect(d.filter((r) => r[2] === 'Terminating')).toHaveLength(2);
    expect(d.filter((r) => r[2] === 'Running')).toHaveLength(1);
    // getPodsToDelete: more pods of the ReplicaSet on the same node go first (node-2 has two).
    const kept = d.find((r) => r[2] === 'Running')![0];
    expect(kept).toBe('web-6bc869c565-wtj7t');
    expect(podRows(after!).map((r) => r[0])).toEqual([kept]);
  });

  it('bad input: the real errors and exit codes, nothing changes', async () => {
    const r = await run(
      [
        'node-1$ kubectl scale deployment/web',
        'node-1$ kubectl scale deployment/web --replicas=-1',
        'node-1$ kubectl scale deployment/web --replicas=abc',
        'node-1$ kubectl scale deployment/nope --replicas=2',
        'node-1$ kubectl scale --replicas=2',
        'node-1$ kubectl scale deployment --replicas=2',
        'node-1$ kubectl scale foo/web --replicas=2',
        'node-1$ kubectl scale deployment/web --replicas=2 --bogus',
        'node-1$ kubectl scale deployment/web --replicas=100000',
        'node-1$ kubectl get deploy web --no-headers',
      ].join('\n'),
    );
    expect(r.status).toBe(1);
    expect(r.err).toContain('error: required flag(s) "replicas" not set\n');
    expect(r.err).toContain(
      'error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n',
    );
    expect(r.err).toContain(
      'error: invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax\n',
    );
    expect(r.err).toContain('Error from server (NotFound): deployments.apps "nope" not found\n');
    expect(r.err).toContain(
      'error: You must provide one or more resources by argument or filename.\n',
    );
    expect(r.err).toContain('error: resource(s) were provided, but no name was specified\n');
    expect(r.err).toContain('error: the server doesn\'t have a resource type "foo"\n');
    expect(r.err).toContain('unknown flag: --bogus');
    expect(r.err).toContain(
      'The Scale "web" is invalid: spec.replicas: Invalid value: 100000: the lab runs at most 200 replicas per Deployment\n',
    );
    expect(r.out).not.toContain('scaled');
    expect(r.out).toMatch(/^web +3\/3 +3 +3 /m);
  });
});

describe('kubectl delete pod', () => {
  it('waits for the pod to go (grace period), and the Deployment replaces it at once', async () => {
    const [deleted, pods] = await rawBlocks(
      ['node-1$ kubectl delete pod web-6bc869c565-g2952', 'node-1$ kubectl get pods -o wide'].join(
        '\n',
      ),
    );
    expect(deleted).toBe('pod "web-6bc869c565-g2952" deleted\n');
    const rows = podRows(pods!);
    expect(rows.map((r) => r[0])).not.toContain('web-6bc869c565-g2952');
    expect(rows).toHaveLength(3);
    // The replacement started 30 s ago (kubectl waited for the grace period), at a new address.
    const fresh = rows.find(
      (r) => !['web-6bc869c565-n4xdw', 'web-6bc869c565-wtj7t'].includes(r[0]!),
    );
    expect(fresh![4]).toBe('30s');
    expect(fresh![5]).not.toBe('10.244.1.2');
  });

  it('--wait=false: Terminating, its endpoint serving but not ready, kube-proxy drops it', async () => {
    const [, pods, slice, rules] = await rawBlocks(
      [
        'node-1$ kubectl delete pod web-6bc869c565-g2952 --wait=false',
        'node-1$ kubectl get pod web-6bc869c565-g2952 -o yaml',
        'node-1$ kubectl get endpointslices -l kubernetes.io/service-name=web -o yaml',
        'node-1$ iptables -t nat -S | grep "default/web -> "',
      ].join('\n'),
    );
    // deletionTimestamp = now + terminationGracePeriodSeconds (lab clock: 10 days after 08:00).
    expect(pods).toContain('deletionTimestamp: "2026-03-12T08:00:30Z"');
    expect(slice).toMatch(
      /- 10\.244\.1\.2\n {4}conditions:\n {6}ready: false\n {6}serving: true\n {6}terminating: true/,
    );
    expect(rules).not.toContain('10.244.1.2');
    expect(rules!.split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('--grace-period beyond int64 is a flag error; one ending past the lab clock is refused', async () => {
    // pflag's int flag: strconv.ParseInt(s, 0, 64)'s range error, worded as the syntax error above.
    const pod = 'web-6bc869c565-wtj7t';
    const huge = await runCli(`node-1$ kubectl delete pod ${pod} --grace-period=99999999999999999999`); // prettier-ignore
    expect(huge).toMatchObject({ status: 1, out: '' });
    expect(huge.err).toBe(
      'error: invalid argument "99999999999999999999" for "--grace-period" flag: strconv.ParseInt: parsing "99999999999999999999": value out of range\n' +
        "See 'kubectl delete --help' for usage.\n",
    );
    // Within int64 but past 9999-12-31T23:59:59Z: the lab deletes nothing and says why.
    const far = await runCli(
      `node-1$ kubectl delete pod ${pod} --grace-period=999999999999999\nnode-1$ kubectl get pod ${pod} --no-headers`,
    );
    expect(far.err).toBe(
      'lab: the virtual clock ends at 9999-12-31 23:59:59 UTC; a grace period of 999999999999999 s would end after it, so nothing was deleted\n',
    );
    expect(far.out).toMatch(new RegExp(`^${pod} +1/1 +Running `));
  });

  it('--grace-period=0 --force: gone at once, endpoint and rules too; --now and --grace-period=S', async () => {
    // Texts and grace periods: kubectl's pkg/cmd/delete/delete.go (Complete, Validate, PrintObj).
    const r = await runCli(
      [
        'node-1$ kubectl delete pod web-6bc869c565-g2952 --grace-period=0 --force',
        'node-1$ kubectl get pods --no-headers | grep -c g2952',
        'node-1$ kubectl get endpointslices -l kubernetes.io/service-name=web -o wide',
        'node-1$ iptables -t nat -S | grep -c "default/web -> 10.244.1.2:"',
        'node-1$ kubectl delete pod web-6bc869c565-n4xdw --now --wait=false',
        'node-1$ kubectl get pod web-6bc869c565-n4xdw -o yaml | grep deletionTimestamp',
        'node-1$ kubectl delete pod web-6bc869c565-wtj7t --grace-period=5',
        'node-1$ kubectl get pods --no-headers | grep -c wtj7t',
        'node-1$ kubectl delete pod client --grace-period=0',
      ].join('\n'),
      { echo: true },
    );
    const blocks = r.out.split(/^node-1\$ .*\n/m).slice(1);
    expect(blocks[0]).toBe('pod "web-6bc869c565-g2952" force deleted\n');
    expect(blocks[1]).toBe('0\n');
    expect(blocks[2]).not.toContain('10.244.1.2');
    expect(blocks[3]).toBe('0\n');
    // --now is a grace period of 1 s (deletionTimestamp 1 s after the lab clock's 08:00:00).
    expect(blocks[4]).toBe('pod "web-6bc869c565-n4xdw" deleted\n');
    expect(blocks[5]).toBe('  deletionTimestamp: "2026-03-12T08:00:01Z"\n');
    expect(blocks[6]).toBe('pod "web-6bc869c565-wtj7t" deleted\n');
    expect(blocks[7]).toBe('0\n');
    // --grace-period=0 without --force is 1 s ("to prevent accidental data loss"), no warning.
    expect(blocks[8]).toBe('pod "client" deleted\n');
    expect(r.err).toBe(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
    );
    // A second, shorter deletion shortens the first (the API server never extends one).
    const again = await runCli(
      [
        'node-1$ kubectl delete pod client --wait=false',
        'node-1$ kubectl delete pod client --grace-period=5 --wait=false',
        'node-1$ kubectl delete pod client --grace-period=20 --wait=false',
        'node-1$ kubectl get pod client -o yaml | grep deletion',
      ].join('\n'),
    );
    expect(again.out.split('\n').slice(3).join('\n')).toBe(
      '  deletionGracePeriodSeconds: 5\n  deletionTimestamp: "2026-03-12T08:00:05Z"\n',
    );
    const bad = await run(
      [
        'node-1$ kubectl delete pod client --force --grace-period=3',
        'node-1$ kubectl delete pod client --now --grace-period=3',
        'node-1$ kubectl delete pod client --grace-period=abc',
      ].join('\n'),
    );
    expect(bad.err).toBe(
      'error: --force and --grace-period greater than 0 cannot be specified together\nerror: --now and --grace-period cannot be specified together\nerror: invalid argument "abc" for "--grace-period" flag: strconv.ParseInt: parsing "abc": invalid syntax\nSee \'kubectl delete --help\' for usage.\n',
    );
  });

  it('bad input', async () => {
    const r = await run(
      [
        'node-1$ kubectl delete pod nope',
        'node-1$ kubectl delete pod',
        'node-1$ kubectl delete',
        'node-1$ kubectl delete pod web-6bc869c565-g2952 -n kube-system',
        'node-1$ kubectl delete node node-1',
        'node-1$ kubectl get pods --no-headers',
      ].join('\n'),
    );
    expect(r.status).toBe(1);
    expect(r.err).toContain('Error from server (NotFound): pods "nope" not found\n');
    expect(r.err).toContain('error: resource(s) were provided, but no name was specified\n');
    expect(r.err).toContain(
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n",
    );
    expect(r.err).toContain(
      'Error from server (NotFound): pods "web-6bc869c565-g2952" not found\n',
    );
    expect(r.err).toContain('lab: `kubectl delete nodes` is not modelled in kube-proxy-lab\n');
    expect(r.out).not.toContain('deleted');
    expect(r.out.match(/Running/g)).toHaveLength(4);
  });
});

describe('kubectl delete deployment', () => {
  it('its pods terminate (still serving), then go; the Service is left without endpoints', async () => {
    const [deleted, pods, during, , after, rules, again] = await rawBlocks(
      [
        'node-1$ kubectl delete deployment web',
        'node-1$ kubectl get pods --no-headers',
        'pod/client$ curl -s -m 2 http://10.96.1.1/',
        'node-1$ sleep 31',
        'node-1$ kubectl get pods --no-headers',
        'node-1$ iptables -S KUBE-SERVICES',
        'node-1$ kubectl delete deploy web',
      ].join('\n'),
    );
    // kubectl v1.32 cmd/delete; background propagation: nothing waits for the pods.
    expect(deleted).toBe('deployment.apps "web" deleted\n');
    expect(pods?.match(/^web-6bc869c565-\w+ +1\/1 +Terminating /gm)).toHaveLength(3);
    // Terminating but serving: with no ready endpoint left, kube-proxy still uses them.
    expect(during).toMatch(/^web-6bc869c565-\w+ \(10\.244\.\d\.\d:8080\): you are /);
    expect(after).toMatch(/^client +1\/1 +Running /);
    expect(after).not.toContain('web-');
    expect(rules).toContain('-A KUBE-SERVICES -d 10.96.1.1/32 -p tcp -m comment --comment "default/web has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable\n'); // prettier-ignore
    expect(again?.trimEnd()).toBe('Error from server (NotFound): deployments.apps "web" not found');
  });
});

describe('kubectl delete service', () => {
  it('the Service goes at once; kube-proxy deletes its chains in a partial sync', async () => {
    const [before, deleted, after, sync, svcs, again] = await rawBlocks(
      [
        'node-1$ iptables -t nat -S | grep -c "default/web-nodeport"',
        'node-1$ kubectl delete svc web-nodeport',
        'node-1$ iptables -t nat -S | grep -c "default/web-nodeport"',
        'node-1$ lab sync',
        'node-1$ kubectl get svc --no-headers',
        'node-1$ kubectl delete service/web-nodeport',
      ].join('\n'),
    );
    expect(Number(before)).toBeGreaterThan(0);
    // kubectl v1.32 cmd/delete: `<kind> "<name>" deleted`.
    expect(deleted).toBe('service "web-nodeport" deleted\n');
    expect(after).toBe('0\n');
    // The sync after the change is partial: only the deleted Service's chains are named.
    expect(sync).toMatch(/^last sync: partial/m);
    expect(sync).toMatch(/^chains deleted: KUBE-EXT-\S+ (KUBE-SEP-\S+ ){3}KUBE-SVC-\S+$/m);
    expect(svcs?.split('\n').filter(Boolean).map((l) => l.split(/ +/)[0])).toEqual(['kubernetes', 'web']); // prettier-ignore
    // (the transcript's last line ends the text: split leaves one more newline after it)
    expect(again?.trimEnd()).toBe(
      'Error from server (NotFound): services "web-nodeport" not found',
    );
  });

  it('keeps slices a user created for a Service without selector, as the API does', async () => {
    const [deleted, slices] = await rawBlocks(
      ['node-1$ kubectl delete svc kubernetes', 'node-1$ kubectl get endpointslices --no-headers'].join('\n'), // prettier-ignore
    );
    expect(deleted).toBe('service "kubernetes" deleted\n');
    expect(slices).toMatch(/^kubernetes +IPv4 +6443 +192\.168\.1\.10 /m);
  });
});

describe('kubectl rollout status', () => {
  it("reads the Deployment's status as kubectl's DeploymentStatusViewer does", async () => {
    // pkg/polymorphichelpers/rollout_status.go; the lab's restart replaces every pod at once
    // with pods that are ready at once, so the rollout has finished when the command runs.
    const r = await runCli(
      [
        'node-1$ kubectl rollout restart deployment web',
        'node-1$ kubectl rollout status deployment web',
        'node-1$ kubectl rollout status deployment/web',
        'node-1$ kubectl rollout status deploy nope',
        'node-1$ kubectl rollout status deployment web web',
        'node-1$ kubectl rollout status svc web',
      ].join('\n'),
    );
    expect(r.out).toBe(
      'deployment.apps/web restarted\ndeployment "web" successfully rolled out\ndeployment "web" successfully rolled out\n',
    );
    expect(r.err).toBe(
      'Error from server (NotFound): deployments.apps "nope" not found\nerror: rollout status is only supported on individual resources and resource collections, but 2 resources were found\nlab: `kubectl rollout status services` is not modelled in kube-proxy-lab\n',
    );
  });
});

describe('kubectl rollout restart', () => {
  it('a new template hash, a new ReplicaSet, old pods Terminating, then gone', async () => {
    const [restarted, rs, pods, , after] = await rawBlocks(
      [
        'node-1$ kubectl rollout restart deployment/web',
        'node-1$ kubectl get rs',
        'node-1$ kubectl get pods',
        'node-1$ sleep 31',
        'node-1$ kubectl get pods',
      ].join('\n'),
    );
    expect(restarted).toBe('deployment.apps/web restarted\n');
    const rsRows = rs!
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(/\s+/));
    const old = rsRows.find((r) => r[0] === 'web-6bc869c565')!;
    const fresh = rsRows.find((r) => r[0] !== 'web-6bc869c565')!;
    expect(old.slice(1, 5)).toEqual(['0', '0', '0', '10d']);
    expect(fresh[0]).toMatch(/^web-[bcdfghjklmnpqrstvwxz2-9]+$/);
    expect(fresh.slice(1, 5)).toEqual(['3', '3', '3', '0s']);
    const rows = podRows(pods!);
    expect(rows.filter((r) => r[2] === 'Terminating').map((r) => r[0]!.slice(0, 14))).toEqual([
      'web-6bc869c565',
      'web-6bc869c565',
      'web-6bc869c565',
    ]);
    expect(
      rows.filter((r) => r[2] === 'Running').every((r) => r[0]!.startsWith(`${fresh[0]}-`)),
    ).toBe(true);
    expect(podRows(after!).map((r) => r[0]!.startsWith(`${fresh[0]}-`))).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('bad input', async () => {
    const r = await run(
      [
        'node-1$ kubectl rollout restart deployment/nope',
        'node-1$ kubectl rollout restart',
        'node-1$ kubectl rollout bogus deployment/web',
        'node-1$ kubectl rollout pause deployment/web',
        'node-1$ kubectl get rs --no-headers',
      ].join('\n'),
    );
    expect(r.status).toBe(1);
    expect(r.err).toContain('Error from server (NotFound): deployments.apps "nope" not found\n');
    expect(r.err).toContain(
      'error: You must provide one or more resources by argument or filename.\n',
    );
    expect(r.err).toContain('error: unknown command "bogus" for "kubectl rollout"\n');
    expect(r.err).toContain('lab: `kubectl rollout pause` is not modelled in kube-proxy-lab\n');
    expect(r.out).not.toContain('restarted');
    expect(r.out).toMatch(/^web-6bc869c565 +3 +3 +3 +10d$/m);
  });
});

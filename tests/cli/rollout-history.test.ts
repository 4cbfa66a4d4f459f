/**
 * `kubectl rollout history` and `kubectl rollout undo` against the built-in scenario (web: 3
 * replicas of ReplicaSet web-6bc869c565, revision 1), through the CLI. Expected texts are
 * kubectl v1.32's: rollout_history.go / rollout_undo.go print through a NamePrinter
 * (`deployment.apps/web <operation>\n`), the operation being history.go's ViewHistory table
 * (tabwriter 0/8/2, so the printer's newline leaves a blank line after it) or `with revision
 * #N\n` + DescribePodTemplate, or rollback.go's result (`rolled back`, `skipped rollback
 * (current template already matches revision N)`); errors are rollback.go's
 * revisionNotFoundErr and deploymentRevision's, history.go's and the two Validate()s'. The
 * revisions are the deployment controller's (sync.go getNewReplicaSet: MaxRevision + 1).
 */
import { describe, expect, it } from 'vitest';
import { runBlocks, runCli } from '../helpers/cli-run';

const rawBlocks = (script: string) => runBlocks(script, { raw: true });

const RESTARTS = [
  'node-1$ kubectl rollout restart deployment/web',
  'node-1$ sleep 5',
  'node-1$ kubectl rollout restart deployment/web',
];

const table = (...rows: string[]) =>
  `deployment.apps/web \nREVISION  CHANGE-CAUSE\n${rows.map((r) => `${r}\n`).join('')}\n`;

describe('kubectl rollout history', () => {
  it('lists the revisions, oldest first, with <none> for no change-cause', async () => {
    const [fresh, , , , restarted, short] = await rawBlocks(
      [
        'node-1$ kubectl rollout history deployment/web',
        ...RESTARTS,
        'node-1$ kubectl rollout history deploy web',
        'node-1$ kubectl -n default rollout history deployments/web',
        'node-1$ true',
      ].join('\n'),
    );
    expect(fresh).toBe(table('1         <none>'));
    expect(restarted).toBe(table('1         <none>', '2         <none>', '3         <none>'));
    expect(short).toBe(restarted);
  });

  it('a type without a name means every Deployment of the namespace (ResourceTypeOrNameArgs)', async () => {
    const r = await runCli(
      [
        'node-1$ kubectl rollout history deployments -n kube-system',
        'node-1$ kubectl rollout history deploy -n empty',
      ].join('\n'),
    );
    expect(r).toEqual({
      status: 0,
      out: 'deployment.apps/coredns \nREVISION  CHANGE-CAUSE\n1         <none>\n\n',
      err: '',
    });
  });

  it('says so for the builder flags it does not model (kubectl has them: -o, -l, -f, -k, -R)', async () => {
    const r = await runCli(
      [
        'node-1$ kubectl rollout history deployment/web -o yaml',
        'node-1$ kubectl rollout undo -l app=web',
      ].join('\n'),
    );
    expect(r).toEqual({
      status: 1,
      out: '',
      err:
        'lab: `kubectl rollout history --output` is not modelled in kube-proxy-lab\n' +
        'lab: `kubectl rollout undo --selector` is not modelled in kube-proxy-lab\n',
    });
  });

  it('--revision=N prints that ReplicaSet’s pod template (tabs as they are)', async () => {
    const [, , , one, two] = await rawBlocks(
      [
        ...RESTARTS,
        'node-1$ kubectl rollout history deployment/web --revision=0x1',
        'node-1$ kubectl rollout history deployment/web --revision 2',
      ].join('\n'),
    );
    const body = (hash: string, annotations: string) =>
      `Pod Template:\n  Labels:\tapp=web\n\tpod-template-hash=${hash}\n${annotations}` +
      '  Containers:\n   web:\n    Image:\tregistry.k8s.io/e2e-test-images/agnhost:2.53\n' +
      '    Port:\t8080/TCP\n    Host Port:\t0/TCP\n    Environment:\t<none>\n    Mounts:\t<none>\n' +
      '  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n\n';
    expect(one).toBe(`deployment.apps/web with revision #1\n${body('6bc869c565', '')}`);
    // The lab clock starts 2026-03-02 08:00 UTC, the scenario is 10 days old.
    expect(two).toMatch(/^deployment\.apps\/web with revision #2\n/);
    expect(two).toContain(
      '\tpod-template-hash=769dd977b\n  Annotations:\tkubectl.kubernetes.io/restartedAt: 2026-03-12T08:00:00Z\n  Containers:\n',
    );
  });

  it('shows the kubernetes.io/change-cause each ReplicaSet copied from its Deployment', async () => {
    const [, , history, revision] = await rawBlocks(
      [
        "node-1$ kubectl apply -f - <<'EOF'",
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: demo, annotations: {kubernetes.io/change-cause: "image 1.0"}}',
        'spec:',
        '  selector: {matchLabels: {app: demo}}',
        '  template:',
        '    metadata: {labels: {app: demo}}',
        '    spec: {containers: [{name: a, image: "nginx:1.0"}]}',
        'EOF',
        'node-1$ kubectl rollout restart deployment/demo',
        'node-1$ kubectl rollout history deployment/demo',
        'node-1$ kubectl rollout history deployment/demo --revision=1',
      ].join('\n'),
    );
    expect(history).toBe(
      'deployment.apps/demo \nREVISION  CHANGE-CAUSE\n1         image 1.0\n2         image 1.0\n\n',
    );
    // ViewHistory adds the ReplicaSet's change-cause to the template's annotations.
    expect(revision).toContain('  Annotations:\tkubernetes.io/change-cause: image 1.0\n');
    expect(revision).toContain('    Port:\t<none>\n    Host Port:\t<none>\n');
  });

  it('bad input: the real errors, exit status 1', async () => {
    const r = await runCli(
      [
        'node-1$ kubectl rollout history deployment/web --revision=2',
        'node-1$ kubectl rollout history deployment/nope',
        'node-1$ kubectl rollout history',
        'node-1$ kubectl rollout history deployment/web --revision=-1',
        'node-1$ kubectl rollout history deployment/web --revision=x',
        'node-1$ kubectl rollout history deployment/web --revision=9223372036854775808',
        'node-1$ kubectl rollout history service/web',
        'node-1$ kubectl rollout history deployment/web --to-revision=1',
      ].join('\n'),
    );
    expect(r.status).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      [
        'error: unable to find the specified revision',
        'Error from server (NotFound): deployments.apps "nope" not found',
        'error: required resource not specified',
        'error: revision must be a positive integer: -1',
        'error: invalid argument "x" for "--revision" flag: strconv.ParseInt: parsing "x": invalid syntax',
        "See 'kubectl rollout history --help' for usage.",
        // pflag's Int64 flags parse with strconv.ParseInt(s, 0, 64).
        'error: invalid argument "9223372036854775808" for "--revision" flag: strconv.ParseInt: parsing "9223372036854775808": value out of range',
        "See 'kubectl rollout history --help' for usage.",
        'error: no history viewer has been implemented for "Service"',
        'Error: unknown flag: --to-revision',
        "See 'kubectl rollout history --help' for usage.",
        '',
      ].join('\n'),
    );
  });
});

describe('kubectl rollout undo', () => {
  it('the previous revision comes back as the newest; its ReplicaSet scales up again', async () => {
    const [, , , undone, history, rs, deploy, rsYaml, generation] = await rawBlocks(
      [
        ...RESTARTS,
        'node-1$ kubectl rollout undo deployment/web',
        'node-1$ kubectl rollout history deployment/web',
        'node-1$ kubectl get rs web-769dd977b --no-headers',
        'node-1$ kubectl get deployment web -o yaml | grep deployment.kubernetes.io/',
        'node-1$ kubectl get rs web-769dd977b -o yaml | grep deployment.kubernetes.io/r',
        'node-1$ kubectl get deployment web -o yaml | grep -i generation',
        'node-1$ true',
      ].join('\n'),
    );
    expect(undone).toBe('deployment.apps/web rolled back\n');
    // Revision 2's ReplicaSet is revision 4 now; 2 is gone from the list.
    expect(history).toBe(table('1         <none>', '3         <none>', '4         <none>'));
    // The ReplicaSet existed already: its age is that of the first restart (5 s ago).
    expect(rs).toMatch(/^web-769dd977b +3 +3 +3 +5s\n$/);
    expect(deploy).toBe('    deployment.kubernetes.io/revision: "4"\n');
    // SetNewReplicaSetAnnotations keeps the number it had.
    expect(rsYaml).toBe(
      '    deployment.kubernetes.io/revision: "4"\n    deployment.kubernetes.io/revision-history: "2"\n',
    );
    // Three spec updates (two restarts, the undo) after creation; the controller has seen them.
    expect(generation).toBe('  generation: 4\n  observedGeneration: 4\n');
  });

  it('rolls out: the old template’s pods replace the current ones, endpoints and rules follow', async () => {
    const [, , before, , during, rules, , after, finalRules] = await rawBlocks(
      [
        'node-1$ kubectl rollout restart deployment/web',
        'node-1$ sleep 32',
        'node-1$ kubectl get endpoints web --no-headers',
        'node-1$ kubectl rollout undo deployment/web --to-revision=1',
        'node-1$ kubectl get pods --no-headers',
        'node-1$ iptables -t nat -S | grep "default/web -> "',
        'node-1$ sleep 32',
        'node-1$ kubectl get endpoints web --no-headers',
        'node-1$ iptables -t nat -S | grep "default/web -> "',
        'node-1$ true',
      ].join('\n'),
    );
    const restartedIPs = ['10.244.0.6:8080', '10.244.0.7:8080', '10.244.1.4:8080'];
    expect(before).toMatch(new RegExp(`^web +${restartedIPs.join(',')} +10d\n$`));
    const rows = during!.trim().split('\n').map((l) => l.split(/\s+/)); // prettier-ignore
    // Revision 1's ReplicaSet (web-6bc869c565) has new pods; the restart's pods terminate.
    expect(rows.filter((r) => r[2] === 'Running' && r[0]!.startsWith('web-6bc869c565-'))).toHaveLength(3); // prettier-ignore
    expect(rows.filter((r) => r[2] === 'Terminating' && r[0]!.startsWith('web-769dd977b-'))).toHaveLength(3); // prettier-ignore
    // kube-proxy already sends the Service to the three ready (new) endpoints only.
    const ruleIPs = (text: string) =>
      [...text.matchAll(/default\/web -> (\S+)"/g)].map((m) => m[1]);
    const newIPs = ['10.244.0.8:8080', '10.244.1.5:8080', '10.244.1.6:8080'];
    expect(ruleIPs(rules!)).toEqual(newIPs);
    // host-local hands out the next free addresses.
    expect(after).toMatch(/^web +10\.244\.0\.8:8080,10\.244\.1\.5:8080,10\.244\.1\.6:8080 +10d\n$/);
    expect(after).not.toContain(restartedIPs[0]);
    expect(ruleIPs(finalRules!)).toEqual(newIPs);
  });

  it('skipped rollback, dry runs and the errors, as kubectl words them', async () => {
    const r = await runCli(
      [
        'node-1$ kubectl rollout undo deployment/web',
        'node-1$ kubectl rollout restart deployment/web',
        'node-1$ kubectl rollout undo deployment/web --to-revision=2',
        'node-1$ kubectl rollout undo deployment/web --to-revision=5',
        'node-1$ kubectl rollout undo deployment/web --to-revision=-1',
        'node-1$ kubectl rollout undo deployment/web --dry-run=server',
        'node-1$ kubectl rollout undo deployment/web --dry-run=bogus',
        'node-1$ kubectl rollout undo deployment/nope service/web',
        'node-1$ kubectl rollout undo',
        'node-1$ kubectl rollout history deployment/web',
        'node-1$ kubectl rollout undo deployment/web --dry-run=client',
      ].join('\n'),
    );
    expect(r.status).toBe(1);
    expect(
      r.out.startsWith(
        [
          'deployment.apps/web restarted',
          'deployment.apps/web skipped rollback (current template already matches revision 2)',
          'deployment.apps/web rolled back (server dry run)',
          // Nothing was rolled back.
          'deployment.apps/web ',
          'REVISION  CHANGE-CAUSE',
          '1         <none>',
          '2         <none>',
          '',
          // The client dry run prints revision 1's template, then the printer's suffix.
          'deployment.apps/web Pod Template:',
          '  Labels:\tapp=web',
          '\tpod-template-hash=6bc869c565',
        ].join('\n'),
      ),
    ).toBe(true);
    expect(r.out.endsWith('  Tolerations:\t<none>\n (dry run)\n')).toBe(true);
    expect(r.err).toBe(
      [
        'error: no rollout history found for deployment "web"',
        'error: unable to find specified revision 5 in history',
        'error: unable to find specified revision -1 in history',
        'error: Invalid dry-run value (bogus). Must be "none", "server", or "client".',
        'Error from server (NotFound): deployments.apps "nope" not found',
        'error: no rollbacker has been implemented for "Service"',
        'error: required resource not specified',
        '',
      ].join('\n'),
    );
  });
});

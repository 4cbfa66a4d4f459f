/**
 * kubectl views over the lab fixture (tests/helpers/lab-fixture.ts, clock = 10 days).
 * Sources of the expected text: columns and cells from kubernetes pkg/printers/internalversion/
 * printers.go (printService/makePortString/getServiceExternalIP, printPod, printNode,
 * printDeployment, printEndpointSlice + formatDiscoveryEndpoints), alignment from
 * cli-runtime's GetNewTabWriter (minwidth 6, padding 3), messages from kubectl pkg/cmd/get/get.go
 * ("No resources found in %s namespace.") and the API server's NotFound status, checked against
 * kubectl 1.32 where it runs without a server (unknown flags/commands).
 */
import { describe, expect, it } from 'vitest';
import { createStandardRegistry, runCommandLine } from '../index';
import { testWorld } from '../../../../tests/helpers/cluster-fixtures';
import { labCluster, NOW } from '../../../../tests/helpers/lab-fixture';

const registry = createStandardRegistry();
const world = testWorld(labCluster(), { now: NOW });
const run = (line: string) => runCommandLine(registry, { world }, line);
const out = (line: string): string => {
  const r = run(line);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return r.stdout;
};

describe('kubectl get services', () => {
  it('prints NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE with nodePorts and LB ingress', () => {
    expect(out('kubectl get svc')).toBe(
      [
        'NAME         TYPE           CLUSTER-IP    EXTERNAL-IP     PORT(S)                      AGE',
        'kubernetes   ClusterIP      10.96.0.1     <none>          443/TCP                      10d',
        'web          NodePort       10.96.12.34   <none>          80:30080/TCP                 3h1m',
        'web-lb       LoadBalancer   10.96.200.7   192.168.1.240   80:31234/TCP,443:31443/TCP   2d1h',
        '',
      ].join('\n'),
    );
  });

  it('-A adds NAMESPACE, -o wide adds SELECTOR', () => {
    expect(out('kubectl get services --all-namespaces -o wide')).toBe(
      [
        'NAMESPACE     NAME         TYPE           CLUSTER-IP    EXTERNAL-IP     PORT(S)                      AGE    SELECTOR',
        'default       kubernetes   ClusterIP      10.96.0.1     <none>          443/TCP                      10d    <none>',
        'default       web          NodePort       10.96.12.34   <none>          80:30080/TCP                 3h1m   app=web',
        'default       web-lb       LoadBalancer   10.96.200.7   192.168.1.240   80:31234/TCP,443:31443/TCP   2d1h   app=web',
        'kube-system   kube-dns     ClusterIP      10.96.0.10    <none>          53/UDP,53/TCP,9153/TCP       10d    k8s-app=kube-dns',
        '',
      ].join('\n'),
    );
  });

  it('selects by name and namespace, -o name, and reports NotFound', () => {
    expect(out('kubectl get svc -n kube-system kube-dns --no-headers')).toBe(
      'kube-dns   ClusterIP   10.96.0.10   <none>   53/UDP,53/TCP,9153/TCP   10d\n',
    );
    expect(out('kubectl get svc/web svc/kubernetes -o name')).toBe(
      'service/web\nservice/kubernetes\n',
    );
    expect(run('kubectl get svc web nope')).toEqual({
      stdout:
        'NAME   TYPE       CLUSTER-IP    EXTERNAL-IP   PORT(S)        AGE\nweb    NodePort   10.96.12.34   <none>        80:30080/TCP   3h1m\n',
      stderr: 'Error from server (NotFound): services "nope" not found\n',
      exitCode: 1,
    });
  });

  it('says No resources found on stderr', () => {
    expect(run('kubectl get svc -n empty')).toEqual({
      stdout: '',
      stderr: 'No resources found in empty namespace.\n',
      exitCode: 0,
    });
    expect(run('kubectl get deploy -A -l app=none')).toEqual({
      stdout: '',
      stderr: 'No resources found\n',
      exitCode: 0,
    });
  });
});

describe('kubectl get pods, endpointslices, nodes, deployments', () => {
  it('pods: READY counts ready containers, -o wide adds IP NODE NOMINATED NODE READINESS GATES', () => {
    expect(out('kubectl get po -o wide')).toBe(
      [
        'NAME                   READY   STATUS    RESTARTS   AGE     IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-5d4f8b7c9d-7xk2p   1/1     Running   0          3h2m    10.244.0.5   node-1   <none>           <none>',
        'web-5d4f8b7c9d-q8mzt   0/1     Running   0          3m10s   10.244.1.7   node-2   <none>           <none>',
        '',
      ].join('\n'),
    );
    expect(out('kubectl get pods -A --show-labels -l k8s-app=kube-dns')).toBe(
      'NAMESPACE     NAME                       READY   STATUS    RESTARTS   AGE   LABELS\n' +
        'kube-system   coredns-7db6d8ff4d-4xq9z   1/1     Running   0          10d   k8s-app=kube-dns\n',
    );
  });

  it('endpointslices list every address, ready or not', () => {
    expect(out('kubectl get endpointslices')).toBe(
      'NAME         ADDRESSTYPE   PORTS   ENDPOINTS               AGE\n' +
        'kubernetes   IPv4          6443    192.168.1.10            10d\n' +
        'web-x7k2d    IPv4          80      10.244.0.5,10.244.1.7   3h1m\n',
    );
  });

  it('nodes: ROLES from node-role labels, -o wide adds addresses and node info', () => {
    expect(out('kubectl get nodes')).toBe(
      'NAME     STATUS   ROLES           AGE   VERSION\nnode-1   Ready    control-plane   10d   v1.32.4\nnode-2   Ready    <none>          9d    v1.32.4\n',
    );
    expect(out('kubectl get no node-2 -o wide')).toBe(
      'NAME     STATUS   ROLES    AGE   VERSION   INTERNAL-IP    EXTERNAL-IP   OS-IMAGE                         KERNEL-VERSION   CONTAINER-RUNTIME\n' +
        'node-2   Ready    <none>   9d    v1.32.4   192.168.1.11   <none>        Debian GNU/Linux 12 (bookworm)   6.1.0-37-amd64   containerd://1.6.20\n',
    );
  });

  it('deployments: READY ready/desired, -o wide adds CONTAINERS IMAGES SELECTOR', () => {
    expect(out('kubectl get deploy -o wide')).toBe(
      'NAME   READY   UP-TO-DATE   AVAILABLE   AGE    CONTAINERS   IMAGES       SELECTOR\n' +
        'web    1/2     2            1           3h2m   nginx        nginx:1.27   app=web\n',
    );
  });

  it('several kinds print kind/name tables separated by a blank line', () => {
    expect(out('kubectl get deploy,svc -l app=web')).toBe(
      'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE\ndeployment.apps/web   1/2     2            1           3h2m\n\n' +
        'NAME             TYPE           CLUSTER-IP    EXTERNAL-IP     PORT(S)                      AGE\n' +
        'service/web      NodePort       10.96.12.34   <none>          80:30080/TCP                 3h1m\n' +
        'service/web-lb   LoadBalancer   10.96.200.7   192.168.1.240   80:31234/TCP,443:31443/TCP   2d1h\n',
    );
  });

  it('all: pods, services, deployments and replicasets, kind-prefixed (no blank lines with --no-headers)', () => {
    expect(out('kubectl get all --no-headers -l app=web')).toBe(
      [
        'pod/web-5d4f8b7c9d-7xk2p   1/1   Running   0     3h2m',
        'pod/web-5d4f8b7c9d-q8mzt   0/1   Running   0     3m10s',
        'service/web      NodePort       10.96.12.34   <none>          80:30080/TCP                 3h1m',
        'service/web-lb   LoadBalancer   10.96.200.7   192.168.1.240   80:31234/TCP,443:31443/TCP   2d1h',
        'deployment.apps/web   1/2   2     1     3h2m',
        'replicaset.apps/web-5d4f8b7c9d   2     2     1     3h2m',
        '',
      ].join('\n'),
    );
  });

  it('truncates endpoint lists after three with "+ N more..." (formatDiscoveryEndpoints)', () => {
    const c = labCluster();
    const many = {
      ...c.endpointSlices[1]!,
      endpoints: ['10.244.0.5', '10.244.0.6', '10.244.1.7', '10.244.1.8', '10.244.1.9'].map(
        (a) => ({ ...c.endpointSlices[1]!.endpoints[0]!, addresses: [a] }),
      ),
    };
    const w = testWorld({ ...c, endpointSlices: [many] }, { now: NOW });
    expect(
      runCommandLine(registry, { world: w }, 'kubectl get endpointslice --no-headers').stdout,
    ).toBe('web-x7k2d   IPv4   80    10.244.0.5,10.244.0.6,10.244.1.7 + 2 more...   3h1m\n');
  });
});

describe('kubectl get configmap kube-proxy', () => {
  it('shows kubeadm\'s config.conf with mode: "" when no KubeProxyConfiguration was given', () => {
    expect(out('kubectl get configmap kube-proxy -n kube-system -o yaml | grep mode')).toBe(
      '    mode: ""\n',
    );
    expect(out('kubectl get cm -n kube-system')).toBe(
      'NAME         DATA   AGE\nkube-proxy   2      10d\n',
    );
  });

  it('shows the configured mode and non-default values', () => {
    const c = labCluster();
    const w = testWorld(
      {
        ...c,
        kubeProxy: {
          ...c.kubeProxy,
          mode: 'ipvs',
          ipvsScheduler: 'rr',
          syncPeriodSeconds: 60,
          source: { doc: 1, line: 1, col: 1 },
        },
      },
      { now: NOW },
    );
    const text = runCommandLine(
      registry,
      { world: w },
      'kubectl get cm kube-proxy -n kube-system -o yaml | grep -E "mode:|scheduler|syncPeriod"',
    ).stdout;
    expect(text).toBe(
      '      syncPeriod: 0s\n      scheduler: rr\n      syncPeriod: 1m0s\n    mode: ipvs\n      syncPeriod: 0s\n',
    );
  });
});

describe('kubectl errors', () => {
  it('match kubectl 1.32', () => {
    expect(run('kubectl get foo')).toEqual({
      stdout: '',
      stderr: 'error: the server doesn\'t have a resource type "foo"\n',
      exitCode: 1,
    });
    expect(run('kubectl get pods --bogus')).toEqual({
      stdout: '',
      stderr: "Error: unknown flag: --bogus\nSee 'kubectl get --help' for usage.\n",
      exitCode: 1,
    });
    expect(run('kubectl get pods -z').stderr).toBe(
      "Error: unknown shorthand flag: 'z' in -z\nSee 'kubectl get --help' for usage.\n",
    );
    expect(run('kubectl get pods -n').stderr).toBe(
      "Error: flag needs an argument: 'n' in -n\nSee 'kubectl get --help' for usage.\n",
    );
    expect(run('kubectl gett').stderr).toBe(
      'Error: unknown command "gett" for "kubectl"\n\nDid you mean this?\n\tset\n\tget\n\n',
    );
    expect(run('kubectl get').stderr).toContain('error: Required resource not specified.');
    expect(run('kubectl get pods -o foo').stderr).toBe(
      'error: unable to match a printer suitable for the output format "foo", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml\n',
    );
    expect(run('kubectl get svc web -A').stderr).toBe(
      'error: a resource cannot be retrieved by name across all namespaces\n',
    );
  });
});

describe('resource types the lab does not serve', () => {
  it('a real type (kubectl api-resources) gets a lab note; a made-up one, the server’s error', () => {
    const sts = run('kubectl get sts');
    expect(sts.exitCode).toBe(1);
    expect(sts.stderr).toBe(
      'lab: `kubectl get statefulsets` is not modelled in kube-proxy-lab (its API serves pods, ' +
        'services, endpoints, endpointslices, nodes, deployments, replicasets and configmaps)\n',
    );
    expect(run('kubectl get daemonsets.apps -A').stderr).toMatch(
      /^lab: `kubectl get daemonsets` is not modelled in kube-proxy-lab \(/,
    );
    expect(run('kubectl describe ns default').stderr).toMatch(
      /^lab: `kubectl describe namespaces` is not modelled/,
    );
    expect(run('kubectl get frobs').stderr).toBe(
      'error: the server doesn\'t have a resource type "frobs"\n',
    );
  });
});

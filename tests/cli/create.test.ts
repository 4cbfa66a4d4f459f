/**
 * kubectl create deployment / create service against the built-in scenario. Expected values
 * from kubectl v1.30–v1.32's source (pkg/cmd/create/create_deployment.go: labels and selector
 * app=NAME, one container per image named after it, --port on the first; create_service.go:
 * labels and selector app=NAME, a TCP port per --tcp named after it; their error texts, and
 * cobra/pflag's for flags), the API server's AlreadyExists as `create` wraps it.
 */
import { describe, expect, it } from 'vitest';
import { runBlocks } from '../helpers/cli-run';

describe('kubectl create', () => {
  it('a Deployment, then a Service for it: the tutorial’s two commands, answered by the new pods', async () => {
    const [deployment, template, pods, service, answer, svc] = await runBlocks(
      [
        'node-1$ kubectl create deployment nginx --image=nginx:1.27 --replicas=2 --port=80',
        "node-1$ kubectl get deploy nginx -o jsonpath='{.metadata.labels} {.spec.selector.matchLabels} {.spec.template.spec.containers[0].name} {.spec.template.spec.containers[0].ports}'; echo",
        'node-1$ kubectl get pods -l app=nginx --no-headers | wc -l',
        'node-1$ kubectl create service clusterip nginx --tcp=8000:80',
        'pod/client$ curl -s http://nginx:8000/',
        "node-1$ kubectl get svc nginx -o jsonpath='{.metadata.labels} {.spec.selector} {.spec.ports}'; echo",
      ].join('\n'),
    );
    expect(deployment).toBe('deployment.apps/nginx created\n');
    expect(template).toBe('{"app":"nginx"} {"app":"nginx"} nginx [{"containerPort":80,"protocol":"TCP"}]\n'); // prettier-ignore
    expect(pods).toBe('2\n');
    expect(service).toBe('service/nginx created\n');
    expect(answer).toMatch(/^nginx-\w+-\w+ \(10\.244\.\d\.\d+:80\): you are 10\.244\.0\.5:\d+\n$/);
    expect(svc).toBe('{"app":"nginx"} {"app":"nginx"} [{"name":"8000-80","port":8000,"protocol":"TCP","targetPort":80}]\n'); // prettier-ignore
  });

  it('names a container after its image, as kubectl does', async () => {
    const [, names] = await runBlocks(
      [
        'node-1$ kubectl create deployment multi --image=registry.io/team/web:v2 --image=busybox@sha256:abc --image=my_app.v1',
        "node-1$ kubectl get deploy multi -o jsonpath='{.spec.template.spec.containers[*].name}'; echo",
      ].join('\n'),
    );
    // `_` and `.` become `-` with a 5-character suffix (random in kubectl; from the seed here).
    expect(names).toMatch(/^web busybox my-app-v1-[bcdfghjklmnpqrstvwxz2456789]{5}\n$/);
  });

  it('bad input: kubectl’s errors, nothing created', async () => {
    const out = await runBlocks(
      [
        'node-1$ kubectl create deployment web --image=nginx',
        'node-1$ kubectl create deployment x',
        'node-1$ kubectl create deployment --image=nginx',
        'node-1$ kubectl create deployment y --image=nginx --replicas abc',
        'node-1$ kubectl create service clusterip s1',
        'node-1$ kubectl create service clusterip s1 --tcp=abc',
        'node-1$ kubectl create service clusterip s1 --tcp=70000',
        'node-1$ kubectl create service clusterip s1 --tcp=80:0',
        'node-1$ kubectl create service nodeport web --tcp=80',
        'node-1$ kubectl create service clusterip s2 --node-port 30001 --tcp 80',
        'node-1$ kubectl create configmap x',
        'node-1$ kubectl get deploy,svc --no-headers | wc -l',
      ].join('\n'),
    );
    expect(out).toEqual([
      'error: failed to create deployment: deployments.apps "web" already exists\n',
      'error: required flag(s) "image" not set\n',
      "error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples\n",
      `error: invalid argument "abc" for "-r, --replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax\nSee 'kubectl create deployment --help' for usage.\n`,
      'error: at least one tcp port specifier must be provided\n',
      'error: strconv.ParseUint: parsing "abc": invalid syntax\n',
      'error: strconv.ParseUint: parsing "70000": value out of range\n',
      'error: must be between 1 and 65535, inclusive\n',
      'error: failed to create NodePort service: services "web" already exists\n',
      "error: unknown flag: --node-port\nSee 'kubectl create service clusterip --help' for usage.\n",
      'lab: `kubectl create configmap` is not modelled in kube-proxy-lab\n',
      // The built-in Deployment and three Services (--no-headers: no blank line between them).
      '4\n',
    ]);
  });
});

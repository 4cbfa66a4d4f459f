// Source: the kubernetes.io tutorial "Connecting Applications with Services" shows
// `kubectl describe svc my-nginx` for a ClusterIP service with two ready endpoints; kubectl 1.32
// (pkg/describe/describe.go describeService) adds the `Internal Traffic Policy:` line, which that
// page predates.
import { describe, expect, it } from 'vitest';
import { createStandardRegistry, runCommandLine } from '../index';
import {
  cluster,
  endpoint,
  meta,
  port,
  service,
  slice,
  testWorld,
} from '../../../../tests/helpers/cluster-fixtures';
import { labCluster, NOW } from '../../../../tests/helpers/lab-fixture';

const registry = createStandardRegistry();

describe('kubectl describe service', () => {
  it('matches the docs example', () => {
    const c = cluster({
      services: [
        service('my-nginx', '10.0.162.149', [port({ port: 80, targetPort: 80 })], {
          meta: meta('my-nginx', { labels: { run: 'my-nginx' } }),
          selector: { run: 'my-nginx' },
        }),
      ],
      endpointSlices: [
        slice(
          'my-nginx-abcde',
          'my-nginx',
          [endpoint('10.244.2.5', 'n1'), endpoint('10.244.3.4', 'n2')],
          [{ name: '', port: 80, protocol: 'TCP' }],
        ),
      ],
    });
    const r = runCommandLine(registry, { world: testWorld(c) }, 'kubectl describe svc my-nginx');
    expect(r.stdout).toBe(
      [
        'Name:                     my-nginx',
        'Namespace:                default',
        'Labels:                   run=my-nginx',
        'Annotations:              <none>',
        'Selector:                 run=my-nginx',
        'Type:                     ClusterIP',
        'IP Family Policy:         SingleStack',
        'IP Families:              IPv4',
        'IP:                       10.0.162.149',
        'IPs:                      10.0.162.149',
        'Port:                     <unset>  80/TCP',
        'TargetPort:               80/TCP',
        'Endpoints:                10.244.2.5:80,10.244.3.4:80',
        'Session Affinity:         None',
        'Internal Traffic Policy:  Cluster',
        'Events:                   <none>',
        '',
      ].join('\n'),
    );
  });

  it('shows NodePort lines, only ready endpoints, and NotFound', () => {
    const w = testWorld(labCluster(), { now: NOW });
    const r = runCommandLine(registry, { world: w }, 'kubectl describe svc/web');
    expect(r.stdout).toContain(
      'Port:                     http  80/TCP\nTargetPort:               80/TCP\nNodePort:                 http  30080/TCP\nEndpoints:                10.244.0.5:80\n',
    );
    expect(r.stdout).toContain('External Traffic Policy:  Cluster\n');
    expect(runCommandLine(registry, { world: w }, 'kubectl describe svc nope')).toEqual({
      stdout: '',
      stderr: 'Error from server (NotFound): services "nope" not found\n',
      exitCode: 1,
    });
  });
});

describe('kubectl apply -f', () => {
  it('reports each object as kubectl does and errors for a missing path', () => {
    const w = testWorld(cluster(), {
      files: { 'web.yaml': 'kind: Service\n' },
      apply: () => ({
        applied: [
          { kind: 'Service', name: 'web', namespace: 'default', action: 'created' },
          { kind: 'Deployment', name: 'web', namespace: 'default', action: 'configured' },
          { kind: 'EndpointSlice', name: 'web-1', namespace: 'default', action: 'unchanged' },
        ],
        errors: [
          'The Service "bad" is invalid: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        ],
      }),
    });
    expect(runCommandLine(registry, { world: w }, 'kubectl apply -f web.yaml')).toEqual({
      stdout:
        'service/web created\ndeployment.apps/web configured\nendpointslice.discovery.k8s.io/web-1 unchanged\n',
      stderr:
        'The Service "bad" is invalid: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive\n',
      exitCode: 1,
    });
    expect(runCommandLine(registry, { world: w }, 'kubectl apply -f x.yaml')).toEqual({
      stdout: '',
      stderr: 'error: the path "x.yaml" does not exist\n',
      exitCode: 1,
    });
    expect(runCommandLine(registry, { world: w }, 'kubectl apply')).toEqual({
      stdout: '',
      stderr: 'error: must specify one of -f and -k\n',
      exitCode: 1,
    });
  });
});

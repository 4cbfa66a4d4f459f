/**
 * `kubectl get endpoints` through the CLI. Expected text: kubernetes 1.32's endpoints controller
 * (pkg/controller/endpoint syncService: selected pods with an address, terminating ones left
 * out, ready or not ready per pod, one address per resolved port), RepackSubsets/SortSubsets
 * (pkg/api/v1/endpoints), the API server's reconciler for default/kubernetes (one subset,
 * labelled endpointslice.kubernetes.io/skip-mirror), and printers.go formatEndpoints. The order
 * of the two `api` subsets is by the MD5 of their go-spew dumps, which Go 1.19 with go-spew
 * 1.1.1 printed for these very subsets (the pods' uids as the lab gives them): metrics
 * 00afedd5315f6ac99612015f395f1ebc before http b540ecd217859150b145801719174f08. kube-dns's
 * ports: dns-tcp, dns, metrics (endpoints.test.ts has their digests).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run';

const FIXTURE = readFileSync(new URL('./fixtures/endpoints-api.yaml', import.meta.url), 'utf8');
const run = (script: string) =>
  runCli(script, { readFile: (p) => (p === 'api.yaml' ? FIXTURE : undefined) });

describe('kubectl get endpoints', () => {
  it('lists the built-in cluster’s Endpoints, kube-dns’s ports in digest order', async () => {
    const r = await run('node-1$ kubectl get ep -A');
    expect(r.err).toBe('');
    expect(r.out).toBe(
      [
        'NAMESPACE     NAME           ENDPOINTS                                               AGE',
        'default       kubernetes     192.168.1.10:6443                                       10d',
        'default       web            10.244.0.4:8080,10.244.1.2:8080,10.244.1.3:8080         10d',
        'default       web-nodeport   10.244.0.4:8080,10.244.1.2:8080,10.244.1.3:8080         10d',
        'kube-system   kube-dns       10.244.0.2:53,10.244.0.3:53,10.244.0.2:53 + 3 more...   10d',
        '',
      ].join('\n'),
    );
  });

  it('packs ready, not-ready and missing ports as the controller does; no ExternalName', async () => {
    const r = await run(
      'node-1$ kubectl apply -f api.yaml\nnode-1$ kubectl get endpoints api api-headless nothing docs',
    );
    expect(r.out.split('\n').slice(7).join('\n')).toBe(
      [
        'NAME           ENDPOINTS                           AGE',
        'api            10.244.0.20:9090,10.244.0.20:8080   0s',
        'api-headless   10.244.0.20                         0s',
        'nothing        <none>                              0s',
        '',
      ].join('\n'),
    );
    expect(r.err).toBe('Error from server (NotFound): endpoints "docs" not found\n');
  });

  it('-o yaml: the subsets, not-ready addresses apart, the terminating pod left out', async () => {
    const r = await run(
      'node-1$ kubectl apply -f api.yaml\nnode-1$ kubectl get ep api -o jsonpath=\'{range .subsets[*]}{.ports[0].name}: {.addresses[*].ip} / {.notReadyAddresses[*].ip}{"\\n"}{end}\'',
    );
    expect(r.out.split('\n').slice(7).join('\n')).toBe(
      'metrics: 10.244.0.20 / \nhttp: 10.244.0.20 / 10.244.1.20\n',
    );
    const headless = await run(
      "node-1$ kubectl apply -f api.yaml\nnode-1$ kubectl get ep api-headless -o jsonpath='{.metadata.labels}{.subsets[0].ports}'",
    );
    expect(headless.out.split('\n').slice(7).join('\n')).toBe(
      '{"service.kubernetes.io/headless":""}',
    );
  });

  it('describe: each subset’s addresses and ports (kubectl describe.go describeEndpoints)', async () => {
    const r = await run(
      'node-1$ kubectl apply -f api.yaml\nnode-1$ kubectl describe ep api kubernetes',
    );
    expect(r.err).toBe('');
    expect(r.out.split('\n').slice(7).join('\n')).toBe(
      [
        'Name:         api',
        'Namespace:    default',
        'Labels:       <none>',
        'Annotations:  <none>',
        'Subsets:',
        '  Addresses:          10.244.0.20',
        '  NotReadyAddresses:  <none>',
        '  Ports:',
        '    Name     Port  Protocol',
        '    ----     ----  --------',
        '    metrics  9090  TCP',
        '',
        '  Addresses:          10.244.0.20',
        '  NotReadyAddresses:  10.244.1.20',
        '  Ports:',
        '    Name  Port  Protocol',
        '    ----  ----  --------',
        '    http  8080  TCP',
        '',
        'Events:  <none>',
        '',
        '',
        'Name:         kubernetes',
        'Namespace:    default',
        'Labels:       endpointslice.kubernetes.io/skip-mirror=true',
        'Annotations:  <none>',
        'Subsets:',
        '  Addresses:          192.168.1.10',
        '  NotReadyAddresses:  <none>',
        '  Ports:',
        '    Name   Port  Protocol',
        '    ----   ----  --------',
        '    https  6443  TCP',
        '',
        'Events:  <none>',
        '',
      ].join('\n'),
    );
  });

  it('default/kubernetes is the API server’s: labelled skip-mirror, one subset', async () => {
    const r = await run('node-1$ kubectl get ep kubernetes -o yaml');
    expect(r.out).toMatch(
      /\n {4}endpointslice\.kubernetes\.io\/skip-mirror: "true"\n[^]*\nsubsets:\n- addresses:\n {2}- ip: 192\.168\.1\.10\n {2}ports:\n {2}- name: https\n {4}port: 6443\n {4}protocol: TCP\n$/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, loadScenario } from '../../scenario';
import { createHosts, syncHosts } from '../build';
import { parseCurlArgs, parseNcArgs } from '../programs/args';
import { TestNet } from '../test-net';
import { httpDate } from '../output/time';

const { cluster } = loadScenario(DEFAULT_SCENARIO);
const CLIENT = 'pod/default/client';
const web = cluster.pods.find((p) => p.ownerDeployment === 'web' && p.nodeName === 'node-2');
const coredns = cluster.pods.find((p) => p.ownerDeployment === 'coredns');

function curl(net: TestNet, url: string) {
  const r = parseCurlArgs(['curl', '-sS', url]);
  if (!r.ok) throw new Error(r.stderr);
  return net.exec(CLIENT, { kind: 'curl', opts: r.opts });
}

describe('what listens where', () => {
  const hosts = createHosts(cluster);
  const listening = (key: string) =>
    hosts.hosts[key]?.sockets.map(
      (s) => `${s.proto}/${s.local.port} ${s.owner.kind === 'app' ? s.owner.app : ''}`,
    );

  it('web pods: their containerPort; CoreDNS: 53/udp and 53/tcp (dns), 9153; nodes: API server, kubelet, kube-proxy', () => {
    expect(listening(`pod/default/${web?.meta.name}`)).toEqual(['tcp/8080 http']);
    expect(listening(`pod/kube-system/${coredns?.meta.name}`)).toEqual([
      'udp/53 dns',
      'tcp/53 dns',
      'tcp/9153 http',
    ]);
    // kube-proxy: metrics on 127.0.0.1:10249, health on 0.0.0.0:10256 (its config defaults).
    const kubeProxy = ['tcp/10249 kube-proxy', 'tcp/10256 kube-proxy'];
    expect(listening('node-1')).toEqual(['tcp/6443 tls', 'tcp/10250 tls', ...kubeProxy]);
    expect(listening('node-2')).toEqual(['tcp/10250 tls', ...kubeProxy]);
    expect(hosts.hosts['node-1']?.sockets.map((s) => s.local.addr)).toEqual(['0.0.0.0', '0.0.0.0', '127.0.0.1', '0.0.0.0']); // prettier-ignore
    expect(listening(CLIENT)).toEqual([]);
    expect(listening('laptop')).toEqual([]);
  });

  it('follows the cluster: a pod that is gone takes its sockets with it', () => {
    const h = createHosts(cluster);
    const smaller = {
      ...cluster,
      pods: cluster.pods.filter((p) => p.meta.name !== web?.meta.name),
    };
    syncHosts(h, smaller);
    expect(Object.keys(h.hosts)).not.toContain(`pod/default/${web?.meta.name}`);
    expect(Object.keys(h.hosts)).toContain(CLIENT);
  });
});

describe('the web server (Go net/http, agnhost netexec paths)', () => {
  const net = new TestNet(cluster);
  const ip = web?.podIP ?? '';

  it('GET / names the pod, the address it was reached at and the peer it saw', () => {
    expect(curl(net, `http://${ip}:8080/`).stdout).toMatch(
      new RegExp(
        `^${web?.meta.name} \\(${ip.replaceAll('.', '\\.')}:8080\\): you are 10\\.244\\.0\\.5:\\d+\\n$`,
      ),
    );
  });

  it('/hostname and /clientip answer as agnhost does, without a newline; others: Go 404', () => {
    expect(curl(net, `http://${ip}:8080/hostname`).stdout).toBe(web?.meta.name);
    expect(curl(net, `http://${ip}:8080/clientip`).stdout).toMatch(/^10\.244\.0\.5:\d+$/);
    expect(curl(net, `http://${ip}:8080/nope`).stdout).toBe('404 page not found\n');
  });

  it('sends the Date of the lab clock, in Go header order', () => {
    const v = parseCurlArgs(['curl', '-sv', `http://${ip}:8080/`]);
    if (!v.ok) throw new Error();
    const r = net.exec(CLIENT, { kind: 'curl', opts: v.opts });
    expect(r.stderr).toContain(
      `< HTTP/1.1 200 OK\r\n< Date: ${httpDate(net.epochSeconds * 1000 + r.startedAt)}\r\n< Content-Length: `,
    );
  });

  it('answers a line that is not HTTP with Go’s 400 and closes (printf hello | nc)', () => {
    const o = parseNcArgs(['nc', ip, '8080'], 'hello\n');
    if (!o.ok) throw new Error();
    const r = net.exec(CLIENT, { kind: 'nc', opts: o.opts });
    expect(r.stdout).toBe(
      'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request',
    );
    expect(r.exitCode).toBe(0);
  });

  it('the API server port speaks TLS: plain HTTP gets “Client sent an HTTP request to an HTTPS server.”', () => {
    const r = curl(net, 'http://192.168.1.10:6443/');
    expect([r.stdout, r.exitCode]).toEqual([
      'Client sent an HTTP request to an HTTPS server.\n',
      0,
    ]);
  });
});

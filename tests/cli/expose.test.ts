/**
 * kubectl expose against the built-in scenario (Deployment web: 3 pods, containerPort 8080
 * named http; CoreDNS: 53/UDP, 53/TCP, 9153/TCP). Expected values from kubectl v1.30–v1.32's
 * source: pkg/cmd/expose/expose.go createService (name, selector, labels, one unnamed port or
 * `port-N`, `port-N-<protocol>` for a number with two protocols, targetPort = port unless
 * --target-port), polymorphichelpers (a Deployment's matchLabels, a Pod's labels, a Service's
 * selector; their messages), cmd/util/helpers.go (MultilineError for several field errors), and
 * the API server's AlreadyExists / NotFound / Invalid texts.
 */
import { describe, expect, it } from 'vitest';
import { runBlocks } from '../helpers/cli-run';

describe('kubectl expose', () => {
  it('makes a Service from a Deployment; kube-proxy programs it and it answers', async () => {
    const [made, svc, rule, answer] = await runBlocks(
      [
        'node-1$ kubectl expose deployment web --name web2 --port 80 --target-port 8080',
        "node-1$ kubectl get svc web2 -o jsonpath='{.spec.selector} {.spec.ports}'; echo",
        'node-1$ iptables -t nat -S KUBE-SERVICES | grep web2',
        'pod/client$ curl -s http://10.96.1.3/',
      ].join('\n'),
    );
    expect(made).toBe('service/web2 exposed\n');
    expect(svc).toBe('{"app":"web"} [{"port":80,"protocol":"TCP","targetPort":8080}]\n');
    expect(rule).toMatch(/^-A KUBE-SERVICES -d 10\.96\.1\.3\/32 -p tcp -m comment --comment "default\/web2 cluster IP" -m tcp --dport 80 -j KUBE-SVC-\w{16}\n$/); // prettier-ignore
    expect(answer).toMatch(/^web-6bc869c565-\w+ \(10\.244\.\d\.\d:8080\): you are 10\.244\.0\.5:\d+\n$/); // prettier-ignore
  });

  it('takes the ports from the pod template when --port is absent', async () => {
    const [web, dns, ports] = await runBlocks(
      [
        'node-1$ kubectl expose deploy/web --name web3 --type NodePort',
        'node-1$ kubectl expose deployment coredns -n kube-system --name dns2',
        'node-1$ kubectl get svc -A -o jsonpath=\'{range .items[*]}{.metadata.name} {.metadata.labels} {range .spec.ports[*]}{.name}/{.port}/{.protocol}/{.targetPort} {end}{"\\n"}{end}\'',
      ].join('\n'),
    );
    expect(web).toBe('service/web3 exposed\n');
    expect(dns).toBe('service/dns2 exposed\n');
    const line = (name: string) => ports?.split('\n').find((l) => l.startsWith(`${name} `));
    // One container port: one unnamed port, targetPort the same number.
    expect(line('web3')).toBe('web3  /8080/TCP/8080 ');
    // 53 with two protocols: port-1-udp and port-1-tcp, in the containers' order; the
    // Deployment's own labels are the Service's.
    expect(line('dns2')).toBe(
      'dns2 {"k8s-app":"kube-dns"} port-1-udp/53/UDP/53 port-1-tcp/53/TCP/53 port-2/9153/TCP/9153 ',
    );
  });

  it('bad input: kubectl’s and the API server’s errors, nothing created', async () => {
    const out = await runBlocks(
      [
        'node-1$ kubectl expose deployment web',
        'node-1$ kubectl expose deployment nosuch',
        'node-1$ kubectl expose',
        'node-1$ kubectl expose deployment',
        'node-1$ kubectl expose node node-1',
        'node-1$ kubectl expose deployment web --name w1 --port abc',
        'node-1$ kubectl expose deployment web --name w1 --port 0',
        'node-1$ kubectl expose deployment web --name w1 --type Foo',
        'node-1$ kubectl expose pod client',
        'node-1$ kubectl expose svc kubernetes --name k2',
        'node-1$ kubectl expose deployment web --name w1 --session-affinity Sticky',
        'node-1$ kubectl expose deployment web --name w1 --dry-run=client',
        'node-1$ kubectl get svc --no-headers',
      ].join('\n'),
    );
    expect(out.slice(0, 12)).toEqual([
      'Error from server (AlreadyExists): services "web" already exists\n',
      'Error from server (NotFound): deployments.apps "nosuch" not found\n',
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n",
      'error: resource(s) were provided, but no name was specified\n',
      'error: cannot expose a Node\n',
      'error: strconv.Atoi: parsing "abc": invalid syntax\n',
      'The Service "w1" is invalid: \n* spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive\n* spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive\n',
      'The Service "w1" is invalid: spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"\n',
      "error: couldn't retrieve selectors via --selector flag or introspection: the pod has no labels and cannot be exposed\n",
      "error: couldn't retrieve selectors via --selector flag or introspection: the service has no pod selector set\n",
      'error: unknown session affinity: Sticky\n',
      'lab: `kubectl expose --dry-run` is not modelled in kube-proxy-lab\n',
    ]);
    expect(out[12]?.split('\n').filter(Boolean)).toHaveLength(3);
  });
});

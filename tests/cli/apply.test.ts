/**
 * `kubectl apply -f` through the CLI: the API server takes the object, every node's kube-proxy
 * syncs, and only the new Service's chains are written (a partial sync, as kube-proxy does).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

const NEW_SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: default
spec:
  clusterIP: 10.96.0.50
  selector:
    app: web
  ports:
  - name: http
    port: 8080
    targetPort: 8080
`;

async function run(script: string, files: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const status = await main(['run'], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    readFile: (p) => files[p],
    readStdin: () => script,
  });
  return { status, out, err };
}

describe('kubectl apply -f', () => {
  it('creates the Service and kube-proxy writes only its chains', async () => {
    const r = await run(
      [
        'node-1$ kubectl apply -f api.yaml',
        'node-1$ lab sync',
        'node-1$ iptables -t nat -S KUBE-SERVICES | grep default/api',
        'node-2$ kubectl apply -f api.yaml',
      ].join('\n'),
      { 'api.yaml': NEW_SERVICE },
    );
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('service/api created');
    expect(r.out).toContain('last sync: partial (only changed services rewritten)');
    // Three web pods → three KUBE-SEP chains plus the KUBE-SVC chain, and nothing else.
    const written = lines
      .find((l) => l.startsWith('chains written: '))!
      .split(' ')
      .slice(2);
    expect(written.filter((c) => c.startsWith('KUBE-SVC-'))).toHaveLength(1);
    expect(written.filter((c) => c.startsWith('KUBE-SEP-'))).toHaveLength(3);
    expect(written).toHaveLength(4);
    expect(r.out).toMatch(
      /^-A KUBE-SERVICES -d 10\.96\.0\.50\/32 -p tcp -m comment --comment "default\/api:http cluster IP" -m tcp --dport 8080 -j KUBE-SVC-\w{16}$/m,
    );
    // Applying the same manifest again changes nothing (kubectl's "unchanged").
    expect(lines).toContain('service/api unchanged');
  });

  it('rejects an invalid object like the API server and keeps the cluster', async () => {
    const bad = NEW_SERVICE.replace('port: 8080\n    targetPort', 'port: 0\n    targetPort');
    const r = await run('node-1$ kubectl apply -f bad.yaml\nnode-1$ kubectl get svc api', {
      'bad.yaml': bad,
    });
    // validation.go ValidateServicePort: IsValidPortNum(0) (a port of 0 counts as given).
    expect(r.err).toContain(
      'The Service "api" is invalid: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    );
    expect(r.err).toContain('Error from server (NotFound): services "api" not found');
    expect(r.status).not.toBe(0);
  });

  it('a file with no object is an error; a ConfigMap (not simulated) is an object', async () => {
    // kubectl apply.go: `if len(infos) == 0 && len(errs) == 0 { return fmt.Errorf("no objects
    // passed to apply") }`, printed as "error: …" with exit 1.
    const r = await run(
      [
        'node-1$ kubectl apply -f empty.yaml',
        'node-1$ echo "# nothing" | kubectl apply -f -',
        'node-1$ kubectl apply -f list.yaml',
        'node-1$ kubectl apply -f cm.yaml',
      ].join('\n'),
      {
        'empty.yaml': '---\n# only a comment\n---\n',
        'list.yaml': 'apiVersion: v1\nkind: List\nitems: []\n',
        'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n',
      },
    );
    // Three refusals (the script's status is the failures'); the ConfigMap adds nothing to them.
    expect(r.err).toBe('error: no objects passed to apply\n'.repeat(3));
    expect(r.status).toBe(1);
  });

  it('applies the items of a v1 List, as kubectl get -o yaml prints them', async () => {
    const list = `apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: ""\nitems:\n- ${NEW_SERVICE.trimEnd().replace(/\n/g, '\n  ')}\n`; // prettier-ignore
    const r = await run(
      'node-1$ kubectl apply -f list.yaml\nnode-1$ kubectl get svc api --no-headers',
      {
        'list.yaml': list,
      },
    );
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^service\/api created\napi +ClusterIP +10\.96\.0\.50 /);
  });
});

/**
 * `kubectl apply -f DIR/` and `kubectl delete -f FILE|DIR|-` through the CLI, against files in
 * memory laid out as directories. Expected words and order come from kubectl v1.32.4's
 * sources (k8s.io/cli-runtime and k8s.io/kubectl at tag kubernetes-1.32.4), cited per test.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import type { DirectoryEntry } from '../../src/engine';

const service = (name: string, port: number) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector:\n    app: web\n  ports:\n  - port: ${port}\n`;

/** A few files, their directories implied by their paths. */
const FILES: Record<string, string> = {
  'm/b.yml': service('svc-b', 8082),
  'm/a.yaml': service('svc-a', 8081),
  'm/c.json': JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc-c' }, spec: { ports: [{ port: 8083 }] } }), // prettier-ignore
  'm/notes.txt': 'not a manifest\n',
  'm/sub/d.yaml': service('svc-d', 8084),
  'm/z.yaml': service('svc-z', 8085),
  'empty/.keep': '',
  'other-ns.yaml': service('svc-k', 1).replace(
    'name: svc-k',
    'name: svc-k\n  namespace: kube-system',
  ),
  'mixed.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n---\n${service('svc-a', 1)}`,
  'blank.yaml': '---\n# nothing\n',
  'web-deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n',
};

function listDirectory(path: string): readonly DirectoryEntry[] | undefined {
  const dir = path.replace(/\/+$/, '').replace(/^\.\/?/, '');
  const prefix = dir === '' ? '' : `${dir}/`;
  const names = new Map<string, boolean>();
  for (const file of Object.keys(FILES)) {
    if (!file.startsWith(prefix)) continue;
    const [first, ...rest] = file.slice(prefix.length).split('/');
    names.set(first!, rest.length > 0);
  }
  // Unsorted on purpose: the order must be kubectl's, not the directory's.
  if (names.size === 0) return undefined;
  return [...names].reverse().map(([name, directory]) => ({ name, directory }));
}

async function run(script: string) {
  let out = '';
  let err = '';
  const status = await main(['run'], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    readFile: (p) => FILES[p.replace(/^\.\//, '')],
    listDirectory,
    readStdin: () => script,
  });
  return { status, out, err };
}

describe('kubectl apply -f DIR', () => {
  it("applies the directory's .json, .yaml and .yml files in lexical order", async () => {
    // visitor.go:508 ExpandPathsToFileVisitors: filepath.Walk (sorted names), SkipDir for
    // subdirectories unless -R, extensions from builder.go:45 FileExtensions.
    const r = await run('node-1$ kubectl apply -f m/');
    expect(r.err).toBe('');
    expect(r.out).toBe(
      'service/svc-a created\nservice/svc-b created\nservice/svc-c created\nservice/svc-z created\n',
    );
    // -R walks the subdirectory where its name sorts ("sub" < "z.yaml").
    const recursive = await run('node-1$ kubectl apply -R -f ./m');
    expect(recursive.out).toBe(
      'service/svc-a created\nservice/svc-b created\nservice/svc-c created\nservice/svc-d created\nservice/svc-z created\n',
    );
  });

  it('reads several -f and comma lists, and a file named outright whatever its extension', async () => {
    // filename_flags.go: -f is a StringSlice (comma-separated values, repeatable).
    const r = await run('node-1$ kubectl apply -f m/z.yaml,m/a.yaml -f m/notes.txt');
    expect(r.out).toBe('service/svc-z created\nservice/svc-a created\n');
    // The .txt file is read (builder.go Path: no extension check on the path given) and
    // holds no object, so only its YAML error, not a refusal of the others.
    expect(r.status).toBe(1);
  });

  it('checks every path first: a missing one applies nothing', async () => {
    // builder.go:49 pathNotExistError, collected by FilenameParam; apply.go Run returns the
    // builder's error before any object is sent. Two errors: helpers.go MultipleErrors, one a
    // line without "error: ".
    const r = await run('node-1$ kubectl apply -f m/a.yaml -f nope.yaml -f gone/\nnode-1$ kubectl get svc svc-a'); // prettier-ignore
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'the path "nope.yaml" does not exist\nthe path "gone/" does not exist\n' +
        'Error from server (NotFound): services "svc-a" not found\n',
    );
    const one = await run('node-1$ kubectl apply -f m/a.yaml -f nope.yaml');
    expect(one.err).toBe('error: the path "nope.yaml" does not exist\n');
  });

  it('expands a pattern that names no file, as filepath.Glob does', async () => {
    // builder.go expandIfFilePattern: filepath.Glob when the path does not exist (the lab's
    // shell, like bash with no match, leaves the word as it is). Glob sorts each directory.
    const r = await run("node-1$ kubectl apply -f 'm/*.y*ml'");
    expect(r.out).toBe('service/svc-a created\nservice/svc-b created\nservice/svc-z created\n');
    // A match that is a directory is walked like one named outright.
    const dir = await run('node-1$ kubectl apply -f e*');
    expect(dir.err).toBe('error: error reading [empty]: recognized file extensions are [.json .yaml .yml]\n'); // prettier-ignore
    // match.go ErrBadPattern "syntax error in pattern", worded by expandIfFilePattern.
    const bad = await run("node-1$ kubectl apply -f 'm/[' -f 'none*'");
    expect(bad.err).toBe(
      'pattern "m/[" is not valid: syntax error in pattern\nthe path "none*" does not exist\n',
    );
  });

  it('a directory with no manifest is an error naming the extensions', async () => {
    // builder.go:448: `error reading %v: recognized file extensions are %v`.
    const r = await run('node-1$ kubectl apply -f empty/');
    expect(r.err).toBe('error: error reading [empty/]: recognized file extensions are [.json .yaml .yml]\n'); // prettier-ignore
    expect(r.status).toBe(1);
  });

  it('says that the lab does not fetch a URL', async () => {
    const r = await run('node-1$ kubectl apply -f https://example.com/web.yaml');
    expect(r.err).toMatch(/^lab: kube-proxy-lab does not fetch manifests over the network/);
    expect(r.status).toBe(1);
  });
});

describe('kubectl delete -f', () => {
  it('deletes the objects a directory names; kube-proxy removes their rules', async () => {
    const r = await run(
      [
        'node-1$ kubectl apply -f m/',
        'node-1$ iptables-save -t nat | grep -c svc-',
        'node-1$ kubectl delete -f m/',
        'node-1$ iptables-save -t nat | grep -c svc-',
      ].join('\n'),
    );
    // delete.go:523 PrintObj: `%s "%s" %s` with the lower-case kind, in visiting order.
    const rulesBefore = Number(r.out.split('\n')[4]);
    expect(rulesBefore).toBeGreaterThan(0);
    expect(r.out).toContain(
      'service "svc-a" deleted\nservice "svc-b" deleted\nservice "svc-c" deleted\nservice "svc-z" deleted\n0\n',
    );
  });

  it('NotFound names the file, exits 1; --ignore-not-found drops it', async () => {
    // helpers.go:65 AddSourceToErr("deleting", info.Source, err) inside the server's status.
    const r = await run('node-1$ kubectl apply -f m/a.yaml\nnode-1$ kubectl delete -f m/a.yaml,m/b.yml'); // prettier-ignore
    expect(r.out).toBe('service/svc-a created\nservice "svc-a" deleted\n');
    expect(r.err).toBe('Error from server (NotFound): error when deleting "m/b.yml": services "svc-b" not found\n'); // prettier-ignore
    expect(r.status).toBe(1);
    // delete.go DeleteResult: r.IgnoreErrors(errors.IsNotFound).
    const ignored = await run('node-1$ kubectl delete -f m/ --ignore-not-found');
    expect(ignored).toEqual({ status: 0, out: '', err: '' });
    const byName = await run('node-1$ kubectl delete svc nothing --ignore-not-found');
    expect(byName).toEqual({ status: 0, out: '', err: '' });
  });

  it('reads stdin for -f -, named STDIN in errors', async () => {
    // visitor.go:46 constSTDINstr.
    const r = await run(`node-1$ printf '${service('svc-a', 1).replace(/\n/g, '\\n')}' | kubectl delete -f -`); // prettier-ignore
    expect(r.err).toBe('Error from server (NotFound): error when deleting "STDIN": services "svc-a" not found\n'); // prettier-ignore
  });

  it('deletes a Deployment named in a file as `kubectl delete deployment` does', async () => {
    const r = await run('node-1$ kubectl delete -f web-deploy.yaml\nnode-1$ kubectl get deploy');
    expect(r.out).toBe('deployment.apps "web" deleted\n');
    expect(r.err).toBe('No resources found in default namespace.\n');
  });

  it('-n must be the namespace the file gives; an empty file is not an error', async () => {
    // visitor.go:679 RequireNamespace (with -n given), one error: "error: " (helpers.go).
    const r = await run('node-1$ kubectl delete -f other-ns.yaml -n default');
    expect(r.err).toBe(
      `error: the namespace from the provided object "kube-system" does not match the namespace "default". You must pass '--namespace=kube-system' to perform this operation.\n`,
    );
    // delete.go:438 DeleteResult: nothing visited.
    const blank = await run('node-1$ kubectl delete -f blank.yaml');
    expect(blank).toEqual({ status: 0, out: 'No resources found\n', err: '' });
    // builder.go:130 StdinMultiUseError.
    const twice = await run('node-1$ echo | kubectl delete -f - -f -');
    expect(twice.err).toBe('error: standard input cannot be used for multiple arguments\n');
  });

  it('says which kinds the lab cannot delete and deletes the rest', async () => {
    const r = await run('node-1$ kubectl apply -f m/a.yaml\nnode-1$ kubectl delete -f mixed.yaml');
    expect(r.out).toBe('service/svc-a created\nservice "svc-a" deleted\n');
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/^lab: `kubectl delete` of a ConfigMap is not modelled in kube-proxy-lab; cfg was left as it is/); // prettier-ignore
  });

  it('refuses resource words beside -f, after checking the paths', async () => {
    // builder.go:1123 visitByPaths.
    const r = await run('node-1$ kubectl delete -f m/a.yaml svc');
    expect(r.err).toBe('error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well\n'); // prettier-ignore
  });
});

describe('the installed executable', () => {
  const bin = join(import.meta.dirname, '..', '..', 'bin', 'kube-proxy-lab.cjs');
  const built = existsSync(join(import.meta.dirname, '..', '..', 'dist-cli', 'kube-proxy-lab.cjs'));

  it.skipIf(!built)('lists a real directory as filepath.Walk does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kpl-apply-dir-'));
    try {
      mkdirSync(join(dir, 'm', 'sub'), { recursive: true });
      writeFileSync(join(dir, 'm', 'b.yaml'), service('svc-b', 8082));
      writeFileSync(join(dir, 'm', 'a.yml'), service('svc-a', 8081));
      writeFileSync(join(dir, 'm', 'sub', 'c.yaml'), service('svc-c', 8083));
      // An entry that links to a file is a file of the walk (os.Lstat: not a directory).
      symlinkSync(join(dir, 'm', 'b.yaml'), join(dir, 'm', 'link.yaml'));
      const r = spawnSync(process.execPath, [bin, 'run'], {
        cwd: dir,
        input:
          'node-1$ kubectl apply -R -f m/\nnode-1$ kubectl delete -R -f m --ignore-not-found\n',
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(
        'service/svc-a created\nservice/svc-b created\nservice/svc-b unchanged\nservice/svc-c created\n' +
          // link.yaml names svc-b again: gone already, NotFound, ignored.
          'service "svc-a" deleted\nservice "svc-b" deleted\nservice "svc-c" deleted\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

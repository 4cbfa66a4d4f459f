/**
 * The `kube-proxy-lab` CLI: argument handling, exit statuses, `check` diagnostics, and one run
 * through the real executable as a user starts it.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../src/cli/main';
import { DEFAULT_SCENARIO } from '../../src/engine';

function io(files: Record<string, string> = {}, stdin = ''): CliIo & { out: string; err: string } {
  const captured = {
    out: '',
    err: '',
    stdout: (t: string) => (captured.out += t),
    stderr: (t: string) => (captured.err += t),
    readFile: (p: string) => files[p],
    readStdin: () => stdin,
  };
  return captured;
}

describe('kube-proxy-lab check', () => {
  it('accepts the built-in scenario', async () => {
    const c = io({ 'ok.yaml': DEFAULT_SCENARIO });
    expect(await main(['check', 'ok.yaml'], c)).toBe(0);
    expect(c.err).toBe('');
  });

  it('prints FILE:LINE:COL: message and exits 1', async () => {
    const bad = [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: web',
      'spec:',
      '  ports:',
      '  - port: 70000',
      '',
    ].join('\n');
    const c = io({ 'bad.yaml': bad });
    expect(await main(['check', 'bad.yaml'], c)).toBe(1);
    // The API server's messages for an out-of-range port (validation.go: ValidatePortNum);
    // targetPort was defaulted to the port before validation, so it is reported too.
    expect(c.err).toBe(
      'bad.yaml:7:11: The Service "web" is invalid: spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive\n' +
        'bad.yaml:7:11: The Service "web" is invalid: spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive\n',
    );
  });

  it('reports a missing file', async () => {
    const c = io();
    expect(await main(['check', 'nope.yaml'], c)).toBe(1);
    expect(c.err).toBe('kube-proxy-lab: cannot read nope.yaml\n');
  });
});

describe('kube-proxy-lab run', () => {
  it('runs a script from standard input; output only, no prompts without --echo', async () => {
    const c = io({}, 'node-1$ iptables -t nat -S KUBE-MARK-MASQ\n');
    expect(await main(['run'], c)).toBe(0);
    expect(c.out).toBe('-N KUBE-MARK-MASQ\n-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000\n');
  });

  it('says iptables-save -f would write a file the lab does not keep', async () => {
    const c = io({}, 'node-1$ iptables-save -f /tmp/rules.v4 -t nat\n');
    expect(await main(['run'], c)).toBe(1);
    expect(c.out).toBe('');
    expect(c.err).toBe(
      'lab: iptables-save -f would write the rules to /tmp/rules.v4, and the lab keeps no files; without -f it prints them\n',
    );
  });

  it('exits non-zero when a command fails, and keeps running the rest', async () => {
    const c = io({}, 'node-1$ nosuchtool\nnode-1$ iptables -t nat -S KUBE-MARK-MASQ\n');
    expect(await main(['run'], c)).toBe(127);
    expect(c.err).toBe('bash: nosuchtool: command not found\n');
    expect(c.out).toContain('-N KUBE-MARK-MASQ');
  });

  it('says which script line names an unknown host', async () => {
    const c = io({}, '# comment\nnode-9$ iptables-save\n');
    expect(await main(['run'], c)).toBe(1);
    expect(c.err).toBe(
      'kube-proxy-lab: script line 2: no node or external client named "node-9"\n',
    );
  });

  it('takes a scenario file and a script file', async () => {
    const c = io({ 's.yaml': DEFAULT_SCENARIO, 'x.txt': 'node-2$ kubectl get nodes\n' });
    expect(await main(['run', 's.yaml', 'x.txt'], c)).toBe(0);
    expect(c.out.split('\n')[0]).toMatch(/^NAME +STATUS +ROLES +AGE +VERSION$/);
  });

  it('still runs what loaded from a scenario with errors, and exits 1', async () => {
    const broken = `${DEFAULT_SCENARIO}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: Bad_Name\n`;
    const c = io({ 's.yaml': broken }, 'node-1$ kubectl get svc kubernetes -o name\n');
    expect(await main(['run', 's.yaml'], c)).toBe(1);
    expect(c.out).toBe('service/kubernetes\n');
    expect(c.err).toMatch(/^s\.yaml:\d+:\d+: The Service "Bad_Name" is invalid: metadata\.name/m);
  });

  it('rejects unknown options and commands with usage and status 2', async () => {
    const c = io();
    expect(await main(['run', '--bogus'], c)).toBe(2);
    expect(c.err).toMatch(/^kube-proxy-lab: unknown option --bogus\nUsage:/);
    expect(await main(['frob'], io())).toBe(2);
  });
});

describe('the installed executable', () => {
  const bin = join(import.meta.dirname, '..', '..', 'bin', 'kube-proxy-lab.cjs');
  const built = existsSync(join(import.meta.dirname, '..', '..', 'dist-cli', 'kube-proxy-lab.cjs'));

  it.skipIf(!built)('prints the kube-dns chain (`npx kube-proxy-lab run` after `npm ci`)', () => {
    const r = spawnSync(process.execPath, [bin, 'run', '--echo'], {
      input: 'node-1$ iptables -t nat -L KUBE-SVC-TCOU7JCQXEZGVUNU -n\n',
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Chain KUBE-SVC-TCOU7JCQXEZGVUNU (1 references)');
    expect(r.stdout).toContain('statistic mode random probability 0.50000000000');
  });

  it.skipIf(!built)(
    'ends quietly with status 141 when its reader stops early, as on SIGPIPE',
    () => {
      // `iptables-save | head`: the real tool is killed by SIGPIPE (a shell reports 128 + 13),
      // printing nothing more. Two hundred saves (about 2 MB) outgrow any pipe's buffer, so
      // writing goes on after `head` has gone.
      const script = 'node-1$ iptables-save\n'.repeat(200);
      const r = spawnSync(
        'bash',
        ['-c', '"$0" "$1" run | head -c 100 >/dev/null; echo "status ${PIPESTATUS[0]}" >&2', process.execPath, bin], // prettier-ignore
        { input: script, encoding: 'utf8' },
      );
      expect(r.stderr).toBe('status 141\n');
    },
  );

  it.skipIf(!built)('reads UTF-8 files and standard input, ASCII or not, as their text', () => {
    // main.ts readText(): an ASCII file is made into a string byte for byte, any other one is
    // decoded as UTF-8 (a BOM, Chinese, a µ).
    const dir = mkdtempSync(join(tmpdir(), 'kpl-utf8-'));
    try {
      const service = (note: string) =>
        `${DEFAULT_SCENARIO}---\napiVersion: v1\nkind: Service\nmetadata:\n  name: noted\n  annotations:\n    note: "${note}"\nspec:\n  selector: { app: none }\n  ports:\n  - port: 80\n`;
      const script =
        "node-1$ kubectl get svc noted -o jsonpath='{.metadata.annotations.note}'; echo\nnode-1$ echo 数据库\n";
      for (const [name, text, note] of [
        ['ascii.yaml', service('plain'), 'plain'],
        ['utf8.yaml', service('数据库 µs'), '数据库 µs'],
        ['bom.yaml', `\ufeff${service('plain')}`, 'plain'],
      ] as const) {
        writeFileSync(join(dir, name), text, 'utf8');
        const r = spawnSync(process.execPath, [bin, 'run', join(dir, name)], {
          input: script,
          encoding: 'utf8',
        });
        expect(r.stderr, name).toBe('');
        expect(r.stdout, name).toBe(`${note}\n数据库\n`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!built)('is bundled as ASCII only, so V8 holds its source as one-byte text', () => {
    // scripts/build-cli.mjs escapes what esbuild leaves (comments, a regular expression's µ).
    const bundle = readFileSync(join(import.meta.dirname, '..', '..', 'dist-cli', 'kube-proxy-lab.cjs'), 'utf8'); // prettier-ignore
    expect(bundle.match(/[\u0080-\uffff]/g) ?? []).toEqual([]);
  });

  it.skipIf(!built)("prints the same bytes with V8's code cache as compiled from source", () => {
    // The build's code cache holds the bytecode of a warm-up run: a run using it must print
    // exactly what a run compiling the bundle from source prints.
    const loader = join(import.meta.dirname, '..', '..', 'bin', 'load-cli.cjs');
    const runWith = (useCache: boolean) =>
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { loadBundle, setCompilerFlags } from ${JSON.stringify(loader)};
           setCompilerFlags();
           const { exports, script } = loadBundle({ useCache: ${useCache} });
           const used = script.cachedDataRejected === false ? 'used' : 'not used';
           process.exitCode = await exports.main(['run', '--echo']);
           process.stderr.write('code cache ' + used + '\\n');`,
        ],
        { input: SCRIPT_FOR_CACHE, encoding: 'utf8' },
      );
    const cached = runWith(true);
    const compiled = runWith(false);
    expect(cached.stderr.endsWith('\ncode cache used\n')).toBe(true);
    expect(compiled.stderr.endsWith('\ncode cache not used\n')).toBe(true);
    expect(cached.status).toBe(0);
    expect(cached.stdout).toBe(compiled.stdout);
    const tools = (stderr: string) => stderr.slice(0, stderr.lastIndexOf('code cache'));
    expect(tools(cached.stderr)).toBe(tools(compiled.stderr));
    expect(cached.stdout).toContain('-A KUBE-SERVICES');
  });

  it.skipIf(!built)('never uses a code cache made from another bundle', () => {
    // V8 checks only the source's length: a cache of another bundle of the same length would
    // run that bundle's bytecode. The loader keys the cache by the bundle's digest instead.
    const root = join(import.meta.dirname, '..', '..');
    const dir = mkdtempSync(join(tmpdir(), 'kpl-cache-'));
    try {
      mkdirSync(join(dir, 'bin'));
      mkdirSync(join(dir, 'dist-cli'));
      copyFileSync(join(root, 'bin', 'load-cli.cjs'), join(dir, 'bin', 'load-cli.cjs'));
      const cache = 'kube-proxy-lab.cjs.v8cache';
      copyFileSync(join(root, 'dist-cli', cache), join(dir, 'dist-cli', cache));
      const bundle = readFileSync(join(root, 'dist-cli', 'kube-proxy-lab.cjs'), 'utf8');
      const probe = (source: string) => {
        writeFileSync(join(dir, 'dist-cli', 'kube-proxy-lab.cjs'), source);
        const loader = join(dir, 'bin', 'load-cli.cjs');
        return spawnSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `import { loadBundle, setCompilerFlags } from ${JSON.stringify(loader)};
             setCompilerFlags();
             process.stdout.write(String(loadBundle().script.cachedDataRejected));`,
          ],
          { encoding: 'utf8' },
        ).stdout;
      };
      expect(probe(bundle)).toBe('false'); // the cache of this very bundle: used
      // Same length, one character changed: no cache is handed to V8 at all.
      const other = bundle.replace('USAGE', 'USAGF');
      expect(other).not.toBe(bundle);
      expect(other.length).toBe(bundle.length);
      expect(probe(other)).toBe('undefined');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const SCRIPT_FOR_CACHE = [
  'node-1$ iptables-save',
  'node-1$ iptables -t nat -L -n -v',
  'pod/client$ curl -s http://10.96.1.1',
  'node-1$ conntrack -L',
  'pod/client$ dig +short kube-dns.kube-system.svc.cluster.local',
].join('\n');

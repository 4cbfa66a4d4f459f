/**
 * Differential test: the engine's `kubectl get -o yaml|json` text against the real kubectl's
 * printers. Without an API server, `kubectl label --local -f FILE <absent-label>- -o yaml|json`
 * reads an object from a file and prints it with the same YAMLPrinter / JSONPrinter `kubectl get`
 * uses (removing a label that is not there changes nothing). The engine's object is handed over
 * as JSON, so this checks the printers — key order, quoting, block scalars, list layout,
 * indentation — not what the objects contain (that follows the API types, see objects*.ts).
 * Skipped, with the reason printed, when no kubectl binary is installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStandardRegistry, runCommandLine } from '../../src/engine/commands';
import { testWorld } from '../helpers/cluster-fixtures';
import { labCluster, NOW } from '../helpers/lab-fixture';

const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
const skipReason =
  probe.status === 0 ? '' : `no usable kubectl binary (${probe.error?.message ?? probe.stderr})`;
if (skipReason !== '') console.warn(`tests/tools/kubectl-printers: skipped — ${skipReason}`);

const dir = mkdtempSync(join(tmpdir(), 'kpl-kubectl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const registry = createStandardRegistry();
const world = testWorld(labCluster(), { now: NOW });
const engine = (line: string): string => {
  const r = runCommandLine(registry, { world }, line);
  if (r.exitCode !== 0) throw new Error(`${line}: ${r.stderr}`);
  return r.stdout;
};

function realPrinter(json: string, format: 'yaml' | 'json'): string {
  const file = join(dir, `obj-${Math.abs(json.length)}-${format}.json`);
  writeFileSync(file, json);
  const r = spawnSync(
    'kubectl',
    ['label', '--local', '-f', file, 'kpl-absent-label-', '-o', format],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

const OBJECTS = [
  'svc kubernetes',
  'svc web',
  'svc web-lb',
  'svc kube-dns -n kube-system',
  'endpointslices web-x7k2d',
  'endpointslices kubernetes',
  'pods web-5d4f8b7c9d-7xk2p',
  'pods coredns-7db6d8ff4d-4xq9z -n kube-system',
  'deploy web',
  'rs web-5d4f8b7c9d',
  'nodes node-1',
  'configmap kube-proxy -n kube-system',
];

describe.skipIf(skipReason !== '')('kubectl -o yaml / -o json match kubectl 1.32 printers', () => {
  it.each(OBJECTS)('kubectl get %s', (what) => {
    const json = engine(`kubectl get ${what} -o json`);
    expect(engine(`kubectl get ${what} -o yaml`)).toBe(realPrinter(json, 'yaml'));
    expect(json).toBe(realPrinter(json, 'json'));
  });
});

/**
 * `kube-proxy-lab link`: the link it prints opens, with the web lab's own decoder, to exactly
 * the file's text; a scenario with errors, a bad --base or a scenario too large for a link is
 * refused with its reason and no link.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateScaleScenario } from '../../src/engine';
import { main } from '../../src/cli/main';
import { decodeScenario, scenarioInHash } from '../../src/ui/app/share-link';

async function link(args: string[], files: Record<string, string>) {
  let out = '';
  let err = '';
  const status = await main(['link', ...args], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    readFile: (p) => files[p],
    readStdin: () => '',
  });
  return { status, out, err };
}

const experiments = readdirSync('scenarios').map((d) => `scenarios/${d}/scenario.yaml`);
const files = Object.fromEntries(experiments.map((f) => [f, readFileSync(f, 'utf8')]));

describe('kube-proxy-lab link', () => {
  it.each(experiments)('%s: a link the web lab opens to the same text', async (file) => {
    const r = await link([file], files);
    expect(r).toMatchObject({ status: 0, err: '' });
    const url = new URL(r.out.trim());
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:5173/');
    expect(r.out.length).toBeLessThan(8_000);
    expect(await decodeScenario(scenarioInHash(url.hash)!)).toBe(files[file]);
  });

  it('takes the base URL where the lab is served, dropping its own fragment', async () => {
    const file = experiments[0]!;
    const r = await link(['--base', 'https://lab.example.edu/k8s/?lang=zh#old', file], files);
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/^https:\/\/lab\.example\.edu\/k8s\/\?lang=zh#scenario=1\.[\w-]+\n$/);
  });

  it('refuses a scenario with errors, a bad base, a missing file, a too large scenario', async () => {
    const bad = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: Bad_Name\n';
    const r1 = await link(['bad.yaml'], { 'bad.yaml': bad });
    expect(r1.status).toBe(1);
    expect(r1.out).toBe('');
    expect(r1.err).toMatch(/^bad\.yaml:4:9: The Service "Bad_Name" is invalid: metadata\.name/m);
    const r2 = await link(['--base', 'ftp://x/', experiments[0]!], files);
    expect(r2).toMatchObject({ status: 2, out: '' });
    expect(r2.err).toBe('kube-proxy-lab: --base: ftp://x/ is not an http or https URL\n');
    expect((await link(['--base', 'not a url', experiments[0]!], files)).status).toBe(2);
    expect(await link(['nope.yaml'], {})).toMatchObject({
      status: 1,
      err: 'kube-proxy-lab: cannot read nope.yaml\n',
    });
    const big = await link(['big.yaml'], { 'big.yaml': generateScaleScenario(1_000) });
    expect(big.status).toBe(1);
    expect(big.err).toMatch(/makes a link of \d+ characters \(at most 32000\); hand out the file/);
    expect((await link([], files)).status).toBe(2);
    expect((await link(['--base'], files)).status).toBe(2);
  });
});

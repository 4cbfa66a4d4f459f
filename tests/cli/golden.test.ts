/**
 * Golden transcripts of `kube-proxy-lab run --echo` on the built-in scenario (see
 * tests/golden/README.md for where every expected value comes from).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

const DIR = join(import.meta.dirname, '..', 'golden');
const scripts = readdirSync(DIR).filter((f) => f.endsWith('.script'));

async function transcript(script: string): Promise<{ text: string; status: number }> {
  let text = '';
  const status = await main(['run', '--echo'], {
    stdout: (t) => (text += t),
    stderr: (t) => (text += t),
    readFile: () => undefined,
    readStdin: () => script,
  });
  return { text, status };
}

describe('golden transcripts', () => {
  it.each(scripts)('%s', async (file) => {
    const { text } = await transcript(readFileSync(join(DIR, file), 'utf8'));
    const expectedFile = join(DIR, file.replace(/\.script$/, '.expected'));
    if (process.env.UPDATE_GOLDEN) writeFileSync(expectedFile, text);
    expect(text.split('\n')).toEqual(readFileSync(expectedFile, 'utf8').split('\n'));
  });

  it('shows the seeds for kube-dns (the textbook, 服务原理 §7)', async () => {
    const { text, status } = await transcript(readFileSync(join(DIR, 'kube-dns.script'), 'utf8'));
    expect(status).toBe(0);
    // KUBE-SERVICES sends 10.96.0.10:53/UDP to the dns port's chain.
    expect(text).toMatch(
      /^KUBE-SVC-TCOU7JCQXEZGVUNU +17 +-- +0\.0\.0\.0\/0 +10\.96\.0\.10 +\/\* kube-system\/kube-dns:dns cluster IP \*\/ udp dpt:53$/m,
    );
    // The 0.5 split: the first CoreDNS pod by probability, the second as the fall-through.
    expect(text).toMatch(
      /^KUBE-SEP-YIL6JZP7A3QYXJU2 +0 +-- .*10\.244\.0\.2:53 \*\/ statistic mode random probability 0\.50000000000$/m,
    );
    expect(text).toMatch(/^KUBE-SEP-6E7XQMQ4RAYOWTTM +0 +-- .*10\.244\.0\.3:53 \*\/$/m);
    // The KUBE-SEP chain: hairpin mark for the pod itself, then the DNAT.
    expect(text).toContain(
      '-A KUBE-SEP-YIL6JZP7A3QYXJU2 -p udp -m comment --comment "kube-system/kube-dns:dns" -m udp -j DNAT --to-destination 10.244.0.2:53',
    );
    expect(text).toContain(
      '-A KUBE-SEP-YIL6JZP7A3QYXJU2 -s 10.244.0.2/32 -m comment --comment "kube-system/kube-dns:dns" -j KUBE-MARK-MASQ',
    );
  });
});

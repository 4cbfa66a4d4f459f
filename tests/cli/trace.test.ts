/**
 * `kube-proxy-lab run --trace[=all] [--lang zh-CN]`: each command's prompt line and output, then
 * the packets it caused step by step, as the web lab's event list shows them. Checked against
 * the same run's `--json` trace (the same scenario and seed play the same way) and the zh-CN
 * texts the web lab uses.
 */
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../src/cli/main';
import { LAB_NOTES_ZH } from '../../src/explain/zh-CN/notes';
import { TRACE_MESSAGES_ZH } from '../../src/explain/zh-CN/trace';

interface Step {
  readonly seq: number;
  readonly kind: string;
  readonly matched?: boolean;
  readonly rule?: string;
  readonly at: { readonly host: string };
  readonly why: { readonly id: string; readonly params?: Record<string, unknown> };
}

async function cli(args: string[], script: string) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    readFile: () => undefined,
    readStdin: () => script,
  };
  const status = await main(['run', ...args], io);
  return { status, out, err };
}

/** The steps of each command of the script, from the JSON document of the same run. */
async function jsonSteps(script: string): Promise<Step[][]> {
  const { out } = await cli(['--json'], script);
  return (JSON.parse(out) as { commands: { steps: Step[] }[] }).commands.map((c) => c.steps);
}

const headings = (text: string) => [...text.matchAll(/^#(\d+) {2}(\S+)/gm)];
const isKey = (s: Step) => (s.kind === 'rule' ? s.matched === true : s.kind !== 'policy');
const DIG = 'pod/client$ dig +short kube-dns.kube-system.svc.cluster.local';

describe('kube-proxy-lab run --trace', () => {
  it("prints the prompt, the tool's output, then one block per key step of its packets", async () => {
    const { status, out, err } = await cli(['--trace'], `${DIG}\n`);
    expect(status).toBe(0);
    expect(err).toBe('');
    expect(out.startsWith(`${DIG}\n10.96.0.10\n\n#0  pod/default/client  send  ·  UDP 10.244.0.5:`)).toBe(true); // prettier-ignore
    const [steps] = await jsonSteps(`${DIG}\n`);
    const keys = steps!.filter(isKey);
    expect(keys.length).toBeGreaterThan(10);
    expect(headings(out).map((m) => Number(m[1]))).toEqual(keys.map((s) => s.seq));
    expect(headings(out).map((m) => m[2])).toEqual(keys.map((s) => s.at.host));
    // The DNAT rule that chose a CoreDNS pod, as iptables -S prints it, and the rewrite.
    const dnat = keys.find((s) => s.kind === 'rule' && s.rule?.includes('-j DNAT'));
    expect(out).toContain(`    ${dnat!.rule}\n`);
    expect(out).toMatch(/^#\d+ {2}node-1 \(cni0\) {2}DNAT UDP 10\.244\.0\.5:\d+ → 10\.96\.0\.10:53 ⇒ UDP 10\.244\.0\.5:\d+ → 10\.244\.0\.[23]:53$/m); // prettier-ignore
    expect(out).toContain('    DNAT: destination rewritten at PREROUTING\n');
  });

  it('--trace=all lists every step, each rule tried included', async () => {
    const { out } = await cli(['--trace=all'], `${DIG}\n`);
    const [steps] = await jsonSteps(`${DIG}\n`);
    expect(headings(out).map((m) => Number(m[1]))).toEqual(steps!.map((s) => s.seq));
    expect(steps!.some((s) => !isKey(s))).toBe(true);
  });

  it('a command that sends nothing gets its prompt and output only', async () => {
    const line = 'node-1$ iptables -t nat -S KUBE-SERVICES | head -1';
    const { out } = await cli(['--trace'], `${line}\n${DIG}\n`);
    expect(out.startsWith(`${line}\n-N KUBE-SERVICES\n\n${DIG}\n10.96.0.10\n\n#0  `)).toBe(true);
  });

  it("--lang zh-CN explains in Chinese and translates the lab's notes, not the tools' output", async () => {
    const script = `${DIG}\npod/client$ ss -an | head -1\n`;
    const en = await cli(['--trace'], script);
    const zh = await cli(['--trace', '--lang', 'zh-CN'], script);
    const [steps] = await jsonSteps(script);
    const send = steps![0]!;
    const template = TRACE_MESSAGES_ZH[send.why.id]!;
    const filled = template.replace(/\{(\w+)\}/g, (_m, k: string) => String(send.why.params?.[k]));
    expect(zh.out).toContain(`#0  pod/default/client  send  ·  `);
    expect(zh.out).toContain(`\n    ${filled}\n`);
    expect(zh.out).not.toContain('pod/default/client sends the packet');
    // Everything but the explanations is the same: the tools' output, the step headings.
    const isWhy = (l: string) =>
      l.startsWith('    ') && !l.startsWith('    -A ') && !/^ {4}(tcp|udp|icmp) +\d+ /.test(l);
    const withoutWhy = (t: string) => t.split('\n').filter((l) => !isWhy(l));
    expect(withoutWhy(zh.out)).toEqual(withoutWhy(en.out));
    // ss's note that the lab lists TCP and UDP sockets only, in the web lab's zh-CN words.
    expect(en.err).toMatch(/^lab: /);
    expect(zh.err).not.toBe(en.err);
    expect(zh.err).toContain(LAB_NOTES_ZH['ss.families']!.slice(0, 12));
  });

  it('--lang works without --trace; bad options get the usage and exit status 2', async () => {
    const note = await cli(['--lang=zh-CN'], 'node-1$ conntrack -E -o timestamp\n');
    expect(note.err).toBe('conntrack: 实验台没有模拟 -o timestamp\n');
    for (const args of [['--lang', 'fr'], ['--lang'], ['--json', '--trace'], ['--trace=some']]) {
      const bad = await cli(args, '');
      expect(bad.status).toBe(2);
      expect(bad.err).toMatch(/^kube-proxy-lab: .*\nUsage:\n/);
    }
  });
});

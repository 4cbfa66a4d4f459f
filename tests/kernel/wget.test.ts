/**
 * The lab's wget against the real GNU Wget 1.21.3 (/usr/bin/wget, Debian bookworm's) in a
 * throwaway namespace. The real server answers with the very bytes the lab's pod answers
 * (taken from the lab's own `curl -sv`, as tests/kernel/curl-writeout.test.ts does) where the
 * lab reaches it: the pod 10.244.1.2:8080, and `web` on 10.96.1.1:80 (the Service's ClusterIP;
 * the namespace's /etc/hosts names it, and its nsswitch.conf reads files only, so an unknown
 * name fails as CoreDNS's NXDOMAIN fails in the lab: `Name or service not known`). A Service
 * without endpoints is kube-proxy's `-j REJECT` (ICMP port unreachable): a REJECT rule here;
 * an address nothing answers is a DROP rule.
 *
 * What differs by nature is normalised: the dates (the lab clock vs this machine's; the
 * seconds between the tries of a timed-out fetch are compared apart), the rate and the dots'
 * time (measured by the real wget; the lab's are wget's own for 0 s), the `Date:` header, the
 * client's address
 * in the body, and the lab's own note lines (`lab: …`, which name what the lab simplifies).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeWrites } from '../../src/engine/model/stdio';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import { labPodAnswer } from './lab-pod-answer';
import { netnsUnavailableReason, withNetns } from './netns';
import { sh } from './netns-env';

const version = sh(['wget', '--version']).stdout.split('\n')[0] ?? '';
const skip =
  netnsUnavailableReason() ??
  (version.startsWith('GNU Wget 1.21.3 ') ? undefined : `wget is "${version}", not 1.21.3`);
if (skip !== undefined) console.log(`skipping the wget comparison: ${skip}`);

const POD = '10.244.1.2';
const WEB = '10.96.1.1';
const SILENT = '10.96.0.30';

/** Each case: wget's arguments; the answer the real server gives, where; on a terminal? */
interface Case {
  readonly args: string;
  readonly serve?: { readonly answer: 'ok' | '404'; readonly at: string; readonly port: number };
  readonly tty?: boolean;
  /** `args` is shell text (a redirection, a pipe), not words to quote. */
  readonly shell?: boolean;
}

const ok = (at = POD, port = 8080) => ({ answer: 'ok' as const, at, port });
const notFound = (at = POD, port = 8080) => ({ answer: '404' as const, at, port });

/** Served by the pods (before the Service loses its endpoints). */
const SERVED: readonly Case[] = [
  { args: `-O- http://${POD}:8080/`, serve: ok(), tty: true },
  { args: '-O /dev/null http://web/', serve: ok(WEB, 80), tty: true },
  { args: 'http://web/', serve: ok(WEB, 80), tty: true },
  { args: '-S -O- http://web/x', serve: notFound(WEB, 80), tty: true },
  { args: `-qO- http://${POD}:8080/`, serve: ok() },
  // stderr into a pipe: the dots instead of the bar, after the body wget wrote and flushed.
  { args: `-O- http://${POD}:8080/ 2>&1 | cat`, serve: ok(), shell: true },
  { args: `-nv -O- http://${POD}:8080/`, serve: ok() },
  { args: `-S -nv -O- http://${POD}:8080/`, serve: ok() },
  { args: `-q -S -O- http://${POD}:8080/`, serve: ok() },
  { args: '-nv --spider http://web/', serve: ok(WEB, 80) },
  { args: `-nv -S --spider ${POD}:8080/x`, serve: notFound() },
  { args: `-O- http://${POD}:8080/x`, serve: notFound() },
  { args: `-qO- ${POD}:8080/x`, serve: notFound() },
  { args: '-nv -O- http://web/x', serve: notFound(WEB, 80) },
  { args: '--spider http://web/', serve: ok(WEB, 80) },
  { args: `--spider ${POD}:8080/x`, serve: notFound() },
  { args: '-O- http://nosuch/' },
  { args: '-qO- http://nosuch/' },
  { args: '-nv -O- http://nosuch/' },
];

/** After `kubectl scale deployment web --replicas=0` (lab) / a REJECT rule (real). */
const FAILING: readonly Case[] = [
  { args: '-O- http://web/' },
  { args: '-nv -O- http://web/' },
  { args: '-qO- http://web/' },
  { args: `-t 3 -O- http://${WEB}/` },
  { args: `-T 1 -t 3 -O- http://${SILENT}/` },
  { args: `-nv -T 1 -t 2 -O- http://${SILENT}/` },
  { args: `-q -T 1 -t 2 http://${SILENT}/` },
];

interface Run {
  readonly out: string;
  readonly err: string;
  readonly exit: number;
}

const normalise = (text: string) =>
  text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((l) => !l.startsWith('lab: '))
    .join('\n')
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, 'DATE')
    .replace(/\([\d.]+ [KMGT]?B\/s\)/g, '(RATE)')
    .replace(/(\d+%) +[\d.]+[ KMGT]=\S+/g, '$1 RATE=TIME')
    .replace(/Date: [^\n]+ GMT/g, 'Date: D')
    .replace(/you are [\d.]+:\d+/g, 'you are ADDR');

/** Seconds between the `--DATE--` lines (wget's waits between tries, on either clock). */
const gaps = (text: string) => {
  const times = [...text.matchAll(/--(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)--/g)].map((m) => Date.parse(`${m[1]!.replace(' ', 'T')}Z`) / 1000); // prettier-ignore
  return times.slice(1).map((t, i) => t - times[i]!);
};

/** The lab pod's answer to a GET of `path`, as bytes on the wire. */
function podAnswer(path: string): string {
  const { head, body } = labPodAnswer('', path);
  return `${head}\n${body}`;
}

function lab(): Run[] {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const runs: Run[] = [];
  const line = (c: Case) => `pod/client$ wget ${c.args}`;
  const script = [
    ...SERVED.map(line),
    'node-1$ kubectl scale deployment web --replicas=0',
    'node-1$ sleep 40',
    ...FAILING.map(line),
  ].join('\n');
  runScript(world, script, {
    readFile: () => undefined,
    onOutput: (l, r, writes) => {
      if (l?.includes('$ wget') !== true) return;
      const tty = [...SERVED, ...FAILING].find((c) => l.endsWith(`wget ${c.args}`))?.tty;
      const out = tty === true ? mergeWrites(writes ?? [], true) : r.stdout;
      runs.push({ out, err: tty === true ? '' : r.stderr, exit: r.exitCode });
    },
  });
  return runs;
}

const quote = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;
const dir = mkdtempSync(join(tmpdir(), 'kpl-wget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let realRuns: Run[] | undefined;
let labRuns: Run[] | undefined;
const both = () => ({ theirs: (realRuns ??= real()), mine: (labRuns ??= lab()) });

function real(): Run[] {
  const answers = { ok: join(dir, 'ok'), '404': join(dir, '404') };
  writeFileSync(answers.ok, podAnswer('/'));
  writeFileSync(answers['404'], podAnswer('/x'));
  return withNetns((run, ns) => {
    // `ip netns exec` mounts /etc/netns/NS/* over /etc: this namespace's own names.
    const etc = join('/etc/netns', ns);
    mkdirSync(etc, { recursive: true });
    try {
      writeFileSync(join(etc, 'hosts'), `127.0.0.1 localhost\n${WEB} web\n`);
      writeFileSync(join(etc, 'nsswitch.conf'), 'hosts: files\n');
      run(['ip', 'link', 'set', 'lo', 'up']);
      for (const a of [POD, WEB, SILENT]) run(['ip', 'addr', 'add', `${a}/32`, 'dev', 'lo']);
      run(['iptables', '-A', 'OUTPUT', '-d', SILENT, '-p', 'tcp', '-j', 'DROP']);
      const once = (c: Case, i: number): Run => {
        // A directory of its own: `wget URL` saves index.html, never index.html.1.
        const cwd = mkdtempSync(join(dir, `cwd-${i}-`));
        const wget = `wget ${c.shell === true ? c.args : c.args.split(' ').map(quote).join(' ')}`;
        const serve = c.serve === undefined ? '' : `timeout 10 nc -l -N ${c.serve.at} ${c.serve.port} < ${answers[c.serve.answer]} > /dev/null & sleep 0.3;`; // prettier-ignore
        const cmd = c.tty === true ? `script -qec ${quote(`stty cols 80; ${wget}`)} /dev/null` : wget; // prettier-ignore
        const r = run(['sh', '-c', `cd ${cwd}; ${serve} ${cmd}; s=$?; kill %1 2>/dev/null; exit $s`]); // prettier-ignore
        return { out: r.stdout, err: r.stderr, exit: r.exitCode };
      };
      const served = SERVED.map(once);
      run(['iptables', '-A', 'OUTPUT', '-d', WEB, '-p', 'tcp', '-j', 'REJECT']);
      return [...served, ...FAILING.map((c, i) => once(c, SERVED.length + i))];
    } finally {
      rmSync(etc, { recursive: true, force: true });
    }
  });
}

describe.skipIf(skip !== undefined)('wget, as the real GNU Wget 1.21.3', () => {
  it('prints the same lines on stdout, stderr and the terminal, and exits the same', () => {
    const { theirs, mine } = both();
    expect(mine).toHaveLength(theirs.length);
    for (const [i, c] of [...SERVED, ...FAILING].entries()) {
      const r = theirs[i]!;
      const m = mine[i]!;
      const shown = (x: Run) => ({ out: normalise(x.out), err: normalise(x.err), exit: x.exit });
      expect(shown(m), `wget ${c.args}`).toEqual(shown(r));
    }
    // The comparison compared something: a body, a bar, the retries.
    expect(theirs[SERVED.findIndex((c) => c.args.startsWith('-qO-'))]!.out).toMatch(
      /^web-\S+ \(10\.244\.1\.2:8080\): you are /,
    );
    expect(theirs[0]!.out).toContain('100%[===================>]');
    expect(theirs[SERVED.length + 4]!.err).toContain('(try: 3)');
  }, 60_000);

  it('waits between tries as long as the real wget (1 s, then 2 s, after a 1 s -T)', () => {
    const i = SERVED.length + 4;
    const theirs = gaps(both().theirs[i]!.err);
    const mine = gaps(both().mine[i]!.err);
    expect(mine).toEqual([2, 3]);
    // The real clock's seconds tick at any point of a try: allow one either way.
    for (const [k, g] of theirs.entries()) expect(Math.abs(g - mine[k]!)).toBeLessThanOrEqual(1);
  }, 60_000);
});

/** Command lines wget rejects before it touches the network: the same words, the same status. */
const REJECTED = [
  '',
  '-q',
  '--foo http://x/',
  '-z http://x/',
  '-T',
  '-T abc http://x/',
  '-T -1 http://x/',
  '-nx http://x/',
  '--header bad http://x/',
  'http://x:99999/',
];

describe.skipIf(!version.startsWith('GNU Wget 1.21.3 '))(
  'wget usage errors, as the real wget',
  () => {
    it.each(REJECTED)('wget %s', (args) => {
      const argv = args === '' ? [] : args.split(' ');
      const r = sh(['wget', ...argv]);
      const { world } = World.fromScenario(DEFAULT_SCENARIO);
      let mine = { stdout: '', stderr: '', exitCode: -1 };
      runScript(world, `pod/client$ wget ${args}`, {
        readFile: () => undefined,
        onOutput: (_l, res) => (mine = res),
      });
      expect(mine).toEqual({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode });
    });
  },
);

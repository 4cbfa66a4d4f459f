/**
 * dig's display options (+[no]all, +[no]cmd, +[no]comments, +[no]question, +[no]answer,
 * +[no]stats, +short…) and query-type words, compared with the real dig (BIND 9.18, Debian
 * bookworm): the real dig asks the DNS responder of ./pod-server.mjs in a throwaway network
 * namespace (lo only) for `web.default.svc.cluster.local`; the lab's dig prints its output for
 * the same reply (the responder's: aa, rd echoed, no ra, the query's OPT with its COOKIE echoed).
 * Ids, timings, the date, the message size and the cookie are masked (./normalise.ts).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsMessage } from '../../src/engine/hosts/dns/message';
import { dnsQuery } from '../../src/engine/hosts/dns/message';
import { digOutput } from '../../src/engine/hosts/output/dig';
import { parseDigArgs } from '../../src/engine/hosts/programs/args';
import type { TranscriptEntry } from '../../src/engine/hosts/programs/types';
import { sh } from './netns-env';

const NAME = 'web.default.svc.cluster.local';
const ADDRESS = '10.96.1.1';

function unavailable(): string | undefined {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not running as root';
  for (const tool of ['ip', 'dig'])
    if (sh(['sh', '-c', `command -v ${tool}`]).exitCode !== 0) return `${tool} is not installed`;
  return undefined;
}

const reason = unavailable();
if (reason !== undefined) console.log(`skipping the dig display comparison: ${reason}`);

// prettier-ignore
const LINES: string[][] = [
  [], ['+noall', '+answer'], ['+answer', '+noall'], ['+nocmd'], ['+nocomments'],
  ['+noquestion', '+nostats'], ['+noall', '+cmd'], ['+noall', '+comments'], ['+noall', '+stats'],
  ['+noall', '+question'], ['+nocmd', '+cmd'], ['+short'], ['+short', '+noshort'],
  ['+short', '+noanswer'], ['+noall', '+answer', '+stats'], ['+NOALL', '+ANSWER'],
  ['+noal', '+ans'], ['+noall', '+an'], ['+nocomm', '+noquest'], ['+noadditional'],
  ['+noauthority'], ['+noanswer'], ['A', '+noall', '+answer'], ['-t', 'A', '+noall', '+answer'],
  ['-4', '+noall', '+answer'], ['-c', 'IN', '+noall', '+answer'], ['IN', 'A', '+noall', '+answer'],
  ['+noall', '+answer', 'A', 'A'], ['-t', 'bogus', '+noall', '+answer'],
];

/** The responder's reply (tests/kernel/pod-server.mjs dnsAnswer()) to `q`. */
function responderReply(q: DnsMessage): DnsMessage {
  const known = q.question[0]?.name === `${NAME}.` && q.question[0]?.type === 'A';
  return {
    ...q,
    qr: true,
    aa: true,
    ra: false,
    ad: false,
    rcode: known ? 'NOERROR' : 'NXDOMAIN',
    answer: known ? [{ name: `${NAME}.`, ttl: 30, data: { type: 'A', address: ADDRESS } }] : [],
    authority: [],
  };
}

function mask(text: string): string {
  return text
    .replace(/id: \d+/g, 'id: <id>')
    .replace(/Query time: \d+ msec/g, 'Query time: <ms> msec')
    .replace(/WHEN: .*/g, 'WHEN: <date>')
    .replace(/MSG SIZE {2}rcvd: \d+/g, 'MSG SIZE  rcvd: <n>')
    .replace(/COOKIE: [0-9a-f]+/g, 'COOKIE: <cookie>')
    .replace(/9\.18\.49-1~deb12u\d+-Debian/g, '9.18.49-1~deb12u<n>-Debian');
}

function lab(args: readonly string[]) {
  const parsed = parseDigArgs(['dig', ...args]);
  if (!parsed.ok) return { stdout: parsed.stdout ?? '', stderr: parsed.stderr, status: 1 };
  const opts = parsed.opts;
  const q = dnsQuery(4242, opts.name, opts.type, {
    edns: { udpSize: 1232, cookie: '0123456789abcdef' },
    ad: true,
  });
  const server = { addr: '127.0.0.1', port: 53 };
  const tr: TranscriptEntry[] = [
    { t: 0, kind: 'dns-query', server, message: q, tcp: false },
    { t: 1, kind: 'dns-response', server, message: responderReply(q), tcp: false },
  ];
  const out = digOutput(opts, tr, { epochSeconds: 1_796_227_343 });
  return { stdout: mask(out.stdout), stderr: (parsed.stderr ?? '') + out.stderr, status: 0 };
}

describe.skipIf(reason !== undefined)('dig display options, lab vs BIND 9.18 dig', () => {
  const ns = `kpl-dig-${randomBytes(3).toString('hex')}`;
  let server: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    expect(sh(['ip', 'netns', 'add', ns]).exitCode).toBe(0);
    sh(['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up']);
    const spec = {
      name: 'dns',
      addr: '127.0.0.1',
      ttlSeconds: 120,
      ports: [{ proto: 'udp', port: 53, app: 'dns' }],
      records: { [`${NAME}.`]: ADDRESS },
    };
    const child = spawn('ip', [
      ...['netns', 'exec', ns, process.execPath, 'tests/kernel/pod-server.mjs'],
      JSON.stringify(spec),
    ]);
    server = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.on('exit', () => reject(new Error('the DNS responder exited')));
    });
  });

  afterAll(() => {
    if (server?.pid !== undefined) server.kill();
    sh(['ip', 'netns', 'delete', ns]);
  });

  it.each(LINES.map((args) => [args.join(' ') || '(no options)', args] as const))(
    'dig @127.0.0.1 NAME %s',
    (_, args) => {
      const argv = ['@127.0.0.1', NAME, ...args];
      const real = sh(['ip', 'netns', 'exec', ns, 'dig', ...argv], '', 10_000);
      expect(lab(argv)).toEqual({
        stdout: mask(real.stdout),
        stderr: real.stderr,
        status: real.exitCode,
      });
    },
  );
});

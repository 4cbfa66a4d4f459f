/**
 * curl -w / --write-out, -o and -i, compared with the real curl 7.88.1 in a throwaway namespace.
 * The real server answers with the very bytes the lab's pod answers (taken from the lab's own
 * `curl -sv`), on the pod's address and port, so the request (Host: 10.244.1.2:8080), the
 * header and body sizes are the same on both sides; what differs by nature is normalised:
 * times (the lab's network takes no time), speeds, the client's address and port, and the
 * body's "you are ADDR:PORT".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeWrites } from '../../src/engine/model/stdio';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import { labPodAnswer } from './lab-pod-answer';
import { netnsUnavailableReason, withNetns } from './netns';

const skip = netnsUnavailableReason();
if (skip !== undefined) console.log(`skipping the curl --write-out comparison: ${skip}`);

const POD = '10.244.1.2';

/** Every variable of curl 7.88.1 but json and header_json, in its own field. */
const ALL = [
  'certs content_type errormsg exitcode filename_effective ftp_entry_path http_code',
  'http_connect http_version method num_certs num_connects num_headers num_redirects',
  'proxy_ssl_verify_result redirect_url referer remote_ip remote_port response_code scheme',
  'size_download size_header size_request size_upload speed_download speed_upload',
  'ssl_verify_result time_appconnect time_connect time_namelookup time_pretransfer',
  'time_redirect time_starttransfer time_total url url_effective urlnum',
]
  .join(' ')
  .split(' ')
  .map((v) => `${v}=[%{${v}}]`)
  .join(' ')
  .concat(' local=[%{local_ip}:%{local_port}]\\n');

/** Each case: curl's arguments (after `curl -s`), on both sides. */
const CASES: readonly (readonly string[])[] = [
  ['-o', '/dev/null', '-w', ALL, `http://${POD}:8080/`],
  ['-w', ALL, `http://${POD}:8081/`],
  ['-o', '-', '-w', '%{foo}a%{json\\n[%{filename_effective}]\\n', `${POD}:8080`],
  ['-w', '%{stderr}E%{stdout}O %header{content-length} %header{x-no} %H %\\x %%\\t|\\n', `${POD}:8080`], // prettier-ignore
  ['-o', '/dev/null', '-w', '%{onerror}X\\n', `${POD}:8080`],
  ['-w', '%{onerror}X %{errormsg}\\n', `${POD}:8081`],
  ['-sSo/dev/null', '--write-out', '%{http_code} %{url_effective}\\n', `http://${POD}:8080`],
];

const normalise = (text: string) =>
  text
    .replace(/\b\d+\.\d{6}\b/g, 'T')
    .replace(/speed_download=\[\d+\]/g, 'speed_download=[S]')
    .replace(/local=\[[\d.]+:\d+\]/g, 'local=[ADDR]')
    .replace(/you are [\d.]+:\d+/g, 'you are ADDR');

const quote = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;

/** The lab's pod's answer to curl's request (HEAD with `-I`), as bytes on the wire. */
function podAnswer(flags = ''): string {
  const { head, body } = labPodAnswer(flags);
  return flags === '-I' ? `${head}\n` : `${head}\n${body}`;
}

function lab(): { stdout: string; stderr: string; exitCode: number }[] {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const out: { stdout: string; stderr: string; exitCode: number }[] = [];
  runScript(
    world,
    CASES.map((args) => `pod/client$ curl -s ${args.map(quote).join(' ')}`).join('\n'),
    {
      readFile: () => undefined,
      onOutput: (_l, r) => out.push({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }),
    },
  );
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'kpl-curl-w-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(skip !== undefined)('curl -w and -o, as the real curl', () => {
  it('prints the same variables, the same errors and the same streams', () => {
    const answer = join(dir, 'answer');
    writeFileSync(answer, podAnswer());
    const real = withNetns((run) => {
      run(['ip', 'link', 'set', 'lo', 'up']);
      run(['ip', 'addr', 'add', `${POD}/32`, 'dev', 'lo']);
      return CASES.map((args) => {
        const curl = `curl -s ${args.map(quote).join(' ')}`;
        const serve = `timeout 10 nc -l -N ${POD} 8080 < ${answer} > /dev/null &`;
        return run(['sh', '-c', `${serve} sleep 0.3; ${curl}; s=$?; kill %1 2>/dev/null; exit $s`]); // prettier-ignore
      });
    });
    const mine = lab();
    for (const [i, args] of CASES.entries()) {
      const r = real[i]!;
      const m = mine[i]!;
      expect(
        { stdout: normalise(m.stdout), stderr: m.stderr, exit: m.exitCode },
        args.join(' '),
      ).toEqual({
        stdout: normalise(r.stdout),
        stderr: r.stderr,
        exit: r.exitCode,
      });
    }
    // The first case really reported a transfer (so the comparison compared something).
    expect(real[0]!.stdout).toMatch(/http_code=\[200\].*size_header=\[\d{2,}\]/);
  });
});

/** The lines on a terminal (stdout and stderr merged; on the pty `\n` became `\r\n`). */
function labTerminal(lines: readonly string[]): string[] {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const out: string[] = [];
  runScript(world, lines.join('\n'), {
    readFile: () => undefined,
    onOutput: (_l, _r, writes) => out.push(mergeWrites(writes ?? [], true)),
  });
  return out;
}

describe.skipIf(skip !== undefined)(
  'curl -i on a terminal and into a pipe, as the real curl',
  () => {
    it('bold header names, and with -v each < line just before its header', () => {
      const answer = join(dir, 'answer-tty');
      writeFileSync(answer, podAnswer());
      const headAnswer = join(dir, 'answer-head');
      writeFileSync(headAnswer, podAnswer('-I'));
      const commands = [
        `curl -i ${POD}:8080`,
        `curl -sv -i ${POD}:8080`,
        // Into a pipe: no bold; -w's sizes count the head apart from the body.
        `curl -si -w '%{size_header} %{size_download}\\n' ${POD}:8080 | cat`,
        // The head goes where the body goes: to /dev/null.
        `curl -si -o /dev/null -w '%{size_header}\\n' ${POD}:8080`,
        // -I: HEAD, the head is the output; the meter knows the length but gets no body.
        `curl -I ${POD}:8080`,
        `curl -vI ${POD}:8080 2>&1 | cat`,
        `curl -sI -w '%{method} %{size_download} %{http_code}\\n' ${POD}:8080`,
      ];
      const real = withNetns((run) => {
        run(['ip', 'link', 'set', 'lo', 'up']);
        run(['ip', 'addr', 'add', `${POD}/32`, 'dev', 'lo']);
        return commands.map((c) => {
          const served = c.includes('I ') ? headAnswer : answer;
          const serve = `timeout 10 nc -l -N ${POD} 8080 < ${served} > /dev/null &`;
          return run(['sh', '-c', `${serve} sleep 0.3; script -qec ${quote(c)} /dev/null; kill %1 2>/dev/null; true`]); // prettier-ignore
        });
      });
      const mine = labTerminal(commands.map((c) => `pod/client$ ${c}`));
      // The pty turned each \n into \r\n; the normalised texts must be equal.
      const fromPty = (t: string) => normalise(t.replace(/\r\n/g, '\n'));
      expect(real[0]!.stdout).toContain('\x1b[1mContent-Length\x1b[0m: ');
      for (const [i, c] of commands.entries())
        expect(normalise(mine[i]!), c).toBe(fromPty(real[i]!.stdout));
    });
  },
);

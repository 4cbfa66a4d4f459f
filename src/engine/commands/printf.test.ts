// printf where the lab says what it does not model, and the classic hand-made HTTP request
// through a Service. Its bash semantics (escapes, conversions, flags, messages, statuses) are
// compared with the real bash in tests/kernel/text-tools.test.ts.
import { describe, expect, it } from 'vitest';
import { runLine } from '../../../tests/helpers/run-line';

const run = (line: string) => runLine('pod/client', line);

describe('printf', () => {
  it('writes a request by hand for nc, which reaches a web pod through the Service', () => {
    const r = run(`printf 'GET /hostname HTTP/1.0\\r\\n\\r\\n' | nc -w 2 10.96.1.1 80`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nweb-6bc869c565-\w+$/);
  });

  it('says which conversions and options it does not model, keeping what it printed', () => {
    expect(run(`printf 'a=%d b=%.2f\\n' 1 2.5`)).toEqual({
      stdout: 'a=1 b=',
      stderr:
        "lab: printf %f is not modelled; the lab's printf has %s, %b, %c, %d, %i, %o, %u, %x, %X and %%\n",
      exitCode: 1,
    });
    expect(run(`printf '%q %(%F)T'`).stderr).toMatch(/^lab: printf %q is not modelled/);
    expect(run(`printf '%(%F)T'`).stderr).toMatch(/^lab: printf %\(…\)T is not modelled/);
    expect(run('printf -v x %s 1')).toEqual({
      stdout: '',
      stderr: 'lab: printf -v is not modelled in kube-proxy-lab\n',
      exitCode: 1,
    });
  });
});

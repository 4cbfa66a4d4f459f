/**
 * The CLI prints a long iptables-save as it is made (CommandContext.stdoutStream): the bytes
 * must be those of the same command returning its whole output, in the same place among the
 * prompts and the other commands' output, and only a line that is that one command streams.
 */
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../src/cli/main';
import { generateScaleScenario } from '../../src/engine';

/** The CLI's io, with every write to stdout kept apart. */
function io(
  files: Record<string, string>,
  stdin: string,
): CliIo & { writes: string[]; err: string } {
  const captured = {
    writes: [] as string[],
    err: '',
    stdout: (t: string) => void captured.writes.push(t),
    stderr: (t: string) => void (captured.err += t),
    readFile: (p: string) => files[p],
    readStdin: () => stdin,
  };
  return captured;
}

// 60 Services × 10 endpoints: some 2,500 lines in the nat table, more than one chunk.
const files = { 'scale.yaml': generateScaleScenario(60) };

/** What --json mode (which never streams) records as a command line's stdout. */
async function wholeStdout(line: string): Promise<string> {
  const c = io(files, `node-1$ ${line}\n`);
  expect(await main(['run', '--json', 'scale.yaml'], c)).toBe(0);
  const doc = JSON.parse(c.writes.join('')) as { commands: { stdout: string }[] };
  return doc.commands[0]!.stdout;
}

describe('streamed output', () => {
  it('iptables-save alone on a line comes in pieces, the same bytes as the whole', async () => {
    const whole = await wholeStdout('iptables-save');
    expect(whole.split('\n').length).toBeGreaterThan(2500);
    const c = io(files, 'node-1$ iptables-save\n');
    expect(await main(['run', 'scale.yaml'], c)).toBe(0);
    // One write per chunk of 1,024 lines, then the command's (empty) rest.
    expect(c.writes.filter((w) => w !== '').length).toBeGreaterThan(2);
    expect(c.writes.join('')).toBe(whole);
    expect(c.err).toBe('');
  });

  it('keeps the transcript in order: prompt, streamed output, next command', async () => {
    const script = 'node-1$ iptables-save -t filter\nnode-1$ echo done\n';
    const c = io(files, script);
    expect(await main(['run', '--echo', 'scale.yaml'], c)).toBe(0);
    const filter = await wholeStdout('iptables-save -t filter');
    expect(c.writes.join('')).toBe(
      `node-1$ iptables-save -t filter\n${filter}node-1$ echo done\ndone\n`,
    );
  });

  it('does not stream where other output goes around it: lists, pipes, redirections', async () => {
    const whole = await wholeStdout('iptables-save');
    const cases: [string, string][] = [
      ['echo first; iptables-save', `first\n${whole}`],
      ['iptables-save | cat', whole],
      ['iptables-save 2>&1', whole],
      ['iptables-save && echo ok', `${whole}ok\n`],
    ];
    for (const [line, expected] of cases) {
      const c = io(files, `node-1$ ${line}\n`);
      expect(await main(['run', 'scale.yaml'], c)).toBe(0);
      expect(c.writes.join(''), line).toBe(expected);
      // The whole output in one write: nothing was streamed ahead of what comes before it.
      expect(c.writes.filter((w) => w.includes('*nat')).length, line).toBe(1);
    }
  });

  it('translated output (--lang zh-CN) is printed whole, the same bytes', async () => {
    const whole = await wholeStdout('iptables-save');
    const c = io(files, 'node-1$ iptables-save\n');
    expect(await main(['run', '--lang', 'zh-CN', 'scale.yaml'], c)).toBe(0);
    expect(c.writes.join('')).toBe(whole);
    expect(c.writes.filter((w) => w !== '').length).toBe(1);
  });
});

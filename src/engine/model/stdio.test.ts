/**
 * mergeWrites: what one stream shows when stdout and stderr both go to it. The orders are the
 * real tools' (tests/kernel/stdio-order.test.ts runs them); here the buffering rules alone:
 * glibc line-buffers stdout on a terminal and fully buffers it (4096 bytes, a pipe's
 * st_blksize) into a pipe; stderr is unbuffered.
 */
import { describe, expect, it } from 'vitest';
import { mergeWrites, stdioAround, type StdioWrite } from './stdio';

describe('mergeWrites', () => {
  const entriesThenSummary = stdioAround('', 'entry 1\nentry 2\n', 'summary\n');

  it('a terminal gets stdout line by line as written', () => {
    expect(mergeWrites(entriesThenSummary, true)).toBe('entry 1\nentry 2\nsummary\n');
    // An unfinished line waits for its newline (or the exit).
    const partial: StdioWrite[] = [
      { fd: 1, text: 'a\nb' },
      { fd: 2, text: 'err\n' },
    ];
    expect(mergeWrites(partial, true)).toBe('a\nerr\nb');
  });

  it('a pipe gets stdout at exit, after stderr, while it fits one buffer', () => {
    expect(mergeWrites(entriesThenSummary, false)).toBe('summary\nentry 1\nentry 2\n');
  });

  it('a pipe gets stdout in whole 4096-byte buffers as they fill, the rest at exit', () => {
    const line = `${'x'.repeat(99)}\n`; // 100 bytes
    const stdout = line.repeat(50); // 5000 bytes: one full buffer, 904 bytes left
    const merged = mergeWrites(stdioAround('', stdout, 'summary\n'), false);
    expect(merged).toBe(`${stdout.slice(0, 4096)}summary\n${stdout.slice(4096)}`);
  });

  it('an fflush(stdout) sends what is buffered at once', () => {
    const writes: StdioWrite[] = [
      { fd: 2, text: 'banner\n' },
      { fd: 1, text: 'packet\n' },
      { flush: true },
      { fd: 2, text: 'stats\n' },
    ];
    expect(mergeWrites(writes, false)).toBe('banner\npacket\nstats\n');
  });
});

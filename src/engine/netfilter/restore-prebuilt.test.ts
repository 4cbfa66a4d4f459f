/**
 * restore's side of PrebuiltLines (restore-pieces.ts): a writer's parse stands for its line
 * only where reading the line would give a parse of that kind (a rule line of the table the
 * parse was built for, a user chain's declaration), and only the first time.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetLineCaches } from './parse-cache';
import { iptablesRestore } from './restore';
import { ruleLine } from './restore-lines';
import { PrebuiltLines, type PrebuiltLine } from './restore-pieces';
import { createNetfilter } from './state';
import { iptablesSave } from './views';

function saved(pieces: (string | PrebuiltLines)[]): string {
  const state = createNetfilter();
  const out = iptablesRestore(state, { pieces });
  expect(out).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  return iptablesSave(state, { nowEpochSeconds: 0 }).stdout.replace(/^#.*\n/gm, '');
}

/** One section: `lines` as a prebuilt piece with `parses`. */
function section(table: string, lines: string, parses: (PrebuiltLine | undefined)[]) {
  const n = lines.split('\n').length - 1;
  return [`*${table}\n`, new PrebuiltLines(lines, parses, n), 'COMMIT\n'];
}

/** The parse of another line: taken, it shows in the table instead of the line's own. */
const otherRule = (table: 'nat' | 'filter') => ruleLine(table, '-A W -j RETURN', 1, false);

describe('restore of prebuilt lines', () => {
  // Each restore is a process's first: the untrue parses these tests hand over (to see which
  // are taken) are never cached for a line.
  beforeEach(forgetLineCaches);

  it('takes a rule line’s parse built for the section’s table, and a user chain’s name', () => {
    const out = saved(
      section('filter', ':X - [0:0]\n-A X -j ACCEPT\n', ['W', otherRule('filter')]),
    );
    expect(out).toBe('*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\n:W - [0:0]\n-A W -j RETURN\nCOMMIT\n'); // prettier-ignore
  });

  it('reads the line when the parse was built for another table', () => {
    const out = saved(
      section('filter', ':X - [0:0]\n-A X -j ACCEPT\n', [undefined, otherRule('nat')]),
    );
    expect(out).toContain('\n-A X -j ACCEPT\n');
  });

  it('reads a built-in chain’s line, and a line whose parse is not of its kind', () => {
    const lines = ':INPUT DROP [0:0]\n:X - [0:0]\n-A X -j ACCEPT\n';
    const out = saved(section('filter', lines, ['INPUT', otherRule('filter'), 'Z']));
    expect(out).toContain(':INPUT DROP [0:0]\n');
    expect(out).toContain(':X - [0:0]\n-A X -j ACCEPT\n');
  });

  it('takes them once: restored again, the lines are read', () => {
    const pieces = section('filter', ':X - [0:0]\n-A X -j ACCEPT\n', ['W', otherRule('filter')]);
    expect(saved(pieces)).toContain('\n-A W -j RETURN\n');
    forgetLineCaches();
    expect(saved(pieces)).toContain('\n-A X -j ACCEPT\n');
  });

  it('uses none when there are not as many as lines', () => {
    const out = saved(section('filter', ':X - [0:0]\n-A X -j ACCEPT\n', [otherRule('filter')]));
    expect(out).toContain('\n-A X -j ACCEPT\n');
  });
});

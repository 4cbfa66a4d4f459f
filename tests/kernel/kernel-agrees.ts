/**
 * The assertion of the experiments' differential tests: every step the kernel ran reads the same
 * on both sides once normalised (./experiment-diff.ts), except where a random draw decides:
 *
 * - a run of identical curl lines (the same connection made again and again, as experiments 02
 *   and 06 do) hits endpoints drawn at random by `-m statistic --mode random` in the kernel and
 *   by the lab's seeded source in the engine: both sides must reach the same set of outcomes
 *   (the same pods answering, seeing the same source, the same failures), not in the same order;
 * - a step that counts those draws (`conntrack -L | grep -c …`) is checked on each side against
 *   that side's own run (`selfCheck`).
 *
 * KPL_DIFF_DEBUG=1 in the environment prints both sides of every tcpdump step; KPL_DIFF_ALL=1
 * prints every compared step normalised, SAME or DIFF, instead of asserting (to debug a run).
 */
import { expect } from 'vitest';
import { engineOnlyReason, type Step } from './experiment-diff';
import { curlOutcome, normalise, type NormaliseContext } from './normalise';
import type { RunResult } from './netns';
import { normaliseCapture } from './captures';

export interface AgreeOptions {
  /**
   * For a step that counts random draws: asserts its output on one side, given the outcomes of
   * that side's last run of identical curls. Returns false when the step is not one of those.
   */
  readonly selfCheck?: (step: Step, output: RunResult, lastRun: readonly string[]) => boolean;
  /**
   * Steps (by script line) where the engine is known to differ from the kernel, and why: they
   * are reported, not compared, and must still differ (a fixed engine fails the test until the
   * entry goes).
   */
  readonly knownDifferences?: Readonly<Record<number, string>>;
}

export interface Agreement {
  readonly compared: number;
  readonly engineOnly: readonly string[];
  /** The known differences (see AgreeOptions), with both sides normalised. */
  readonly known: readonly string[];
  /** Outcome counts of each run of identical curls, per side (for the test's output). */
  readonly runs: readonly { prompt: string; engine: Counts; real: Counts }[];
}

type Counts = Readonly<Record<string, number>>;

function count(outcomes: readonly string[]): Counts {
  const c: Record<string, number> = {};
  for (const o of outcomes) c[o] = (c[o] ?? 0) + 1;
  return c;
}

export function expectKernelAgrees(
  steps: readonly Step[],
  ctx: NormaliseContext,
  opts: AgreeOptions = {},
): Agreement {
  let compared = 0;
  const engineOnly: string[] = [];
  const known: string[] = [];
  const runs: { prompt: string; engine: Counts; real: Counts }[] = [];
  let lastEngine: string[] = [];
  let lastReal: string[] = [];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    if (s.real === undefined) {
      engineOnly.push(`${s.prompt} (${s.engineOnly ?? engineOnlyReason(s.line.command)})`);
      continue;
    }
    let j = i;
    while (j + 1 < steps.length && steps[j + 1]!.prompt === s.prompt) j++;
    if (j > i && s.line.command.startsWith('curl ')) {
      const run = steps.slice(i, j + 1);
      lastEngine = run.map((r) => curlOutcome(r.engine));
      lastReal = run.map((r) => curlOutcome(r.real!));
      const engine = count(lastEngine);
      const real = count(lastReal);
      runs.push({ prompt: s.prompt, engine, real });
      expect(Object.keys(engine).sort(), `${s.prompt} x${run.length}: outcomes`).toEqual(
        Object.keys(real).sort(),
      );
      compared += run.length;
      i = j;
      continue;
    }
    compared++;
    const checked = opts.selfCheck?.(s, s.engine, lastEngine);
    if (checked) {
      opts.selfCheck!(s, s.real, lastReal);
      continue;
    }
    const norm = s.line.command.startsWith('tcpdump ')
      ? normaliseCapture
      : (r: RunResult, c: NormaliseContext) =>
          normalise(s.line.command, r, c, s.line.target.kind === 'pod');
    if (process.env['KPL_DIFF_DEBUG'] && s.line.command.startsWith('tcpdump '))
      console.log(`ENGINE ${s.prompt}\n${s.engine.stdout}\nKERNEL\n${s.real.stdout}`);
    const why = opts.knownDifferences?.[s.line.line];
    if (why !== undefined) {
      const [x, y] = [norm(s.engine, ctx), norm(s.real, ctx)];
      expect(x, `line ${s.line.line}: ${s.prompt}: listed as a known difference`).not.toEqual(y);
      known.push(
        `${s.prompt}: ${why}\n    engine: ${JSON.stringify(x)}\n    kernel: ${JSON.stringify(y)}`,
      );
      compared--;
      continue;
    }
    if (process.env['KPL_DIFF_ALL']) {
      const [x, y] = [JSON.stringify(norm(s.engine, ctx)), JSON.stringify(norm(s.real, ctx))];
      console.log(`${x === y ? 'SAME' : 'DIFF'} ${s.prompt}\n${x}${x === y ? '' : `\n${y}`}`);
      continue;
    }
    expect(norm(s.engine, ctx), `line ${s.line.line}: ${s.prompt}`).toEqual(norm(s.real, ctx));
  }
  return { compared, engineOnly, known, runs };
}

/** What the test prints: how much was compared, what stayed engine-only and why. */
export function describeAgreement(name: string, a: Agreement): string {
  const runs = a.runs.map(
    (r) => `  ${r.prompt}: engine ${JSON.stringify(r.engine)}, kernel ${JSON.stringify(r.real)}`,
  );
  const only = a.engineOnly.map((l) => `  engine only: ${l}`);
  const known = a.known.map((l) => `  known difference: ${l}`);
  return [`${name}: ${a.compared} commands agree with the kernel`, ...runs, ...only, ...known].join(
    '\n',
  );
}

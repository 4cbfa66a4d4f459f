/** What every check kind shares: its input, its result, and parameter helpers. */
import type { LabFacts } from '../../engine';
import type { CheckResult, HistogramBar, LessonMessage } from '../../protocol/lessons';
import type { CheckParam } from '../types';

export interface CheckInput {
  readonly facts: LabFacts;
  readonly params: Readonly<Record<string, CheckParam>>;
  /** The learner's answers to value questions, by question id. */
  readonly answers: Readonly<Record<string, string>>;
}

export type CheckOutcome = Omit<CheckResult, 'id'>;
export type CheckFn = (input: CheckInput) => CheckOutcome;

export function str(p: CheckParam | undefined, fallback = ''): string {
  return p === undefined ? fallback : String(p);
}

export function num(p: CheckParam | undefined, fallback: number): number {
  return typeof p === 'number' ? p : p === undefined ? fallback : Number(p);
}

export function outcome(
  passed: boolean,
  id: string,
  params?: LessonMessage['params'],
  histogram?: readonly HistogramBar[],
): CheckOutcome {
  return {
    passed,
    message: params !== undefined ? { id, params } : { id },
    ...(histogram !== undefined ? { histogram } : {}),
  };
}

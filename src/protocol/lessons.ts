/**
 * Lesson check results as the worker returns them to the UI: serialisable, no logic. The
 * message is an id of the lessons' message catalogue (src/lessons/messages.ts) with parameters,
 * rendered in zh-CN or English by the panel.
 */
export const LESSON_PROTOCOL_VERSION = 1;

export interface LessonMessage {
  readonly id: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

/** One bar of a histogram a check measured (connections per endpoint). */
export interface HistogramBar {
  readonly label: string;
  readonly count: number;
}

export interface CheckResult {
  readonly id: string;
  readonly passed: boolean;
  /** What the checker found, in words: why it passed, or what is still missing. */
  readonly message: LessonMessage;
  readonly histogram?: readonly HistogramBar[];
}

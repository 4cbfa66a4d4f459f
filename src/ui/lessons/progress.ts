/**
 * A learner's progress through the lessons, kept in the browser (localStorage) so that it
 * survives a reload: which lesson is open, each lesson's current step, the steps done, the
 * predictions made, the answers typed and the hints shown.
 */
export interface LessonProgress {
  step: number;
  done: readonly string[];
  /** Predict-then-reveal choices, by question id. */
  chosen: Readonly<Record<string, number>>;
  /** Value answers, by question id. */
  answers: Readonly<Record<string, string>>;
  /** How many hint tiers are shown, by step id. */
  hints: Readonly<Record<string, number>>;
}

export interface Progress {
  open: string | undefined;
  lessons: Readonly<Record<string, LessonProgress>>;
}

export const PROGRESS_KEY = 'kube-proxy-lab:lessons:v1';

export const EMPTY_LESSON: LessonProgress = {
  step: 0,
  done: [],
  chosen: {},
  answers: {},
  hints: {},
};

export function loadProgress(storage: Pick<Storage, 'getItem'> | undefined): Progress {
  try {
    const raw = storage?.getItem(PROGRESS_KEY);
    if (raw) {
      const p = JSON.parse(raw) as Partial<Progress>;
      return { open: typeof p.open === 'string' ? p.open : undefined, lessons: p.lessons ?? {} };
    }
  } catch {
    // A damaged entry starts afresh rather than breaking the panel.
  }
  return { open: undefined, lessons: {} };
}

export function saveProgress(storage: Pick<Storage, 'setItem'> | undefined, p: Progress): void {
  try {
    storage?.setItem(PROGRESS_KEY, JSON.stringify(p));
  } catch {
    // Private browsing or a full quota: progress lives for this visit only.
  }
}

export function lessonProgress(p: Progress, id: string): LessonProgress {
  return p.lessons[id] ?? EMPTY_LESSON;
}

export function withLesson(p: Progress, id: string, change: Partial<LessonProgress>): Progress {
  return { ...p, lessons: { ...p.lessons, [id]: { ...lessonProgress(p, id), ...change } } };
}

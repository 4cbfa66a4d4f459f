/**
 * Every lesson, in course order. Pure data: the UI, the worker and the tests import this.
 */
import type { Lesson } from './types';
import { lesson as sameNodeBridge } from './09-same-node-bridge/lesson';

export const LESSONS: readonly Lesson[] = [sameNodeBridge];

export function findLesson(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

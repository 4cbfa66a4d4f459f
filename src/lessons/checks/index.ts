/**
 * Lesson checks: pure functions of the engine's state (src/lessons/types.ts names them as data).
 * The worker and the tests import this; the UI does not (it imports the engine).
 */
export { evaluateChecks, LessonTracker } from './evaluate';
export { CHECK_KINDS } from './kinds';
export { playActions, type Play, type PlayResult } from './play';

/**
 * How deep the lists of one command line run inside one another (loop and `if` bodies and
 * conditions, `$(…)`), so that the lab refuses a line past MAX_NESTING with a lab note rather
 * than running out of JavaScript's stack.
 */
import { labNote } from '../model/lab-notes';
import { MAX_NESTING } from './shell-types';

/** The lists running around the current one, and whether one went past MAX_NESTING. */
export interface Nesting {
  depth: number;
  exceeded: boolean;
}

/** A line as typed: no list runs around it yet. */
export function topLevel(): Nesting {
  return { depth: 0, exceeded: false };
}

/**
 * Runs `list` one level deeper, or (past MAX_NESTING) marks the line as refused and returns
 * `refused` with the note: the parser refuses deep compound commands before they run; this
 * catches `$(…)` in `$(…)`, whose inner lines are parsed only as they run.
 */
export function deeper<T>(nesting: Nesting, list: () => T, refused: (note: string) => T): T {
  if (nesting.depth > MAX_NESTING) {
    nesting.exceeded = true;
    return refused(labNote('shell.nesting', { max: MAX_NESTING }));
  }
  nesting.depth++;
  try {
    return list();
  } finally {
    nesting.depth--;
  }
}

/**
 * Whether a TRACE target was ever parsed in this process: until then no table can hold one,
 * and the packet walk need not look for one (it asks at every table of every packet).
 */
let made = false;

/** The TRACE target's parser made one. */
export function noteTraceTarget(): void {
  made = true;
}

export function traceTargetsMade(): boolean {
  return made;
}

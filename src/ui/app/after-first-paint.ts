/**
 * Whether the page has painted its first frame. The heavy parts of the lab (Monaco and its
 * 186 kB stylesheet, the lessons) are loaded by rendering their lazy components; rendered
 * with the shell, they are requested before anything is on screen, and Chromium holds the
 * first paint until a stylesheet requested that early has arrived and been applied (a trace
 * showed the request, the parse and the style pass over Monaco's rules in front of the first
 * frame). Rendered once this says so, they load while the shell is already visible: headless
 * Chromium on a 2-core machine, 16 loads each, first contentful paint at a median 1,048 ms
 * before and 812 ms after, the editor ready as soon (2,452 and 2,492 ms).
 */
import { useEffect, useState } from 'react';

/** Set once a frame has been painted; later mounts render their parts at once. */
let painted = false;

export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(painted);
  useEffect(() => {
    if (ready) return;
    return whenFirstPainted(() => {
      painted = true;
      setReady(true);
    });
  }, [ready]);
  return ready;
}

/**
 * Calls `done` once the first contentful paint is on screen (Paint Timing's entry, which
 * Chromium records when the frame is presented — a task queued from a frame callback can run a
 * few ms before that, and a request made then counts as made before the paint); where the
 * browser has no paint entries, once a frame has been produced (a frame callback, then a task).
 * Returns the cancel.
 */
function whenFirstPainted(done: () => void): () => void {
  if (
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('paint')
  ) {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      done();
    });
    observer.observe({ type: 'paint', buffered: true });
    return () => observer.disconnect();
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(done, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

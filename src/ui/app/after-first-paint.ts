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
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame callback runs just before the next paint; a task it queues runs after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        painted = true;
        setReady(true);
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [ready]);
  return ready;
}

/**
 * The moving packet: a dot in the graph's own coordinates that travels along the wires to the
 * place of the current trace step. Its position lives in motion values, outside React's
 * render cycle; only the cursor comes from the store.
 */
import { ViewportPortal } from '@xyflow/react';
import { animate, motion, useMotionValue } from 'motion/react';
import { useEffect, useRef } from 'react';
import { useLab } from '../store';
import { anchorKey, type GraphLayout, type Point } from './layout';

function placeOf(layout: GraphLayout, host: string, iface?: string): Point | undefined {
  return layout.anchors.get(anchorKey(host, iface)) ?? layout.anchors.get(host);
}

export function PacketLayer({ layout }: { layout: GraphLayout }) {
  const entry = useLab((s) => s.trace?.entries[s.cursor]);
  const first = useLab((s) => s.trace?.entries[0]);
  const speed = useLab((s) => s.speed);
  const x = useMotionValue(0);
  const y = useMotionValue(0);
  const last = useRef<number>(-1);
  const cursor = useLab((s) => s.cursor);

  useEffect(() => {
    if (entry === undefined) return;
    const step = entry.step;
    const here = placeOf(layout, step.at.host, step.at.iface);
    if (here === undefined) return;
    let path: Point[] = [here];
    if (step.kind === 'wire') {
      const to = placeOf(layout, step.to.host, step.to.iface);
      const tapA = layout.lanTaps.get(step.at.host);
      const tapB = layout.lanTaps.get(step.to.host);
      if (to !== undefined) path = tapA && tapB ? [here, tapA, tapB, to] : [here, to];
    }
    const forward = cursor === last.current + 1;
    last.current = cursor;
    const duration = forward ? 0.8 / speed : 0;
    const end = path[path.length - 1]!;
    if (!forward || path.length === 1) {
      const ax = animate(x, end.x, { duration: duration / 2 });
      const ay = animate(y, end.y, { duration: duration / 2 });
      return () => {
        ax.stop();
        ay.stop();
      };
    }
    const ax = animate(
      x,
      path.map((p) => p.x),
      { duration, ease: 'easeInOut' },
    );
    const ay = animate(
      y,
      path.map((p) => p.y),
      { duration, ease: 'easeInOut' },
    );
    return () => {
      ax.stop();
      ay.stop();
    };
  }, [entry, layout, cursor, speed, x, y]);

  if (entry === undefined) return null;
  const reply =
    first !== undefined &&
    entry.header !== undefined &&
    first.header !== undefined &&
    entry.header.dst === first.header.src;
  const h = entry.header;
  return (
    <ViewportPortal>
      <motion.div
        className={`packet${reply ? ' reply' : ''}`}
        data-testid="packet"
        style={{ x, y, position: 'absolute', left: 0, top: 0 }}
      >
        <span className="packet-dot" />
        {h !== undefined && (
          <span className="packet-label">
            {h.proto.toUpperCase()} {h.dst}
            {h.dport !== undefined ? `:${h.dport}` : ''}
          </span>
        )}
      </motion.div>
    </ViewportPortal>
  );
}

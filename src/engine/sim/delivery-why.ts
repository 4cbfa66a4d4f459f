/**
 * The datapath records a packet's DELIVERED step before the receiving host's socket layer has
 * looked at it; once the socket layer said which socket took the packet (or that none did and
 * a reset answers), that step says so instead of just "delivered".
 */
import type { Explanation, TraceStep } from '../../protocol/trace';

/** Gives the DELIVERED step of `packetId` (among the latest `steps`) the explanation `why`. */
export function explainDelivery(steps: TraceStep[], packetId: number, why: Explanation): void {
  // The step is among the last recorded: its packet's run was just recorded, or a few
  // packets released together by the neighbour timers.
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    if (s.packetId !== packetId || s.kind !== 'verdict' || s.verdict !== 'DELIVERED') continue;
    steps[i] = { ...s, why };
    return;
  }
}

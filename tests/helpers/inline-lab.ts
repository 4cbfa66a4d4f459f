/**
 * The store's engine without a worker: a LabSession called in the same thread, each answer a
 * resolved promise, as the worker client's would be.
 */
import type { LabApi } from '../../src/protocol/lab';
import type { LabCaller } from '../../src/ui/store/types';
import type { LabSession } from '../../src/worker/lab-session';

export function inline(session: LabSession): LabCaller {
  return {
    call: (method, ...args) =>
      Promise.resolve(
        (session[method] as (...a: unknown[]) => ReturnType<LabApi[typeof method]>)(...args),
      ) as never,
  };
}

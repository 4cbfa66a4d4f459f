/**
 * The UI's handle on the engine worker: comlink calls with a deadline, and a restart when the
 * worker dies or hangs. After a restart the caller reloads its scenario (the store keeps every
 * edit; the worker holds nothing that is not rebuilt from the scenario text).
 */
import { wrap, type Remote } from 'comlink';
import type { LabApi } from '../protocol/lab';
import { LAB_PROTOCOL_VERSION } from '../protocol/lab';

export type WorkerFailure = 'crashed' | 'timeout' | 'version';

export interface LabClient {
  call<K extends keyof LabApi>(
    method: K,
    ...args: Parameters<LabApi[K]>
  ): Promise<ReturnType<LabApi[K]>>;
  /** Kills the worker on purpose (used by the lab's own failure drill). */
  crash(): void;
}

export interface LabClientOptions {
  /** Called after the worker was replaced; the caller reloads its scenario. */
  readonly onRestart: (why: WorkerFailure, detail: string) => void;
  readonly timeoutMs?: number;
}

function spawn(): Worker {
  return new Worker(new URL('./lab.worker.ts', import.meta.url), { type: 'module' });
}

export function createLabClient(opts: LabClientOptions): LabClient {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  let worker = spawn();
  let api: Remote<LabApi> = wrap<LabApi>(worker);
  let generation = 0;

  const restart = (why: WorkerFailure, detail: string) => {
    worker.terminate();
    worker = spawn();
    api = wrap<LabApi>(worker);
    generation++;
    watch();
    opts.onRestart(why, detail);
  };
  const watch = () => {
    const mine = generation;
    worker.addEventListener('error', (e) => {
      if (mine === generation) restart('crashed', e.message || 'worker error');
    });
  };
  watch();
  void api.version().then((v) => {
    if (v !== LAB_PROTOCOL_VERSION)
      opts.onRestart('version', `worker ${v}, UI ${LAB_PROTOCOL_VERSION}`);
  });

  return {
    async call(method, ...args) {
      const mine = generation;
      const fn = api[method] as unknown as (...a: unknown[]) => Promise<unknown>;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the engine did not answer ${method} in time`)),
          timeoutMs,
        );
      });
      try {
        return (await Promise.race([fn(...args), deadline])) as ReturnType<LabApi[typeof method]>;
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (mine === generation)
          restart(timer !== undefined && /in time/.test(message) ? 'timeout' : 'crashed', message);
        throw e;
      } finally {
        clearTimeout(timer);
      }
    },
    crash() {
      restart('crashed', 'stopped on request');
    },
  };
}

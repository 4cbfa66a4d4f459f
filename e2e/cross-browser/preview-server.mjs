import { spawn } from 'node:child_process';

/**
 * `vite preview` of the built lab on 127.0.0.1:`port`, in its own process group (stop it with
 * stopPreview).
 */
export function startPreview(root, port) {
  return spawn(
    'npx',
    ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: root, stdio: 'ignore', detached: true },
  );
}

/** Polls `url` until it answers 200 (vite preview starting up), for at most `deadlineMs`. */
export async function waitForServer(url, deadlineMs) {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not start on ${url}`);
}

/** Stops a server of startPreview (its whole process group); one that has already exited is fine. */
export function stopPreview(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch (error) {
    if (error?.code !== 'ESRCH') throw error;
  }
}

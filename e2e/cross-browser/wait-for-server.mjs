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

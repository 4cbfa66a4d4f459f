/**
 * Firefox (Debian's firefox-esr) driven over WebDriver BiDi, the W3C protocol Firefox's own
 * Remote Agent speaks: no geckodriver, no browser download. Only what the smoke test needs:
 * navigate, evaluate, click, press a key, screenshot, and the console errors and requests the
 * browser reports (log.entryAdded, network.beforeRequestSent: the page's and its workers').
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

const KEYS = { ArrowRight: '\uE014', Enter: '\uE007' };

export function firefoxBinary() {
  for (const name of [process.env.FIREFOX_PATH, 'firefox-esr', 'firefox']) {
    if (name && spawnSync('sh', ['-c', `command -v "${name}"`]).status === 0) return name;
  }
  return undefined;
}

export function firefoxVersion(binary) {
  return spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

/** Starts headless Firefox with a fresh profile and opens a BiDi session on its one tab. */
export async function launchFirefox(binary) {
  const profile = mkdtempSync(join(tmpdir(), 'kpl-firefox-'));
  const proc = spawn(
    binary,
    ['--headless', '--no-remote', '--remote-debugging-port=0', '--profile', profile],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' },
    },
  );
  const wsUrl = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Firefox did not start:\n${seen}`)), 60_000);
    proc.stderr.on('data', (chunk) => {
      seen += chunk;
      const m = seen.match(/WebDriver BiDi listening on (ws:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => reject(new Error(`Firefox exited (${code}):\n${seen}`)));
  });
  const socket = new WebSocket(`${wsUrl}/session`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const session = new BidiSession(socket);
  const created = await session.send('session.new', { capabilities: {} });
  const tree = await session.send('browsingContext.getTree', {});
  const context = tree.contexts[0].context;
  await session.send('session.subscribe', {
    events: ['log.entryAdded', 'network.beforeRequestSent'],
  });
  await session.send('browsingContext.setViewport', {
    context,
    viewport: { width: 1280, height: 720 },
  });
  const close = async () => {
    try {
      await session.send('browser.close', {});
    } catch {
      // already gone
    }
    proc.kill('SIGTERM');
    await new Promise((r) => (proc.exitCode === null ? proc.once('exit', r) : r()));
    rmSync(profile, { recursive: true, force: true });
  };
  return new FirefoxPage(session, context, created.capabilities.browserVersion, close);
}

class BidiSession {
  #next = 1;
  #pending = new Map();
  events = [];

  constructor(socket) {
    this.socket = socket;
    socket.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.id !== undefined && this.#pending.has(msg.id)) {
        const { resolve, reject } = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.type === 'error') reject(new Error(`${msg.error}: ${msg.message}`));
        else resolve(msg.result);
      } else if (msg.type === 'event') this.events.push(msg);
    });
  }

  send(method, params) {
    const id = this.#next++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }
}

class FirefoxPage {
  constructor(session, context, version, close) {
    this.session = session;
    this.context = context;
    this.version = version;
    this.close = close;
  }

  async goto(url) {
    await this.session.send('browsingContext.navigate', {
      context: this.context,
      url,
      wait: 'complete',
    });
  }

  /** Evaluates an expression (a promise is awaited); the result must be JSON-like. */
  async eval(expression) {
    const r = await this.session.send('script.evaluate', {
      expression: `(async () => JSON.stringify(await (${expression})))()`,
      target: { context: this.context },
      awaitPromise: true,
    });
    if (r.type === 'exception') throw new Error(`in the page: ${r.exceptionDetails.text}`);
    return r.result.type === 'string' ? JSON.parse(r.result.value) : undefined;
  }

  /** A real pointer click in the middle of the element the selector finds. */
  async click(selector) {
    const box = await this.eval(`(() => {
      // The middle of the part that shows (as WebDriver's in-view centre point): cut by the
      // viewport and by every ancestor that clips (a Monaco line is a million pixels wide).
      const el = document.querySelector(${JSON.stringify(selector)});
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      let { left, top, right, bottom } = el.getBoundingClientRect();
      [left, top, right, bottom] = [Math.max(left, 0), Math.max(top, 0), Math.min(right, innerWidth), Math.min(bottom, innerHeight)];
      for (let a = el.parentElement; a; a = a.parentElement) {
        if (getComputedStyle(a).overflow === 'visible') continue;
        const c = a.getBoundingClientRect();
        [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top), Math.min(right, c.right), Math.min(bottom, c.bottom)];
      }
      return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
    })()`);
    await this.session.send('input.performActions', {
      context: this.context,
      actions: [
        {
          type: 'pointer',
          id: 'mouse',
          actions: [
            { type: 'pointerMove', x: box.x, y: box.y },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    });
  }

  /** Presses a named key (ArrowRight, Enter) or types a text, key by key. */
  async press(key) {
    const keys = [...(KEYS[key] ?? key)].flatMap((value) => [
      { type: 'keyDown', value },
      { type: 'keyUp', value },
    ]);
    await this.session.send('input.performActions', {
      context: this.context,
      actions: [
        {
          type: 'key',
          id: 'keyboard',
          actions: keys,
        },
      ],
    });
  }

  async screenshot() {
    const r = await this.session.send('browsingContext.captureScreenshot', {
      context: this.context,
    });
    return Buffer.from(r.data, 'base64');
  }

  /** Console errors and uncaught exceptions the browser reported, in any realm. */
  consoleErrors() {
    return this.session.events
      .filter((e) => e.method === 'log.entryAdded' && e.params.level === 'error')
      .map((e) => `${e.params.type}: ${e.params.text}`);
  }

  requestedUrls() {
    return this.session.events
      .filter((e) => e.method === 'network.beforeRequestSent')
      .map((e) => e.params.request.url);
  }
}

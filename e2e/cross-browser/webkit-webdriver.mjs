/**
 * WebKit, Safari's engine, as Debian ships it: WebKitGTK's MiniBrowser driven by WebKitWebDriver
 * (package webkit2gtk-driver) over classic W3C WebDriver HTTP calls, on a private Xvfb display
 * (WebKitGTK has no headless mode). Classic WebDriver reports neither console messages nor
 * requests: the smoke test serves the page through its recording proxy for those.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

const KEYS = { ArrowRight: '\uE014', Enter: '\uE007' };
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export function webkitBinaries() {
  const driver = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
  const triplet = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' }[process.arch];
  const candidates = [
    process.env.WEBKIT_BROWSER_PATH,
    triplet && `/usr/lib/${triplet}/webkit2gtk-4.1/MiniBrowser`,
  ];
  const browser = candidates.find((p) => p && existsSync(p));
  const xvfb = spawnSync('sh', ['-c', 'command -v Xvfb']).status === 0;
  return existsSync(driver) && browser && xvfb ? { driver, browser } : undefined;
}

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** Xvfb on the first free display (it writes the number it took to fd 3). */
async function startXvfb() {
  const proc = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    },
  );
  const display = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    proc.on('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
    setTimeout(() => reject(new Error('Xvfb did not start')), 20_000);
  });
  return { proc, display };
}

async function waitForDriver(base) {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    try {
      if ((await fetch(`${base}/status`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('WebKitWebDriver did not start');
}

/**
 * Starts Xvfb, WebKitWebDriver and a MiniBrowser session whose proxy (MiniBrowser's --proxy) is
 * `proxy` (host:port), if given: every http request, the page's own included, and every https CONNECT go
 * through it, so a request to anywhere but the page's own server is seen. (The WebDriver proxy
 * capability is not used: with it WebKitGTK opens TLS straight to the proxy, without CONNECT.)
 */
export async function launchWebKit({ driver, browser }, proxy) {
  const xvfb = await startXvfb();
  const port = await freePort();
  const drv = spawn(driver, [`--port=${port}`], {
    stdio: 'ignore',
    env: { ...process.env, DISPLAY: xvfb.display, LANG: 'en_US.UTF-8' },
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    for (const p of [drv, xvfb.proc]) {
      p.kill('SIGTERM');
      await new Promise((r) => (p.exitCode === null ? p.once('exit', r) : r()));
    }
  };
  try {
    await waitForDriver(base);
    const created = await call(base, 'POST', '/session', {
      capabilities: {
        alwaysMatch: {
          'webkitgtk:browserOptions': {
            binary: browser,
            args: ['--automation', ...(proxy ? [`--proxy=http://${proxy}`] : [])],
          },
        },
      },
    });
    const session = `${base}/session/${created.sessionId}`;
    await call(session, 'POST', '/window/rect', { width: 1280, height: 720 });
    const close = async () => {
      await call(session, 'DELETE', '').catch(() => undefined);
      await stop();
    };
    return new WebKitPage(session, created.capabilities.browserVersion, close);
  } catch (err) {
    await stop();
    throw err;
  }
}

async function call(base, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${JSON.stringify(json.value)}`);
  return json.value;
}

class WebKitPage {
  constructor(session, version, close) {
    this.session = session;
    this.version = version;
    this.close = close;
  }

  async goto(url) {
    await call(this.session, 'POST', '/url', { url });
  }

  /** Evaluates an expression (a promise is awaited); the result must be JSON-like. */
  async eval(expression) {
    const text = await call(this.session, 'POST', '/execute/sync', {
      script: `return (async () => JSON.stringify(await (${expression})))();`,
      args: [],
    });
    return typeof text === 'string' ? JSON.parse(text) : undefined;
  }

  /**
   * WebDriver's element click: scrolled into view, a real click in its middle. Found afresh
   * when React or Monaco replaced the element between the find and the click.
   */
  async click(selector) {
    for (let attempt = 1; ; attempt++) {
      const el = await call(this.session, 'POST', '/element', {
        using: 'css selector',
        value: selector,
      });
      try {
        await call(this.session, 'POST', `/element/${el[ELEMENT]}/click`, {});
        return;
      } catch (err) {
        if (attempt >= 3 || !String(err).includes('stale element reference')) throw err;
      }
    }
  }

  /** Presses a named key (ArrowRight, Enter) or types a text, key by key. */
  async press(key) {
    const keys = [...(KEYS[key] ?? key)].flatMap((value) => [
      { type: 'keyDown', value },
      { type: 'keyUp', value },
    ]);
    await call(this.session, 'POST', '/actions', {
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
    return Buffer.from(await call(this.session, 'GET', '/screenshot'), 'base64');
  }
}

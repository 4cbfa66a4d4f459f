/**
 * The smoke test every browser runs, on a driver with goto / eval / click / press / screenshot:
 * the lab loads from `vite preview`, its engine worker starts, the graph renders, the default
 * DNS query (pod/default/client → kube-dns 10.96.0.10:53/UDP) is sent and stepped through to
 * its end with the → key, the conntrack row appears on the way, "Graph only" with the lessons
 * folded puts the lane and the conntrack table beside the graph, the events tab shows dig's
 * answer, a command typed in the terminal runs, text typed in the YAML editor reaches the
 * scenario, the lab switched to Chinese sends a packet too, and a shared link opens to the
 * same scenario. Screenshots are kept; errors and foreign requests are checked by the caller.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function check(ok, what) {
  if (!ok) throw new Error(`expected ${what}`);
}

async function waitFor(page, expression, what, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await page.eval(expression);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** "Step 3 of 58" / "第 3 步，共 58 步" as the string "3/58" ('' before a packet is sent). */
const POSITION = `((document.querySelector('[data-testid=position]')?.textContent ?? '').match(/\\d+/g) ?? []).join('/')`;

/**
 * Clicks the element of `selector` whose text matches `names` (a regular expression's source):
 * marked for the driver's click by selector, then unmarked.
 */
async function clickNamed(page, selector, names, what) {
  const marked = await page.eval(`(() => {
    const el = [...document.querySelectorAll('${selector}')].find((e) => /^(${names})$/.test(e.textContent.trim()));
    if (el) el.dataset.smoke = 'named';
    return Boolean(el);
  })()`);
  check(marked, `${what} named ${names}`);
  await page.click('[data-smoke=named]');
  await page.eval(
    `(() => { document.querySelector('[data-smoke=named]').removeAttribute('data-smoke'); return true; })()`,
  );
}

const openTab = (page, names) => clickNamed(page, '[role=tab]', names, 'a tab');
const clickButton = (page, names) => clickNamed(page, 'button', names, 'a button');

/** Runs the story; returns what it saw (step count, the step the conntrack row appeared at). */
export async function runSmoke(page, { url, shotsDir, name }) {
  mkdirSync(shotsDir, { recursive: true });
  const shots = [];
  const shot = async (label) => {
    const file = join(shotsDir, `${name}-${label}.png`);
    writeFileSync(file, await page.screenshot());
    shots.push(file);
  };

  await page.goto(url);
  await waitFor(
    page,
    `document.querySelector('[data-testid=engine]')?.classList.contains('engine-ready')`,
    'the engine worker to report ready',
    40_000,
  );
  const graph = await waitFor(
    page,
    `(() => {
      const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0; };
      const pods = [...document.querySelectorAll('.react-flow__node .pod')].filter(visible).length;
      const nodes = [...document.querySelectorAll('.node-group')].filter(visible).length;
      const edges = document.querySelectorAll('.react-flow__edge').length;
      return pods >= 6 && nodes >= 2 ? { pods, nodes, edges } : false;
    })()`,
    'the graph to show two nodes and their pods',
  );
  await shot('01-loaded');

  // English is set in a Latin face: WebKitGTK once fell through to Noto Sans CJK SC, whose
  // apostrophe is as wide as a Chinese character (“Service’ s rules”).
  const apostrophe = await page.eval(`(() => {
    if (document.documentElement.lang !== 'en') return 0;
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = '16px ' + getComputedStyle(document.documentElement).fontFamily;
    return ctx.measureText('’').width;
  })()`);
  check(apostrophe < 10, `a narrow ’ in the English page's font (${apostrophe} px at 16 px)`);

  check(
    await page.eval(`(() => {
      const send = [...document.querySelectorAll('button')].find((b) => /^(Send|发送)$/.test(b.textContent.trim()));
      if (send) send.dataset.smoke = 'send';
      return Boolean(send);
    })()`),
    'a Send button',
  );
  await page.click('[data-smoke=send]');
  const total = Number(
    await waitFor(page, `(${POSITION}.match(/^0\\/(\\d+)$/) ?? [])[1]`, 'the trace (Step 0 of N)'),
  );
  check(total > 40, `a DNS round trip of more than 40 steps (got ${total})`);

  let conntrackAt = -1;
  const packetAt = new Set();
  for (let i = 1; i <= total; i++) {
    await page.press('ArrowRight');
    const now = await waitFor(
      page,
      `(() => {
        if (${POSITION} !== '${i}/${total}') return false;
        const row = document.querySelector('.ct-row[data-state=created]');
        const r = document.querySelector('[data-testid=packet] .packet-dot')?.getBoundingClientRect();
        const packet = r && r.width > 0 ? Math.round(r.x) + ',' + Math.round(r.y) : '';
        return { row: row?.textContent ?? '', packet };
      })()`,
      `step ${i} of ${total}`,
    );
    if (now.packet !== '') packetAt.add(now.packet);
    if (conntrackAt < 0 && now.row !== '') {
      conntrackAt = i;
      check(now.row.includes('dport=53'), `the conntrack row of the DNS flow (got ${now.row})`);
      await shot('02-conntrack-row');
    }
  }
  check(conntrackAt > 0, 'a conntrack row to appear while stepping');
  check(packetAt.size >= 3, `the packet drawn moving over the graph (seen at ${[...packetAt]})`);
  const lastHost = await page.eval(`document.querySelector('.lane-head strong')?.textContent`);
  check(lastHost === 'pod/default/client', `the reply back at pod/default/client (at ${lastHost})`);
  await shot('03-delivered');

  // The projector layout (a CSS container query): with "Graph only" and the lessons folded
  // the middle is much wider than tall, so the lane and the conntrack table sit beside the
  // graph, which then has the whole height and is fitted to it again (zoom ≥ 1). Put back
  // afterwards: the tabs below need the panels.
  const projector = async () => {
    await clickButton(page, 'Graph only|只看拓扑');
    await page.click('[data-testid=lessons-toggle]');
  };
  await projector();
  const beside = await waitFor(
    page,
    `(() => {
      const graph = document.querySelector('.graph')?.getBoundingClientRect();
      const lane = document.querySelector('.lane')?.getBoundingClientRect();
      const ct = document.querySelector('.conntrack')?.getBoundingClientRect();
      if (!graph || !lane || !ct) return false;
      const view = document.querySelector('.react-flow__viewport');
      const zoom = view ? new DOMMatrix(getComputedStyle(view).transform).a : 0;
      const ok = lane.left >= graph.right - 1 && ct.left >= graph.right - 1 && ct.top >= lane.bottom - 1;
      return ok && zoom >= 1 ? { graph: Math.round(graph.width) + 'x' + Math.round(graph.height) + ' at ' + zoom.toFixed(2) } : false;
    })()`,
    'the lane and the conntrack table beside the graph, drawn at full size or larger (Graph only, lessons folded)',
  );
  await shot('03b-projector');
  await projector();

  await openTab(page, 'Events|事件');
  await waitFor(
    page,
    `[...document.querySelectorAll('.run-output')].some((o) => o.textContent.includes('10.96.0.10'))`,
    "dig's output in the events tab",
  );
  await shot('04-events');

  // The terminal (xterm.js): typed keys reach it, the command runs on node-1.
  await openTab(page, 'Terminal|终端');
  await waitFor(page, `Boolean(document.querySelector('[data-testid=terminal] .xterm'))`, 'xterm');
  await page.click('[data-testid=terminal]');
  await page.press('iptables -t nat -L KUBE-SERVICES -n | head -1');
  await page.press('Enter');
  await waitFor(
    page,
    `document.querySelector('[data-testid=terminal]').textContent.includes('Chain KUBE-SERVICES (2 references)')`,
    'the iptables answer in the terminal',
  );
  await shot('05-terminal');

  // The scenario editor (Monaco): a typed comment reaches the lab's scenario text.
  await openTab(page, 'Scenario|场景');
  await waitFor(page, `Boolean(document.querySelector('.monaco-editor .view-line'))`, 'Monaco');
  await page.click('.monaco-editor .view-lines');
  await page.press('# typed-in-the-smoke-test ');
  await waitFor(
    page,
    `window.__lab.store.getState().text.includes('# typed-in-the-smoke-test')`,
    'the typed text in the scenario',
  );
  await shot('06-editor');

  // In Chinese (the choice kept in localStorage, as the language picker keeps it): the labels
  // follow and a packet is sent.
  await page.eval(
    `(() => { localStorage.setItem('kube-proxy-lab:lang', 'zh-CN'); return true; })()`,
  );
  await page.goto(url);
  await waitFor(
    page,
    `document.documentElement.lang === 'zh-CN' && document.querySelector('[data-testid=engine]')?.classList.contains('engine-ready')`,
    'the lab in Chinese, engine ready',
    40_000,
  );
  check(
    await page.eval(`(() => {
      const send = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === '发送');
      if (send) send.dataset.smoke = 'send-zh';
      return Boolean(send);
    })()`),
    'the Send button named 发送',
  );
  await page.click('[data-smoke=send-zh]');
  await waitFor(
    page,
    `/^第 0 步，共 \\d+ 步$/.test(document.querySelector('[data-testid=position]')?.textContent ?? '')`,
    '第 0 步，共 N 步',
  );
  await shot('07-zh-CN');

  // A shared link (deflate-raw in the URL's fragment, CompressionStream): made by Copy link,
  // opened in this engine, it gives the same scenario text, with its comments in Chinese.
  await openTab(page, 'Scenario|场景');
  const text = await page.eval(`window.__lab.store.getState().text`);
  // Where the typed comment went depends on where the click put Monaco's cursor (in WebKitGTK it
  // can stay at 1:1, so line 1 is the typed comment and the built-in one after it, which the lab
  // leaves as the learner wrote it): the built-in comment of line 2 says it either way.
  check(
    text.includes('\n# 下面每个文档都是普通的 Kubernetes YAML') &&
      text.includes('# typed-in-the-smoke-test'),
    "the scenario's comments in Chinese, the typed one kept",
  );
  await clickButton(page, '复制链接');
  const link = await waitFor(
    page,
    `document.querySelector('[data-testid=share-link]')?.value ?? ''`,
    'the shared link',
  );
  check(link.startsWith(`${url}#scenario=1.`), `a link to the lab (${link.slice(0, 60)}…)`);
  await page.goto(link);
  await waitFor(
    page,
    `document.querySelector('[data-testid=engine]')?.classList.contains('engine-ready') && window.location.hash === '' && window.__lab.store.getState().presetId === 'link'`,
    'the lab opened on the link',
    40_000,
  );
  check((await page.eval(`window.__lab.store.getState().text`)) === text, 'the same text');
  return { graph, total, conntrackAt, packetPlaces: packetAt.size, projector: beside.graph, shots };
}

/**
 * Switches, languages, the terminal, a dying worker, and accessibility (axe).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('switch proxy mode and the node switches; each edits the scenario and applies it', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Settings/);
  await page.getByRole('radio', { name: 'ipvs' }).click();
  await expect(page.getByRole('radio', { name: 'ipvs' })).toHaveAttribute('aria-checked', 'true');
  expect(await lab.editorText()).toMatch(/^mode: ipvs/m);
  // IPVS mode: the rules view is ipvsadm's, kube-ipvs0 holds the VIPs, and the DNS query
  // goes kube-ipvs0 (local) → IPVS → a real server.
  await lab.tab(/Rules/);
  await expect(page.locator('.rules-panel .cmd')).toHaveText('ipvsadm -Ln');
  await expect(page.getByTestId('rules-text')).toContainText('UDP  10.96.0.10:53 rr');
  await expect(page.locator('.iface', { hasText: 'kube-ipvs0' }).first()).toBeVisible();
  await lab.send();
  for (let i = 0; i < 60 && !(await lab.currentStation()).startsWith('IPVS'); i++) {
    await lab.stepForward();
  }
  expect(await lab.currentStation()).toContain('IPVS schedule');
  await expect(page.locator('.station.current')).toContainText(
    /UDP {2}10\.96\.0\.10:53 → 10\.244\.0\.[23]:53/,
  );
  await lab.shot('20-mode-ipvs');

  // nftables mode: kube-proxy's nft chains and map lookups.
  await lab.tab(/Settings/);
  await page.getByRole('radio', { name: 'nftables' }).click();
  await expect(page.getByRole('radio', { name: 'nftables' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await lab.send();
  for (let i = 0; i < 80 && (await lab.currentStation()) !== 'DNAT'; i++) await lab.stepForward();
  await expect(page.locator('.station', { hasText: '@service-ips' }).first()).toBeVisible();
  await lab.tab(/Rules/);
  await expect(page.locator('.rules-panel .cmd')).toHaveText('nft list ruleset');
  await lab.shot('22-mode-nftables');
  await lab.tab(/Settings/);
  await page.getByRole('radio', { name: 'iptables' }).click();
  await expect(page.getByRole('radio', { name: 'iptables' })).toHaveAttribute(
    'aria-checked',
    'true',
  );

  await page.getByRole('switch', { name: 'node-1' }).click();
  await expect(page.getByRole('switch', { name: 'node-1' })).not.toBeChecked();
  expect(await lab.editorText()).toMatch(/net\.bridge\.bridge-nf-call-iptables: "0"/);
  await expect(page.locator('.node-group .warn-badge')).toHaveText('br-nf 0');
  await page.getByRole('switch', { name: /Masquerade every packet/ }).click();
  await lab.tab(/Rules/);
  await page.getByRole('radio', { name: 'Text' }).click();
  await expect(page.getByTestId('rules-text')).toContainText(
    '"default/web cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ',
  );
  await lab.shot('21-switches');
});

test('bridge-nf-call-iptables off: the same-node SYN-ACK steps say why it is reset (中文)', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await lab.tab(/设置/);
  await page.getByRole('switch', { name: 'node-1' }).click();
  await expect(page.getByRole('switch', { name: 'node-1' })).not.toBeChecked();
  const to = page.getByLabel(/^目的$/);
  const web = (await to.locator('option').allTextContents()).find((o) =>
    o.includes('default/web 10.96.1.1'),
  );
  await to.selectOption({ label: web! });
  await lab.send();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  // The built-in scenario's seed sends this first connection to the node-1 pod 10.244.0.4:
  // its SYN-ACK is bridged to the client without br_netfilter, so nothing un-DNATs it.
  const whys: string[] = [];
  for (let i = 0; i < 60 && !whys.some((w) => w.includes('内核回复 RST')); i++) {
    await lab.stepForward();
    whys.push((await page.getByTestId('why').textContent()) ?? '');
  }
  const bridged = whys.find((w) => w.includes('net.bridge.bridge-nf-call-iptables 为 0'));
  expect(bridged).toContain('它仍是 10.244.0.4:8080（没有反向 DNAT，即 un-DNAT）');
  expect(whys.some((w) => /连接的是 10\.96\.1\.1:80（SYN_SENT），只接收来自/.test(w))).toBe(true);
  expect(whys.at(-1)).toMatch(
    /^pod\/default\/client 的内核回复 RST：来自 10\.244\.0\.4:8080 的段找不到套接字/,
  );
  await lab.shot('23-zh-brnf0-rst');
});

test('switch language: every label follows, the choice is remembered, tool output is not translated', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  const english = await lab.editorText();
  expect(english).toMatch(/^# A small cluster: two nodes/);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await expect(page.getByRole('tab', { name: '规则' })).toBeVisible();
  await expect(page.getByRole('button', { name: '发送', exact: true })).toBeVisible();
  // The scenario's own comments follow the language; the YAML, line for line, does not.
  const chinese = await lab.editorText();
  expect(chinese).toMatch(/^# 一个小集群：两个节点/);
  expect(chinese).toMatch(/^mode: iptables +# 也可以是 ipvs、nftables$/m);
  expect(chinese.split('\n').length).toBe(english.split('\n').length);
  await page.getByRole('button', { name: '发送', exact: true }).click();
  for (let i = 0; i < 40 && (await lab.currentStation()) !== 'DNAT'; i++) {
    await page.keyboard.press('ArrowRight');
  }
  await expect(page.getByTestId('why')).toHaveText('DNAT：在 PREROUTING 改写目的地址');
  await lab.shot('30-zh-CN');
  await page.reload();
  await lab.ready();
  await expect(page.getByRole('tab', { name: '规则' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.getByRole('tab', { name: '规则' }).click();
  // iptables-save's own text stays as the tool prints it.
  await expect(page.locator('.rules-panel .cmd')).toHaveText('iptables-save -c');
  // A learner's own comment stays as written when the language changes; the lab's switch back.
  await lab.typeInEditor('# 我的笔记\n', { line: 1, column: 1 });
  await page.getByRole('combobox', { name: '语言' }).selectOption('en');
  await expect(page.getByRole('tab', { name: 'Rules' })).toBeVisible();
  expect(await lab.editorText()).toBe(`# 我的笔记\n${english}`);
});

test('the terminal runs the CLI commands on a chosen host against the running cluster', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Terminal/);
  const term = page.getByTestId('terminal');
  await term.click();
  await page.keyboard.type('iptables -t nat -L KUBE-SERVICES -n | head -1');
  await page.keyboard.press('Enter');
  await expect(term).toContainText('Chain KUBE-SERVICES (2 references)');
  // Mark DNS queries for tracing on node-1 (read back with xtables-monitor below).
  await page.keyboard.type('iptables -t raw -I PREROUTING -p udp --dport 53 -j TRACE');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('terminal-pod-tools')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Host' }).selectOption('pod/default/client');
  // A pod runs the lab's (Debian 12's) programs whatever its image, and the panel says so.
  await expect(page.getByTestId('terminal-pod-tools')).toContainText('curl 7.88, iputils ping');
  await term.click();
  await page.keyboard.type('dig +short web.default.svc.cluster.local');
  await page.keyboard.press('Enter');
  await expect(term).toContainText('10.96.1.1');
  // Its packets became the trace to animate.
  await expect(page.getByTestId('position')).toContainText(/Step 0 of \d+/);
  await lab.shot('40-terminal');
  // The textbook's count of answers per pod: a loop of 100 connections through the Service.
  await term.click();
  await page.keyboard.type(
    "for i in $(seq 100); do curl -s 10.96.1.1; done | cut -d' ' -f1 | sort | uniq -c",
  );
  await page.keyboard.press('Enter');
  await expect(term).toContainText(/ {4,6}\d{1,3} web-\w+-\w+/, { timeout: 30_000 });
  // In zh-CN the lab's own notes are in Chinese; the tools' output is not translated.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await term.click();
  await page.keyboard.type('ss -an; curl -m 1 http://10.96.1.1:81/');
  await page.keyboard.press('Enter');
  await expect(term).toContainText('curl: (28) Connection timed out after 1001 milliseconds');
  // ss lists the loop's connections, TIME-WAIT on the client's side, to the Service's address.
  await expect(term).toContainText(/tcp +TIME-WAIT +0 +0 +10\.244\.0\.5:\d+ +10\.96\.1\.1:80/);
  await expect(term).toContainText('lab: 实验台只模拟 TCP 和 UDP 套接字');
  await expect(page.getByTestId('terminal-pod-tools')).toContainText('Alpine 镜像（如 agnhost）');
  // The DNS query's walk through node-1's chains, as a real node's xtables-monitor prints it.
  await page.getByRole('combobox', { name: '主机' }).selectOption('node-1');
  await expect(page.getByTestId('terminal-pod-tools')).toHaveCount(0);
  await term.click();
  await page.keyboard.type('xtables-monitor --trace | grep KUBE-SEP | head -1');
  await page.keyboard.press('Enter');
  await expect(term).toContainText(
    / TRACE: 2 [0-9a-f]{8} nat:KUBE-SVC-TCOU7JCQXEZGVUNU:rule:0x[0-9a-f]+:JUMP:KUBE-SEP-/,
  );
  await expect(term).toContainText('lab: xtables-monitor 打印了这个节点启动以来的全部跟踪事件');
  await lab.shot('41-terminal-zh-CN');
});

test('a dying worker restarts, the lab says so, and no edit is lost', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.typeInEditor('\n# my unsaved note\n', 'end');
  await page.evaluate(() => window.__lab!.crashWorker());
  await expect(page.getByTestId('notice')).toContainText('restarted');
  await lab.ready();
  expect(await lab.editorText()).toContain('# my unsaved note');
  await lab.send();
  await lab.shot('50-worker-restarted');
});

test('keyboard and accessible names: axe finds no serious problem', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.send();
  for (let i = 0; i < 17; i++) await page.keyboard.press('ArrowRight');
  const serious = (r: Awaited<ReturnType<AxeBuilder['analyze']>>) =>
    r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  // The whole page once (Monaco's own editing surface is checked by its authors)…
  await lab.tab(/Scenario/);
  expect(serious(await new AxeBuilder({ page }).exclude('.monaco-editor').analyze())).toEqual([]);
  // …then each other panel.
  for (const tab of [/Events/, /Rules/, /Inspector/, /Settings/]) {
    await lab.tab(tab);
    expect(serious(await new AxeBuilder({ page }).include('.panels').analyze())).toEqual([]);
  }
  // Tabs move with the arrow keys.
  await page.getByRole('tab', { name: 'Settings' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Terminal' })).toBeFocused();
});

test('the terminal changes the running cluster and node: the graph follows', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Terminal/);
  const term = page.getByTestId('terminal');
  await term.click();
  const run = async (line: string, answer: string | RegExp) => {
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
    await expect(term).toContainText(answer);
  };
  // kubectl's writes: a new Service, one gone, one patched; kube-proxy and the graph follow.
  await run('kubectl expose deployment web --name web2 --port 8081 --target-port 8080', 'service/web2 exposed'); // prettier-ignore
  await run('kubectl delete svc web-nodeport', 'service "web-nodeport" deleted');
  await run(`kubectl patch svc web -p '{"spec":{"type":"NodePort"}}'`, 'service/web patched');
  await expect(page.getByTitle('Send to Service default/web2 (10.96.1.3)')).toBeVisible();
  await expect(page.getByTitle(/Send to Service default\/web-nodeport /)).toHaveCount(0);
  // (the terminal's text runs its rows together: the count follows the command line)
  await run(
    'iptables -t nat -S KUBE-NODEPORTS | grep -c \'"default/web"\'',
    /"default\/web"'2(?!\d)/,
  );
  // A loop with a condition, and the sysctl written as many guides write it.
  await run('i=0; while [ $i -lt 3 ]; do echo round $i; i=$((i+1)); done', 'round 2');
  await run('echo 0 > /proc/sys/net/bridge/bridge-nf-call-iptables', /\$ echo 0 > \/proc/);
  await expect(page.locator('.warn-badge', { hasText: 'br-nf 0' })).toBeVisible();
  expect(lab.foreign).toEqual([]);
});

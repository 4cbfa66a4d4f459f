/**
 * The lab's "done" story: a DNS query from a pod goes through KUBE-SERVICES → KUBE-SVC →
 * KUBE-SEP to a CoreDNS pod and back, the conntrack entry appearing as it happens; the same
 * trace replays identically; nothing leaves localhost.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('a DNS query from a pod walks KUBE-SERVICES → KUBE-SVC → KUBE-SEP to CoreDNS and back', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.shot('01-loaded');
  // The default pick is the story's: pod/default/client → kube-dns 10.96.0.10:53/UDP.
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('pod/default/client');
  await lab.send();
  const { total } = await lab.position();
  expect(total).toBeGreaterThan(40);

  const stations: string[] = [];
  const hosts: string[] = [];
  const whys: string[] = [];
  let ctCreatedAt = -1;
  let unnatSeen = false;
  for (let i = 1; i <= total; i++) {
    await lab.stepForward();
    await expect(page.getByTestId('position')).toContainText(`Step ${i} of ${total}`);
    const st = await lab.currentStation();
    if (stations.at(-1) !== st) stations.push(st);
    const host = await lab.laneHost();
    if (hosts.at(-1) !== host) hosts.push(host);
    whys.push((await page.getByTestId('why').textContent()) ?? '');
    if (ctCreatedAt < 0 && (await page.locator('.ct-row[data-state="created"]').count()) > 0) {
      ctCreatedAt = i;
      await expect(page.locator('.ct-row[data-state="created"]')).toContainText('dport=53');
      await lab.shot('03-conntrack-row-created');
    }
    if (st.startsWith('DNAT') && (await page.getByTestId('rewrite').count()) > 0) {
      await expect(page.getByTestId('rewrite')).toContainText('10.96.0.10:53');
      await lab.shot('02-dnat');
    }
    if ((await page.locator('.ct-row[data-state="unnat"]').count()) > 0 && !unnatSeen) {
      unnatSeen = true;
      await lab.shot('04-reply-unnat');
    }
  }
  const joined = stations.join(' | ');
  const order = [
    'PREROUTING',
    'KUBE-SERVICES',
    'KUBE-SVC-TCOU7JCQXEZGVUNU',
    'KUBE-SEP-',
    'DNAT',
    'POSTROUTING',
  ];
  let from = 0;
  for (const name of order) {
    const at = stations.findIndex((s, k) => k >= from && s.startsWith(name));
    expect(at, `${name} after position ${from} in ${joined}`).toBeGreaterThanOrEqual(from);
    from = at;
  }
  // To a CoreDNS pod, and back to the client, with the reply un-NATed by the conntrack entry.
  expect(hosts.some((h) => h.startsWith('pod/kube-system/coredns-'))).toBe(true);
  expect(hosts.at(-1)).toBe('pod/default/client');
  expect(stations).toContain('UNDNAT');
  expect(ctCreatedAt).toBeGreaterThan(0);
  expect(unnatSeen).toBe(true);
  await lab.shot('05-delivered');
  // The trace's own output: dig printed the Service's address.
  await lab.tab(/Events/);
  await expect(page.locator('.run-output').first()).toContainText('10.96.0.10');
  await expect(page.getByTestId('ct-summary')).toContainText('1 flow entries');
  // For a lab report: the trace as text, downloaded by the browser itself (nothing uploaded).
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save as text' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('trace.txt');
  const report = readFileSync((await file.path())!, 'utf8');
  expect(report).toMatch(/^pod\/default\/client\$ dig @10\.96\.0\.10 /);
  expect(report).toMatch(/^ {4}-A KUBE-SEP-\w+ .*-j DNAT --to-destination 10\.244\.0\.[23]:53$/m);
  expect(report).toMatch(/^#\d+ {2}node-1 .* UNDNAT /m);
  // A rule that did not match says which of its conditions failed, marked in the inspector.
  await page.getByLabel(/Every step/).check();
  await page
    .getByRole('button', { name: /nat KUBE-SERVICES #1 → no match/ })
    .first()
    .dblclick();
  // iptables-nft compares the protocol before the addresses: this UDP packet fails `-p tcp`.
  await expect(page.getByTestId('failed-condition')).toHaveText('-p tcp');
  await expect(page.getByTestId('inspector')).toContainText(
    'the rule does not match: -p tcp, and the packet is udp',
  );
  // The Service kube-proxy wrote the rule for, shown in the scenario's YAML.
  await expect(page.getByTestId('inspector')).toContainText(
    'kube-proxy wrote this rule for port https of Service default/kubernetes',
  );
  await page.getByRole('button', { name: 'Show in scenario' }).click();
  await expect(page.getByRole('tab', { name: /Scenario/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect
    .poll(() =>
      page.evaluate(() => {
        const e = window.__labEditor;
        const line = e?.getSelection()?.startLineNumber ?? 0;
        return line > 0 ? e?.getModel()?.getLineContent(line) : '';
      }),
    )
    .toBe('  name: kubernetes');
  await lab.tab(/Events/);
  await page.getByLabel(/Every step/).uncheck();

  // The same run replays identically: back to the start, forward again, same explanations.
  await page.getByLabel('Trace position').fill('-1');
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  for (let i = 1; i <= total; i++) {
    await lab.stepForward();
    await expect(page.getByTestId('position')).toContainText(`Step ${i} of ${total}`);
    expect((await page.getByTestId('why').textContent()) ?? '').toBe(whys[i - 1]);
  }
  expect(lab.foreign).toEqual([]);
});

test('later packets of a TCP connection skip the nat chains; play and step back work', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await page
    .getByLabel('To', { exact: true })
    .selectOption({ label: 'default/web 10.96.1.1:80/TCP' });
  await lab.send();
  await expect(page.locator('.run-output')).toHaveCount(0);
  const { total } = await lab.position();
  await page.getByLabel('Speed', { exact: true }).selectOption('16');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByTestId('position')).toContainText(/Step ([2-9]\d|1\d\d) of/);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByLabel('Trace position').fill(String(total - 1));
  await expect(page.getByTestId('position')).toContainText(`Step ${total} of ${total}`);
  // Walk back to the third packet (the client's ACK): conntrack knows it, no KUBE-SERVICES.
  let skipSeen = false;
  for (let i = total; i > 1 && !skipSeen; i--) {
    await page.getByRole('button', { name: 'Step back' }).click();
    const packet = (await page.locator('.lane-head').textContent()) ?? '';
    if (/packet 3\b/.test(packet) && (await page.locator('.station.st-skip').count()) > 0)
      skipSeen = true;
  }
  expect(skipSeen).toBe(true);
  await expect(page.locator('.station.st-skip')).toContainText('KUBE-SERVICES');
  await lab.shot('06-established-skips-nat');
  expect(lab.foreign).toEqual([]);
});

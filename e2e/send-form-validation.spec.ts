/**
 * The Send form with bad input, in English and in zh-CN: Send sends nothing, the typed text
 * stays, and the field says what it accepts — next to it, as its accessible description, with
 * aria-invalid. Before this, a bad address or port 0 ran an English "invalid …" command shown
 * only in the Events tab, 2.5 got the browser's own bubble (in the browser's language), and
 * -1, 1e9 or an empty count were clamped to 1 or 20 and sent. The ranges are the worker's
 * (src/worker/send-input.ts): a port 1–65535, a count 1–20.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './lab-page';

interface Texts {
  readonly to: string;
  readonly address: string;
  readonly count: string;
  readonly noTrace: RegExp;
  readonly notIPv4: string;
  readonly port: string;
  readonly addressEmpty: string;
  readonly countRange: string;
  readonly countEmpty: string;
}

const EN: Texts = {
  to: 'To',
  address: 'IP:port',
  count: 'Count',
  noTrace: /^No packet yet/,
  notIPv4:
    'IP:port: “10.96.0.999” is not an IPv4 address. Type four numbers from 0 to 255 with dots between them (no leading zeros), like 10.96.0.10.',
  port: 'Port must be a whole number from 1 to 65535.',
  addressEmpty: 'IP:port is empty. Type an IPv4 address and a port, like 10.96.0.10:53.',
  countRange: 'Count must be a whole number from 1 to 20.',
  countEmpty: 'Count is empty. Type a whole number from 1 to 20.',
};

const ZH: Texts = {
  to: '目的',
  address: 'IP:端口',
  count: '次数',
  noTrace: /^还没有数据包/,
  notIPv4:
    'IP:端口：“10.96.0.999”不是 IPv4 地址。请填写用点隔开的四个 0 到 255 的整数（不要前导零），例如 10.96.0.10。',
  port: '端口必须是 1 到 65535 之间的整数。',
  addressEmpty: 'IP:端口为空。请填写 IPv4 地址和端口，例如 10.96.0.10:53。',
  countRange: '次数必须是 1 到 20 之间的整数。',
  countEmpty: '次数为空。请填写 1 到 20 之间的整数。',
};

async function checkRefusals(page: Page, s: Texts): Promise<void> {
  await page.getByRole('combobox', { name: s.to, exact: true }).selectOption('address');
  const address = page.getByRole('textbox', { name: s.address, exact: true });
  const count = page.getByRole('spinbutton', { name: s.count, exact: true });
  const send = page.getByRole('button', { name: /^(Send|发送)$/ });
  const position = page.getByTestId('position');

  const refused = async (
    field: typeof address,
    text: string,
    message: string,
    other: typeof address,
  ): Promise<void> => {
    await field.fill(text);
    await send.click();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(message);
    await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
    // Nothing sent, and the learner's text is still there to correct.
    await expect(position).toHaveText(s.noTrace);
    await expect(field).toHaveValue(text);
    await expect(field).toBeFocused();
    await expect(other).toHaveAttribute('aria-invalid', 'false');
  };

  await refused(address, '10.96.0.999:53', s.notIPv4, count);
  await refused(address, '10.96.0.10:0', s.port, count);
  await refused(address, '', s.addressEmpty, count);
  await address.fill('10.96.0.10:53');
  await expect(address).toHaveAttribute('aria-invalid', 'false');
  for (const text of ['2.5', '-1', '1e9', '21']) await refused(count, text, s.countRange, address);
  await refused(count, '', s.countEmpty, address);

  // Corrected, the same form sends: two DNS queries, as typed.
  await count.fill('2');
  await expect(count).toHaveAttribute('aria-invalid', 'false');
  await expect(page.locator('form.send-bar').getByRole('alert')).toHaveCount(0);
  await send.click();
  await expect(position).not.toHaveText(s.noTrace);
  await expect(page.locator('.playback .prompt')).toHaveText(
    'pod/default/client$ dig @10.96.0.10 -p 53 +short +tries=1 kubernetes.default.svc.cluster.local ×2',
  );
}

test('English: bad IP:port and count are refused next to the field, and nothing is sent', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.language('en');
  await checkRefusals(page, EN);
});

test('zh-CN: the same refusals in Chinese; switching language re-says a shown problem', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.language('zh-CN');
  await checkRefusals(page, ZH);
  // A problem on screen follows the language switch (it is a code, not a stored sentence).
  const count = page.getByRole('spinbutton', { name: ZH.count, exact: true });
  await count.fill('0');
  await page.getByRole('button', { name: '发送' }).click();
  await expect(count).toHaveAccessibleDescription(ZH.countRange);
  // The shown problem passes axe (contrast of the red text, the described-by link).
  const axe = await new AxeBuilder({ page }).include('form.send-bar').analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id),
  ).toEqual([]);
  await lab.language('en');
  await expect(
    page.getByRole('spinbutton', { name: 'Count', exact: true }),
  ).toHaveAccessibleDescription(EN.countRange);
});

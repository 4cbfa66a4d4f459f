/**
 * Page object of the lab for the end-to-end tests: what a learner does, in a few verbs.
 */
import { expect, type Page } from '@playwright/test';

export class LabPage {
  readonly foreign: string[] = [];

  constructor(readonly page: Page) {
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.hostname !== '127.0.0.1' && !['data:', 'blob:'].includes(url.protocol)) {
        this.foreign.push(req.url());
      }
    });
  }

  async open(): Promise<void> {
    await this.page.goto('/');
    await this.ready();
  }

  async ready(): Promise<void> {
    await expect(this.page.getByTestId('engine')).toHaveAttribute('class', /engine-ready/, {
      timeout: 20_000,
    });
  }

  async tab(name: RegExp): Promise<void> {
    await this.page.getByRole('tab', { name }).click();
  }

  async send(): Promise<void> {
    await this.page.getByRole('button', { name: /^(Send|发送)$/ }).click();
    await expect(this.page.getByTestId('position')).toContainText(/Step 0 of \d+|第 0 步/);
  }

  /** Presses → once (focus outside any text field) and returns the lane's current station. */
  async stepForward(): Promise<void> {
    await this.page.keyboard.press('ArrowRight');
  }

  async position(): Promise<{ n: number; total: number }> {
    const text = (await this.page.getByTestId('position').textContent()) ?? '';
    const [n = 0, total = 0] = (text.match(/\d+/g) ?? []).map(Number);
    return { n, total };
  }

  async currentStation(): Promise<string> {
    const st = this.page.locator('.station.current');
    return (await st.count()) > 0 ? ((await st.first().textContent()) ?? '') : '';
  }

  /** Every station of the lane now shown (one host visit), as the learner reads them. */
  async stations(): Promise<string[]> {
    return this.page.locator('.station button').allInnerTexts();
  }

  /** Switches the lab's language with the picker, as a learner does. */
  async language(lng: 'zh-CN' | 'en'): Promise<void> {
    await this.page.getByRole('combobox', { name: /^(Language|语言)$/ }).selectOption(lng);
    await expect(this.page.locator('html')).toHaveAttribute('lang', lng);
  }

  /** The number in a text such as "Step 17 of 62", "第 17 步" or "#17 …" (the first one). */
  static stepIn(text: string): number {
    return Number(/\d+/.exec(text)?.[0] ?? NaN);
  }

  async laneHost(): Promise<string> {
    return (await this.page.locator('.lane-head strong').textContent()) ?? '';
  }

  /** Types into Monaco as a learner does (suggestions and auto-indent off, so keys land as typed). */
  async typeInEditor(text: string, at: 'end' | { line: number; column: number }): Promise<void> {
    await this.tab(/Scenario|场景/);
    await this.page.locator('.monaco-editor').waitFor();
    await this.page.evaluate((pos) => {
      const ed = window.__labEditor!;
      ed.updateOptions({
        quickSuggestions: false,
        suggestOnTriggerCharacters: false,
        autoIndent: 'none',
        autoClosingBrackets: 'never',
      });
      const model = ed.getModel()!;
      if (pos === 'end')
        ed.setPosition({
          lineNumber: model.getLineCount(),
          column: model.getLineMaxColumn(model.getLineCount()),
        });
      else ed.setPosition({ lineNumber: pos.line, column: pos.column });
      ed.focus();
    }, at);
    await this.page.keyboard.type(text);
  }

  async editorText(): Promise<string> {
    // The store's text: what the editor shows, also while the editor tab is closed.
    return this.page.evaluate(() => window.__lab?.store.getState().text ?? '');
  }

  /**
   * Opens the lab at step `step` of lesson `id`, the steps before it done (`done`: their check
   * ids), as a learner leaves them: the lessons' progress in localStorage before the page loads
   * (set once, so a reload keeps what the test did), then Continue, which replays them.
   */
  async openAtLessonStep(id: string, step: number, done: readonly string[]): Promise<void> {
    await this.page.addInitScript(
      ({ id, step, done }) => {
        if (localStorage.getItem('kube-proxy-lab:lessons:v1') !== null) return;
        localStorage.setItem(
          'kube-proxy-lab:lessons:v1',
          JSON.stringify({
            open: id,
            lessons: { [id]: { step, done, chosen: {}, answers: {}, hints: {} } },
          }),
        );
      },
      { id, step, done },
    );
    await this.open();
    await this.page.getByTestId('lesson-continue').click();
    await this.ready();
  }

  /** The terminal's screen as lines (terminalLines below). */
  terminalLines(): Promise<string[]> {
    return terminalLines(this.page);
  }

  async shot(name: string): Promise<void> {
    await this.page.screenshot({ path: `test-results/screens/${name}.png` });
  }
}

/**
 * The terminal's screen as lines, once what was written to it is drawn: the rows a long line
 * wrapped onto joined to it, trailing blanks trimmed, empty lines left out.
 */
export async function terminalLines(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const term = window.__labTerminal!;
    await new Promise<void>((resolve) => term.write('', resolve));
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const row = buffer.getLine(y)!;
      const text = row.translateToString(true);
      if (row.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    return lines.map((line) => line.trimEnd()).filter((line) => line !== '');
  });
}

// One closing line for the whole run, from the unit/kernel (vitest), e2e (Playwright) and
// cross-browser smoke (e2e/cross-browser) reports: "tests: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

function read(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const unit = read('reports/vitest.json');
const e2e = read('reports/e2e.json');
const browsers = read('reports/cross-browser.json') ?? [];
let passed = unit?.numPassedTests ?? 0;
let failed = unit?.numFailedTests ?? 0;
let skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0);
passed += e2e?.stats?.expected ?? 0;
failed += (e2e?.stats?.unexpected ?? 0) + (e2e?.stats?.flaky ?? 0);
skipped += e2e?.stats?.skipped ?? 0;
for (const b of browsers) {
  if (b.status === 'passed') passed++;
  else if (b.status === 'failed') failed++;
  else skipped++;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;

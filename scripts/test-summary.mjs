// One closing line for the whole run, from the unit/kernel (vitest) and e2e (Playwright)
// reports: "tests: N passed, N failed, N skipped".
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
let passed = unit?.numPassedTests ?? 0;
let failed = unit?.numFailedTests ?? 0;
let skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0);
passed += e2e?.stats?.expected ?? 0;
failed += (e2e?.stats?.unexpected ?? 0) + (e2e?.stats?.flaky ?? 0);
skipped += e2e?.stats?.skipped ?? 0;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;

/**
 * Every test of this folder again, with each text read both ways — the fast reader and the
 * whole text through `yaml`, as before it — and the two readings compared (yaml-reference).
 */
import { afterAll, expect, it, vi } from 'vitest';
import type * as StreamModule from './yaml-stream';
import { reader } from './yaml-reference';
import './apply.test';
import './config.test';
import './default-scenario.test';
import './deployment.test';
import './endpointslice.test';
import './hash.test';
import './pod.test';
import './robustness.test';
import './service-validation.test';
import './service.test';

vi.mock('./yaml-stream', async (importOriginal) => {
  const { switched } = await import('./yaml-reference');
  return switched(await importOriginal<typeof StreamModule>());
});

it('reads every text of the tests as yaml reads it whole', () => {
  expect(reader.mode).toBe('check');
});

afterAll(() => {
  expect(reader.compared).toBeGreaterThan(1000);
  expect(reader.mismatches).toEqual([]);
});

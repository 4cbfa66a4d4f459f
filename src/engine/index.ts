/**
 * The engine's public surface: the only module code outside src/engine imports.
 * Pure and deterministic: no DOM, timers, wall clock or Math.random.
 */
export type * from './model/cluster';
export type { Diagnostic } from './model/diagnostic';
export { diagnosticToString } from './model/diagnostic';
export { ManualClock, rngFromSeed, type Clock, type Rng } from './model/runtime';
export { DEFAULT_SCENARIO, DEFAULT_SCENARIO_NAME, loadScenario, applyManifests } from './scenario';
export { World, LAB_EPOCH_SECONDS, type WorldOptions } from './sim/world';
export { runScript, type RunScriptOptions } from './sim/run-script';
export { hostView } from './sim/host-view';
export { setTraceDetail, traceCursor, traceSince } from './sim/network';
export { flowControls } from './sim/flows';
export * from '../protocol/trace';
export type { CommandResult } from './commands/registry';
export { generateScaleScenario } from './testing/scale-scenario';
export { generateLoadScenario, loadServiceIP } from './testing/load-scenario';

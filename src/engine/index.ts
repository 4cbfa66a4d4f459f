/**
 * The engine's public surface: the only module code outside src/engine imports.
 * Pure and deterministic: no DOM, timers, wall clock or Math.random.
 */
export type * from './model/cluster';
export type { Diagnostic } from './model/diagnostic';
export { diagnosticToString } from './model/diagnostic';
export { mergeWrites, type StdioWrite } from './model/stdio';
export {
  LAB_NOTES,
  labNote,
  readLabNotes,
  type FoundNote,
  type LabNoteId,
} from './model/lab-notes';
export { ManualClock, rngFromSeed, type Clock, type Rng } from './model/runtime';
export { DEFAULT_SCENARIO, DEFAULT_SCENARIO_NAME, loadScenario, applyManifests } from './scenario';
export { World, LAB_EPOCH_SECONDS, type WorldOptions } from './sim/world';
export { runScript, type RunScriptOptions } from './sim/run-script';
export { hostView } from './sim/host-view';
export { setTraceDetail, traceCursor, traceSince } from './sim/network';
export { flowControls } from './sim/flows';
export {
  labFacts,
  type LabFacts,
  type NodeFacts,
  type ConntrackFact,
  type RuleFact,
  type TupleFact,
  type BridgePortFact,
} from './sim/facts';
export * from '../protocol/trace';
export { explainText, DATAPATH_MESSAGES } from './datapath';
export { buildTopology, hostNetwork } from './routing/topology';
export type { CommandResult, DirectoryEntry } from './commands/registry';
export { runCommandLine } from './commands/shell-run';
export { createLabRegistry } from './commands';
export { parseScript, resolveTarget } from './commands/script';
export { hereDocUnfinished } from './commands/script-heredoc';
export { generateScaleScenario } from './testing/scale-scenario';
export {
  measureScale,
  measureScalePoint,
  SCALE_ENDPOINTS_PER_SERVICE,
  type ScalePoint,
} from './sim/scale-experiment';
export { createNftablesProxier, type NftablesProxier } from './kube-proxy';
export { createNftState, nftApply, nftCommand, type NftState } from './nftables';
export { generateLoadScenario, loadServiceIP } from './testing/load-scenario';

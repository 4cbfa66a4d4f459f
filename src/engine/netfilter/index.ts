/**
 * The simulated iptables (nf_tables backend, iptables 1.8.9) of one node.
 *
 * State is plain data (`NetfilterState`) changed in place by iptablesRestore/iptablesCommand;
 * the views render it byte for byte like the real tools.
 */
export type * from './types';
export { ADDR_TYPES, CT_STATES, REJECT_TYPES } from './types';
export { BUILTIN_CHAINS, TABLE_ORDER, isBuiltinChain, isTableName } from './tables';
export {
  createNetfilter,
  getChain,
  chainRules,
  chainReferences,
  chainsForListing,
  bumpRuleCounters,
  bumpPolicyCounters,
} from './state';
export { iptablesRestore, type RestoreOptions } from './restore';
export { iptablesCommand } from './command';
export {
  iptablesSave,
  iptablesList,
  iptablesRulesSpec,
  type ToolOutput,
  type SaveOptions,
  type ListOptions,
  type RulesSpecOptions,
} from './views';
export { ruleSpec } from './rule-render';
export { logChainTrace, tableHasTrace, traceLines } from './nftrace';
export { probabilityText, probabilityThreshold } from './format';
export type { IpsetLookup, NetnsObjects } from './match-misc';
export * from './walk';

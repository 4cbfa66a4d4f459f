/**
 * nf_tables as the lab models it for kube-proxy's nftables mode: state, `nft -f` transactions,
 * `nft list` views and packet evaluation of base chains.
 */
export * from './types';
export { nftApply, type NftRunResult } from './transaction';
export { nftCommand } from './command';
export {
  durationText,
  liveElements,
  priorityText,
  renderChain,
  renderChains,
  renderSet,
  renderSets,
  renderTable,
  type RenderOptions,
} from './render';
export { parseRule, ruleText, stmtText, hex32 } from './rule-text';
export {
  baseChainsAt,
  evalBaseChain,
  type NftCtState,
  type NftEvalContext,
  type NftLookup,
  type NftNat,
  type NftPacket,
  type NftResult,
  type NftStep,
} from './eval';

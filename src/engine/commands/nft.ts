/**
 * `nft` on the host the command runs on: `nft [-a] list ruleset|tables|table|chain|set|map …`
 * over the host's nf_tables state (kube-proxy's `ip kube-proxy` table on a node in nftables
 * mode, and the tables iptables-nft keeps for iptables rules), printed as nft 1.0.6 prints it,
 * with its error texts.
 */
import { iptablesNftTables } from '../netfilter/nft-view/render';
import { createNftState, nftCommand } from '../nftables';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';

function nft(ctx: CommandContext, argv: string[]): CommandResult {
  const state = ctx.world.nftables?.() ?? createNftState();
  const iptables = iptablesNftTables(ctx.world.netfilter());
  return nftCommand(state, argv.slice(1), ctx.world.nowSeconds() * 1000, iptables);
}

export function registerNft(registry: CommandRegistry): void {
  registerCommand(registry, 'nft', nft);
}

/**
 * `nft` on the host the command runs on: `nft [-a] list ruleset|tables|table|chain|set|map …`
 * over the host's nf_tables state (kube-proxy's `ip kube-proxy` table on a node in nftables
 * mode), printed as nft 1.0.6 prints it, with its error texts.
 */
import { createNftState, nftCommand } from '../nftables';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';

function nft(ctx: CommandContext, argv: string[]): CommandResult {
  const state = ctx.world.nftables?.() ?? createNftState();
  return nftCommand(state, argv.slice(1), ctx.world.nowSeconds() * 1000);
}

export function registerNft(registry: CommandRegistry): void {
  registerCommand(registry, 'nft', nft);
}

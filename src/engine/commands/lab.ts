/**
 * `lab`: the lab's own command, for what no real tool shows directly.
 *
 *   lab restore-input   the exact input kube-proxy last piped to `iptables-restore --noflush
 *                       --counters` on this node (real kube-proxy logs it only at -v=9)
 *   lab sync            what that sync was: full or partial, chains (re)written and deleted
 *   lab flow …          named long-lived TCP/UDP flows from this host (./lab-flow.ts)
 *
 * In nftables mode `restore-input` prints the transaction kube-proxy last sent to `nft -f -`
 * (through knftables), and `sync` names the Services whose chains it rewrote.
 */
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { runFlow } from './lab-flow';
import { labNote } from '../model/lab-notes';

/** The lab's own help, a line at a time from the notes catalogue (so zh-CN can show it). */
const USAGE = (['lab.usage', 'lab.usage-restore', 'lab.usage-sync', 'lab.usage-flow'] as const)
  .map((id) => labNote(id))
  .join('');

function lab(ctx: CommandContext, argv: string[]): CommandResult {
  const sub = argv[1];
  if (sub === 'flow') return runFlow(ctx, argv.slice(2));
  if (sub !== 'restore-input' && sub !== 'sync') {
    return { stdout: '', stderr: USAGE, exitCode: sub === undefined || sub === '--help' ? 0 : 2 };
  }
  const status = ctx.world.kubeProxy();
  if (status === undefined) {
    return { stdout: '', stderr: labNote('kube-proxy.node-only'), exitCode: 1 };
  }
  if (sub === 'restore-input') return { stdout: status.restoreInput, stderr: '', exitCode: 0 };
  if (status.mode === 'nftables') {
    const nft = [
      'mode: nftables',
      `last sync: ${status.full ? 'full' : 'partial (only changed services rewritten)'}`,
      `nft -f: ${status.restoreError === '' ? 'accepted' : `failed: ${status.restoreError.trim()}`}`,
      `services rewritten: ${status.chainsWritten.length === 0 ? '(none)' : status.chainsWritten.join(' ')}`,
      `chains deleted: ${status.chainsDeleted.length === 0 ? '(none)' : status.chainsDeleted.join(' ')}`,
    ];
    return { stdout: `${nft.join('\n')}\n`, stderr: '', exitCode: 0 };
  }
  const lines = [
    `mode: ${status.mode}`,
    `last sync: ${status.full ? 'full' : 'partial (only changed services rewritten)'}`,
    `restore: ${status.restoreError === '' ? 'accepted' : `failed: ${status.restoreError.trim()}`}`,
    `rules written: filter ${status.filterRules}, nat ${status.natRules}`,
    `chains written: ${status.chainsWritten.length === 0 ? '(none)' : status.chainsWritten.join(' ')}`,
    `chains deleted: ${status.chainsDeleted.length === 0 ? '(none)' : status.chainsDeleted.join(' ')}`,
  ];
  return { stdout: `${lines.join('\n')}\n`, stderr: '', exitCode: 0 };
}

export function registerLab(registry: CommandRegistry): void {
  registerCommand(registry, 'lab', lab);
}

/**
 * Runs the same nft steps against the engine's nf_tables model and against the real nft
 * (nftables 1.0.6) in a fresh network namespace: `nft -f -` of a transaction, then `nft …`
 * commands; both outputs per step, for line-by-line comparison.
 */
import { spawnSync } from 'node:child_process';
import { createNftState, nftApply, nftCommand } from '../../src/engine/nftables';
import { netnsUnavailableReason, withNetns, type RunResult } from './netns';

export type NftStep = { readonly load: string } | { readonly nft: readonly string[] };

export interface NftCompared {
  readonly label: string;
  readonly engine: RunResult;
  readonly real: RunResult;
}

let nftReason: string | null | undefined = null;

/** undefined when nft 1.0.6 and namespaces are there; otherwise why not. */
export function nftUnavailableReason(): string | undefined {
  if (nftReason !== null) return nftReason;
  const ns = netnsUnavailableReason();
  if (ns !== undefined) return (nftReason = ns);
  const v = spawnSync('nft', ['--version'], { encoding: 'utf8' });
  if (v.status !== 0) return (nftReason = 'nft is not installed');
  if (!v.stdout.startsWith('nftables v1.0.6'))
    return (nftReason = `nft is "${v.stdout.trim()}", not v1.0.6`);
  return (nftReason = undefined);
}

export function runNftBoth(steps: readonly NftStep[]): NftCompared[] {
  const state = createNftState();
  return withNetns((run) =>
    steps.map((step) => {
      if ('load' in step) {
        return {
          label: 'nft -f -',
          engine: nftApply(state, step.load, { nowMs: 0 }),
          real: run(['nft', '-f', '-'], step.load),
        };
      }
      return {
        label: `nft ${step.nft.join(' ')}`,
        engine: nftCommand(state, step.nft, 0),
        real: run(['nft', ...step.nft]),
      };
    }),
  );
}

/** Registers `ipset` (ipset 7.17) over the node's IP sets; see ipset/cli.ts. */
import { runIpset } from '../ipset';
import type { CommandRegistry } from './registry';
import { registerCommand } from './registry';
import { labNote } from '../model/lab-notes';

export function registerIpset(registry: CommandRegistry): void {
  registerCommand(registry, 'ipset', (ctx, argv) => {
    const sets = ctx.world.nodeKernel()?.ipsets?.();
    if (sets === undefined) {
      // A pod's network namespace has no sets and no way to create them in the lab.
      return { stdout: '', stderr: labNote('ipset.node-only'), exitCode: 1 };
    }
    return runIpset(sets.state, sets.env, argv.slice(1), ctx.stdin);
  });
}

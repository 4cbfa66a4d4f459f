/** Registers `ip` (iproute2) over the host the command runs on; see routing/ip-command.ts. */
import { runIp } from '../routing/ip-command';
import { hostNetwork } from '../routing/topology';
import type { CommandRegistry } from './registry';
import { registerCommand } from './registry';
import { labNote } from '../model/lab-notes';

export function registerIp(registry: CommandRegistry): void {
  registerCommand(registry, 'ip', (ctx, argv) => {
    const net = ctx.world.network?.() ?? hostNetwork(ctx.world.cluster, ctx.world.host);
    if (net === undefined) return { stdout: '', stderr: labNote('ip.no-host'), exitCode: 1 };
    return runIp(net, argv.slice(1), () => ctx.world.neighbours?.() ?? []);
  });
}

/**
 * Node tools beyond iptables: `conntrack`, `sysctl`, `bridge link`, and `sleep` (which moves the
 * lab's virtual clock). Texts and exit codes as conntrack-tools 1.4.7, procps sysctl and
 * iproute2's bridge print them (checked against the real tools in a network namespace).
 */
import { conntrackCommand } from '../conntrack';
import { strtodWhole } from '../hosts';
import type { CommandContext, CommandRegistry, CommandResult } from './registry';
import { registerCommand } from './registry';
import { sysctl } from './sysctl';
import { labNote } from '../model/lab-notes';

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): CommandResult => ({ stdout: '', stderr, exitCode });

function conntrack(ctx: CommandContext, argv: string[]): CommandResult {
  const node = ctx.world.nodeKernel();
  if (node === undefined) {
    // Pods and clients have conntrack tables of their own that the lab does not model.
    return fail(labNote('conntrack.node-only'));
  }
  return conntrackCommand(node.conntrack, argv.slice(1), node.nowMs());
}

/** `bridge [-d] link [show [dev PORT]]` and `bridge link set dev PORT hairpin on|off`. */
function bridge(ctx: CommandContext, argv: string[]): CommandResult {
  const args = argv.slice(1);
  const details = args[0] === '-d' || args[0] === '-details';
  if (details) args.shift();
  if (args[0] !== 'link' && args[0] !== 'l') {
    return fail(`Object "${args[0] ?? ''}" is unknown, try "bridge help".\n`, 255);
  }
  const node = ctx.world.nodeKernel();
  const ports = node?.bridgePorts() ?? [];
  if (args[1] === 'set') {
    const dev = args[args.indexOf('dev') + 1];
    const flag = args[args.indexOf('hairpin') + 1];
    const port = ports.find((p) => p.name === dev);
    if (dev === undefined || args.indexOf('dev') < 0)
      return fail('Device is a required argument.\n', 255);
    if (port === undefined || node === undefined)
      return fail(`Cannot find bridge device "${dev}"\n`, 255);
    if (args.indexOf('hairpin') >= 0) {
      if (flag !== 'on' && flag !== 'off')
        return fail(`Error: argument "${flag ?? ''}" is wrong: hairpin\n`, 255);
      node.setHairpin(dev, flag === 'on');
    }
    return ok('');
  }
  const devIndex = args.indexOf('dev');
  const only = devIndex >= 0 ? args[devIndex + 1] : args[2];
  let out = '';
  for (const p of ports) {
    if (only !== undefined && p.name !== only) continue;
    out += `${p.ifindex}: ${p.name}@${p.peerLabel}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 master cni0 state forwarding priority 32 cost 2 \n`;
    if (details && node !== undefined) {
      out += `    hairpin ${node.hairpin(p.name) ? 'on' : 'off'} guard off root_block off fastleave off learning on flood on mcast_flood on bcast_flood on mcast_router 1 mcast_to_unicast off neigh_suppress off vlan_tunnel off isolated off locked off \n`;
    }
  }
  if (only !== undefined && out === '') return fail(`Cannot find device "${only}"\n`, 255);
  return ok(out);
}

const SLEEP_TRY = "Try 'sleep --help' for more information.\n";

/**
 * coreutils `sleep NUMBER[smhd]…`: in the lab, virtual time passes at once. A word starting
 * with `-` is an option to getopt (`-1` too); a number is what strtod() reads to the end
 * (`.5`, `1.`, `1e-1`, `0x0.1`, leading blanks), before one optional unit letter. Messages as
 * sleep prints them in the C locale (in a UTF-8 one it quotes ‘…’).
 */
function sleep(ctx: CommandContext, argv: string[]): CommandResult {
  const operands = argv.slice(1);
  if (operands.length === 0) return fail(`sleep: missing operand\n${SLEEP_TRY}`);
  let ms = 0;
  for (const op of operands) {
    if (op.startsWith('--') && op.length > 2)
      return fail(`sleep: unrecognized option '${op}'\n${SLEEP_TRY}`);
    if (op.startsWith('-') && op.length > 1 && op !== '--')
      return fail(`sleep: invalid option -- '${op[1]}'\n${SLEEP_TRY}`);
    const unitLetter = /[smhd]$/.test(op) ? op.slice(-1) : '';
    const number = strtodWhole(unitLetter === '' ? op : op.slice(0, -1));
    if (!number.ok || !(number.value >= 0))
      return fail(`sleep: invalid time interval '${op}'\n${SLEEP_TRY}`);
    const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[
      unitLetter as '' | 's' | 'm' | 'h' | 'd'
    ];
    const add = number.value * unit * 1000;
    // `sleep inf` (or 1e400) waits for ever; the lab's clock cannot.
    if (!Number.isFinite(add) || number.erange)
      return fail(labNote('sleep.infinite', { value: op }));
    ms += Math.round(add);
  }
  ctx.world.advanceClock(ms);
  return ok('');
}

export function registerNodeTools(registry: CommandRegistry): void {
  registerCommand(registry, 'conntrack', conntrack);
  registerCommand(registry, 'sysctl', sysctl);
  registerCommand(registry, 'bridge', bridge);
  registerCommand(registry, 'sleep', sleep);
}

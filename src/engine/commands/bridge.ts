/**
 * iproute2's `bridge` (6.1): `bridge [-d] link [show [dev PORT]]`, `bridge link set dev PORT
 * hairpin on|off`, and `bridge fdb [show] [br BRIDGE] [brport|dev DEV] [dynamic]`. Texts and exit
 * codes as the real tool prints them (checked against it in a network namespace).
 */
import type { NetInterface } from '../routing/topology';
import type { CommandContext, CommandResult, NodeKernelControls } from './registry';
import { labNote } from '../model/lab-notes';

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 255): CommandResult => ({ stdout: '', stderr, exitCode });

/** `bridge [-d] link [show [dev PORT]]` and `bridge link set dev PORT hairpin on|off`. */
function link(
  node: NodeKernelControls | undefined,
  args: string[],
  details: boolean,
): CommandResult {
  const ports = node?.bridgePorts() ?? [];
  if (args[1] === 'set') {
    const dev = args[args.indexOf('dev') + 1];
    const flag = args[args.indexOf('hairpin') + 1];
    const port = ports.find((p) => p.name === dev);
    if (dev === undefined || args.indexOf('dev') < 0)
      return fail('Device is a required argument.\n');
    if (port === undefined || node === undefined)
      return fail(`Cannot find bridge device "${dev}"\n`);
    if (args.indexOf('hairpin') >= 0) {
      if (flag !== 'on' && flag !== 'off')
        return fail(`Error: argument "${flag ?? ''}" is wrong: hairpin\n`);
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
  if (only !== undefined && out === '') return fail(`Cannot find device "${only}"\n`);
  return ok(out);
}

/**
 * The solicited-node group (RFC 4291 §2.7.1) of the device's link-local address as a multicast
 * MAC: 33:33:ff and the address's last 24 bits. None while the device has no link-local
 * address (a bridge without ports has no carrier, and addrconf gives it none).
 */
function solicitedNode(i: NetInterface): string[] {
  const ll = i.addresses.find((a) => a.family === 'inet6' && a.scope === 'link')?.address;
  if (ll === undefined) return [];
  const groups = ll.split(':');
  const hex = (g: string | undefined) => Number.parseInt(g === undefined || g === '' ? '0' : g, 16); // prettier-ignore
  const last = (hex(groups.at(-2)) << 16) | hex(groups.at(-1));
  const byte = (shift: number) => ((last >> shift) & 0xff).toString(16).padStart(2, '0');
  return [`33:33:ff:${byte(16)}:${byte(8)}:${byte(0)}`];
}

/**
 * A device's own addresses as ndo_dflt_fdb_dump() lists them (`self permanent`): its multicast
 * list — all-nodes (33:33:00:00:00:01), all-hosts (01:00:5e:00:00:01), the solicited-node
 * group of its link-local address — and on a bridge with multicast snooping (the default) also
 * the all-snoopers groups, in the order kernel 6.18 keeps them. Devices without MULTICAST (lo,
 * kube-ipvs0) have none.
 */
function selfEntries(i: NetInterface): string[] {
  if (i.type === 'loopback' || i.type === 'dummy') return [];
  if (i.type === 'bridge')
    return ['33:33:00:00:00:01', '01:00:5e:00:00:6a', '33:33:00:00:00:6a', '01:00:5e:00:00:01', ...solicitedNode(i)]; // prettier-ignore
  return ['33:33:00:00:00:01', '01:00:5e:00:00:01', ...solicitedNode(i)];
}

/**
 * `bridge fdb …` of a host with these interfaces, its bridge having learned these MACs. `show`:
 * rtnl_fdb_dump() walks the devices in ifindex order; for each, its bridge's
 * entries for that device (br_fdb_dump(): newest first, so a pod's learned MAC before the port's
 * own permanent one; the bridge's own MAC under the bridge itself), then the device's own
 * addresses. `dev`/`brport` keeps one device and leaves its name out of the lines; `br` keeps a
 * bridge and its ports; `dynamic` only learned entries. Other words are ignored, as iproute2
 * does.
 */
export function bridgeFdb(
  interfaces: readonly NetInterface[],
  learned: readonly { readonly port: string; readonly mac: string }[],
  args: readonly string[],
): CommandResult {
  const sub = args[1];
  if (sub !== undefined && !'show'.startsWith(sub) && !'list'.startsWith(sub)) {
    if (FDB_CHANGES.includes(sub) || sub === 'help')
      return fail(labNote('command.unmodelled', { command: `bridge fdb ${sub}` }), 1);
    return fail(`Command "${sub}" is unknown, try "bridge fdb help".\n`);
  }
  let br: string | undefined;
  let dev: string | undefined;
  let dynamic = false;
  for (let i = 2; i < args.length; i++) {
    const a = args[i]!;
    if (a === 'br' || a === 'brport' || a === 'dev') {
      const value = args[++i];
      if (value === undefined) return fail('Command line is not complete. Try option "help"\n');
      if (a === 'br') br = value;
      else dev = value;
    } else if (a === 'dynamic') dynamic = true;
  }
  // A device that is no bridge is no error: no device has it as master, so nothing is listed.
  if (br !== undefined && !interfaces.some((i) => i.name === br))
    return fail(`Cannot find bridge device "${br}"\n`);
  if (dev !== undefined && !interfaces.some((i) => i.name === dev))
    return fail(`Cannot find device "${dev}"\n`);
  let out = '';
  for (const i of [...interfaces].sort((a, b) => a.ifindex - b.ifindex)) {
    if (dev !== undefined && i.name !== dev) continue;
    if (br !== undefined && !((i.name === br && i.type === 'bridge') || i.master === br)) continue;
    const on = dev === undefined ? `dev ${i.name} ` : '';
    const master = i.type === 'bridge' ? i.name : i.master;
    const lines: string[] = [];
    if (master !== undefined) {
      for (const l of learned.filter((e) => e.port === i.name).reverse())
        lines.push(`${l.mac} ${on}master ${master} `);
      if (!dynamic) lines.push(`${i.mac} ${on}master ${master} permanent`);
    }
    if (!dynamic) for (const mac of selfEntries(i)) lines.push(`${mac} ${on}self permanent`);
    // The bridge's own self entries come before its master entry.
    if (i.type === 'bridge' && !dynamic) lines.push(lines.shift()!);
    out += lines.map((l) => `${l}\n`).join('');
  }
  return ok(out);
}

/** `bridge fdb` subcommands that change the table: the lab's cni0 learns by itself only. */
const FDB_CHANGES = ['add', 'append', 'del', 'delete', 'replace', 'get', 'flush'];

/** Options of iproute2's bridge the lab does not model (their output differs). */
const UNMODELLED_OPTIONS = ['-j', '-json', '-p', '-pretty', '-c', '-color', '-n', '-netns', '-b', '-batch', '-o', '-oneline', '-t', '-timestamp', '-V', '-Version', '-compressvlans']; // prettier-ignore

export function bridge(ctx: CommandContext, argv: string[]): CommandResult {
  const args = argv.slice(1);
  let details = false;
  let stats = false;
  while (args[0]?.startsWith('-') === true) {
    const opt = args.shift()!;
    if (opt === '-d' || opt === '-details') details = true;
    else if (opt === '-s' || opt === '-stats' || opt === '-statistics') stats = true;
    else if (UNMODELLED_OPTIONS.includes(opt))
      return fail(labNote('tool.option', { tool: 'bridge', option: opt.slice(1) }), 1);
    else return fail(`Option "${opt}" is unknown, try "bridge help".\n`);
  }
  const node = ctx.world.nodeKernel();
  if (args[0] === 'link' || args[0] === 'l') return link(node, args, details);
  if (args[0] === 'fdb' || args[0] === 'f') {
    // -s adds each entry's `used A/B` seconds, which the lab does not keep.
    if (stats) return fail(labNote('tool.option', { tool: 'bridge', option: 's' }), 1);
    return bridgeFdb(ctx.world.network?.()?.interfaces ?? [], node?.fdbLearned?.() ?? [], args);
  }
  return fail(`Object "${args[0] ?? ''}" is unknown, try "bridge help".\n`);
}

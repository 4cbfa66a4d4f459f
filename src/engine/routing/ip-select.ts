/**
 * The selectors of `ip addr show` and `ip link show`, as iproute2 6.1's
 * ipaddr_list_flush_or_save() (ipaddress.c) reads them — both commands share that loop:
 *
 * - `up`: links that are administratively up (IFF_UP), whatever their carrier;
 * - `type KIND`: links of that rtnl kind (`bridge`, `veth`, `dummy`); `type KIND_slave`: links
 *   enslaved to a master of that kind (a pod's veth on cni0 is a `bridge_slave`). A kind no link
 *   has selects nothing, without an error; the last `type` of each sort wins;
 * - `master DEV` / `nomaster`: links enslaved to DEV / to nothing;
 * - `[dev] NAME`: one link; any other word is a second device name, which iproute2 refuses.
 *
 * Selectors that need state the lab does not keep (address flags, labels, groups, vrf, proto,
 * scope, `to PREFIX`) are said to be unmodelled rather than ignored.
 */
import { labNote } from '../model/lab-notes';
import type { HostNetwork, NetInterface } from './topology';

export interface IpResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export const ipErr = (stderr: string, exitCode = 255): IpResult => ({
  stdout: '',
  stderr,
  exitCode,
});
export const ipNotModelled = (what: string): IpResult =>
  ipErr(labNote('ip.unmodelled', { what }), 2);
export const INCOMPLETE = 'Command line is not complete. Try option "help"\n';

/** The rtnl link kind (`ip -d link` names it; `type` selects by it); a NIC and lo have none. */
export function linkKind(i: NetInterface): string | undefined {
  if (i.type === 'bridge' || i.type === 'veth' || i.type === 'dummy') return i.type;
  return undefined;
}

/**
 * IFF_UP. kube-proxy never sets its kube-ipvs0 dummy up; every other link of the lab is up (a
 * cni0 without ports is up without carrier: `<NO-CARRIER,…,UP>`).
 */
export function isAdminUp(i: NetInterface): boolean {
  return i.type !== 'dummy';
}

/** Address flag words get_filter() takes (ipaddress.c ifa_flag_names and its negations). */
const FLAG_WORDS = new Set([
  'secondary',
  'temporary',
  'primary',
  'nodad',
  'optimistic',
  'dadfailed',
  'home',
  'deprecated',
  'tentative',
  'permanent',
  'dynamic',
  'mngtmpaddr',
  'noprefixroute',
  'autojoin',
  'stable-privacy',
]);

/** The interfaces `args` (the words after `show`) select, in ifindex order, or iproute2's error. */
export function selectInterfaces(
  net: HostNetwork,
  args: readonly string[],
): NetInterface[] | IpResult {
  let dev: string | undefined;
  let upOnly = false;
  let kind: string | undefined;
  let slaveKind: string | undefined;
  let master: NetInterface | 'none' | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === 'up') upOnly = true;
    else if (a === 'type' || a === 'master') {
      const value = args[++i];
      if (value === undefined) return ipErr(INCOMPLETE);
      if (a === 'master') {
        const found = net.interfaces.find((x) => x.name === value);
        if (found === undefined)
          return ipErr(`Error: argument "${value}" is wrong: Device does not exist\n\n`);
        master = found;
      } else if (value.endsWith('_slave')) slaveKind = value.slice(0, -'_slave'.length);
      else kind = value;
    } else if (a === 'nomaster') master = 'none';
    else if (
      ['to', 'scope', 'label', 'group', 'vrf', 'proto'].includes(a) ||
      FLAG_WORDS.has(a.replace(/^-/, ''))
    ) {
      return ipNotModelled(`${a} …`);
    } else {
      const name = a === 'dev' ? args[++i] : a;
      if (name === undefined) return ipErr(INCOMPLETE);
      if (dev !== undefined)
        return ipErr(`Error: either "dev" is duplicate, or "${name}" is a garbage.\n`);
      dev = name;
    }
  }
  let ifaces = [...net.interfaces];
  if (dev !== undefined) {
    // A veth is found by its plain name; `@ifN` is only how it is printed.
    const found = ifaces.find((i) => i.name === dev);
    if (found === undefined) return ipErr(`Device "${dev}" does not exist.\n`, 1);
    ifaces = [found];
  }
  const masterOf = (i: NetInterface): NetInterface | undefined =>
    i.master === undefined ? undefined : net.interfaces.find((x) => x.name === i.master);
  return ifaces.filter(
    (i) =>
      (!upOnly || isAdminUp(i)) &&
      (kind === undefined || linkKind(i) === kind) &&
      (slaveKind === undefined ||
        (masterOf(i) !== undefined && linkKind(masterOf(i)!) === slaveKind)) &&
      (master === undefined ||
        (master === 'none' ? i.master === undefined : i.master === master.name)),
  );
}

/**
 * `ip route show [table ID] [dev DEV]` (iproute2 6.1 iproute_list_flush_or_save()). Tables are
 * named as /etc/iproute2/rt_tables names them (local 255, main 254, default 253, unspec 0) or by
 * number; `all` (or 0) is every table. With a table given and no -4/-6, iproute2 asks for IPv4
 * only; `all` without a family dumps both, IPv4 first, and marks each route not in main with
 * ` table local`. A table the host does not have makes the kernel's strict dump fail.
 */
import type { Family } from './ip-views';
import { ipv6Links, renderRoutes, renderRoutes6 } from './ip-views';
import { renderLocalRoutes, renderLocalRoutes6 } from './ip-local-table';
import { INCOMPLETE, ipErr, ipNotModelled, type IpResult } from './ip-select';
import type { HostNetwork } from './topology';

const TABLE_NAMES: Readonly<Record<string, number>> = {
  local: 255,
  main: 254,
  default: 253,
  unspec: 0,
};

/** rtnl_rttable_a2n(): a name from rt_tables, or a number as strtoul reads it (base 0). */
function tableId(word: string): number | undefined {
  if (Object.hasOwn(TABLE_NAMES, word)) return TABLE_NAMES[word];
  if (!/^(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.test(word)) return undefined;
  const n = Number(word.startsWith('0') && !/^0[xX]/.test(word) ? parseInt(word, 8) : word);
  return n <= 0xffffffff ? n : undefined;
}

export function ipRouteShow(net: HostNetwork, family: Family, args: readonly string[]): IpResult {
  let dev: string | undefined;
  let table = 254;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === 'dev' || a === 'oif') {
      dev = args[++i];
      if (dev === undefined) return ipErr(INCOMPLETE);
      if (!net.interfaces.some((x) => x.name === dev))
        return ipErr(`Cannot find device "${dev}"\n`, 1);
    } else if (a.length > 0 && 'table'.startsWith(a)) {
      const word = args[++i];
      if (word === undefined) return ipErr(INCOMPLETE);
      const id = word === 'all' ? 0 : tableId(word);
      if (id === undefined) {
        if (word === 'cache') return ipNotModelled('route show table cache');
        return ipErr(`Error: argument "${word}" is wrong: table id value is invalid\n\n`);
      }
      table = id;
    } else return ipNotModelled(`route show ${args.join(' ')}`);
  }
  const v4 = family !== 'inet6';
  const v6 = family === 'inet6' || (family === 'all' && table === 0);
  if (table !== 0 && table !== 254 && table !== 255) {
    const which = v4 ? 'ipv4' : 'ipv6';
    return {
      stdout: '',
      stderr: `Error: ${which}: FIB table does not exist.\nDump terminated\n`,
      exitCode: 2,
    };
  }
  let out = '';
  if (v4) {
    if (table !== 255) out += renderRoutes(net, dev);
    if (table !== 254) out += renderLocalRoutes(net, dev, table === 0);
  }
  if (v6) {
    if (table !== 255) out += renderRoutes6(net, dev);
    if (table !== 254) out += renderLocalRoutes6(net, ipv6Links(net), dev, table === 0);
  }
  return { stdout: out, stderr: '', exitCode: 0 };
}

/**
 * The `ip` command (iproute2 6.1.0) over a host of the lab topology: `ip [-4|-6] [-br] addr|link|
 * route [show …]`, `ip route get ADDR` and `ip neigh [show …]` (./ip-neigh.ts). Argument matching follows ip.c / ipaddress.c /
 * iproute.c: objects and verbs match by prefix in the table order iproute2 uses (`ip a`, `ip r`,
 * `ip l s`), and errors are iproute2's own words and exit statuses (255 for usage errors, which
 * iproute2 reports with exit(-1)). Changing commands (`ip addr add`, `ip link set`, `ip route
 * add`) are not modelled: the lab says so instead of pretending.
 */
import { ipIsValid } from '../model/ip';
import type { Family } from './ip-views';
import {
  oneline,
  renderAddr,
  renderAddrOneline,
  renderBriefAddr,
  renderBriefLink,
  renderLink,
  renderRouteGet,
} from './ip-views';
import {
  ipErr as err,
  ipNotModelled as notModelled,
  selectInterfaces,
  type IpResult,
} from './ip-select';
import { ipRouteShow } from './ip-route-show';
import { ipNeigh, type NeighbourRow } from './ip-neigh';
import type { HostNetwork } from './topology';

export type { IpResult } from './ip-select';

const USAGE = `Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }
       ip [ -force ] -batch filename
where  OBJECT := { address | addrlabel | amt | fou | help | ila | ioam | l2tp |
                   link | macsec | maddress | monitor | mptcp | mroute | mrule |
                   neighbor | neighbour | netconf | netns | nexthop | ntable |
                   ntbl | route | rule | sr | tap | tcpmetrics |
                   token | tunnel | tuntap | vrf | xfrm }
       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -r[esolve] |
                    -h[uman-readable] | -iec | -j[son] | -p[retty] |
                    -f[amily] { inet | inet6 | mpls | bridge | link } |
                    -4 | -6 | -M | -B | -0 |
                    -l[oops] { maximum-addr-flush-attempts } | -br[ief] |
                    -o[neline] | -t[imestamp] | -ts[hort] | -b[atch] [filename] |
                    -rc[vbuf] [size] | -n[etns] name | -N[umeric] | -a[ll] |
                    -c[olor]}
`;

/** Objects in ip.c's table order: the first whose name starts with the typed word wins. */
const OBJECTS = [
  'address',
  'addrlabel',
  'maddress',
  'route',
  'rule',
  'neighbor',
  'neighbour',
  'ntable',
  'ntbl',
  'link',
  'l2tp',
  'fou',
  'ila',
  'macsec',
  'tunnel',
  'tunl',
  'tuntap',
  'tap',
  'token',
  'tcpmetrics',
  'tcp_metrics',
  'monitor',
  'xfrm',
  'mroute',
  'mrule',
  'netns',
  'netconf',
  'vrf',
  'sr',
  'nexthop',
  'mptcp',
  'ioam',
  'help',
  'stats',
];

/** iproute2's matches(): the typed word is a prefix of the keyword. */
const matches = (typed: string, keyword: string): boolean =>
  typed.length > 0 && keyword.startsWith(typed);

const out = (stdout: string): IpResult => ({ stdout, stderr: '', exitCode: 0 });

interface Options {
  family: Family;
  brief: boolean;
  /** -o[neline]: each record on one line (ignored under -brief, as iproute2 does). */
  oneline: boolean;
}

function ipAddr(net: HostNetwork, opts: Options, args: readonly string[]): IpResult {
  const verb = args[0];
  let rest = args.slice(1);
  if (verb === undefined) rest = [];
  else if (
    matches(verb, 'add') ||
    matches(verb, 'change') ||
    verb === 'chg' ||
    matches(verb, 'replace') ||
    matches(verb, 'delete')
  ) {
    return notModelled(`address ${verb}`);
  } else if (!(matches(verb, 'list') || matches(verb, 'show') || matches(verb, 'lst'))) {
    if (
      matches(verb, 'flush') ||
      matches(verb, 'save') ||
      matches(verb, 'restore') ||
      matches(verb, 'showdump')
    )
      return notModelled(`address ${verb}`);
    return err(`Command "${verb}" is unknown, try "ip address help".\n`);
  }
  const ifaces = selectInterfaces(net, rest);
  if (!Array.isArray(ifaces)) return ifaces;
  if (opts.brief) return out(renderBriefAddr(ifaces, opts.family));
  if (opts.oneline) return out(renderAddrOneline(ifaces, opts.family));
  return out(renderAddr(ifaces, opts.family, net.interfaces));
}

function ipLink(net: HostNetwork, opts: Options, args: readonly string[]): IpResult {
  const verb = args[0];
  // iplink.c tries add, then set/change, before show: `ip l s lo` is `ip link set lo`.
  if (
    verb !== undefined &&
    !matches(verb, 'add') &&
    (matches(verb, 'set') || matches(verb, 'change'))
  ) {
    const rest = args.slice(1).filter((a) => a !== 'dev');
    const name = rest[0];
    if (name === undefined) return err('Not enough information: "dev" argument is required.\n');
    if (!net.interfaces.some((i) => i.name === name))
      return err(`Cannot find device "${name}"\n`, 1);
    if (rest.length === 1) return out(''); // nothing to change: iproute2 succeeds silently
    return notModelled(`link ${args.join(' ')}`);
  }
  if (
    verb !== undefined &&
    !(matches(verb, 'show') || matches(verb, 'list') || matches(verb, 'lst'))
  ) {
    if (['add', 'replace', 'delete'].some((k) => matches(verb, k)))
      return notModelled(`link ${verb}`);
    return err(`Command "${verb}" is unknown, try "ip link help".\n`);
  }
  const ifaces = selectInterfaces(net, args.slice(1));
  if (!Array.isArray(ifaces)) return ifaces;
  if (opts.brief) return out(renderBriefLink(ifaces));
  if (opts.oneline) return out(ifaces.map((i) => oneline(renderLink([i]))).join(''));
  return out(renderLink(ifaces));
}

function ipRoute(net: HostNetwork, opts: Options, args: readonly string[]): IpResult {
  const verb = args[0];
  if (verb !== undefined && matches(verb, 'get')) {
    // iproute2 6.1 iproute_get(): selectors and their values checked in order, as it does.
    let selector: string | undefined;
    for (let i = 1; i < args.length; i++) {
      const a = args[i]!;
      if (!['from', 'iif', 'oif', 'mark', 'dev'].includes(a)) continue;
      const value = args[++i];
      if (value === undefined) return err('Command line is not complete. Try option "help"\n');
      if (a === 'from' && !ipIsValid(value.replace(/\/32$/, '')))
        return err(`Error: inet prefix is expected rather than "${value}".\n`, 1);
      if (a !== 'from' && a !== 'mark' && !net.interfaces.some((x) => x.name === value))
        return err(`Cannot find device "${value}"\n`, 1);
      if (a === 'mark' && !/^(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.test(value))
        return err(`Error: argument "${value}" is wrong: invalid mark value\n`);
      selector ??= a;
    }
    const dst = args
      .slice(1)
      .find(
        (a, i, all) => i === 0 || !['from', 'iif', 'oif', 'mark', 'dev'].includes(all[i - 1] ?? ''),
      );
    if (dst === undefined) return err('need at least a destination address\n', 1);
    const addr = dst === 'to' ? (args[2] ?? '') : dst;
    if (!ipIsValid(addr))
      return err(`Error: any valid prefix is expected rather than "${addr}".\n`, 1);
    // The lab answers for a packet the host sends itself; a source, an input or output
    // device or a mark would change the lookup (policy routing, forwarding).
    if (selector !== undefined) return notModelled(`route get … ${selector} …`);
    const got = renderRouteGet(net, addr);
    return opts.oneline && got.stdout !== '' ? { ...got, stdout: oneline(got.stdout) } : got;
  }
  if (
    verb !== undefined &&
    !(matches(verb, 'list') || matches(verb, 'show') || matches(verb, 'lst'))
  ) {
    if (
      [
        'add',
        'change',
        'replace',
        'prepend',
        'append',
        'test',
        'delete',
        'flush',
        'restore',
        'save',
        'showdump',
      ].some((k) => matches(verb, k))
    ) {
      return notModelled(`route ${verb}`);
    }
    return err(`Command "${verb}" is unknown, try "ip route help".\n`);
  }
  return ipRouteShow(net, opts.family, args.slice(1));
}

/**
 * `ip rule [list|show]`: the kernel's three default rules (fib_default_rules_init()); the lab's
 * hosts have no policy routing of their own.
 */
function ipRule(args: readonly string[]): IpResult {
  const verb = args[0];
  if (
    verb !== undefined &&
    !(matches(verb, 'list') || matches(verb, 'show') || matches(verb, 'lst'))
  ) {
    // iprule.c do_iprule(): its other verbs change or dump rules; any other word is refused.
    if (['save', 'restore', 'add', 'delete', 'flush', 'help'].some((k) => matches(verb, k)))
      return notModelled(`rule ${verb}`);
    return err(`Command "${verb}" is unknown, try "ip rule help".\n`);
  }
  if (args.length > 1) return notModelled(`rule ${args.join(' ')}`);
  return out(
    '0:\tfrom all lookup local\n32766:\tfrom all lookup main\n32767:\tfrom all lookup default\n',
  );
}

/**
 * Runs `ip` with argv (without the leading `ip`) against one host's network; `neighbours` reads
 * the host's neighbour entries (for `ip neigh`) when they are asked for.
 */
export function runIp(
  net: HostNetwork,
  args: readonly string[],
  neighbours: () => readonly NeighbourRow[] = () => [],
): IpResult {
  const opts: Options = { family: 'all', brief: false, oneline: false };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] ?? '';
    // ip.c: `--` ends the options (the next word is the object, whatever it looks like);
    // `--opt` is read as `-opt`.
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    const o = a.replace(/^--?/, '-');
    if (o === '-4') opts.family = 'inet';
    else if (o === '-6') opts.family = 'inet6';
    else if (o.length >= 3 && '-brief'.startsWith(o)) opts.brief = true;
    else if (o.length >= 2 && '-oneline'.startsWith(o)) opts.oneline = true;
    else if (o === '-V' || (o.length >= 2 && '-Version'.startsWith(o)))
      return out('ip utility, iproute2-6.1.0, libbpf 1.1.2\n');
    else if (o === '-c' || '-color'.startsWith(o) || o.startsWith('-color='))
      continue; // the lab's terminal shows no colours
    else if (
      ['-d', '-s', '-j', '-p', '-r', '-h', '-n', '-N', '-a', '-t', '-f'].some((s) =>
        o.startsWith(s),
      )
    ) {
      return notModelled(`${a} …`);
    } else return err(`Option "${a}" is unknown, try "ip -help".\n`);
  }
  const objectWord = args[i];
  if (objectWord === undefined) return err(USAGE);
  const object = OBJECTS.find((o) => matches(objectWord, o));
  const rest = args.slice(i + 1);
  if (object === 'address') return ipAddr(net, opts, rest);
  if (object === 'link') return ipLink(net, opts, rest);
  if (object === 'route') return ipRoute(net, opts, rest);
  if (object === 'rule') return ipRule(rest);
  if (object === 'neighbor' || object === 'neighbour')
    return ipNeigh(net, opts.family, neighbours(), rest);
  if (object === 'help') return err(USAGE);
  if (object !== undefined) return notModelled(object);
  return err(`Object "${objectWord}" is unknown, try "ip help".\n`, 1);
}

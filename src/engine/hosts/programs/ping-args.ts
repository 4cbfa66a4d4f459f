/**
 * iputils ping's command line (Debian iputils-ping 20221126), the options the lab models: `-c`,
 * `-i`, `-W`, `-w`, `-q`, `-n`, `-s`, `-4`. Errors are ping's own (checked against the real
 * tool); what the lab does not model says so in one `lab:` line.
 */
import { ipIsValid } from '../../model/ip';
import type { Parsed } from './args';
import type { PingOptions } from './types';
import { labNote } from '../../model/lab-notes';

const USAGE = `
Usage
  ping [options] <destination>

Options:
  <destination>      dns name or ip address
  -a                 use audible ping
  -A                 use adaptive ping
  -B                 sticky source address
  -c <count>         stop after <count> replies
  -C                 call connect() syscall on socket creation
  -D                 print timestamps
  -d                 use SO_DEBUG socket option
  -e <identifier>    define identifier for ping session, default is random for
                     SOCK_RAW and kernel defined for SOCK_DGRAM
                     Imply using SOCK_RAW (for IPv4 only for identifier 0)
  -f                 flood ping
  -h                 print help and exit
  -I <interface>     either interface name or address
  -i <interval>      seconds between sending each packet
  -L                 suppress loopback of multicast packets
  -l <preload>       send <preload> number of packages while waiting replies
  -m <mark>          tag the packets going out
  -M <pmtud opt>     define mtu discovery, can be one of <do|dont|want>
  -n                 no dns name resolution
  -O                 report outstanding replies
  -p <pattern>       contents of padding byte
  -q                 quiet output
  -Q <tclass>        use quality of service <tclass> bits
  -s <size>          use <size> as number of data bytes to be sent
  -S <size>          use <size> as SO_SNDBUF socket option value
  -t <ttl>           define time to live
  -U                 print user-to-user latency
  -v                 verbose output
  -V                 print version and exit
  -w <deadline>      reply wait <deadline> in seconds
  -W <timeout>       time to wait for response

IPv4 options:
  -4                 use IPv4
  -b                 allow pinging broadcast
  -R                 record route
  -T <timestamp>     define timestamp, can be one of <tsonly|tsandaddr|tsprespec>

IPv6 options:
  -6                 use IPv6
  -F <flowlabel>     define flow label, default is random
  -N <nodeinfo opt>  use icmp6 node info query, try <help> as argument

For more details see ping(8).
`;

/** Options that take an argument (getopt's optstring), whether the lab models them or not. */
const WITH_ARG = new Set(['c', 'e', 'I', 'i', 'l', 'm', 'M', 'p', 'Q', 's', 'S', 't', 'w', 'W', 'T', 'F', 'N']); // prettier-ignore
const FLAGS = new Set(['a', 'A', 'B', 'C', 'D', 'd', 'f', 'h', 'L', 'n', 'O', 'q', 'U', 'v', 'V', '4', 'b', 'R', '6']); // prettier-ignore
const MODELLED = new Set(['c', 'i', 'W', 'w', 'q', 'n', 's', '4']);

function fail(stderr: string, exitCode: number): Parsed<PingOptions> {
  return { ok: false, stderr, exitCode };
}

/** iputils strtol_or_err(): a whole number in [min, max]. */
function count(arg: string, min: number, max: string): number | string {
  if (!/^[+-]?\d+$/.test(arg)) return `ping: invalid argument: '${arg}'\n`;
  const n = Number(arg);
  if (n < min || n > Number(max)) return `ping: invalid argument: '${arg}': out of range: ${min} <= value <= ${max}\n`; // prettier-ignore
  return n;
}

/** A seconds value (strtod); garbage is warned about, as ping 20221126 does. */
function secondsMs(arg: string): { ms: number; warn: string } {
  const m = /^\s*[+-]?(\d+\.?\d*|\.\d+)/.exec(arg);
  const warn =
    m !== null && m[0].length === arg.length
      ? ''
      : `ping: option argument contains garbage: ${arg.slice(m?.[0].length ?? 0)}\nping: this will become fatal error in the future\n`; // prettier-ignore
  return { ms: Math.round(Number(m?.[0] ?? 0) * 1000), warn };
}

export function parsePingArgs(argv: readonly string[]): Parsed<PingOptions> & { warn?: string } {
  let countN: number | undefined;
  let intervalMs = 1000;
  let timeoutMs = 10_000;
  let deadlineMs: number | undefined;
  let quiet = false;
  let numeric = false;
  let size = 56;
  let warn = '';
  const rest: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--' || !a.startsWith('-') || a === '-') {
      for (const operand of a === '--' ? argv.slice(i + 1) : [a]) rest.push(operand);
      if (a === '--') break;
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const o = a[j]!;
      if (!WITH_ARG.has(o) && !FLAGS.has(o)) return fail(`ping: invalid option -- '${o}'\n${USAGE}`, 2); // prettier-ignore
      if (!MODELLED.has(o)) return fail(labNote('tool.option', { tool: 'ping', option: o }), 2);
      if (!WITH_ARG.has(o)) {
        if (o === 'q') quiet = true;
        if (o === 'n') numeric = true;
        continue;
      }
      const arg = j + 1 < a.length ? a.slice(j + 1) : argv[++i];
      if (arg === undefined) return fail(`ping: option requires an argument -- '${o}'\n${USAGE}`, 2); // prettier-ignore
      if (o === 'c' || o === 's') {
        const n = count(arg, o === 'c' ? 1 : 0, o === 'c' ? '9223372036854775807' : '2147483647');
        if (typeof n === 'string') return fail(n, 1);
        if (o === 'c') countN = n;
        else size = n;
      } else if (o === 'w') {
        const n = count(arg, 0, '2147483647');
        if (typeof n === 'string') return fail(n, 1);
        deadlineMs = n * 1000;
      } else {
        const s = secondsMs(arg);
        warn += s.warn;
        if (o === 'i') intervalMs = s.ms;
        else timeoutMs = s.ms;
      }
      break;
    }
  }
  const host = rest[0];
  if (host === undefined) return fail('ping: usage error: Destination address required\n', 1);
  if (intervalMs < 200) return fail(labNote('ping.interval'), 2); // prettier-ignore
  if (countN === undefined && deadlineMs === undefined) return fail(labNote('ping.unbounded'), 2);
  // A name's replies would be printed with their reverse-DNS names (PTR), which the lab's
  // CoreDNS does not answer.
  if (!ipIsValid(host) && !numeric) return fail(labNote('ping.name'), 2); // prettier-ignore
  const opts: PingOptions = { host, count: countN, intervalMs, timeoutMs, deadlineMs, quiet, size };
  return warn === '' ? { ok: true, opts } : { ok: true, opts, warn };
}

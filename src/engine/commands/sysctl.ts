/**
 * procps-ng 4.0.2 `sysctl` over a node's sysctls: getopt_long's options (in any order among
 * the keys, combined short ones, unique prefixes of long ones), and its answers to bad command
 * lines: an unknown option prints getopt's complaint on stderr and the usage on stdout, with
 * exit status 0 (checked against the real sysctl). Options that read other sources (-p, -r,
 * -a…) say what the lab has instead.
 */
import type { NodeKernelControls } from './registry';
import type { CommandContext, CommandResult } from './registry';
import { intSysctlValue } from './sysctl-value';
import { labNote } from '../model/lab-notes';

/** `sysctl -h`, on stdout. */
const USAGE =
  [
    '',
    'Usage:',
    ' sysctl [options] [variable[=value] ...]',
    '',
    'Options:',
    '  -a, --all            display all variables',
    '  -A                   alias of -a',
    '  -X                   alias of -a',
    '      --deprecated     include deprecated parameters to listing',
    '      --dry-run        Print the key and values but do not write',
    '  -b, --binary         print value without new line',
    '  -e, --ignore         ignore unknown variables errors',
    '  -N, --names          print variable names without values',
    '  -n, --values         print only values of the given variable(s)',
    '  -p, --load[=<file>]  read values from file',
    '  -f                   alias of -p',
    '      --system         read values from all system directories',
    '  -r, --pattern <expression>',
    '                       select setting that match expression',
    '  -q, --quiet          do not echo variable set',
    '  -w, --write          enable writing a value to variable',
    '  -o                   does nothing',
    '  -x                   does nothing',
    '  -d                   alias of -h',
    '',
    ' -h, --help     display this help and exit',
    ' -V, --version  output version information and exit',
    '',
    'For more details see sysctl(8).',
  ].join('\n') + '\n';

const VERSION = 'sysctl from procps-ng 4.0.2\n';

/** Long options, each with the short letter it sets ('' for those without one). */
const LONG_OPTIONS: Readonly<Record<string, string>> = {
  all: 'a',
  binary: 'b',
  deprecated: '',
  'dry-run': '',
  help: 'h',
  ignore: 'e',
  load: 'p',
  names: 'N',
  pattern: 'r',
  quiet: 'q',
  system: '',
  values: 'n',
  version: 'V',
  write: 'w',
};

const SHORT = 'aAXbeNnpfrqwoxdhV';

/**
 * Keys a node's kernel has (each checked to exist in a network namespace) that the lab does
 * not model: they get a lab note, not procps' "cannot stat", which would claim they do not
 * exist.
 */
const REAL_KEYS = new Set([
  'net.netfilter.nf_conntrack_max',
  'net.netfilter.nf_conntrack_buckets',
  'net.ipv4.conf.all.route_localnet',
  'net.ipv4.conf.all.rp_filter',
  'net.ipv4.conf.all.forwarding',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_retries2',
  'net.ipv4.tcp_syn_retries',
  'net.bridge.bridge-nf-call-ip6tables',
  'net.bridge.bridge-nf-call-arptables',
  'net.core.somaxconn',
]);

export { REAL_KEYS as SYSCTL_REAL_KEYS };

/** The modelled keys for a lab note: conntrack's thirteen timeouts as one pattern. */
function modelledKeysText(node: NodeKernelControls): string {
  const keys = modelledKeys(node);
  const timeout = /^net\.netfilter\.nf_conntrack_\w*timeout/;
  const first = keys.findIndex((k) => timeout.test(k));
  const rest = keys.filter((k) => !timeout.test(k));
  if (first >= 0) rest.splice(first, 0, 'net.netfilter.nf_conntrack_*timeout*');
  return rest.join(', ');
}

function modelledKeys(node: NodeKernelControls): string[] {
  return node.sysctlKeys().sort();
}

interface Flags {
  write: boolean;
  values: boolean;
  names: boolean;
  binary: boolean;
  ignore: boolean;
  quiet: boolean;
  all: boolean;
}

type Parsed =
  | { readonly kind: 'run'; readonly flags: Flags; readonly keys: string[] }
  | { readonly kind: 'done'; readonly result: CommandResult };

const usageAfter = (complaint: string): Parsed => ({
  kind: 'done',
  result: { stdout: USAGE, stderr: complaint, exitCode: 0 },
});

function parse(args: readonly string[], node: NodeKernelControls): Parsed {
  const flags: Flags = { write: false, values: false, names: false, binary: false, ignore: false, quiet: false, all: false }; // prettier-ignore
  const keys: string[] = [];
  const set = (letter: string): Parsed | undefined => {
    if ('aAX'.includes(letter)) flags.all = true;
    else if (letter === 'b') flags.binary = true;
    else if (letter === 'e') flags.ignore = true;
    else if (letter === 'N') flags.names = true;
    else if (letter === 'n') flags.values = true;
    else if (letter === 'q') flags.quiet = true;
    else if (letter === 'w') flags.write = true;
    else if ('hd'.includes(letter)) return { kind: 'done', result: { stdout: USAGE, stderr: '', exitCode: 0 } }; // prettier-ignore
    else if (letter === 'V') return { kind: 'done', result: { stdout: VERSION, stderr: '', exitCode: 0 } }; // prettier-ignore
    return undefined;
  };
  const notModelled = (what: string): Parsed => ({
    kind: 'done',
    result: {
      stdout: '',
      stderr: labNote('sysctl.option', { option: what, keys: modelledKeysText(node) }),
      exitCode: 1,
    },
  });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      for (const key of args.slice(i + 1)) keys.push(key);
      break;
    }
    if (arg.startsWith('--')) {
      const typed = arg.slice(2).split('=')[0]!;
      const names = Object.keys(LONG_OPTIONS);
      const exact = names.includes(typed) ? [typed] : names.filter((n) => n.startsWith(typed));
      if (exact.length === 0) return usageAfter(`sysctl: unrecognized option '${arg}'\n`);
      if (exact.length > 1) {
        const list = exact.map((n) => `'--${n}'`).join(' ');
        return usageAfter(`sysctl: option '--${typed}' is ambiguous; possibilities: ${list}\n`);
      }
      const name = exact[0]!;
      const letter = LONG_OPTIONS[name]!;
      // --load, --pattern (other sources of keys) and the three without a letter.
      if (letter === '' || letter === 'p' || letter === 'r') return notModelled(`--${name}`);
      const done = set(letter);
      if (done !== undefined) return done;
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        if (!SHORT.includes(letter)) return usageAfter(`sysctl: invalid option -- '${letter}'\n`);
        if ('pfr'.includes(letter)) {
          // -r needs its pattern, there or as the next word.
          if (letter === 'r' && j === arg.length - 1 && args[i + 1] === undefined)
            return usageAfter("sysctl: option requires an argument -- 'r'\n");
          return notModelled(`-${letter}`);
        }
        const done = set(letter);
        if (done !== undefined) return done;
      }
      continue;
    }
    keys.push(arg);
  }
  return { kind: 'run', flags, keys };
}

/** procps `sysctl [options] [KEY[=VALUE]…]` over the node's sysctls. */
export function sysctl(ctx: CommandContext, argv: string[]): CommandResult {
  const node = ctx.world.nodeKernel();
  // A pod's or client's namespace has its own net.* sysctls, which the lab does not model
  // (saying "cannot stat" would claim they do not exist).
  if (node === undefined) return { stdout: '', stderr: labNote('sysctl.node-only'), exitCode: 1 };
  const parsed = parse(argv.slice(1), node);
  if (parsed.kind === 'done') return parsed.result;
  const { flags, keys } = parsed;
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  const show = (key: string, value: string) => {
    if (flags.binary) stdout += value;
    else if (flags.names) stdout += `${key}\n`;
    else if (flags.values) stdout += `${value}\n`;
    else stdout += `${key} = ${value}\n`;
  };
  if (flags.all) {
    for (const key of modelledKeys(node)) show(key, node.sysctl(key) ?? '');
    stderr += labNote('sysctl.all');
  }
  for (const arg of keys) {
    const eq = arg.indexOf('=');
    if (flags.write && eq < 0) {
      stderr += `sysctl: command line(0): invalid syntax, continuing...\n`;
      exitCode = 1;
      continue;
    }
    const key = eq < 0 ? arg : arg.slice(0, eq);
    const current = node.sysctl(key);
    if (current === undefined) {
      if (REAL_KEYS.has(key)) {
        stderr += labNote('sysctl.key', { key, keys: modelledKeysText(node) });
        exitCode = 1;
      } else if (!flags.ignore) {
        stderr += `sysctl: cannot stat /proc/sys/${key.replace(/\./g, '/')}: No such file or directory\n`;
        exitCode = 1;
      }
      continue;
    }
    let value = current;
    if (eq >= 0 && node.sysctlReadOnly?.(key) === true) {
      // procps 4.0.2 sees the file is not writable, warns with errno (EINVAL) and goes on
      // without changing its exit status (seen on the kernel, -q or not).
      stderr += `sysctl: setting key "${key}": Invalid argument\n`;
      continue;
    }
    if (eq >= 0) {
      // procps strips the value's blanks at both ends (and echoes what it wrote).
      value = arg.slice(eq + 1).replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');
      // The lab's sysctls are integers (their values say so); others keep the text.
      const stored = /^-?\d+$/.test(current) ? intSysctlValue(key, value) : value;
      if (stored === undefined) {
        stderr += `sysctl: setting key "${key}": Invalid argument\n`;
        exitCode = 1;
        continue;
      }
      node.setSysctl(key, stored);
      if (flags.quiet) continue;
    }
    show(key, value);
  }
  return { stdout, stderr, exitCode };
}

/**
 * `ip neigh` (`ip neighbor`, `ip neighbour`) of iproute2 6.1 over the neighbour entries the lab
 * keeps (datapath/arp.ts, datapath/pod-arp.ts), as ipneigh.c's do_ipneigh(),
 * do_show_or_flush() and print_neigh() read and print them:
 *
 * - verbs match by prefix in do_ipneigh()'s order (add, change, replace, delete, get, show,
 *   flush), so `ip n d` is delete; only show (list, lst) is run, the others change the table;
 * - `show` prints `ADDR dev DEV [lladdr MAC] STATE ` (the trailing space is iproute2's), without
 *   `dev DEV` under a `dev` filter; the default filter (0xFF & ~NUD_NOARP) hides NOARP and
 *   NONE entries; `nud STATE` selects states, `nud all` every one; `[to] PREFIX` selects
 *   addresses;
 * - the kernel fills in NDA_LLADDR only for NUD_VALID states (neigh_fill_info()), so an
 *   INCOMPLETE or FAILED entry prints no `lladdr`;
 * - the kernel dumps entries in its hash table's order, which a random hash_rnd per namespace
 *   decides; the lab lists them in the order they were made (the note says so).
 */
import { labNote } from '../model/lab-notes';
import { cidrContains, cidrParse, ipIsValid } from '../model/ip';
import type { Family } from './ip-views';
import { ipErr as err, ipNotModelled as notModelled, INCOMPLETE, type IpResult } from './ip-select';
import type { HostNetwork } from './topology';

/** The NUD states (include/uapi/linux/neighbour.h) an entry of the lab can be in. */
export type NeighbourState =
  'NONE' | 'INCOMPLETE' | 'REACHABLE' | 'STALE' | 'DELAY' | 'PROBE' | 'FAILED' | 'PERMANENT';

/** One neighbour entry of a host, as RTM_NEWNEIGH reports it. */
export interface NeighbourRow {
  readonly dst: string;
  readonly dev: string;
  readonly state: NeighbourState;
  /** The cached link-layer address, if the entry ever had one. */
  readonly lladdr: string | undefined;
}

/** NUD_* bits, as `nud` filters them. */
const NUD_BITS: Record<NeighbourState, number> = {
  NONE: 0x00,
  INCOMPLETE: 0x01,
  REACHABLE: 0x02,
  STALE: 0x04,
  DELAY: 0x08,
  PROBE: 0x10,
  FAILED: 0x20,
  PERMANENT: 0x80,
};
const NUD_NOARP = 0x40;
/** NUD_VALID: the states whose entry carries its lladdr in a dump. */
const NUD_VALID = 0x80 | 0x40 | 0x02 | 0x10 | 0x04 | 0x08;

/** iproute2's matches(): the typed word is a prefix of the keyword. */
const matches = (typed: string, keyword: string): boolean =>
  typed.length > 0 && keyword.startsWith(typed);

/**
 * ipneigh.c nud_state_a2n(): permanent, reachable and failed match by prefix, the others
 * exactly; `all` is every state. Undefined for a word it refuses.
 */
function nudBits(word: string): number | 'unmodelled' | undefined {
  if (word === 'all') return ~0;
  if (matches(word, 'permanent')) return NUD_BITS.PERMANENT;
  if (matches(word, 'reachable')) return NUD_BITS.REACHABLE;
  if (word === 'noarp') return NUD_NOARP;
  if (word === 'none') return 0x100; // "if (state == 0) state = 0x100": NONE entries
  if (word === 'stale') return NUD_BITS.STALE;
  if (word === 'incomplete') return NUD_BITS.INCOMPLETE;
  if (word === 'delay') return NUD_BITS.DELAY;
  if (word === 'probe') return NUD_BITS.PROBE;
  if (matches(word, 'failed')) return NUD_BITS.FAILED;
  // A number is taken as the state bits themselves; the lab does not read them.
  if (/^(?:0[xX][0-9a-fA-F]+|[0-9]+)$/.test(word)) return 'unmodelled';
  return undefined;
}

interface ShowFilter {
  dev: string | undefined;
  states: number;
  prefix: { readonly network: string; readonly prefix: number } | 'ipv6' | undefined;
}

/** An IPv6 address or prefix, roughly (hex groups and colons); enough to tell it from IPv4. */
const IPV6_PREFIX = /^[0-9a-fA-F]*:[0-9a-fA-F:.]*(?:\/(?:12[0-8]|1[01][0-9]|[1-9]?[0-9]))?$/;

function readShowArgs(
  net: HostNetwork,
  family: Family,
  args: readonly string[],
): ShowFilter | IpResult {
  const filter: ShowFilter = { dev: undefined, states: 0xff & ~NUD_NOARP, prefix: undefined };
  let stateGiven = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === 'dev' || a === 'nud' || a === 'to' || a === 'master' || a === 'vrf') {
      if (args[i + 1] === undefined) return err(INCOMPLETE);
    }
    if (a === 'dev') {
      const dev = args[++i]!;
      if (filter.dev !== undefined)
        return err(`Error: duplicate "dev": "${dev}" is the second value.\n`);
      filter.dev = dev;
    } else if (a === 'nud') {
      const word = args[++i]!;
      const bits = nudBits(word);
      if (bits === undefined) return err(`Error: argument "${word}" is wrong: nud state is bad\n`);
      if (bits === 'unmodelled') return notModelled(`neigh show nud ${word}`);
      if (!stateGiven) filter.states = 0;
      stateGiven = true;
      filter.states |= bits;
    } else if (
      ['master', 'vrf', 'unused', 'proxy', 'nomaster'].includes(a) ||
      matches(a, 'protocol')
    ) {
      return notModelled(`neigh show ${a}`);
    } else {
      const word = a === 'to' ? args[++i]! : a;
      if (matches(word, 'help')) return notModelled('neigh help');
      // get_prefix() in the family `-4`/`-6` asked for; the last prefix given wins.
      if (IPV6_PREFIX.test(word) && family !== 'inet') {
        filter.prefix = 'ipv6'; // the lab's entries are all IPv4: it selects none
        continue;
      }
      const prefix = ipIsValid(word)
        ? { network: word, prefix: 32 }
        : cidrParse(word, { allowHostBits: true });
      if (prefix === undefined || family === 'inet6') {
        const kind = family === 'all' ? 'any valid' : family;
        return err(`Error: ${kind} prefix is expected rather than "${word}".\n`, 1);
      }
      filter.prefix = prefix;
    }
  }
  if (filter.dev !== undefined && !net.interfaces.some((x) => x.name === filter.dev))
    return err(`Cannot find device "${filter.dev}"\n`, 1);
  return filter;
}

/** print_neigh()'s filter test: a state outside the filter, or NONE unless `nud none`/`all`. */
function shown(row: NeighbourRow, filter: ShowFilter): boolean {
  const bits = NUD_BITS[row.state];
  if ((filter.states & bits) === 0 && (bits !== 0 || (filter.states & 0x100) === 0)) return false;
  if (filter.dev !== undefined && row.dev !== filter.dev) return false;
  if (filter.prefix === 'ipv6') return false;
  if (filter.prefix !== undefined) {
    const cidr = cidrParse(`${filter.prefix.network}/${filter.prefix.prefix}`, {
      allowHostBits: true,
    });
    if (cidr === undefined || !cidrContains(cidr, row.dst)) return false;
  }
  return true;
}

function renderRow(row: NeighbourRow, filter: ShowFilter): string {
  let line = `${row.dst} `;
  if (filter.dev === undefined) line += `dev ${row.dev} `;
  if (row.lladdr !== undefined && (NUD_BITS[row.state] & NUD_VALID) !== 0)
    line += `lladdr ${row.lladdr} `;
  if (row.state !== 'NONE') line += `${row.state} `;
  return `${line}\n`;
}

/** Runs `ip [-4|-6] neigh …` (argv after the object word) over the host's entries. */
export function ipNeigh(
  net: HostNetwork,
  family: Family,
  rows: readonly NeighbourRow[],
  args: readonly string[],
): IpResult {
  const verb = args[0];
  if (verb !== undefined) {
    for (const changing of ['add', 'change', 'replace', 'delete', 'get']) {
      if (matches(verb, changing) || (changing === 'change' && verb === 'chg'))
        return notModelled(`neigh ${verb}`);
    }
    const show = matches(verb, 'show') || matches(verb, 'lst') || matches(verb, 'list');
    if (!show && matches(verb, 'flush')) {
      if (args.length === 1) return err('Flush requires arguments.\n', 1);
      return notModelled(`neigh ${args.join(' ')}`);
    }
    if (!show && matches(verb, 'help')) return notModelled('neigh help');
    if (!show) return err(`Command "${verb}" is unknown, try "ip neigh help".\n`);
  }
  const filter = readShowArgs(net, family, args.slice(1));
  if ('exitCode' in filter) return filter;
  // The lab's entries are all IPv4 (arp_tbl); `-6` selects none of them.
  const listed = family === 'inet6' ? [] : rows.filter((r) => shown(r, filter));
  return {
    stdout: listed.map((r) => renderRow(r, filter)).join(''),
    stderr: labNote('ip.neigh'),
    exitCode: 0,
  };
}

/**
 * do_parse() of conntrack-tools 1.4.7 (src/conntrack.c): argv → command, filter template and
 * output flags, with the tool's own error messages (checked against the binary).
 */
import { TCP_STATES } from './model';
import { atoi, natArg, parseAddr, parseWords, PROTOS, type Template } from './cli-values';
import {
  COMMAND_OPTIONS,
  Getopt,
  longName,
  OPT_FLAGS,
  OtherError,
  ParamError,
  PROTO_EXT_OPTS,
} from './cli-options';

export type Command =
  | 'CT_LIST'
  | 'CT_UNCONFIRMED'
  | 'CT_DYING'
  | 'EXP_LIST'
  | 'CT_DELETE'
  | 'CT_FLUSH'
  | 'EXP_FLUSH'
  | 'CT_EVENT'
  | 'CT_COUNT'
  | 'EXP_COUNT'
  | 'CT_STATS'
  | 'EXP_STATS'
  | 'CT_VERSION'
  | 'CT_HELP';

export interface Parsed {
  readonly command: Command | 'NONE';
  readonly tmpl: Template;
  readonly extended: boolean;
  readonly id: boolean;
  /** -e: NEW=1, UPDATE=2, DESTROY=4 (all when absent). */
  readonly eventMask: number;
  /** -h -p PROTO. */
  readonly helpProto?: string;
  /** Options and commands the tool accepts but the lab does not model. */
  readonly unmodelled: readonly string[];
  /** Warnings the tool prints on stderr while parsing. */
  readonly warnings: readonly string[];
}

const CMD_TYPES: Readonly<Record<string, readonly [string, string]>> = {
  L: ['CT_LIST', 'EXP_LIST'],
  I: ['CT_CREATE', 'EXP_CREATE'],
  D: ['CT_DELETE', 'EXP_DELETE'],
  G: ['CT_GET', 'EXP_GET'],
  F: ['CT_FLUSH', 'EXP_FLUSH'],
  E: ['CT_EVENT', 'EXP_EVENT'],
  V: ['CT_VERSION', 'CT_VERSION'],
  h: ['CT_HELP', 'CT_HELP'],
  C: ['CT_COUNT', 'EXP_COUNT'],
  S: ['CT_STATS', 'EXP_STATS'],
  U: ['CT_UPDATE', ''],
  A: ['CT_ADD', ''],
};

const LONG_CMD: Readonly<Record<string, string>> = {
  I: 'create',
  D: 'delete',
  G: 'get',
  F: 'flush',
  E: 'event',
  V: 'version',
  h: 'help',
  C: 'counter',
  S: 'stats',
  U: 'update',
  A: 'add',
};

/** Parses a conntrack command line (argv without the program name). */
export function parseConntrackArgs(argv: readonly string[]): Parsed {
  const g = new Getopt(argv);
  const t: Template = {};
  const used = new Set<string>();
  const unmodelled: string[] = [];
  const warnings: string[] = [];
  let command = '';
  let commandText = '';
  let extended = false;
  let id = false;
  let eventMask = 7;
  let proto: string | undefined;
  for (let o = g.next(); o !== undefined; o = g.next()) {
    const c = o.val;
    const arg = o.arg ?? '';
    const types = CMD_TYPES[c];
    if (types !== undefined) {
      const table = g.optionalNext();
      let type = 0;
      if (table !== undefined) {
        type = ['conntrack', 'expect', 'dying', 'unconfirmed'].findIndex((n) =>
          n.startsWith(table),
        );
        if ('expect'.startsWith(table)) type = 1;
        if (type < 0) throw new ParamError(`unknown type \`${table}'`);
      }
      let next: string;
      if (c === 'L')
        next = type === 2 ? 'CT_DYING' : type === 3 ? 'CT_UNCONFIRMED' : types[type === 1 ? 1 : 0];
      else {
        if (type >= 2)
          throw new ParamError("Can't do that command with tables `dying' and `unconfirmed'");
        next = types[type] ?? '';
        if (next === '') throw new ParamError(`Can't do --${LONG_CMD[c] ?? c} on expectations`);
      }
      if (command !== '') throw new ParamError('Invalid commands combination');
      command = next;
      commandText = table === undefined ? o.text : `${o.text} ${table}`;
      continue;
    }
    if (c.startsWith('x:')) {
      const key = c.slice(2);
      if (key === 'sport') t.sport = atoi(arg, 16);
      else if (key === 'dport') t.dport = atoi(arg, 16);
      else if (key === 'rsport') t.replySport = atoi(arg, 16);
      else if (key === 'rdport') t.replyDport = atoi(arg, 16);
      else if (key === 'itype') t.icmpType = atoi(arg, 8);
      else if (key === 'icode') t.icmpCode = atoi(arg, 8);
      else if (key === 'iid') t.icmpId = atoi(arg, 16);
      else if (key === 'state') {
        const i = [...TCP_STATES, 'LISTEN'].indexOf(arg);
        if (i < 0) throw new ParamError(`unknown TCP state \`${arg}'`);
        t.tcpState = TCP_STATES[Math.min(i, 9)] ?? 'SYN_SENT2';
      } else unmodelled.push(`--${key}-port options`);
      continue;
    }
    used.add(c);
    switch (c) {
      case 's':
        t.origSrc = parseAddr(arg, c, true, t);
        break;
      case 'd':
        t.origDst = parseAddr(arg, c, true, t);
        break;
      case 'r':
        t.replySrc = parseAddr(arg, c, false, t);
        break;
      case 'q':
        t.replyDst = parseAddr(arg, c, false, t);
        break;
      case 'p': {
        const name = arg.toLowerCase();
        const num =
          PROTOS[name] ?? (/^\d+$/.test(arg) && Number(arg) <= 255 ? Number(arg) : undefined);
        if (num === undefined) throw new ParamError(`\`${arg}' unsupported protocol`);
        t.proto = num;
        proto = Object.keys(PROTOS).find((k) => PROTOS[k] === num);
        g.setExtension(
          PROTO_EXT_OPTS[
            proto === 'udplite' || proto === 'sctp' || proto === 'dccp' ? 'udp' : (proto ?? '')
          ] ?? [],
        );
        break;
      }
      case 'e':
        eventMask = parseWords(arg, ['ALL', 'NEW', 'UPDATES', 'DESTROY'], warnings);
        eventMask = eventMask & 1 ? 7 : eventMask >> 1;
        break;
      case 'o': {
        const mask = parseWords(
          arg,
          ['xml', 'extended', 'timestamp', 'id', 'ktimestamp', 'labels', 'userspace', 'save'],
          warnings,
        );
        if (mask & 0x80 && mask & 0x3f) {
          throw new OtherError(
            'cannot combine save output with any other output type, use -o save only',
          );
        }
        extended ||= (mask & 2) !== 0;
        id ||= (mask & 8) !== 0;
        if (mask & 0xb5) unmodelled.push(`-o ${arg}`);
        break;
      }
      case 'n':
      case 'g':
      case 'j': {
        const a = o.arg ?? g.optionalNext();
        const nat = a === undefined ? {} : natArg(a, c, t);
        if (c !== 'g') t.srcNat = nat;
        if (c !== 'n') t.dstNat = nat;
        if (c === 'j') t.anyNat = true;
        break;
      }
      case 'm': {
        const m = /^\s*(0[xX][0-9a-fA-F]+|\d+)?(?:\/(0[xX][0-9a-fA-F]+|\d+))?/.exec(arg);
        const value = Number(m?.[1] ?? 0) >>> 0;
        t.mark = { value, mask: m?.[2] !== undefined ? Number(m[2]) >>> 0 : 0xffffffff };
        break;
      }
      case 'f':
        if (arg.startsWith('ipv4') || arg.startsWith('ipv6')) {
          const fam = arg.startsWith('ipv4') ? 'ipv4' : 'ipv6';
          if (t.family !== undefined && t.family !== fam)
            throw new ParamError('mismatched address family');
          t.family = fam;
        } else throw new ParamError(`\`${arg}' unsupported protocol`);
        break;
      case 'a':
        warnings.push('WARNING: ignoring -a, deprecated option.');
        break;
      case 'i':
      case '>':
        if (o.arg === undefined) g.optionalNext();
        unmodelled.push(`--${longName(c)}`);
        break;
      default:
        unmodelled.push(`--${longName(c)}`);
    }
  }
  if (t.anyNat && (used.has('n') || used.has('g'))) {
    throw new ParamError("cannot specify `--src-nat' or `--dst-nat' with `--any-nat'");
  }
  const row =
    COMMAND_OPTIONS[command === '' ? 'NONE' : command.replace(/CT_(DYING|UNCONFIRMED)/, 'CT_LIST')];
  if (row !== undefined) {
    OPT_FLAGS.forEach(([letter, name], i) => {
      if (used.has(letter) && row[i] === '0')
        throw new ParamError(`Illegal option \`--${name}' with this command`);
    });
  } else unmodelled.unshift(commandText);
  return {
    command: (command === '' ? 'NONE' : command) as Command | 'NONE',
    tmpl: t,
    extended,
    id,
    eventMask,
    ...(command === 'CT_HELP' && proto !== undefined ? { helpProto: proto } : {}),
    unmodelled,
    warnings,
  };
}

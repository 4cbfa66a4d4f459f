/**
 * comment, addrtype (rev 1), nfacct, set (rev 4), physdev and ipvs matches.
 */
import { XtError } from './errors';
import { makeExt, type ExtParser } from './ext';
import { maskAddr } from './format';
import { parsePort } from './match-ports';
import { parseProtocol } from './protocols';
import { ipIsValid } from '../model/ip';
import {
  ADDR_TYPES,
  type AddrSpec,
  type AddrType,
  type AddrtypeMatch,
  type CommentMatch,
  type IfaceSpec,
  type IpvsMatch,
  type NfacctMatch,
  type PhysdevMatch,
  type SetMatch,
} from './types';

export function commentMatch(): ExtParser<CommentMatch> {
  return makeExt({
    name: 'comment',
    options: [{ name: 'comment', arg: true, mand: true }],
    init: () => ({ comment: '' }),
    parse(s, _o, arg) {
      // XT_MAX_COMMENT_LEN is 256 including the NUL.
      if (arg.length > 255)
        throw XtError.param('Argument must have a maximum length of 255 characters\n');
      s.comment = arg;
    },
    finish: (s) => ({ name: 'comment', comment: s.comment }),
  });
}

/** parse_types(): comma-separated route types, each a case-insensitive prefix, first hit wins. */
function parseTypes(arg: string): AddrType[] {
  const set = new Set<AddrType>();
  let rest = arg;
  for (;;) {
    const comma = rest.indexOf(',');
    const word = comma < 0 ? rest : rest.slice(0, comma);
    const hit =
      word === ''
        ? undefined
        : ADDR_TYPES.find(
            (t) => word.length <= t.length && t.slice(0, word.length) === word.toUpperCase(),
          );
    if (hit === undefined) {
      throw XtError.param(
        comma < 0 ? `addrtype: bad type "${rest}"` : `addrtype: bad type \`${rest}'`,
      );
    }
    set.add(hit);
    if (comma < 0) break;
    rest = rest.slice(comma + 1);
  }
  return ADDR_TYPES.filter((t) => set.has(t));
}

export function addrtypeMatch(): ExtParser<AddrtypeMatch> {
  type Side = { types: readonly AddrType[]; invert: boolean };
  return makeExt({
    name: 'addrtype',
    options: [
      { name: 'src-type', arg: true, invert: true },
      { name: 'dst-type', arg: true, invert: true },
      { name: 'limit-iface-in', arg: false, excl: ['limit-iface-out'] },
      { name: 'limit-iface-out', arg: false, excl: ['limit-iface-in'] },
    ],
    init: () => ({
      src: undefined as Side | undefined,
      dst: undefined as Side | undefined,
      in: false,
      out: false,
    }),
    parse(s, option, arg, invert) {
      if (option === 'src-type') s.src = { types: parseTypes(arg), invert };
      else if (option === 'dst-type') s.dst = { types: parseTypes(arg), invert };
      else if (option === 'limit-iface-in') s.in = true;
      else s.out = true;
    },
    finish(s) {
      if (s.src === undefined && s.dst === undefined) {
        throw XtError.param('addrtype: you must specify --src-type or --dst-type');
      }
      return {
        name: 'addrtype',
        ...(s.src !== undefined ? { src: s.src } : {}),
        ...(s.dst !== undefined ? { dst: s.dst } : {}),
        limitIfaceIn: s.in,
        limitIfaceOut: s.out,
      };
    },
  });
}

export function nfacctMatch(): ExtParser<NfacctMatch> {
  return makeExt({
    name: 'nfacct',
    options: [{ name: 'nfacct-name', arg: true, mand: true }],
    init: () => ({ objectName: '' }),
    parse(s, _o, arg) {
      if (arg.length > 31)
        throw XtError.param('Argument must have a maximum length of 31 characters\n');
      s.objectName = arg;
    },
    finish: (s) => ({ name: 'nfacct', objectName: s.objectName }),
  });
}

/**
 * Whether the network namespace has an ip set of this name (libxt_set's get_set_byname()
 * asks the kernel as the rule is read). Absent: the rule's writer made the sets it names
 * (kube-proxy creates its sets before it restores the rules using them).
 */
export type IpsetLookup = (name: string) => boolean;

/**
 * The network namespace's objects that rules name, for rules a user types; absent: not
 * looked up (kube-proxy makes its sets and nfacct counters before it writes rules naming them).
 */
export interface NetnsObjects {
  /** Its ip sets: a `-m set` rule is refused as it is read (IpsetLookup). */
  readonly ipsets?: IpsetLookup;
  /**
   * Its nfacct objects: xt_nfacct's checkentry looks the object up as the rule goes into
   * the kernel, and nf_tables refuses the batch with ENOENT when there is none.
   */
  readonly nfacct?: (name: string) => boolean;
}

/** ip set names are at most IPSET_MAXNAMELEN - 1 characters (ipset/ip_set.h). */
const IPSET_MAXNAMELEN = 32;

/**
 * set: `--match-set NAME FLAGS` takes two arguments; the rule parser hands them over joined
 * by a space. In libxt_set.c's order: the name's length, the set's existence ("Set X doesn't
 * exist."), then the flags.
 */
export function setMatch(ipsets?: IpsetLookup): ExtParser<SetMatch> {
  return makeExt({
    name: 'set',
    options: [
      { name: 'match-set', arg: true, invert: true },
      { name: 'return-nomatch', arg: false },
    ],
    init: () => ({
      setName: '',
      dims: [] as ('src' | 'dst')[],
      invert: false,
      returnNomatch: false,
    }),
    parse(s, option, arg, invert) {
      if (option === 'return-nomatch') {
        s.returnNomatch = true;
        return;
      }
      const space = arg.indexOf(' ');
      if (space < 0) throw XtError.param('--match-set requires two args.');
      s.setName = arg.slice(0, space);
      if (s.setName.length > IPSET_MAXNAMELEN - 1)
        throw XtError.param(`setname \`${s.setName}' too long, max ${IPSET_MAXNAMELEN - 1} characters.`); // prettier-ignore
      if (ipsets !== undefined && !ipsets(s.setName))
        throw XtError.param(`Set ${s.setName} doesn't exist.\n`);
      s.invert = invert;
      const flags = arg.slice(space + 1).split(',');
      if (flags.length > 6) throw XtError.param("Can't be more src/dst options than 6.");
      s.dims = flags.map((f) => {
        if (f === 'src' || f === 'dst') return f;
        throw XtError.param("You must spefify `src' or `dst'.");
      });
    },
    finish(s, seen) {
      if (!seen.has('match-set'))
        throw XtError.param("You must specify `--match-set' with proper arguments");
      return { name: 'set', ...s };
    },
  });
}

export function physdevMatch(): ExtParser<PhysdevMatch> {
  type S = { -readonly [K in keyof PhysdevMatch]?: PhysdevMatch[K] };
  return makeExt({
    name: 'physdev',
    options: [
      { name: 'physdev-in', arg: true, invert: true },
      { name: 'physdev-out', arg: true, invert: true },
      { name: 'physdev-is-in', arg: false, invert: true },
      { name: 'physdev-is-out', arg: false, invert: true },
      { name: 'physdev-is-bridged', arg: false, invert: true },
    ],
    init: (): S => ({}),
    parse(s, option, arg, invert) {
      const iface = (): IfaceSpec => ({ name: arg, invert });
      if (option === 'physdev-in') s.physIn = iface();
      else if (option === 'physdev-out') s.physOut = iface();
      else if (option === 'physdev-is-in') s.isIn = { invert };
      else if (option === 'physdev-is-out') s.isOut = { invert };
      else s.isBridged = { invert };
    },
    finish(s, seen) {
      if (seen.size === 0) throw XtError.param('PHYSDEV: no physdev option specified');
      return { ...s, name: 'physdev' };
    },
  });
}

export function ipvsMatch(): ExtParser<IpvsMatch> {
  type S = { -readonly [K in keyof IpvsMatch]?: IpvsMatch[K] };
  return makeExt({
    name: 'ipvs',
    options: [
      { name: 'ipvs', arg: false, invert: true },
      { name: 'vproto', arg: true, invert: true },
      { name: 'vaddr', arg: true, invert: true },
      { name: 'vport', arg: true, invert: true },
      { name: 'vdir', arg: true },
      { name: 'vmethod', arg: true, invert: true },
    ],
    init: (): S => ({}),
    parse(s, option, arg, invert) {
      if (option === 'ipvs') s.ipvs = { invert };
      else if (option === 'vproto') s.vproto = { proto: parseProtocol(arg), invert };
      else if (option === 'vaddr') s.vaddr = parseHostMask(arg, invert);
      else if (option === 'vport') s.vport = { port: parsePort(arg, undefined), invert };
      else if (option === 'vdir') {
        if (arg !== 'ORIGINAL' && arg !== 'REPLY')
          throw XtError.param(`ipvs: bad direction "${arg}"`);
        s.vdir = arg;
      } else {
        const m = arg.toUpperCase();
        if (m !== 'GATE' && m !== 'IPIP' && m !== 'MASQ')
          throw XtError.param(`Bad IPVS method "${arg}"`);
        s.vmethod = { method: m, invert };
      }
    },
    finish: (s) => ({ ...s, name: 'ipvs' }),
  });
}

/** XTTYPE_HOSTMASK: `a.b.c.d[/len]`. */
function parseHostMask(arg: string, invert: boolean): AddrSpec {
  const [addr = '', len] = arg.split('/');
  const prefix = len === undefined ? 32 : Number(len);
  if (!ipIsValid(addr) || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) {
    throw XtError.param(`host/network \`${arg}' not found`);
  }
  return { addr: maskAddr(addr, prefix), prefix, invert };
}

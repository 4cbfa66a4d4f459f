/**
 * The icmp match (`-p icmp [-m icmp] [!] --icmp-type TYPE[/CODE]|NAME`): libipt_icmp.c of
 * iptables 1.8.9 for the names, the parse and the texts; xt_icmp's icmp_type_code_match() for
 * what matches (icmpTypeMatches, which the walk calls). iptables-nft keeps it an x_tables
 * match (its nft text is the extension's xlate).
 */
import { XtError } from './errors';
import { makeExt, strtoui, type ExtParser } from './ext';
import type { IcmpMatch } from './types';

/** libxt_icmp.h icmp_codes[]: name, type, code range; searched in this order. */
const ICMP_CODES: readonly (readonly [string, number, number, number])[] = [
  ['any', 0xff, 0, 0xff],
  ['echo-reply', 0, 0, 0xff],
  ['pong', 0, 0, 0xff],
  ['destination-unreachable', 3, 0, 0xff],
  ['network-unreachable', 3, 0, 0],
  ['host-unreachable', 3, 1, 1],
  ['protocol-unreachable', 3, 2, 2],
  ['port-unreachable', 3, 3, 3],
  ['fragmentation-needed', 3, 4, 4],
  ['source-route-failed', 3, 5, 5],
  ['network-unknown', 3, 6, 6],
  ['host-unknown', 3, 7, 7],
  ['network-prohibited', 3, 9, 9],
  ['host-prohibited', 3, 10, 10],
  ['TOS-network-unreachable', 3, 11, 11],
  ['TOS-host-unreachable', 3, 12, 12],
  ['communication-prohibited', 3, 13, 13],
  ['host-precedence-violation', 3, 14, 14],
  ['precedence-cutoff', 3, 15, 15],
  ['source-quench', 4, 0, 0xff],
  ['redirect', 5, 0, 0xff],
  ['network-redirect', 5, 0, 0],
  ['host-redirect', 5, 1, 1],
  ['TOS-network-redirect', 5, 2, 2],
  ['TOS-host-redirect', 5, 3, 3],
  ['echo-request', 8, 0, 0xff],
  ['ping', 8, 0, 0xff],
  ['router-advertisement', 9, 0, 0xff],
  ['router-solicitation', 10, 0, 0xff],
  ['time-exceeded', 11, 0, 0xff],
  ['ttl-exceeded', 11, 0, 0xff],
  ['ttl-zero-during-transit', 11, 0, 0],
  ['ttl-zero-during-reassembly', 11, 1, 1],
  ['parameter-problem', 12, 0, 0xff],
  ['ip-header-bad', 12, 0, 0],
  ['required-option-missing', 12, 1, 1],
  ['timestamp-request', 13, 0, 0xff],
  ['timestamp-reply', 14, 0, 0xff],
  ['address-mask-request', 17, 0, 0xff],
  ['address-mask-reply', 18, 0, 0xff],
];

type TypeCode = Pick<IcmpMatch, 'type' | 'codeMin' | 'codeMax'>;

/**
 * parse_icmp(): a name (any prefix, case-insensitive; two names with that prefix are an
 * error), else `TYPE[/CODE]` as numbers 0–255 (strtoui: decimal, 0x hex, 0 octal).
 */
function parseIcmpType(arg: string): TypeCode {
  let hit: (typeof ICMP_CODES)[number] | undefined;
  const lower = arg.toLowerCase();
  for (const entry of ICMP_CODES) {
    if (!entry[0].toLowerCase().startsWith(lower)) continue;
    if (hit !== undefined)
      throw XtError.param(`Ambiguous ICMP type \`${arg}': \`${hit[0]}' or \`${entry[0]}'?`);
    hit = entry;
  }
  if (hit !== undefined) return { type: hit[1], codeMin: hit[2], codeMax: hit[3] };
  const slash = arg.indexOf('/');
  const type = strtoui(slash < 0 ? arg : arg.slice(0, slash), 0, 255);
  if (type === undefined) throw XtError.param(`Unknown ICMP type \`${arg}'`);
  if (slash < 0) return { type, codeMin: 0, codeMax: 0xff };
  const code = strtoui(arg.slice(slash + 1), 0, 255);
  if (code === undefined) throw XtError.param(`Unknown ICMP code \`${arg}'`);
  return { type, codeMin: code, codeMax: code };
}

export function icmpMatch(): ExtParser<IcmpMatch> {
  return makeExt({
    name: 'icmp',
    options: [{ name: 'icmp-type', arg: true, invert: true, mand: true }],
    init: (): TypeCode & { invert: boolean } => ({
      type: 0xff,
      codeMin: 0,
      codeMax: 0xff,
      invert: false,
    }),
    parse(s, _o, arg, invert) {
      Object.assign(s, parseIcmpType(arg), { invert });
    },
    finish: (s) => ({ name: 'icmp', ...s }),
  });
}

/** icmp_save(): `--icmp-type any`, `TYPE` or `TYPE/CODE` (the lower code of a range). */
export function saveIcmp(m: IcmpMatch): string {
  const inv = m.invert ? ' !' : '';
  if (m.type === 0xff) return `${inv} --icmp-type any`;
  const code = m.codeMin !== 0 || m.codeMax !== 0xff ? `/${m.codeMin}` : '';
  return `${inv} --icmp-type ${m.type}${code}`;
}

/**
 * icmp_print(): ` icmp` and the table's name for the type and code range (without -n), else
 * `type N` with ` code C` / ` codes A-B`; `!` before either when inverted (`icmptype 8`,
 * `icmp !type 3 code 4`, `icmp echo-request`: iptables prints them so).
 */
export function printIcmp(m: IcmpMatch, numeric: boolean): string {
  const inv = m.invert ? '!' : '';
  if (!numeric) {
    const named = ICMP_CODES.find(
      ([, type, min, max]) => type === m.type && min === m.codeMin && max === m.codeMax,
    );
    if (named !== undefined) return ` icmp ${inv}${named[0]}`;
  }
  let t = ` icmp${m.invert ? ' !' : ''}type ${m.type}`;
  if (m.codeMin === m.codeMax) t += ` code ${m.codeMin}`;
  else if (m.codeMin !== 0 || m.codeMax !== 0xff) t += ` codes ${m.codeMin}-${m.codeMax}`;
  return t;
}

/**
 * libxt_icmp's xlate, as `nft list` prints the rule: `ip protocol icmp` for any type (the
 * inversion dropped), `icmp type [!= ]NAME` for a whole type the table names, and undefined
 * (nft then prints `xt match icmp`) for a single code or an unnamed type.
 */
export function icmpXlate(m: IcmpMatch): string | undefined {
  if (m.type === 0xff) return 'ip protocol icmp';
  if (m.codeMin === m.codeMax) return undefined;
  const named = ICMP_CODES.find(
    ([, type, min, max]) => type === m.type && min === m.codeMin && max === m.codeMax,
  );
  return named === undefined ? undefined : `icmp type ${m.invert ? '!= ' : ''}${named[0]}`;
}

/** icmp_type_code_match(): type 0xff matches every type; then the code range, inverted as asked. */
export function icmpTypeMatches(m: IcmpMatch, type: number, code: number): boolean {
  const hit = m.type === 0xff || (type === m.type && code >= m.codeMin && code <= m.codeMax);
  return hit !== m.invert;
}

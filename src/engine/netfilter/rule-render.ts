/**
 * One rule as iptables-save/-S writes it and as one line of `iptables -L`
 * (nft-ipv4.c nft_ipv4_save_rule / nft_ipv4_print_rule and xshared.c helpers).
 */
import { addrToName, left, maskSuffix, printNum } from './format';
import { protocolName } from './protocols';
import { printMatch, saveMatch } from './render-ext';
import { printTarget, saveTarget, targetName } from './render-target';
import type { AddrSpec, IfaceSpec, Rule } from './types';

export function saveAddr(letter: string, a: AddrSpec | undefined): string {
  // save_ipv4_addr(): nothing for an unset, non-inverted 0.0.0.0/0.
  if (a === undefined || (a.prefix === 0 && !a.invert && a.addr === '0.0.0.0')) return '';
  return `${a.invert ? ' !' : ''} -${letter} ${a.addr}/${a.prefix}`;
}

export function saveIface(letter: string, i: IfaceSpec | undefined): string {
  return i === undefined ? '' : `${i.invert ? ' !' : ''} -${letter} ${i.name}`;
}

/**
 * The text after `-A CHAIN`: `-s`, `-d`, `-i`, `-o`, `-p`, `-f`, the matches in their order,
 * then (with counters for `-S -v`) `-c P B` and the target.
 */
export function ruleSpec(rule: Rule, withCounters = false): string {
  let t =
    saveAddr('s', rule.src) +
    saveAddr('d', rule.dst) +
    saveIface('i', rule.inIface) +
    saveIface('o', rule.outIface);
  if (rule.protocol !== undefined && rule.protocol.num > 0) {
    const name = protocolName(rule.protocol.num);
    t += `${rule.protocol.invert ? ' !' : ''} -p ${name ?? rule.protocol.num}`;
  }
  if (rule.fragment !== undefined) t += `${rule.fragment.invert ? ' !' : ''} -f`;
  for (const m of rule.matches) t += saveMatch(m);
  if (withCounters) t += ` -c ${rule.counters.packets} ${rule.counters.bytes}`;
  return t + saveTarget(rule.target);
}

export interface ListFormat {
  readonly numeric: boolean;
  readonly verbose: boolean;
  readonly exact: boolean;
  readonly lineNumbers: boolean;
}

function listAddr(a: AddrSpec | undefined, numeric: boolean): string {
  const addr = a?.addr ?? '0.0.0.0';
  const prefix = a?.prefix ?? 0;
  if (prefix === 0 && !numeric) return 'anywhere';
  return (numeric ? addr : addrToName(addr)) + maskSuffix(prefix);
}

function listIface(i: IfaceSpec | undefined, numeric: boolean): string {
  return (i?.invert ? '!' : '') + (i?.name ?? (numeric ? '*' : 'any'));
}

/** The column header under a `Chain …` line (print_header()). */
export function listHeader(f: ListFormat): string {
  let t = f.lineNumbers ? left('num', 4) + ' ' : '';
  if (f.verbose) {
    t += f.exact ? `${'    pkts'} ${'     bytes'} ` : ' pkts bytes ';
  }
  t += left('target', 9) + ' ' + ' prot ' + 'opt';
  if (f.verbose) t += ` ${left('in', 6)} ${left('out', 6)} `;
  return `${t} ${left('source', 19)}  ${left('destination', 19)} `;
}

/** One rule line of `iptables -L` (without the newline). */
export function listRule(rule: Rule, num: number, f: ListFormat): string {
  let t = f.lineNumbers ? left(String(num), 4) + ' ' : '';
  if (f.verbose)
    t += printNum(rule.counters.packets, !f.exact) + printNum(rule.counters.bytes, !f.exact);
  t += left(targetName(rule.target), 9) + ' ';
  const proto = rule.protocol?.num ?? 0;
  t += rule.protocol?.invert ? '!' : ' ';
  // 1.8.9 prints the protocol number with -n (print_rule_details()).
  t += left(f.numeric ? String(proto) : (protocolName(proto) ?? String(proto)), 4) + ' ';
  t += (rule.fragment?.invert ? '!' : '-') + (rule.fragment !== undefined ? 'f' : '-') + ' ';
  if (f.verbose)
    t += ` ${left(listIface(rule.inIface, f.numeric), 6)} ${left(listIface(rule.outIface, f.numeric), 6)} `;
  t += (rule.src?.invert ? '!' : ' ') + left(listAddr(rule.src, f.numeric), 19) + ' ';
  t += (rule.dst?.invert ? '!' : ' ') + left(listAddr(rule.dst, f.numeric), 19) + ' ';
  if (rule.target.kind === 'jump' && rule.target.goto) t += '[goto] ';
  for (const m of rule.matches) t += printMatch(m, f.numeric, proto);
  return t + printTarget(rule.target, f.numeric);
}

/**
 * The line `iptables -v` prints for a rule it adds, inserts, replaces, finds (-C) or deletes:
 * nft_ipv4_print_rule() with FMT_PRINT_RULE (no counters, numeric, `in`/`out` named, no
 * table columns): print_rule_details(), print_fragment(), print_ifaces(),
 * print_ipv4_addresses(), two blanks, `[goto] `, then the matches and the target as `-L`
 * prints them. The protocol is named from xtables_chain_protos[] only (no /etc/protocols).
 */
export function verboseRule(rule: Rule): string {
  const proto = rule.protocol?.num ?? 0;
  const name = protocolName(proto, true) ?? String(proto);
  let t = `${targetName(rule.target)} ${rule.protocol?.invert ? '!' : ' '}${name} `;
  t += `opt ${rule.fragment?.invert ? '!' : '-'}${rule.fragment !== undefined ? 'f' : '-'} `;
  t += `in ${listIface(rule.inIface, true)} out ${listIface(rule.outIface, true)} `;
  t += `${rule.src?.invert ? '!' : ' '}${listAddr(rule.src, true)} `;
  t += `${rule.dst?.invert ? '!' : ' '}-> ${listAddr(rule.dst, true)}  `;
  if (rule.target.kind === 'jump' && rule.target.goto) t += '[goto] ';
  for (const m of rule.matches) t += printMatch(m, true, proto);
  return `${t}${printTarget(rule.target, true)}\n`;
}

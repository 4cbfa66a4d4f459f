/**
 * Runs one parsed modifying command against a working copy of its table (the nft batch of
 * one `iptables` call, or one command of an `iptables-restore` section).
 */
import {
  chainDelete,
  chainFlush,
  chainNew,
  chainRename,
  chainZero,
  policySet,
  ruleAppend,
  ruleDelete,
  ruleDeleteNum,
  ruleFind,
  ruleInsert,
  ruleReplace,
  type Work,
} from './ops';
import type { ParsedArgs } from './rule-parse';
import { ownRule } from './state';
import type { Rule } from './types';

const asIs = (r: Rule): Rule => r;

/**
 * Applies a modifying command; listing commands are the caller's. A `shared` parse (restore's
 * cache) is never put into a table as is: rules going in get counters of their own.
 */
export function executeCommand(work: Work, p: ParsedArgs, shared = false): void {
  const chain = p.chain ?? '';
  const rule = p.rule;
  const own = shared ? ownRule : asIs;
  if (p.more !== undefined && rule !== undefined) {
    // A comma list: each rule in turn (-I puts each at the same place, so they end up in
    // reverse order, as on the real tool; -R takes one address only, parse-time).
    const { more, ...one } = p;
    for (const r of [rule, ...more]) executeCommand(work, { ...one, rule: r }, shared);
    return;
  }
  switch (p.cmd) {
    case 'A':
      if (rule !== undefined) ruleAppend(work, chain, rule, own);
      return;
    case 'I':
      if (rule !== undefined) ruleInsert(work, chain, own(rule), p.rulenum);
      return;
    case 'R':
      if (rule !== undefined) ruleReplace(work, chain, own(rule), p.rulenum);
      return;
    case 'D':
      if (rule !== undefined) ruleDelete(work, chain, rule);
      else ruleDeleteNum(work, chain, p.rulenum);
      return;
    case 'C':
      if (rule !== undefined) ruleFind(work, chain, rule);
      return;
    case 'F':
      chainFlush(work, p.chain);
      return;
    case 'Z':
      chainZero(work, p.chain, p.rulenum);
      return;
    case 'N':
      chainNew(work, chain);
      return;
    case 'X':
      chainDelete(work, p.chain);
      return;
    case 'E':
      chainRename(work, chain, p.newName ?? '');
      return;
    case 'P':
      policySet(work, chain, p.policy ?? '');
      return;
    case 'L':
    case 'S':
    case 'V':
    case undefined:
      return;
  }
}

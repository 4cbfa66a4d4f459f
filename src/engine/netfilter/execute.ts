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

/** Applies a modifying command; listing commands are the caller's. */
export function executeCommand(work: Work, p: ParsedArgs): void {
  const chain = p.chain ?? '';
  switch (p.cmd) {
    case 'A':
      if (p.rule !== undefined) ruleAppend(work, chain, p.rule);
      return;
    case 'I':
      if (p.rule !== undefined) ruleInsert(work, chain, p.rule, p.rulenum);
      return;
    case 'R':
      if (p.rule !== undefined) ruleReplace(work, chain, p.rule, p.rulenum);
      return;
    case 'D':
      if (p.rule !== undefined) ruleDelete(work, chain, p.rule);
      else ruleDeleteNum(work, chain, p.rulenum);
      return;
    case 'C':
      if (p.rule !== undefined) ruleFind(work, chain, p.rule);
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

/**
 * The `iptables` command (xtables-standalone.c + xtables.c do_commandx()): parse, check the
 * table, run the command as one nf_tables batch, print what iptables 1.8.9 prints.
 */
import { withTableHandle } from './state';
import { TableDraft } from './draft';
import { IPTABLES_HELP } from './help-text';
import { asXtError, renderError, type XtError } from './errors';
import { executeCommand } from './execute';
import { chainZero, type Work } from './ops';
import { takeParseWarnings } from './parse-warnings';
import { parseArgs } from './rule-parse';
import { isTableName } from './tables';
import type { NetfilterState } from './types';
import { iptablesList, iptablesRulesSpec, tableMissing, type ToolOutput } from './views';
import type { NetnsObjects } from './match-misc';

const PROG = 'iptables';

/**
 * Runs `iptables ARGV…` (the arguments after the program name) against a node's state,
 * which is changed in place when the command succeeds. `objects`: the network namespace's ip
 * sets and nfacct objects, which the rules must name (NetnsObjects).
 */
export function iptablesCommand(
  state: NetfilterState,
  argv: readonly string[],
  objects?: NetnsObjects,
): ToolOutput {
  takeParseWarnings();
  const out = runCommand(state, argv, objects);
  const warned = takeParseWarnings();
  return warned === '' ? out : { ...out, stderr: warned + out.stderr };
}

function runCommand(
  state: NetfilterState,
  argv: readonly string[],
  objects: NetnsObjects | undefined,
): ToolOutput {
  if (argv.includes('-h') || argv.includes('--help'))
    return { stdout: IPTABLES_HELP, stderr: '', exitCode: 0 };
  let p;
  try {
    p = parseArgs(argv, { restore: false, table: 'filter', ipsets: objects?.ipsets });
  } catch (e) {
    const err = asXtError(e);
    if (err.kind === 'other' && err.exitCode === 0)
      return { stdout: err.message, stderr: '', exitCode: 0 };
    return { stdout: '', stderr: renderError(err, PROG, -1), exitCode: err.exitCode };
  }
  if (!isTableName(p.table)) return tableMissing(p.table);
  const name = p.table;
  const kernel: XtError[] = [];
  let log = '';
  const work: Work = {
    name,
    table: new TableDraft(name, state.tables[name]),
    kernel: (e) => kernel.push(e),
    ...(p.verbose ? { verbose: (line: string) => (log += line) } : {}),
    ...(objects?.nfacct !== undefined ? { nfacct: objects.nfacct } : {}),
  };
  let out: ToolOutput = { stdout: '', stderr: '', exitCode: 0 };
  try {
    if (p.cmd === 'L' || p.cmd === 'S') {
      const base = {
        table: name,
        ...(p.chain !== undefined ? { chain: p.chain } : {}),
        rulenum: p.rulenum,
      };
      out =
        p.cmd === 'L'
          ? iptablesList(state, {
              ...base,
              numeric: p.numeric,
              verbose: p.verbose,
              exact: p.exact,
              lineNumbers: p.lineNumbers,
            })
          : iptablesRulesSpec(state, { ...base, verbose: p.verbose });
      if (out.exitCode !== 0 || !p.zeroToo) return out;
      chainZero(work, p.chain, p.rulenum, true);
    } else {
      executeCommand(work, p);
    }
  } catch (e) {
    const err = asXtError(e);
    return { stdout: out.stdout + log, stderr: renderError(err, PROG, -1), exitCode: err.exitCode };
  }
  const first = kernel[0];
  if (first !== undefined)
    return { stdout: out.stdout, stderr: renderError(first, PROG, -1), exitCode: first.exitCode };
  const table = work.table.commit();
  if (table !== undefined) state.tables[name] = withTableHandle(state, table);
  return { ...out, stdout: out.stdout + log };
}

/**
 * The `ipset` tool (ipset 7.17) over a node's sets: list [-n|-t] [NAME], save, create
 * (./create.ts), add, del, test (elements: ./element-plan.ts), flush, destroy, restore, version; its output and error texts as the real tool
 * prints them ("ipset v7.17: …" on stderr).
 */
import { addElement, deleteElement, flushSet, hasElement, memorySize, members } from './hash-table';
import { labNote } from '../model/lab-notes';
import { createCommand } from './create';
import { fail, ok, usage, VERSION, type IpsetResult } from './result';
import { isFailure, planElement } from './element-plan';
import { findSet, hasAddressInNets, REVISIONS, type IpSet, type IpsetState } from './sets';

export type { IpsetResult } from './result';

export interface IpsetEnv {
  /** How many iptables rules reference the set (xt_set holds a reference per rule). */
  readonly references: (name: string) => number;
  /** The initval a new hash set gets (the kernel draws get_random_u32(); the lab derives one). */
  readonly initval: (name: string) => number;
}

const hex8 = (n: number): string => `0x${(n >>> 0).toString(16).padStart(8, '0')}`;

function header(set: IpSet): string {
  if (set.type === 'bitmap:port') return `range ${set.range?.from ?? 0}-${set.range?.to ?? 65535}`;
  return `family inet hashsize ${set.hashsize} maxelem ${set.maxelem} bucketsize 12 initval ${hex8(set.initval)}`;
}

/** `ipset list [NAME]` for one set (`terse`: without members, `-t`). */
export function renderSet(set: IpSet, env: IpsetEnv, terse = false): string {
  let out = `Name: ${set.name}\nType: ${set.type}\nRevision: ${REVISIONS[set.type]}\nHeader: ${header(set)}\nSize in memory: ${memorySize(set)}\nReferences: ${env.references(set.name)}\nNumber of entries: ${set.count}\n`;
  if (terse) return out;
  out += 'Members:\n';
  for (const m of members(set)) out += `${m}\n`;
  return out;
}

export function renderSave(set: IpSet): string {
  let out = `create ${set.name} ${set.type} ${header(set)}\n`;
  for (const m of members(set)) out += `add ${set.name} ${m}\n`;
  return out;
}

const NO_SET = 'The set with the given name does not exist';

/** The longest walk one add/del makes here (a /1 would be 2^31 kernel steps). */
const MAX_WALK = 1 << 20;

function elementCommand(
  state: IpsetState,
  verb: string,
  args: string[],
  exist: boolean,
): IpsetResult {
  const [name, text] = args;
  // The tool checks its arguments before it asks the kernel for the set.
  if (name === undefined) return usage(`Missing mandatory argument to command ${verb}`);
  if (text === undefined) return usage(`Missing second mandatory argument to command ${verb}`);
  const set = findSet(state, name);
  if (set === undefined) return fail(NO_SET);
  const plan = planElement(set.type, text);
  if (isFailure(plan)) {
    if ('error' in plan) return fail(plan.error);
    const stderr = labNote('ipset.protocol-unmodelled', { protocol: plan.protocol });
    return { stdout: '', stderr, exitCode: 1 };
  }
  if (verb === 'test') {
    if (plan.testRefusal !== undefined) return fail(plan.testRefusal);
    const inSet = plan.anyPrefix ? hasAddressInNets(set, plan.first) : hasElement(set, plan.first);
    return {
      stdout: '',
      stderr: inSet
        ? `Warning: ${plan.shown} is in set ${name}.\n`
        : `${plan.shown} is NOT in set ${name}.\n`,
      exitCode: inSet ? 0 : 1,
    };
  }
  if (set.type === 'bitmap:port') {
    // bitmap_port_uadt checks both ends of a range before it adds any port.
    const ports = [...plan.all()].map((e) => e.port!);
    const { from, to } = set.range ?? { from: 0, to: 65535 };
    if (ports.some((p) => p < from || p > to))
      return fail('Element is out of the range of the set');
  }
  // Only a walk that neither maxelem nor a first missing element ends can run long.
  const unbounded = verb === 'del' ? exist : set.maxelem > MAX_WALK;
  if (unbounded && plan.addresses > MAX_WALK) {
    const stderr = labNote('ipset.range-limit', {
      element: text,
      count: plan.addresses,
      max: MAX_WALK,
    });
    return { stdout: '', stderr, exitCode: 1 };
  }
  // The kernel adds (deletes) one element after another and stops at the first failure,
  // keeping what it already did; -exist ignores "already added" ("not added").
  for (const e of plan.all()) {
    if (verb === 'add') {
      const r = addElement(set, e);
      if (r === 'full') return fail('Hash is full, cannot add more elements');
      if (r === 'exists' && !exist)
        return fail("Element cannot be added to the set: it's already added");
    } else if (deleteElement(set, e) === 'missing' && !exist)
      return fail("Element cannot be deleted from the set: it's not added");
  }
  return ok();
}

const COMMANDS: Readonly<Record<string, string>> = {
  list: 'list',
  '-L': 'list',
  '-l': 'list',
  save: 'save',
  '-S': 'save',
  create: 'create',
  '-N': 'create',
  n: 'create',
  add: 'add',
  '-A': 'add',
  del: 'del',
  '-D': 'del',
  test: 'test',
  '-T': 'test',
  flush: 'flush',
  '-F': 'flush',
  destroy: 'destroy',
  '-X': 'destroy',
  x: 'destroy',
  restore: 'restore',
  '-R': 'restore',
  version: 'version',
  '-v': 'version',
  '--version': 'version',
};

export function runIpset(
  state: IpsetState,
  env: IpsetEnv,
  argv: readonly string[],
  stdin = '',
): IpsetResult {
  const exist = argv.includes('-exist') || argv.includes('-!');
  const terse = argv.includes('-t') || argv.includes('-terse');
  const namesOnly = argv.includes('-n') || argv.includes('-name');
  const words = argv.filter(
    (a) => !['-exist', '-!', '-t', '-terse', '-n', '-name', '-o', 'plain'].includes(a),
  );
  const [verbWord, ...args] = words;
  if (verbWord === undefined) return fail('No command specified.', 2);
  const verb = COMMANDS[verbWord];
  if (verb === undefined)
    return {
      stdout: '',
      stderr: `${VERSION}: No command specified: unknown argument ${verbWord}\nTry \`ipset help' for more information.\n`,
      exitCode: 2,
    };
  switch (verb) {
    case 'version':
      return ok(`${VERSION}, protocol version: 7\n`);
    case 'list':
    case 'save': {
      const sets = args[0] === undefined ? state.sets : [findSet(state, args[0])];
      if (sets.some((s) => s === undefined)) return fail(NO_SET);
      const present = sets as IpSet[];
      if (namesOnly) return ok(present.map((s) => `${s.name}\n`).join(''));
      if (verb === 'save') return ok(present.map(renderSave).join(''));
      return ok(present.map((s) => renderSet(s, env, terse)).join('\n'));
    }
    case 'create':
      return createCommand(state, env, args, exist);
    case 'add':
    case 'del':
    case 'test':
      return elementCommand(state, verb, args, exist);
    case 'flush':
    case 'destroy': {
      const targets = args[0] === undefined ? [...state.sets] : [findSet(state, args[0])];
      if (targets.some((s) => s === undefined)) return fail(NO_SET);
      for (const s of targets as IpSet[]) {
        if (verb === 'flush') flushSet(s);
        else {
          if (env.references(s.name) > 0)
            return fail('Set cannot be destroyed: it is in use by a kernel component');
          state.sets.splice(state.sets.indexOf(s), 1);
        }
      }
      return ok();
    }
    default:
      return restore(state, env, stdin, exist);
  }
}

/** `ipset restore`: one command per line; the first failing line stops it ("Error in line N: …"). */
function restore(state: IpsetState, env: IpsetEnv, input: string, exist: boolean): IpsetResult {
  const lines = input.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#') || line === 'COMMIT') continue;
    const r = runIpset(state, env, [...line.split(/\s+/), ...(exist ? ['-exist'] : [])]);
    if (r.exitCode === 0) continue;
    // ipset 7.17 names the line for one-line errors only: usage errors (exit 2), the three-line
    // port errors and the lab's own notes come out as the command alone prints them.
    const oneLine =
      r.stderr.startsWith(`${VERSION}: `) && r.stderr.indexOf('\n') === r.stderr.length - 1;
    if (r.exitCode === 2 || !oneLine) return r;
    return {
      stdout: '',
      stderr: r.stderr.replace(`${VERSION}: `, `${VERSION}: Error in line ${i + 1}: `),
      exitCode: 1,
    };
  }
  return ok();
}

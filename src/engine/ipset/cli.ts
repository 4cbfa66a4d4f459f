/**
 * The `ipset` tool (ipset 7.17) over a node's sets: list [-n|-t] [NAME], save, create, add,
 * del, test, flush, destroy, restore, version; its output and error texts as the real tool
 * prints them ("ipset v7.17: …" on stderr).
 */
import { addElement, deleteElement, flushSet, hasElement, memorySize, members } from './hash-table';
import {
  createSet,
  findSet,
  parseElement,
  REVISIONS,
  SET_TYPES,
  type IpSet,
  type IpsetState,
  type SetType,
} from './sets';

export interface IpsetEnv {
  /** How many iptables rules reference the set (xt_set holds a reference per rule). */
  readonly references: (name: string) => number;
  /** The initval a new hash set gets (the kernel draws get_random_u32(); the lab derives one). */
  readonly initval: (name: string) => number;
}

export interface IpsetResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

const VERSION = 'ipset v7.17';
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

const fail = (msg: string, code = 1): IpsetResult => ({
  stdout: '',
  stderr: `${VERSION}: ${msg}\n`,
  exitCode: code,
});
const ok = (stdout = ''): IpsetResult => ({ stdout, stderr: '', exitCode: 0 });
const NO_SET = 'The set with the given name does not exist';

/** `create NAME TYPE [family inet] [hashsize N] [maxelem N] [range A-B] [initval X]`. */
function create(state: IpsetState, env: IpsetEnv, args: string[], exist: boolean): IpsetResult {
  const [name, typeName, ...opts] = args;
  if (name === undefined) return fail('Syntax error: Missing mandatory argument: setname', 1);
  if (typeName === undefined) return fail('Syntax error: Missing mandatory argument: typename', 1);
  if (!SET_TYPES.includes(typeName as SetType))
    return fail(`Syntax error: typename '${typeName}' is unknown`);
  const type = typeName as SetType;
  let hashsize = 1024;
  let maxelem = 65536;
  let initval: number | undefined;
  let range: { from: number; to: number } | undefined;
  for (let i = 0; i < opts.length; i += 2) {
    const key = opts[i]!;
    const value = opts[i + 1];
    if (value === undefined && !['bucketsize'].includes(key))
      return fail(`Syntax error: Missing mandatory argument: ${key}`);
    if (key === 'family' && value === 'inet') continue;
    if (key === 'hashsize') hashsize = 2 ** Math.ceil(Math.log2(Math.max(64, Number(value))));
    else if (key === 'maxelem') maxelem = Number(value);
    else if (key === 'initval') initval = Number(value);
    else if (key === 'bucketsize') continue;
    else if (key === 'range' && type === 'bitmap:port') {
      const m = /^(\d+)-(\d+)$/.exec(value ?? '');
      if (m === null) return fail(`Syntax error: cannot parse '${value}' as a port range`);
      range = { from: Number(m[1]), to: Number(m[2]) };
    } else return fail(`Syntax error: Unknown argument: '${key}'`);
  }
  if (type === 'bitmap:port' && range === undefined)
    return fail('Syntax error: Missing mandatory argument: range');
  const existing = findSet(state, name);
  if (existing !== undefined) {
    if (exist && existing.type === type) return ok();
    return fail('Set cannot be created: set with the same name already exists');
  }
  createSet(state, {
    name,
    type,
    hashsize,
    maxelem,
    initval: initval ?? env.initval(name),
    ...(range !== undefined ? { range } : {}),
  });
  return ok();
}

function elementCommand(
  state: IpsetState,
  verb: string,
  args: string[],
  exist: boolean,
): IpsetResult {
  const [name, text] = args;
  if (name === undefined) return fail('Syntax error: Missing mandatory argument: setname');
  const set = findSet(state, name);
  if (set === undefined) return fail(NO_SET);
  if (text === undefined) return fail('Syntax error: Missing mandatory argument: element');
  const e = parseElement(set.type, text);
  if (typeof e === 'string') return fail(e);
  if (verb === 'test') {
    const inSet = hasElement(set, e);
    return {
      stdout: '',
      stderr: inSet
        ? `Warning: ${e.text} is in set ${name}.\n`
        : `${e.text} is NOT in set ${name}.\n`,
      exitCode: inSet ? 0 : 1,
    };
  }
  if (verb === 'add') {
    if (addElement(set, e) === 'exists' && !exist)
      return fail("Element cannot be added to the set: it's already added");
    return ok();
  }
  if (deleteElement(set, e) === 'missing' && !exist)
    return fail("Element cannot be deleted from the set: it's not added");
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
      return create(state, env, args, exist);
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
    if (r.exitCode !== 0)
      return {
        stdout: '',
        stderr: r.stderr.replace(`${VERSION}: `, `${VERSION}: Error in line ${i + 1}: `),
        exitCode: 1,
      };
  }
  return ok();
}

/**
 * `ipset create NAME TYPE [family inet|inet6] [-4|-6] [hashsize N] [maxelem N] [range A-B]
 * [initval X] [bucketsize N]`, with ipset 7.17's answers to bad options. The lab's nodes are
 * IPv4-only: an inet6 set is refused with a lab note, as are the set types the lab does not model.
 */
import { labNote } from '../model/lab-notes';
import { createSet, findSet, KNOWN_TYPES, SET_TYPES, type IpsetState, type SetType } from './sets';
import type { IpsetEnv } from './cli';
import { fail, usage, type IpsetResult } from './result';
import { parseNumber, parsePortPart } from './element-parse';

const note = (text: string): IpsetResult => ({ stdout: '', stderr: text, exitCode: 1 });

/** ipset_parse_family(): "inet"/"ipv4" and "inet6"/"ipv6" (lower case only). */
const FAMILIES: Readonly<Record<string, 4 | 6>> = { inet: 4, ipv4: 4, inet6: 6, ipv6: 6 };

const WITH_VALUE = ['family', 'hashsize', 'maxelem', 'initval', 'bucketsize', 'range'];

export function createCommand(
  state: IpsetState,
  env: IpsetEnv,
  args: readonly string[],
  exist: boolean,
): IpsetResult {
  const [name, typeName, ...opts] = args;
  if (name === undefined) return usage('Missing mandatory argument to command create');
  if (typeName === undefined) return usage('Missing second mandatory argument to command create');
  if (!SET_TYPES.includes(typeName as SetType)) {
    if (!KNOWN_TYPES.includes(typeName))
      return fail(`Syntax error: typename '${typeName}' is unknown`);
    return note(labNote('ipset.type-unmodelled', { type: typeName, types: SET_TYPES.join(', ') }));
  }
  const type = typeName as SetType;
  let family: 4 | 6 | undefined;
  let hashsize = 1024;
  let maxelem = 65536;
  let initval: number | undefined;
  let range: { from: number; to: number } | undefined;
  for (let i = 0; i < opts.length; i++) {
    const key = opts[i]!;
    if (key === '-4' || key === '-6') {
      if (family !== undefined) return fail('Syntax error: family already specified');
      family = key === '-4' ? 4 : 6;
      continue;
    }
    // bitmap:port takes range only; the hash types all but range.
    if (!WITH_VALUE.includes(key) || (key === 'range') !== (type === 'bitmap:port'))
      return usage(`Unknown argument: \`${key}'`);
    const value = opts[++i];
    if (value === undefined) return usage(`Missing mandatory argument of option \`${key}'`);
    if (key === 'family') {
      if (family !== undefined) return fail('Syntax error: family already specified');
      family = FAMILIES[value];
      if (family === undefined) return fail(`Syntax error: unknown inet family ${value}`);
    } else if (key === 'range') {
      const ports = parsePortPart(value);
      if ('error' in ports) return fail(ports.error);
      if ('note' in ports) return note(labNote('ipset.protocol-unmodelled', ports));
      // A port that parses but no "-to" after it: the range has no end.
      if (!ports.isRange) return usage("Mandatory option `to' is missing");
      range = { from: ports.from, to: ports.to };
    } else {
      const n = parseNumber(value, 0xffffffff);
      if (typeof n === 'string') return fail(`Syntax error: ${n}`);
      if (key === 'hashsize') hashsize = 2 ** Math.ceil(Math.log2(Math.max(64, n)));
      else if (key === 'maxelem') maxelem = n;
      else if (key === 'initval') initval = n;
    }
    // bucketsize: the lab keeps the default 12 (what kube-proxy's sets have).
  }
  if (type === 'bitmap:port' && range === undefined)
    return usage("Mandatory option `range' is missing");
  if (family === 6) return note(labNote('ipset.inet6'));
  const existing = findSet(state, name);
  if (existing !== undefined) {
    if (exist && existing.type === type) return { stdout: '', stderr: '', exitCode: 0 };
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
  return { stdout: '', stderr: '', exitCode: 0 };
}

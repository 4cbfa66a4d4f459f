/**
 * Rule text both ways: reading the rule text kube-proxy sends (knftables writes it as given,
 * e.g. `mark set mark or 0x4000`) into statements, and printing statements as `nft list`
 * prints them back from the kernel (`meta mark set meta mark | 0x00004000`; an anonymous set
 * of one element loses its braces; set elements are sorted). The printed forms were checked
 * with nft 1.0.6 (tests/kernel/nft-views.test.ts).
 */
import type { NftField, NftVerdict, Stmt } from './types';
import { compareKeys, mergeAddressIntervals } from './values';

export class RuleSyntaxError extends Error {}

const FIELD_WORDS: Readonly<Record<string, readonly string[]>> = {
  ip: ['saddr', 'daddr'],
  meta: ['l4proto'],
  th: ['dport'],
};

/** Splits rule text into words; `"…"` stays one token; `{ } , ;` stand alone. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new RuleSyntaxError('unterminated string');
      out.push(text.slice(i, end + 1));
      i = end + 1;
      continue;
    }
    if ('{},;'.includes(c)) {
      out.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && !' \t{},;"'.includes(text[j]!)) j++;
    out.push(text.slice(i, j));
    i = j;
  }
  return out;
}

export function unquote(token: string): string {
  return token.startsWith('"') ? token.slice(1, -1) : token;
}

class Reader {
  i = 0;
  constructor(readonly t: readonly string[]) {}
  peek(n = 0): string | undefined {
    return this.t[this.i + n];
  }
  next(): string {
    const v = this.t[this.i++];
    if (v === undefined) throw new RuleSyntaxError('unexpected end of rule');
    return v;
  }
  expect(word: string): void {
    const v = this.next();
    if (v !== word) throw new RuleSyntaxError(`expected ${word}, got ${v}`);
  }
  done(): boolean {
    return this.i >= this.t.length;
  }
}

function readField(r: Reader, first: string): NftField {
  if (first === 'iifname' || first === 'oifname') return first;
  const words = FIELD_WORDS[first];
  const second = r.next();
  if (words === undefined || !words.includes(second))
    throw new RuleSyntaxError(`unknown selector ${first} ${second}`);
  return `${first} ${second}` as NftField;
}

function readVerdict(r: Reader, word: string): NftVerdict {
  if (word === 'jump' || word === 'goto') return { kind: word, chain: r.next() };
  if (word === 'accept' || word === 'drop' || word === 'return' || word === 'continue')
    return { kind: word };
  throw new RuleSyntaxError(`unknown verdict ${word}`);
}

/** `{ a , b }` after the opening brace: the values up to `}`. */
function readBraced(r: Reader): string[] {
  const out: string[] = [];
  for (;;) {
    const v = r.next();
    if (v === '}') return out;
    if (v === ',') continue;
    out.push(unquote(v));
  }
}

function parseNumber(text: string): number {
  const n = text.startsWith('0x') ? parseInt(text.slice(2), 16) : Number(text);
  if (!Number.isFinite(n)) throw new RuleSyntaxError(`not a number: ${text}`);
  return n;
}

/** Reads kube-proxy's rule text (after the chain name) into statements and a comment. */
export function parseRule(text: string): { stmts: Stmt[]; comment?: string } {
  const r = new Reader(tokenize(text));
  const stmts: Stmt[] = [];
  let comment: string | undefined;
  while (!r.done()) {
    const w = r.next();
    switch (w) {
      case 'comment':
        comment = unquote(r.next());
        break;
      case 'ip':
      case 'meta':
      case 'th':
      case 'iifname':
      case 'oifname': {
        if (w === 'meta' && r.peek() === 'l4proto' && r.peek(2) === 'dnat') {
          // `meta l4proto tcp dnat to …`: the protocol guard of a dnat statement.
          r.next();
          stmts.push({
            k: 'cmp',
            field: 'meta l4proto',
            neg: false,
            values: [r.next()],
            braces: false,
          });
          break;
        }
        const field = readField(r, w);
        if (r.peek() === '.') {
          const key: NftField[] = [field];
          while (r.peek() === '.') {
            r.next();
            key.push(readField(r, r.next()));
          }
          r.expect('vmap');
          stmts.push({ k: 'vmap', key, map: r.next().slice(1) });
          break;
        }
        if (r.peek() === 'vmap') {
          r.next();
          stmts.push({ k: 'vmap', key: [field], map: r.next().slice(1) });
          break;
        }
        let neg = false;
        if (r.peek() === '!=') {
          r.next();
          neg = true;
        }
        const v = r.next();
        if (v.startsWith('@')) stmts.push({ k: 'lookup', field, neg, set: v.slice(1) });
        else if (v === '{')
          stmts.push({ k: 'cmp', field, neg, values: readBraced(r), braces: true });
        else stmts.push({ k: 'cmp', field, neg, values: [unquote(v)], braces: false });
        break;
      }
      case 'ct':
        r.expect('state');
        stmts.push({ k: 'ct-state', states: r.next().split(',') });
        break;
      case 'fib': {
        const dir = r.next();
        if (dir !== 'saddr' && dir !== 'daddr') throw new RuleSyntaxError(`fib ${dir}`);
        r.expect('type');
        stmts.push({ k: 'fib', dir, type: r.next() });
        break;
      }
      case 'numgen': {
        r.expect('random');
        r.expect('mod');
        const mod = parseNumber(r.next());
        r.expect('vmap');
        r.expect('{');
        const entries: { n: number; verdict: NftVerdict }[] = [];
        for (;;) {
          const v = r.next();
          if (v === '}') break;
          if (v === ',') continue;
          r.expect(':');
          entries.push({ n: parseNumber(v), verdict: readVerdict(r, r.next()) });
        }
        stmts.push({ k: 'numgen-vmap', mod, entries });
        break;
      }
      case 'mark': {
        const op = r.next();
        if (op === 'set') {
          r.expect('mark');
          const how = r.next();
          if (how !== 'or' && how !== 'xor') throw new RuleSyntaxError(`mark set mark ${how}`);
          stmts.push({ k: 'mark-set', op: how, value: parseNumber(r.next()) });
        } else if (op === 'and') {
          const mask = parseNumber(r.next());
          const cmp = r.next();
          stmts.push({ k: 'mark-cmp', mask, neg: cmp === '!=', value: parseNumber(r.next()) });
        } else throw new RuleSyntaxError(`mark ${op}`);
        break;
      }
      case 'update': {
        const set = r.next().slice(1);
        r.expect('{');
        const field = readField(r, r.next());
        r.expect('}');
        stmts.push({ k: 'update', set, field });
        break;
      }
      case 'tcp':
      case 'udp':
      case 'sctp':
        r.expect('dport');
        stmts.push({ k: 'l4-dport', proto: w, port: parseNumber(r.next()) });
        break;
      case 'dnat': {
        r.expect('to');
        const to = r.next();
        const colon = to.lastIndexOf(':');
        stmts.push(
          colon < 0
            ? { k: 'dnat', addr: to }
            : { k: 'dnat', addr: to.slice(0, colon), port: parseNumber(to.slice(colon + 1)) },
        );
        break;
      }
      case 'masquerade': {
        const fullyRandom = r.peek() === 'fully-random';
        if (fullyRandom) r.next();
        stmts.push({ k: 'masquerade', fullyRandom });
        break;
      }
      case 'reject':
        stmts.push({ k: 'reject' });
        break;
      case 'counter':
        stmts.push({ k: 'counter', packets: 0, bytes: 0 });
        break;
      default:
        stmts.push({ k: 'verdict', verdict: readVerdict(r, w) });
    }
  }
  return comment === undefined ? { stmts } : { stmts, comment };
}

export function verdictText(v: NftVerdict): string {
  return v.kind === 'jump' || v.kind === 'goto' ? `${v.kind} ${v.chain}` : v.kind;
}

/** nft prints marks (and other 32-bit integers) as 0x%08x. */
export function hex32(n: number): string {
  return '0x' + (n >>> 0).toString(16).padStart(8, '0');
}

function quoteName(field: NftField, v: string): string {
  return field === 'iifname' || field === 'oifname' ? `"${v}"` : v;
}

/** One statement as `nft list` prints it. */
export function stmtText(s: Stmt): string {
  switch (s.k) {
    case 'cmp': {
      const op = s.neg ? '!= ' : '';
      if (s.values.length === 1 && s.values[0] !== undefined)
        return `${s.field} ${op}${quoteName(s.field, s.values[0])}`;
      const sorted =
        s.field === 'ip saddr' || s.field === 'ip daddr'
          ? mergeAddressIntervals(s.values)
          : [...s.values].sort((a, b) => compareKeys([a], [b]));
      if (sorted.length === 1) return `${s.field} ${op}${sorted[0]}`;
      return `${s.field} ${op}{ ${sorted.map((v) => quoteName(s.field, v)).join(', ')} }`;
    }
    case 'lookup':
      return `${s.field} ${s.neg ? '!= ' : ''}@${s.set}`;
    case 'ct-state':
      return `ct state ${s.states.join(',')}`;
    case 'fib':
      return `fib ${s.dir} type ${s.type}`;
    case 'vmap':
      return `${s.key.join(' . ')} vmap @${s.map}`;
    case 'numgen-vmap':
      return `numgen random mod ${s.mod} vmap { ${s.entries.map((e) => `${e.n} : ${verdictText(e.verdict)}`).join(', ')} }`;
    case 'mark-set':
      return `meta mark set meta mark ${s.op === 'or' ? '|' : '^'} ${hex32(s.value)}`;
    case 'mark-cmp':
      return `meta mark & ${hex32(s.mask)} ${s.neg ? '!=' : '=='} ${hex32(s.value)}`;
    case 'update':
      return `update @${s.set} { ${s.field} }`;
    case 'l4-dport':
      return `${s.proto} dport ${s.port}`;
    case 'dnat':
      return `dnat to ${s.addr}${s.port !== undefined ? `:${s.port}` : ''}`;
    case 'masquerade':
      return s.fullyRandom ? 'masquerade fully-random' : 'masquerade';
    case 'reject':
      return 'reject';
    case 'counter':
      return `counter packets ${s.packets} bytes ${s.bytes}`;
    case 'verdict':
      return verdictText(s.verdict);
  }
}

/** A rule as `nft list` prints it (without the handle). */
export function ruleText(rule: { stmts: readonly Stmt[]; comment?: string }): string {
  const body = rule.stmts.map(stmtText).join(' ');
  return rule.comment === undefined ? body : `${body} comment "${rule.comment}"`;
}

/** Anonymous sets the kernel creates for a rule (each takes a handle): braces with 2+ elements, numgen maps. */
export function anonymousSets(stmts: readonly Stmt[]): number {
  let n = 0;
  for (const s of stmts) {
    if (s.k === 'numgen-vmap') n++;
    else if (s.k === 'cmp' && s.braces && s.values.length > 1) n++;
  }
  return n;
}

/**
 * The header columns give back every header as it was: the headers every sender of the engine
 * makes (the experiments' scripts, and commands for the senders they do not reach: resets,
 * ICMP port unreachable, DNS) and made-up ones of any shape. Headers with the fields the
 * columns hold are stored in columns; a header field the columns do not know fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../scenario';
import { runScript } from '../sim/run-script';
import { World } from '../sim/world';
import { HeaderColumns } from './capture-columns';
import { HEADER_COLUMNS, OBJECT_FIELDS } from './capture-shapes';
import { sameDeep } from './capture-test-helpers';
import { captureLog, datapathState } from './state';

/** Every header the World's capture ring was given while `script` ran. */
function headersOf(scenario: string, script: string): object[] {
  const { world } = World.fromScenario(scenario);
  const ring = datapathState(world).capture;
  const headers: object[] = [];
  const push = ring.push.bind(ring);
  ring.push = (seq, t, host, iface, dir, id, packet) => {
    headers.push(packet);
    push(seq, t, host, iface, dir, id, packet);
  };
  runScript(world, script, { readFile: () => undefined, onOutput: () => {} });
  // What the log gives back is what it was given (the last records, same order).
  const log = captureLog(world).map((r) => r.packet);
  expect(log.length).toBeGreaterThan(0);
  log.forEach((p, i) => expect(sameDeep(p, headers[headers.length - log.length + i])).toBe(''));
  return headers;
}

const SCENARIOS = join(__dirname, '../../../scenarios');

/** Commands for senders the experiments leave out. */
const EXTRA = `pod/client$ curl -sS -m 2 http://10.244.1.2:9999/
pod/client$ nc -zuv -w 1 10.244.1.2 9999
pod/client$ nslookup kubernetes.default
pod/client$ ping -c 1 -W 1 10.244.1.2
`;

function engineHeaders(): object[] {
  const all = headersOf(DEFAULT_SCENARIO, EXTRA);
  for (const d of readdirSync(SCENARIOS)) {
    const scenario = readFileSync(join(SCENARIOS, d, 'scenario.yaml'), 'utf8');
    all.push(...headersOf(scenario, readFileSync(join(SCENARIOS, d, 'script.txt'), 'utf8')));
  }
  return all;
}

const KNOWN = new Set<string>([...Object.keys(HEADER_COLUMNS), ...OBJECT_FIELDS]);
const isObjectField = (k: string) => (OBJECT_FIELDS as readonly string[]).includes(k);

describe('header columns', () => {
  const headers = engineHeaders();
  const has = (pred: (h: Record<string, unknown>) => boolean) =>
    headers.some((h) => pred(h as Record<string, unknown>));

  it('were given every kind of header the engine sends', () => {
    const opts = (h: Record<string, unknown>) => h.tcpOptions as Record<string, unknown>;
    expect(has((h) => h.tcpFlags === 'S' && opts(h).mss !== undefined)).toBe(true);
    expect(has((h) => h.tcpFlags === 'S.' && opts(h).wscale !== undefined)).toBe(true);
    expect(has((h) => h.tcpFlags === 'P.' && h.data !== undefined)).toBe(true);
    expect(has((h) => h.tcpFlags === 'F.')).toBe(true);
    expect(has((h) => String(h.tcpFlags).startsWith('R'))).toBe(true);
    expect(has((h) => h.proto === 'udp' && (h.data as { kind?: string })?.kind === 'dns')).toBe(true); // prettier-ignore
    expect(has((h) => h.proto === 'udp' && (h.data as { kind?: string })?.kind === 'text')).toBe(true); // prettier-ignore
    expect(has((h) => h.proto === 'icmp' && h.inner === undefined)).toBe(true);
    expect(has((h) => h.proto === 'icmp' && h.inner !== undefined)).toBe(true);
  });

  it('know every field a header has', () => {
    const unknown = new Set(headers.flatMap((h) => Object.keys(h).filter((k) => !KNOWN.has(k))));
    expect([...unknown]).toEqual([]);
  });

  it('give every header back as it was, in columns unless it has an ICMP field or a DNS payload', () => {
    const cols = new HeaderColumns(4);
    headers.forEach((h, i) => {
      cols.write(i % 4, h);
      expect(sameDeep(cols.read(i % 4), h)).toBe('');
      const data = (h as { data?: { kind: string } }).data;
      const object = Object.keys(h).some(isObjectField) || data?.kind === 'dns';
      expect(cols.inColumns(i % 4)).toBe(!object);
    });
  });
});

/** Headers of any shape: the columns' fields and others, any order, values of any kind. */
const anyValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, NaN, 2 ** 32 - 1, 'tcp', 'S.', ''),
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
);
const timestamps = fc.oneof(
  { weight: 4, arbitrary: fc.record({ val: fc.nat(), ecr: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ ecr: fc.nat(), val: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ val: anyValue, ecr: anyValue, x: anyValue }, { requiredKeys: [] }) }, // prettier-ignore
);
const tcpOptions = fc.oneof(
  fc.record({ ts: timestamps }),
  fc.record({ mss: fc.nat(), sackOK: fc.constant(true), ts: timestamps, wscale: fc.nat(14) }),
  fc.record({ mss: anyValue, sackOK: anyValue, ts: timestamps, wscale: anyValue }, { requiredKeys: [] }), // prettier-ignore
  fc.record({ wscale: fc.nat(), ts: timestamps }),
);
const data = fc.oneof(
  fc.record({ kind: fc.constant('text'), text: fc.string() }),
  fc.record({ text: fc.string(), kind: fc.constant('text') }),
  fc.record({ kind: fc.constant('dns'), message: fc.record({ id: fc.nat() }) }),
  fc.record({ kind: anyValue, text: anyValue }),
);
const fieldValue = (name: string): fc.Arbitrary<unknown> => {
  const kind = (HEADER_COLUMNS as Record<string, string>)[name];
  if (kind === 'tcpOptions') return fc.oneof(tcpOptions, anyValue);
  if (kind === 'textData') return fc.oneof(data, anyValue);
  if (kind === 'string') return fc.oneof(fc.string(), anyValue);
  return anyValue;
};
const FIELDS = [...Object.keys(HEADER_COLUMNS), ...OBJECT_FIELDS, 'other', 'win2'];
const header = fc
  .shuffledSubarray(FIELDS, { minLength: 0 })
  .chain((keys) => fc.tuple(...keys.map((k) => fieldValue(k).map((v) => [k, v] as const))))
  .map((entries) => Object.fromEntries(entries) as object);

describe('header columns, any header', () => {
  it('give each header back as it was (keys, order, values, -0 and NaN), shared or not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(header, fc.boolean()), { maxLength: 30 }),
        (capacity, writes) => {
          const cols = new HeaderColumns(capacity);
          const kept: object[] = [];
          writes.forEach(([h, again], i) => {
            // `again`: the previous header's sub-objects, as a NAT rewrite shares them.
            const prev = kept[kept.length - 1];
            const written = again && prev !== undefined ? { ...prev, ...h } : h;
            cols.write(i % capacity, written);
            kept.push(written);
            expect(sameDeep(cols.read(i % capacity), written)).toBe('');
          });
          // Every row still held reads back as written (later writes left it alone).
          const first = Math.max(0, kept.length - capacity);
          for (let i = first; i < kept.length; i++)
            expect(sameDeep(cols.read(i % capacity), kept[i])).toBe('');
        },
      ),
      { numRuns: 2000 },
    );
  });
});

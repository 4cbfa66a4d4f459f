/**
 * A restore that declares a committed chain again (`:CHAIN`, which flushes it) and writes
 * the rules it had leaves that very chain in place (TableDraft.declare/refill): only chains
 * that end up different are copied, and every view equals a table restored from scratch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNetfilter, iptablesRestore, iptablesSave, type NetfilterState } from './index';
import { findChain } from './state';
import type { Chain } from './types';

const opts = { noflush: true, counters: true };

function nat(chains: Record<string, readonly string[]>, extra = ''): string {
  let t = '*nat\n';
  for (const name of Object.keys(chains)) t += `:${name} - [0:0]\n`;
  for (const [name, rules] of Object.entries(chains))
    for (const r of rules) t += `-A ${name} ${r}\n`;
  return `${t}${extra}COMMIT\n`;
}

function restore(s: NetfilterState, input: string): void {
  expect(iptablesRestore(s, input, opts).stderr).toBe('');
}

function chain(s: NetfilterState, name: string): Chain {
  const c = s.tables.nat === undefined ? undefined : findChain(s.tables.nat, name);
  if (c === undefined) throw new Error(`no chain ${name}`);
  return c;
}

function save(s: NetfilterState): string {
  return iptablesSave(s, { counters: true, nowEpochSeconds: 0 }).stdout;
}

function fresh(input: string): NetfilterState {
  const s = createNetfilter();
  restore(s, input);
  return s;
}

const SEP = [
  '-s 10.1.0.5/32 -j KUBE-MARK-MASQ',
  '-m tcp -p tcp -j DNAT --to-destination 10.1.0.5:80',
];
const before = {
  'KUBE-MARK-MASQ': ['-j MARK --or-mark 0x4000'],
  'KUBE-SEP-A': SEP,
  'KUBE-SVC-A': ['-j KUBE-SEP-A'],
  'KUBE-SERVICES': ['-d 10.96.0.1/32 -p tcp -m tcp --dport 80 -j KUBE-SVC-A'],
};

/** Three restores of `before` (the line cache admits a line on its second sight). */
function warmed(): NetfilterState {
  const s = createNetfilter();
  for (let i = 0; i < 3; i++) restore(s, nat(before));
  return s;
}

describe('a chain declared again with its own rules', () => {
  it('stays the very chain, with the very rules', () => {
    const s = warmed();
    const kept = Object.keys(before).map((name) => chain(s, name));
    restore(s, nat(before));
    expect(Object.keys(before).map((name) => chain(s, name))).toEqual(kept);
    Object.keys(before).forEach((name, i) => expect(chain(s, name)).toBe(kept[i]));
    expect(save(s)).toBe(save(fresh(nat(before))));
  });

  it('is replaced when one rule differs, and only that chain is', () => {
    const s = warmed();
    const svc = chain(s, 'KUBE-SVC-A');
    const sep = chain(s, 'KUBE-SEP-A');
    const changed = {
      ...before,
      'KUBE-SEP-A': [SEP[0]!, '-m tcp -p tcp -j DNAT --to-destination 10.1.0.6:80'],
    };
    restore(s, nat(changed));
    expect(chain(s, 'KUBE-SVC-A')).toBe(svc);
    expect(chain(s, 'KUBE-SEP-A')).not.toBe(sep);
    expect(chain(s, 'KUBE-SEP-A').rules[0]).toBe(sep.rules[0]);
    expect(save(s)).toBe(save(fresh(nat(changed))));
  });

  it('loses the rules that do not come back (fewer, or none)', () => {
    const s = warmed();
    const shorter = { ...before, 'KUBE-SEP-A': [SEP[0]!], 'KUBE-SVC-A': [] };
    restore(s, nat(shorter));
    expect(chain(s, 'KUBE-SEP-A').rules).toHaveLength(1);
    expect(chain(s, 'KUBE-SVC-A').rules).toHaveLength(0);
    expect(save(s)).toBe(save(fresh(nat(shorter))));
  });

  it('no longer jumps once declared: the chain it jumped to can be deleted in the same batch', () => {
    const s = warmed();
    // KUBE-SVC-A declared (flushed) and not refilled: KUBE-SEP-A is unreferenced and empty.
    const input = '*nat\n:KUBE-SVC-A - [0:0]\n:KUBE-SEP-A - [0:0]\n-X KUBE-SEP-A\nCOMMIT\n';
    restore(s, input);
    expect(s.tables.nat && findChain(s.tables.nat, 'KUBE-SEP-A')).toBeUndefined();
    // Refilled with the jump, it is still referenced: the kernel refuses (EBUSY).
    const t = warmed();
    const busy =
      '*nat\n:KUBE-SVC-A - [0:0]\n:KUBE-SEP-A - [0:0]\n-A KUBE-SVC-A -j KUBE-SEP-A\n-X KUBE-SEP-A\nCOMMIT\n';
    const r = iptablesRestore(t, busy, opts);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/Device or resource busy/);
  });

  it('declared twice, keeps only what follows the second declaration', () => {
    const s = warmed();
    const extra = ':KUBE-SEP-A - [0:0]\n-A KUBE-SEP-A ' + SEP[0]! + '\n';
    restore(s, nat(before, extra));
    expect(chain(s, 'KUBE-SEP-A').rules).toHaveLength(1);
    expect(save(s)).toBe(save(fresh(nat({ ...before, 'KUBE-SEP-A': [SEP[0]!] }))));
  });

  it('keeps its rules but takes new counters given with --counters', () => {
    const s = warmed();
    const sep = chain(s, 'KUBE-SEP-A');
    const counted = nat(before).replace(
      `-A KUBE-SEP-A ${SEP[0]!}`,
      `[7:420] -A KUBE-SEP-A ${SEP[0]!}`,
    );
    restore(s, counted);
    expect(chain(s, 'KUBE-SEP-A')).not.toBe(sep);
    expect(chain(s, 'KUBE-SEP-A').rules[0]?.counters).toEqual({ packets: 7, bytes: 420 });
    expect(save(s)).toBe(save(fresh(counted)));
  });
});

/** Chains that jump to each other, as kube-proxy's do. */
const WEB = {
  'KUBE-SERVICES': ['-d 10.96.0.1/32 -j KUBE-SVC-A', '-d 10.96.0.2/32 -j KUBE-SVC-B', '-j RETURN'],
  'KUBE-SVC-A': ['-j KUBE-SEP-A', '-j KUBE-SEP-B'],
  'KUBE-SVC-B': ['-j KUBE-SEP-B'],
  'KUBE-SEP-A': ['-j RETURN'],
  'KUBE-SEP-B': [],
};
const WEB_LINES = [
  ...Object.entries(WEB).flatMap(([name, rules]) => rules.map((r) => `-A ${name} ${r}`)),
  ...Object.keys(WEB).map((name) => `-X ${name}`),
  '-A KUBE-SVC-B -j KUBE-SEP-A',
];

describe('a batch that declares chains again and deletes chains', () => {
  it('does what flushing the declared chains at once does', () => {
    fc.assert(
      fc.property(
        fc.subarray(Object.keys(WEB)),
        fc.array(fc.constantFrom(...WEB_LINES), { maxLength: 16 }),
        (declared, rules) => {
          // Declarations first, as kube-proxy writes them (then each names a chain that exists).
          const lines = [...declared.map((name) => `:${name} - [0:0]`), ...rules];
          const s = createNetfilter();
          const flushed = createNetfilter();
          for (let i = 0; i < 3; i++) {
            restore(s, nat(WEB));
            restore(flushed, nat(WEB));
          }
          const body = lines.map((l) => `${l}\n`).join('');
          // `:CHAIN` on an existing chain flushes it; `-F CHAIN` does that without a refill.
          const asFlush = body.replace(/^:(\S+) - \[0:0\]$/gm, '-F $1');
          const a = iptablesRestore(s, `*nat\n${body}COMMIT\n`, opts);
          const b = iptablesRestore(flushed, `*nat\n${asFlush}COMMIT\n`, opts);
          expect(a).toEqual(b);
          expect(save(s)).toBe(save(flushed));
        },
      ),
      { numRuns: 500, seed: 20_261_203 },
    );
  });
});

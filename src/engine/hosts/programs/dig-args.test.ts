import { describe, expect, it } from 'vitest';
import { digSearchCandidates } from '../dns/resolv';
import { parseDigArgs } from './args';
import { digKeyword } from './dig-plus';

const ok = (...args: string[]) => {
  const r = parseDigArgs(['dig', ...args]);
  if (!r.ok) throw new Error(r.stderr);
  return r;
};

describe('dig arguments (BIND 9.18 dig.c parse_args, dash_option, plus_option)', () => {
  it('takes a type word anywhere, and warns about a second one as dig does', () => {
    // dig.c parse_args(): a word that dns_rdatatype_fromtext() reads is the type, in any
    // position, while no -t/-c came; a second type prints ";; Warning, extra type option".
    expect(ok('SRV', 'web.default.svc.cluster.local').opts).toMatchObject({
      name: 'web.default.svc.cluster.local',
      type: 'SRV',
    });
    expect(ok('x', 'aaaa').opts.type).toBe('AAAA');
    const twice = ok('A', 'x', 'AAAA');
    expect([twice.opts.type, twice.stderr]).toEqual(['AAAA', ';; Warning, extra type option\n']);
    // After -t the type words are names (open_type_class is false).
    expect(ok('-t', 'A', 'NS').opts).toMatchObject({ name: 'NS', type: 'A' });
  });

  it('reads -t, -q, -c IN and -4, and says what the lab does not model', () => {
    expect(ok('-q', 'x', '-tAAAA').opts).toMatchObject({ name: 'x', type: 'AAAA' });
    expect(ok('-4', '-c', 'in', 'x').opts.name).toBe('x');
    const noteOf = (...args: string[]) => {
      const r = parseDigArgs(['dig', ...args]);
      return r.ok ? undefined : [r.exitCode, r.stderr.split(':')[0]];
    };
    expect(noteOf('-6', 'x')).toEqual([1, 'dig']);
    expect(noteOf('-c', 'CH', 'x')).toEqual([1, 'dig']);
    expect(noteOf('x', 'MX')).toEqual([1, 'dig']);
    // SRV is modelled: its note (endpoint names) comes with the answer, not from the arguments.
    expect(ok('SRV', 'x').stderr ?? '').toBe('');
  });

  it('says so when an option or a second name is beyond the lab, and runs the defaults silently', () => {
    // +nocookie would drop the COOKIE line; the lab's dig sends one, so it says it ran without.
    expect(ok('x', '+nocookie').stderr).toBe(
      "lab: the lab's dig does not model +nocookie; it ran as without it\n",
    );
    expect(ok('x', '+cookie', '+recurse', '+nodnssec', '+split=8').stderr).toBeUndefined();
    const two = parseDigArgs(['dig', 'web', 'db']);
    expect(!two.ok && [two.exitCode, two.stderr]).toEqual([
      1,
      "dig: the lab's dig looks up one name per command (dig would look up each of web db)\n",
    ]);
    // get_reverse(): labels reversed, address or not (real dig: foo.in-addr.arpa. PTR).
    expect(ok('-x', 'foo').opts).toMatchObject({ name: 'foo.in-addr.arpa.', type: 'PTR' });
    expect(ok('A', '-x', '10.96.1.1').opts).toMatchObject({ type: 'A' });
  });

  it('asks for . NS when no name is given, as dig does', () => {
    // dig.c parse_args(): "If no lookup specified, search for root" (rdtype NS).
    expect(ok('@10.96.0.10').opts).toMatchObject({ name: '.', type: 'NS' });
  });

  it('applies display options in order; +all sets them all, +noall clears them', () => {
    const d = (...args: string[]) => ok('x', ...args).opts.display;
    expect(d('+noall', '+answer')).toEqual({
      cmd: false,
      comments: false,
      question: false,
      answer: true,
      authority: false,
      additional: false,
      stats: false,
    });
    expect(d('+answer', '+noall')?.answer).toBe(false);
    // printgreeting() runs at the first name: +nocmd before it leaves no banner to print.
    expect(ok('+nocmd', 'x', '+cmd').opts.cmdline).toBe('');
    expect(ok('x', '+nocmd').opts.cmdline).toMatch(/^\n; <<>> DiG /);
  });

  it("knows dig's keywords by the letters its switch reads (FULLCHECK)", () => {
    expect(digKeyword('an')).toBe('answer');
    expect(digKeyword('a')).toBeUndefined();
    expect(digKeyword('ad')).toBe('adflag');
    expect(digKeyword('add')).toBe('additional');
    expect(digKeyword('do')).toBe('dnssec');
    expect(digKeyword('ANSWER')).toBeUndefined(); // the switch is case-sensitive
    expect(digKeyword('shor')).toBe('short');
    expect(digKeyword('sho')).toBeUndefined();
  });

  it('+search walks the search list as dighost next_origin() does', () => {
    const conf = {
      nameservers: ['10.96.0.10'],
      search: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'],
      ndots: 5,
      timeoutSec: 5,
      attempts: 2,
    };
    expect(ok('web', '+search').opts.search).toBe(true);
    expect(ok('web', '+domain=default.svc.cluster.local').opts.search).toBe(true);
    expect(digSearchCandidates('web', conf)).toEqual([
      'web.default.svc.cluster.local.',
      'web.svc.cluster.local.',
      'web.cluster.local.',
      'web.',
    ]);
    // ndots met: only the name as is (next_origin() stops: countlabels > ndots).
    expect(digSearchCandidates('a.b.c.d.e.f', conf)).toEqual(['a.b.c.d.e.f.']);
  });
});

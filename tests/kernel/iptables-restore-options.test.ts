/**
 * iptables-restore's options against iptables-nft-restore 1.8.9 and the kernel, in a throwaway
 * namespace: --verbose (the flush of each table, each rule added; nothing with --noflush),
 * --test (lines read, errors of reading reported, nothing committed), --table (the other
 * tables' sections skipped unread), -h, -V, the ignored -w/-W/-M, -b's warning, and
 * getopt_long's own messages (unknown, ambiguous, missing argument); and iptables-save's.
 */
import { describe, it } from 'vitest';
import { expectSameAsKernel, type Step } from './differential';
import { netnsUnavailableReason } from './netns';

const reason = netnsUnavailableReason();
if (reason !== undefined) console.log(`skipping kernel differential tests: ${reason}`);

const TWO_TABLES = [
  '*filter',
  ':INPUT ACCEPT [0:0]',
  ':FOO - [0:0]',
  '-A INPUT -s 10.0.0.1 -j DROP',
  '-A FOO -j RETURN',
  'COMMIT',
  '*nat',
  ':PREROUTING ACCEPT [0:0]',
  ':BAR - [0:0]',
  '-A PREROUTING -p tcp -j DNAT --to-destination 10.0.0.2',
  'COMMIT',
  '',
].join('\n');

/** A jump to a chain that does not exist: only the commit finds it. */
const MISSING_CHAIN = '*filter\n-A INPUT -s 10.0.0.1 -j NOPE\nCOMMIT\n';
/** A line that does not parse, in the filter section; the nat one is fine. */
const BAD_FILTER = '*filter\n-A INPUT --bogus\nCOMMIT\n*nat\n-A PREROUTING -j ACCEPT\nCOMMIT\n';

const restore = (input: string, ...args: string[]): Step => ({ restore: input, args });
const save: Step = { save: [] };

describe.skipIf(reason !== undefined)('iptables-restore options against the kernel', () => {
  it('--verbose prints each table flush and each rule added, and nothing with --noflush', () => {
    expectSameAsKernel([
      restore(TWO_TABLES, '-v'),
      restore(TWO_TABLES, '-v'),
      restore(TWO_TABLES, '-nv'),
      restore(TWO_TABLES, '--verbose', '--noflush'),
      { iptables: ['-N', 'AAA'] },
      { iptables: ['-N', 'ZZZ'] },
      { iptables: ['-N', 'MMM'] },
      restore(TWO_TABLES, '-c', '-v'),
      restore(MISSING_CHAIN, '-v'),
      save,
    ]);
  });

  it('--test reads every line but commits nothing', () => {
    expectSameAsKernel([
      restore(TWO_TABLES),
      restore(MISSING_CHAIN, '-t'),
      restore(BAD_FILTER, '-t'),
      restore('*filter\n-F\n-X\nCOMMIT\n', '--test', '-v'),
      restore(TWO_TABLES, '-tv'),
      save,
    ]);
  });

  it('--table restores one table and skips the others unread', () => {
    expectSameAsKernel([
      restore(BAD_FILTER, '-T', 'nat'),
      restore(TWO_TABLES, '--table=filter', '-v'),
      restore(TWO_TABLES, '--table', 'nat', '-n'),
      restore(TWO_TABLES, '-Tnat', '-n'),
      restore(TWO_TABLES, '-T', 'raw'),
      save,
    ]);
  });

  it('takes, ignores or refuses the other options as getopt_long reads them', () => {
    expectSameAsKernel([
      restore('', '-V'),
      restore('', '--version'),
      restore('', '-h'),
      restore('', '--help'),
      restore('', '--foo'),
      restore('', '-x'),
      restore('', '-T'),
      restore('', '--table'),
      restore('', '--ver'),
      restore('', '--test=1'),
      restore('', '-4'),
      restore('', '--ipv6'),
      restore('', 'one', 'two'),
      restore(TWO_TABLES, '-b'),
      restore(TWO_TABLES, '-M', '/bin/true', '--tes'),
      restore(TWO_TABLES, '-w', '5', '-W', '100'),
      restore(TWO_TABLES, '--wait=5', '--wait-interval=100'),
      restore(TWO_TABLES, '--wait', '5', '-nc'),
      restore(TWO_TABLES, '-vw'),
      save,
    ]);
  });

  it("iptables-save's options, as getopt_long reads them", () => {
    expectSameAsKernel([
      restore(TWO_TABLES),
      { save: ['-V'] },
      { save: ['--ver'] },
      { save: ['-t', 'nosuch', '-V'] },
      { save: ['-ct', 'filter'] },
      { save: ['--counters', '--table', 'nat'] },
      { save: ['--table=nat'] },
      { save: ['-tnat'] },
      { save: ['-t', 'filter', '-t', 'nat'] },
      { save: ['-d', '-t', 'filter'] },
      { save: ['--dump', '-M', '/bin/true', '--modprobe=/bin/true', '-t', 'nat'] },
      { save: ['-b', '-t', 'filter'] },
      { save: ['-t'] },
      { save: ['-t', 'nosuch'] },
      { save: ['-h'] },
      { save: ['-4'] },
      { save: ['--ipv4'] },
      { save: ['--foo'] },
      { save: ['--counters=1'] },
      { save: ['extra'] },
      { save: ['-b', 'extra'] },
    ]);
  });

  it('iptables takes -w and ignores it, and says it ignores -W', () => {
    expectSameAsKernel([
      { iptables: ['-w', '-A', 'INPUT', '-j', 'ACCEPT'] },
      { iptables: ['-w', '5', '-W', '100000', '-A', 'INPUT', '-j', 'ACCEPT'] },
      { iptables: ['--wait=5', '--wait-interval=100000', '-S', 'INPUT'] },
      { iptables: ['-W', '-W', '-L', 'INPUT', '-n'] },
      { iptables: ['-w', '-w', '-L', 'INPUT', '-n'] },
      { iptables: ['-W', '5', '-W', '6', '-S', 'INPUT'] },
      { iptables: ['-W', 'x', '-w', '-S', 'INPUT'] },
      { iptables: ['-W', '', '-w', '-S', 'INPUT'] },
      { iptables: ['-W', '1000000', '-w', '-S', 'INPUT'] },
      { iptables: ['-W', '5x', '-w', '-S', 'INPUT'] },
      { iptables: ['-W', '-5', '-w', '-S', 'INPUT'] },
      { iptables: ['--wait-interval', '-w', '-S', 'INPUT'] },
      { iptables: ['--wait-interval=-5', '-w', '-S', 'INPUT'] },
      { iptables: ['-w', 'x', '-S', 'INPUT'] },
      { iptables: ['-w', '5x', '-S', 'INPUT'] },
      { iptables: ['-w', '0x10', '-S', 'INPUT'] },
      { iptables: ['--wait=abc', '-S', 'INPUT'] },
      { iptables: ['-S', 'INPUT', '-w'] },
    ]);
  });
});

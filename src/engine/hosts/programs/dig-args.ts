/**
 * dig's command line as BIND 9.18's bin/dig/dig.c parse_args() reads it, for the one lookup the
 * lab's dig makes: `@SERVER`, `+keyword[=value]` (dig-plus.ts), `-4 -6 -h -v -c -p -q -t -x`,
 * and words — a type or class word sets the query's type or class wherever it stands (until -t
 * or -c closes that, as open_type_class does), any other word is the name. Options apply in
 * order (`+noall +answer` shows the answer, `+answer +noall` nothing).
 */
import { ipIsValid } from '../../model/ip';
import { labNote } from '../../model/lab-notes';
import type { RRType } from '../dns/message';
import type { Parsed } from './args';
import { DIG_HELP } from './dig-help';
import { classWord, typeWord } from './dig-words';
import type { DigPlusState } from './dig-plus';
import { applyDisplayOption, digKeyword, digOptionUnmodelled, digValueAccepted } from './dig-plus';
import { digUint } from './numbers';
import type { DigOptions } from './types';
import { DIG_VERSION } from '../output/dig';

/** dig's usage() (after `Invalid option: …`), on stderr. */
export const DIG_USAGE = [
  'Usage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}',
  '            {global-d-opt} host [@local-server] {local-d-opt}',
  '            [ host [@local-server] {local-d-opt} [...]]',
  '',
  'Use "dig -h" (or "dig -h | more") for complete list of options',
  '',
].join('\n');

/** The types the lab's DNS messages carry. */
const LAB_TYPES: readonly RRType[] = [
  'A',
  'AAAA',
  'CNAME',
  'SOA',
  'PTR',
  'NS',
  'TXT',
  'SRV',
  'ANY',
];

function fail<T>(stderr: string, exitCode: number, stdout?: string): Parsed<T> {
  return stdout === undefined
    ? { ok: false, stderr, exitCode }
    : { ok: false, stderr, exitCode, stdout };
}

const invalid = <T>(option: string): Parsed<T> =>
  fail(`Invalid option: ${option}\n${DIG_USAGE}`, 1);

/** dig's parse_uint() failing: the reason on stdout, then fatal() on stderr. */
function digParseError<T>(desc: string, text: string, reason: string, exitCode: number): Parsed<T> {
  return fail(`dig: Couldn't parse ${desc}\n`, exitCode, `invalid ${desc} '${text}': ${reason}\n`);
}

class DigLine {
  server: string | undefined;
  port = 53;
  name: string | undefined;
  type: RRType | undefined;
  classSet = false;
  openTypeClass = true;
  tcp = false;
  tries = 3;
  timeoutMs = 5000;
  search = false;
  ndots: number | undefined;
  domain: string | undefined;
  /** The names, in order (-q, -x and words): dig makes one lookup for each. */
  readonly names: string[] = [];
  showSearch = false;
  /** printgreeting() at the first name: the banner, or '' when printcmd was off then. */
  cmdline: string | undefined;
  stderr = '';
  /** plus_option()'s `;; Invalid option` for a word of `=` only (it goes on). */
  stdout = '';
  readonly plus: DigPlusState = {
    display: {
      question: true,
      answer: true,
      authority: true,
      additional: true,
      comments: true,
      stats: true,
    },
    printcmd: true,
    short: false,
  };

  constructor(readonly argv: readonly string[]) {}

  greet(): void {
    if (this.cmdline !== undefined) return;
    const p = this.plus;
    const found = this.server !== undefined ? '; (1 server found)\n' : '';
    const globals = `${p.short ? ' +short' : ''}${p.printcmd ? ' +cmd' : ''}`;
    this.cmdline = p.printcmd
      ? `\n; <<>> DiG ${DIG_VERSION} <<>> ${this.argv.slice(1).join(' ')}\n${found};; global options:${globals}\n`
      : '';
  }

  /** A type from a word or -t: the lab's own, or a note that its messages cannot carry it. */
  setType(upper: string): Parsed<DigOptions> | undefined {
    if (this.type !== undefined) this.stderr += ';; Warning, extra type option\n';
    if (!(LAB_TYPES as readonly string[]).includes(upper))
      return fail(labNote('dig.type', { type: upper }), 1);
    this.type = upper as RRType;
    return undefined;
  }

  setClass(upper: string): Parsed<DigOptions> | undefined {
    if (this.classSet) this.stderr += ';; Warning, extra class option\n';
    this.classSet = true;
    return upper === 'IN' ? undefined : fail(labNote('dig.class', { dnsClass: upper }), 1);
  }

  word(a: string): Parsed<DigOptions> | undefined {
    if (this.openTypeClass) {
      if (/^ixfr$/i.test(a)) {
        this.stderr += ';; Warning, ixfr requires a serial number\n';
        return undefined;
      }
      const t = /^ixfr=/i.test(a) ? 'IXFR' : typeWord(a);
      if (t !== undefined) return this.setType(t);
      const c = classWord(a);
      if (c !== undefined) return this.setClass(c);
    }
    this.lookUp(a);
    return undefined;
  }

  lookUp(name: string): void {
    this.name = name;
    this.names.push(name);
    this.greet();
  }

  /** One `+…` word (without the `+`). */
  plusOption(word: string): Parsed<DigOptions> | undefined {
    // strtok_r(option, "=") skips leading '=' (none left: dig says so and goes on) and cuts
    // the word at the next '=': the error shows the word up to there.
    const body = word.replace(/^=+/, '');
    if (body === '') {
      this.stdout += `;; Invalid option ${word}\n`;
      return undefined;
    }
    const eq = body.indexOf('=');
    const shown = word.slice(0, word.length - body.length) + (eq < 0 ? body : body.slice(0, eq));
    const value = eq < 0 || eq === body.length - 1 ? undefined : body.slice(eq + 1);
    const cmd = shown.replace(/^=+/, '');
    const state = !/^no/i.test(cmd);
    const name = digKeyword(state ? cmd : cmd.slice(2));
    if (name === undefined || !digValueAccepted(name, state, value !== undefined))
      return invalid(`+${shown}`);
    if (applyDisplayOption(name, state, this.plus)) return undefined;
    if (name === 'tcp' || name === 'vc') this.tcp = state;
    else if (name === 'search' || name === 'defname') this.search = state;
    else if (name === 'showsearch') this.search = this.showSearch = state;
    else if (['timeout', 'tries', 'retry', 'retries', 'ndots', 'domain'].includes(name))
      return this.valued(name, value ?? '');
    else if (digOptionUnmodelled(name, state, value !== undefined))
      this.stderr += labNote('dig.unmodelled', { option: `+${cmd}` });
    return undefined;
  }

  valued(name: string, value: string): Parsed<DigOptions> | undefined {
    if (name === 'domain') {
      this.domain = value;
      return undefined;
    }
    const [desc, max] =
      name === 'timeout'
        ? ['timeout', 0xffff]
        : name === 'tries'
          ? ['tries', 0xffffffff]
          : name === 'ndots'
            ? ['ndots', 0xffff]
            : ['retries', 0xfffffffe];
    const r = digUint(value, max);
    if (typeof r === 'string') return digParseError(desc, value, r, 10);
    if (name === 'timeout') this.timeoutMs = Math.max(1, r) * 1000;
    else if (name === 'tries') this.tries = Math.max(1, r);
    else if (name === 'ndots') this.ndots = r;
    else this.tries = r + 1;
    return undefined;
  }

  /**
   * One `-…` word; returns how many following words it took, or the failure. dash_option():
   * leading letters of -[46dhimnruv] take no value; then one letter takes the rest of the word
   * or the next word.
   */
  dashOption(word: string, next: string | undefined): Parsed<DigOptions> | number {
    let option = word.slice(1);
    while (option.length > 0 && '46dhimnruv'.includes(option[0]!)) {
      const letter = option[0]!;
      if (letter === '6') return fail(labNote('dig.ipv6'), 1);
      if (letter === 'h') return fail('', 0, DIG_HELP);
      if (letter === 'v') return fail(`DiG ${DIG_VERSION}\n`, 0);
      if (letter === 'd' || letter === 'u')
        return fail(labNote('dig.option', { option: `-${letter}` }), 1);
      if (option.length === 1) return 0;
      option = option.slice(1);
    }
    const letter = option[0] ?? '';
    const value = option.length > 1 ? option.slice(1) : next;
    if (value === undefined) return invalid(`-${option}`);
    const took = option.length > 1 ? 0 : 1;
    if ('bfky'.includes(letter) && letter !== '')
      return fail(labNote('dig.option', { option: `-${letter}` }), 1);
    if (letter === 'p') {
      const r = digUint(value, 0xffff);
      if (typeof r === 'string') return digParseError('port number', value, r, 1);
      this.port = r;
    } else if (letter === 't') {
      this.openTypeClass = false;
      const t = /^ixfr=/i.test(value) ? 'IXFR' : typeWord(value);
      const r =
        t === undefined || t === 'IXFR'
          ? void (this.stderr += `;; Warning, ignoring invalid type ${value}\n`)
          : this.setType(t);
      if (r !== undefined) return r;
    } else if (letter === 'c') {
      this.openTypeClass = false;
      const c = classWord(value);
      const r =
        c === undefined
          ? void (this.stderr += `;; Warning, ignoring invalid class ${value}\n`)
          : this.setClass(c);
      if (r !== undefined) return r;
    } else if (letter === 'q') this.lookUp(value);
    else if (letter === 'x') {
      // get_reverse(): an IPv6 address gives an ip6.arpa name; anything else has its labels
      // reversed under in-addr.arpa, address or not (dig -x foo asks foo.in-addr.arpa.).
      if (value.includes(':')) return fail(labNote('dig.ipv6'), 1);
      this.type ??= 'PTR';
      this.lookUp(`${value.split('.').reverse().join('.')}.in-addr.arpa.`);
    } else return invalid(`-${option}`);
    return took;
  }
}

/** `dig [@SERVER] [-p PORT] [-t TYPE] [-q NAME] [TYPE] NAME [+options]` (see the file's head). */
export function parseDigArgs(argv: readonly string[]): Parsed<DigOptions> {
  const line = new DigLine(argv);
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    let r: Parsed<DigOptions> | number | undefined;
    if (a.startsWith('@')) {
      line.server = a.slice(1);
      // Real dig looks a server name up (getaddrinfo) first; the lab's dig does not.
      if (!ipIsValid(line.server)) return fail(labNote('dig.server', { server: line.server }), 1);
    } else if (a.startsWith('+')) r = line.plusOption(a.slice(1));
    else if (a.startsWith('-')) {
      r = line.dashOption(a, argv[i + 1]);
      if (typeof r === 'number') i += r;
    } else r = line.word(a);
    if (r !== undefined && typeof r !== 'number') return r;
  }
  if (line.names.length > 1) return fail(labNote('dig.names', { names: line.names.join(' ') }), 1);
  // No name: dig asks the root for its name servers, whatever type was given.
  const noName = line.name === undefined;
  line.greet();
  const type = noName ? 'NS' : (line.type ?? 'A');
  const { display, printcmd, short } = line.plus;
  const opts: DigOptions = {
    name: line.name ?? '.',
    type,
    server: line.server,
    port: line.port,
    short,
    tcp: line.tcp,
    tries: line.tries,
    timeoutMs: line.timeoutMs,
    args: argv.slice(1),
    display: { ...display, cmd: printcmd },
    cmdline: line.cmdline ?? '',
    search: line.search || line.domain !== undefined,
    ...(line.showSearch ? { showSearch: true } : {}),
    ...(line.ndots === undefined ? {} : { ndots: line.ndots }),
    ...(line.domain === undefined ? {} : { domain: line.domain }),
  };
  return {
    ok: true,
    opts,
    ...(line.stdout === '' ? {} : { stdout: line.stdout }),
    ...(line.stderr === '' ? {} : { stderr: line.stderr }),
  };
}

/**
 * The tools' command lines → program options (the subset the lab models). A line the lab cannot
 * run returns the tool's own complaint where it is known, else a one-line lab message.
 */
import { ipIsValid } from '../../model/ip';
import { CURL_LONG, CURL_SHORT } from './curl-options';
import { curlSeconds, digUint, strtonum } from './numbers';
import type { CurlOptions, CurlTarget, NcOptions, NslookupOptions } from './types';
import { labNote } from '../../model/lab-notes';

export type Parsed<T> =
  | {
      readonly ok: true;
      readonly opts: T;
      /** What the tool prints on stdout about its arguments before it runs (nslookup). */
      readonly stdout?: string;
      /** What it warns about its arguments on stderr before it runs (dig's extra type). */
      readonly stderr?: string;
    }
  | {
      readonly ok: false;
      readonly stderr: string;
      readonly exitCode: number;
      /** What the tool printed on stdout before it gave up (dig's "invalid …" line). */
      readonly stdout?: string;
    };

function fail<T>(stderr: string, exitCode: number, stdout?: string): Parsed<T> {
  return stdout === undefined
    ? { ok: false, stderr, exitCode }
    : { ok: false, stderr, exitCode, stdout };
}

const CURL_TRY = "curl: try 'curl --help' or 'curl --manual' for more information\n";

/** curl's complaint about `option` (the command-line word as typed), exit 2 (PARAM_…). */
function curlOptionError<T>(option: string, problem: string): Parsed<T> {
  return fail(`curl: option ${option}: ${problem}\n${CURL_TRY}`, 2);
}

/**
 * An option word the lab's curl does not take: curl's own `is unknown` when curl 7.88 has no
 * such option either, else a lab line saying the lab's curl does not model it (`-I`, `-k`…).
 */
function curlUnmodelled<T>(word: string, shown?: string): Parsed<T> {
  const letter = word.startsWith('--') ? undefined : /^-[sSv]*(.)/.exec(word)?.[1];
  const known = letter !== undefined ? CURL_SHORT.includes(letter) : CURL_LONG.has(word.slice(2));
  if (!known) return curlOptionError(word, 'is unknown');
  const option = shown ?? (letter !== undefined ? `-${letter}` : word);
  return fail(labNote('curl.option', { option }), 2);
}

/**
 * curl 7.88's URL parser on http://HOST[:PORT][/PATH]: an empty port is the scheme's, leading
 * zeros are read away, and a port above 65535 is a bad URL (CURLUE_BAD_PORT_NUMBER, reported
 * as error 3); port 0 is tried (checked with curl 7.88.1).
 */
function curlTarget(url: string): CurlTarget | Parsed<CurlOptions> {
  const m = /^(?:(\w+):\/\/)?([^/:?#]+)(?::(\d*))?([/?][^#]*)?$/.exec(url);
  const badUrl = (): Parsed<CurlOptions> =>
    fail('curl: (3) URL using bad/illegal format or missing URL\n', 3);
  if (m === null) return badUrl();
  const port = m[3] === undefined || m[3] === '' ? 80 : Number(m[3]);
  if (port > 65535) return badUrl();
  const scheme = (m[1] ?? 'http').toLowerCase();
  if (scheme !== 'http') return fail(labNote('curl.scheme', { scheme }), 1);
  const path = m[4] === undefined ? '/' : m[4].startsWith('/') ? m[4] : `/${m[4]}`;
  const host = m[2] ?? '';
  const effectiveUrl = `http://${host}${m[3] === undefined ? '' : `:${m[3]}`}${path}`;
  return { url, effectiveUrl, host, port, path };
}

/** The long options the lab's curl takes, by the short letter they stand for. */
const CURL_LONG_MODELLED: Readonly<Record<string, string>> = {
  silent: 's',
  'show-error': 'S',
  verbose: 'v',
  include: 'i',
  head: 'I',
  'max-time': 'm',
  output: 'o',
  'write-out': 'w',
};

/**
 * `curl [-sSviI] [-m SECONDS] [--connect-timeout SECONDS] [-o FILE] [-w FORMAT] URL…` with
 * http://HOST[:PORT][/PATH] URLs, fetched in order. Short options combine as curl's do
 * (`-sSm5`, `-sSo /dev/null`); a number is read as curl reads it (numbers.ts curlSeconds), 0
 * being no limit. Each -o goes with one URL, in order. (A malformed URL among several fails
 * the whole command here; curl would fetch the others.)
 */
export function parseCurlArgs(argv: readonly string[]): Parsed<CurlOptions> {
  let silent = false;
  let showError = false;
  let verbose = false;
  let include = false;
  let head = false;
  let maxTimeMs: number | undefined;
  let connectTimeoutMs: number | undefined;
  let writeOut: string | undefined;
  const urls: string[] = [];
  const outputs: string[] = [];
  let i = 1;
  /** One option of `word` (as typed): `letter` is its short form, `attached` its glued value. */
  const take = (
    word: string,
    letter: string,
    attached: string,
  ): Parsed<CurlOptions> | undefined => {
    if (letter === 's') silent = true;
    else if (letter === 'S') showError = true;
    else if (letter === 'v') verbose = true;
    else if (letter === 'i') include = true;
    else if (letter === 'I') head = true;
    else {
      const text = attached !== '' ? attached : argv[++i];
      if (text === undefined) return curlOptionError(word, 'requires parameter');
      if (letter === 'm' || letter === 'connect-timeout') {
        const r = curlSeconds(text);
        if (typeof r === 'string') return curlOptionError(word, r);
        if (letter === 'm') maxTimeMs = r.ms;
        else connectTimeoutMs = r.ms;
      } else if (letter === 'o') {
        if (text !== '-' && text !== '/dev/null')
          return fail(labNote('curl.output', { path: text }), 2);
        outputs.push(text);
      } else if (text.startsWith('@')) return curlUnmodelled(`--write-out`, `-w ${text}`);
      else writeOut = text;
    }
    return undefined;
  };
  for (; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith('--')) {
      const name = a.slice(2);
      const letter = name === 'connect-timeout' ? name : CURL_LONG_MODELLED[name];
      if (letter === undefined) return curlUnmodelled(a);
      const r = take(a, letter, '');
      if (r !== undefined) return r;
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const letter = a[j]!;
        if (!'sSviImow'.includes(letter)) return curlUnmodelled(a);
        const r = take(a, letter, 'mow'.includes(letter) ? a.slice(j + 1) : '');
        if (r !== undefined) return r;
        if ('mow'.includes(letter)) break;
      }
    } else urls.push(a);
  }
  if (urls.length === 0) return fail(CURL_TRY, 2);
  const targets: CurlTarget[] = [];
  for (const [k, url] of urls.entries()) {
    const t = curlTarget(url);
    // A transfer error (3): -s keeps it quiet unless -S shows it again, as for any error.
    if ('ok' in t) return !t.ok && t.exitCode === 3 && silent && !showError ? fail('', 3) : t;
    targets.push(outputs[k] === undefined ? t : { ...t, output: outputs[k] });
  }
  const [first, ...more] = targets as [CurlTarget, ...CurlTarget[]];
  return {
    ok: true,
    opts: {
      ...first,
      ...(more.length > 0 ? { more } : {}),
      silent,
      showError,
      verbose,
      ...(include ? { include } : {}),
      ...(head ? { head } : {}),
      maxTimeMs,
      connectTimeoutMs,
      ...(writeOut === undefined ? {} : { writeOut }),
    },
  };
}

/** netcat-openbsd's usage (usage(1)), on stderr. */
const NC_USAGE = [
  'usage: nc [-46CDdFhklNnrStUuvZz] [-I length] [-i interval] [-M ttl]',
  '\t  [-m minttl] [-O length] [-P proxy_username] [-p source_port]',
  '\t  [-q seconds] [-s sourceaddr] [-T keyword] [-V rtable] [-W recvlimit]',
  '\t  [-w timeout] [-X proxy_protocol] [-x proxy_address[:port]]',
  '\t  [destination] [port]',
  '',
].join('\n');

/** The option letters of netcat-openbsd 1.219's getopt string. */
const NC_OPTIONS = '46CDdFhIiklMmNnOPpqrSsTtUuVvWwXxZz';

/** INT_MAX / 1000: the largest -w nc takes. */
const NC_MAX_WAIT = Math.floor(2147483647 / 1000);

/**
 * `nc [-zvun] [-w SECONDS] HOST PORT`, stdin as the data to send. Options as getopt() reads
 * them (`-zvw 2`, `-zvw2`); -w as strtonum(…, 0, INT_MAX / 1000).
 */
export function parseNcArgs(argv: readonly string[], stdin = ''): Parsed<NcOptions> {
  let zero = false;
  let verbose = false;
  let udp = false;
  let waitMs: number | undefined;
  const rest: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('-') || a === '-') {
      rest.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const letter = a[j]!;
      if (letter === 'z') zero = true;
      else if (letter === 'v') verbose = true;
      else if (letter === 'u') udp = true;
      else if (letter === 'n') continue;
      else if (letter === 'w') {
        const text = j + 1 < a.length ? a.slice(j + 1) : argv[++i];
        if (text === undefined)
          return fail(`nc: option requires an argument -- 'w'\n${NC_USAGE}`, 1);
        const wait = strtonum(text, 0, NC_MAX_WAIT);
        if (typeof wait === 'string') return fail(`nc: timeout ${wait}: ${text}\n`, 1);
        waitMs = wait * 1000;
        break;
      } else if (NC_OPTIONS.includes(letter))
        // A real nc option the lab's nc does not have (listening, proxies, source port…).
        return fail(labNote('nc.option', { option: letter }), 1);
      else return fail(`nc: invalid option -- '${letter}'\n${NC_USAGE}`, 1);
    }
  }
  const [host, portText] = rest;
  if (host === undefined) return fail(NC_USAGE, 1);
  if (portText === undefined) return fail('nc: missing port number\n', 1);
  // nc scans a range `LOW-HIGH`; the lab's nc connects to one port.
  if (/^\d+-\d+$/.test(portText)) return fail(labNote('nc.range', { ports: portText }), 1);
  const port = strtonum(portText, 1, 65535);
  if (typeof port === 'string') return fail(`nc: port number ${port}: ${portText}\n`, 1);
  return { ok: true, opts: { host, port, udp, zero, verbose, waitMs, stdin } };
}

export { parseDigArgs } from './dig-args';

/**
 * `nslookup [-port=N] NAME [SERVER]`. A bad port is not fatal to nslookup: it says so on stdout
 * (parse_uint()'s line, as dig's) and keeps port 53.
 */
/** nslookup's query type options (man nslookup: -type=mx, -query=mx, -q=mx). */
const QUERY_TYPE_OPTION = /^-(type|querytype|query|q)=/i;

export function parseNslookupArgs(argv: readonly string[]): Parsed<NslookupOptions> {
  let port = 53;
  let notes = '';
  const rest: string[] = [];
  for (const a of argv.slice(1)) {
    if (a.startsWith('-port=')) {
      const text = a.slice(6);
      const r = digUint(text, 0xffff);
      if (typeof r === 'string') notes += `invalid port '${text}': ${r}\n`;
      else port = r;
    } else if (QUERY_TYPE_OPTION.test(a)) {
      // Ignoring it would print addresses as if they were the records asked for.
      const type = a.slice(a.indexOf('=') + 1);
      if (type.toUpperCase() !== 'A') return fail(labNote('nslookup.type', { type }), 1);
    } else if (a.startsWith('-')) continue;
    else rest.push(a);
  }
  const [name, server] = rest;
  if (name === undefined) return fail(labNote('nslookup.interactive'), 1);
  // Real nslookup looks a server name up first; the lab's does not.
  if (server !== undefined && !ipIsValid(server))
    return fail(labNote('nslookup.server', { server }), 1);
  const opts = { name, server, port };
  return notes === '' ? { ok: true, opts } : { ok: true, opts, stdout: notes };
}

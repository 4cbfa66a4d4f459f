/**
 * The tools' command lines → program options (the subset the lab models). A line the lab cannot
 * run returns the tool's own complaint where it is known, else a one-line lab message.
 */
import type { RRType } from '../dns/message';
import type { CurlOptions, CurlTarget, DigOptions, NcOptions, NslookupOptions } from './types';

export type Parsed<T> =
  | { readonly ok: true; readonly opts: T }
  | { readonly ok: false; readonly stderr: string; readonly exitCode: number };

function fail<T>(stderr: string, exitCode: number): Parsed<T> {
  return { ok: false, stderr, exitCode };
}

function seconds(v: string | undefined): number | undefined {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) && n >= 0 ? Math.round(n * 1000) : undefined;
}

function curlTarget(url: string): CurlTarget | Parsed<CurlOptions> {
  const m = /^(?:(\w+):\/\/)?([^/:?#]+)(?::(\d+))?([/?][^#]*)?$/.exec(url);
  if (m === null) return fail('curl: (3) URL using bad/illegal format or missing URL\n', 3);
  const scheme = (m[1] ?? 'http').toLowerCase();
  if (scheme !== 'http')
    return fail(`curl: (1) the lab's curl speaks plain HTTP only (no ${scheme})\n`, 1);
  const path = m[4] === undefined ? '/' : m[4].startsWith('/') ? m[4] : `/${m[4]}`;
  return { url, host: m[2] ?? '', port: m[3] === undefined ? 80 : Number(m[3]), path };
}

/**
 * `curl [-sSv] [-m SECONDS] [--connect-timeout SECONDS] URL…` with http://HOST[:PORT][/PATH]
 * URLs, fetched in order. (A malformed URL among several fails the whole command here; curl
 * would fetch the others.)
 */
export function parseCurlArgs(argv: readonly string[]): Parsed<CurlOptions> {
  let silent = false;
  let showError = false;
  let verbose = false;
  let maxTimeMs: number | undefined;
  let connectTimeoutMs: number | undefined;
  const urls: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--silent') silent = true;
    else if (a === '--show-error') showError = true;
    else if (a === '--verbose') verbose = true;
    else if (a === '-m' || a === '--max-time') maxTimeMs = seconds(argv[++i]);
    else if (a === '--connect-timeout') connectTimeoutMs = seconds(argv[++i]);
    else if (/^-m\d/.test(a)) maxTimeMs = seconds(a.slice(2));
    else if (/^-[sSv]+$/.test(a)) {
      silent ||= a.includes('s');
      showError ||= a.includes('S');
      verbose ||= a.includes('v');
    } else if (a.startsWith('-'))
      return fail(
        `curl: option ${a}: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n`,
        2,
      );
    else urls.push(a);
  }
  if (urls.length === 0)
    return fail("curl: try 'curl --help' or 'curl --manual' for more information\n", 2);
  const targets: CurlTarget[] = [];
  for (const url of urls) {
    const t = curlTarget(url);
    if ('ok' in t) return t;
    targets.push(t);
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
      maxTimeMs,
      connectTimeoutMs,
    },
  };
}

/** `nc [-zvun] [-w SECONDS] HOST PORT`, stdin as the data to send. */
export function parseNcArgs(argv: readonly string[], stdin = ''): Parsed<NcOptions> {
  let zero = false;
  let verbose = false;
  let udp = false;
  let waitMs: number | undefined;
  const rest: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '-w') waitMs = seconds(argv[++i]);
    else if (/^-[zvun]*w\d+$/.test(a) || /^-[zvun]+$/.test(a)) {
      const w = /w(\d+)$/.exec(a);
      if (w !== null) waitMs = seconds(w[1]);
      const letters = a.replace(/w\d+$/, '');
      zero ||= letters.includes('z');
      verbose ||= letters.includes('v');
      udp ||= letters.includes('u');
    } else if (a.startsWith('-')) return fail(`nc: invalid option -- '${a.slice(1, 2)}'\n`, 1);
    else rest.push(a);
  }
  const [host, portText] = rest;
  const port = Number(portText);
  if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65535)
    return fail('usage: nc [-46CDdFhklNnrStUuvZz] [-I length] [-i interval] [-M ttl]\n', 1);
  return { ok: true, opts: { host, port, udp, zero, verbose, waitMs, stdin } };
}

const TYPES: readonly RRType[] = ['A', 'AAAA', 'CNAME', 'SOA', 'PTR', 'NS', 'TXT', 'SRV', 'ANY'];

/** `dig [@SERVER] [-p PORT] NAME [TYPE] [+short] [+tcp] [+tries=N] [+timeout=N] [-x ADDR]`. */
export function parseDigArgs(argv: readonly string[]): Parsed<DigOptions> {
  let server: string | undefined;
  let port = 53;
  let name: string | undefined;
  let type: RRType = 'A';
  let short = false;
  let tcp = false;
  let tries = 3;
  let timeoutMs = 5000;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    const upper = a.toUpperCase() as RRType;
    if (a.startsWith('@')) server = a.slice(1);
    else if (a === '-p') port = Number(argv[++i]);
    else if (a === '-x') {
      const ip = argv[++i] ?? '';
      name = `${ip.split('.').reverse().join('.')}.in-addr.arpa.`;
      type = 'PTR';
    } else if (a === '+short') short = true;
    else if (a === '+tcp' || a === '+vc') tcp = true;
    else if (a.startsWith('+tries=')) tries = Math.max(1, Number(a.slice(7)) || 1);
    else if (a.startsWith('+retry=')) tries = Math.max(1, (Number(a.slice(7)) || 0) + 1);
    else if (a.startsWith('+timeout=')) timeoutMs = Math.max(1, Number(a.slice(9)) || 1) * 1000;
    else if (a.startsWith('+')) continue;
    else if (TYPES.includes(upper) && name !== undefined) type = upper;
    else if (a.startsWith('-')) return fail(`Invalid option: ${a}\n`, 1);
    else name = a;
  }
  return {
    ok: true,
    opts: {
      name: name ?? '.',
      type,
      server,
      port,
      short,
      tcp,
      tries,
      timeoutMs,
      args: argv.slice(1),
    },
  };
}

/** `nslookup [-port=N] NAME [SERVER]`. */
export function parseNslookupArgs(argv: readonly string[]): Parsed<NslookupOptions> {
  let port = 53;
  const rest: string[] = [];
  for (const a of argv.slice(1)) {
    if (a.startsWith('-port=')) port = Number(a.slice(6));
    else if (a.startsWith('-')) continue;
    else rest.push(a);
  }
  const [name, server] = rest;
  if (name === undefined)
    return fail('nslookup: the lab runs nslookup with a name only (no interactive mode)\n', 1);
  return { ok: true, opts: { name, server, port } };
}

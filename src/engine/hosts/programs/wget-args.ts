/**
 * GNU Wget 1.21.3's command line (getopt_long, main.c), for the options a learner types:
 * `-q`, `-O FILE` (`-O-`: stdout), `-S`, `--spider`, `-T SECONDS`, `-t TRIES`, `-nv`, `-v`,
 * `-U AGENT`, `--header 'Name: value'`. Another of wget's options gets the lab's note; one wget
 * does not have gets wget's own `unrecognized option` (both lists from `wget --help`). The
 * messages and exit codes are the real wget's (checked with /usr/bin/wget 1.21.3).
 */
import { getoptLong, type LongOption } from '../../commands/getopt-long';
import { labNote } from '../../model/lab-notes';
import type { WgetOptions } from './types';
import { WGET_USER_AGENT } from '../apps/http';

type Parsed =
  | { readonly ok: true; readonly opts: WgetOptions }
  | { readonly ok: false; readonly stderr: string; readonly exitCode: number };

const USAGE = "Usage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n";
const fail = (stderr: string, exitCode: number): Parsed => ({ ok: false, stderr, exitCode });

/** main.c's optstring: every short option of `wget --help` (`:` after one with a value). */
const SHORT = '46A:B:D:EFHI:KLNO:P:Q:R:ST:U:VX:a:bcde:hi:kl:mn:o:pqrt:vw:x';

/** The long options the lab models, by the letter (or name) they stand for. */
const MODELLED: readonly LongOption[] = [
  ['quiet', 0, 'q'],
  ['verbose', 0, 'v'],
  ['no-verbose', 0, 'nv'],
  ['output-document', 1, 'O'],
  ['server-response', 0, 'S'],
  ['spider', 0, 'spider'],
  ['timeout', 1, 'T'],
  ['tries', 1, 't'],
  ['user-agent', 1, 'U'],
  ['header', 1, 'header'],
];

/** wget's other long options (`wget --help`): `=` marks one that takes a value. */
const OTHERS = `version help background execute= output-file= append-output= debug input-file=
  force-html base= config= no-config rejected-log= continue start-pos= progress= show-progress
  timestamping no-if-modified-since no-use-server-timestamps dns-timeout= connect-timeout=
  read-timeout= wait= waitretry= random-wait no-proxy quota= bind-address= limit-rate=
  no-dns-cache restrict-file-names= inet4-only inet6-only prefer-family= retry-connrefused
  retry-on-http-error= user= password= ask-password use-askpass= no-iri local-encoding=
  remote-encoding= unlink xattr no-directories force-directories no-host-directories
  protocol-directories cut-dirs= directory-prefix= http-user= http-password= no-cache
  default-page= adjust-extension ignore-length max-redirect= proxy-user= proxy-password=
  referer= save-headers no-http-keep-alive no-cookies load-cookies= save-cookies=
  keep-session-cookies post-data= post-file= method= body-data= body-file=
  content-disposition content-on-error auth-no-challenge secure-protocol= https-only
  no-check-certificate certificate= certificate-type= private-key= private-key-type=
  ca-certificate= ca-directory= crl-file= pinnedpubkey= random-file= egd-file= ciphers= no-hsts
  hsts-file= ftp-user= ftp-password= no-remove-listing no-glob no-passive-ftp
  preserve-permissions retr-symlinks recursive level= delete-after convert-links
  convert-file-only backup-converted backups= mirror page-requisites strict-comments accept=
  reject= accept-regex= reject-regex= regex-type= domains= exclude-domains= follow-ftp
  follow-tags= ignore-tags= ignore-case span-hosts relative include-directories=
  exclude-directories= no-parent no-clobber report-speed= trust-server-names`
  .trim()
  .split(/\s+/)
  .map((w): LongOption => [w.replace('=', ''), w.endsWith('=') ? 1 : 0, `--${w.replace('=', '')}`]); // prettier-ignore

/** cmd_time(): a number with an optional s, m, h, d or w suffix, in ms. */
function timePeriod(value: string): number | string {
  const m = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*([smhdw]?)\s*$/i.exec(value);
  if (m === null)
    return /^\s*-/.test(value) ? `Negative time period ‘${value}’` : `Invalid time period ‘${value}’`; // prettier-ignore
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[(m[2] ?? '').toLowerCase()] ?? 1; // prettier-ignore
  return Math.round(Number(m[1]) * unit * 1000);
}

/** http://HOST[:PORT][/PATH], as url_parse reads it (a bare HOST[:PORT] is http://). */
function parseUrl(
  url: string,
): { host: string; port: number; path: string; url: string } | Parsed | undefined {
  const m = /^(?:([a-zA-Z][\w+.-]*):\/\/)?([^/:?#]+)(?::(\d*))?([/?][^#]*)?(#.*)?$/.exec(url);
  if (m === null) return undefined;
  const scheme = (m[1] ?? 'http').toLowerCase();
  if (scheme !== 'http') return fail(labNote('wget.scheme', { scheme }), 1);
  const port = m[3] === undefined || m[3] === '' ? 80 : Number(m[3]);
  if (port === 0 || port > 65535) return fail(`${url}: Bad port number.\n`, 1);
  const raw = m[4] ?? '/';
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  const host = (m[2] ?? '').toLowerCase();
  return { host, port, path, url: `http://${host}${port === 80 ? '' : `:${port}`}${path}` };
}

/** check_user_specified_header(): `Name: value`, the name without spaces, no newline. */
const validHeader = (h: string) => /^[^:\s]+:/.test(h) && !/[\r\n]/.test(h);

/** `columns`: the terminal's width; `stderrIsTty`: whether wget's stderr is the terminal. */
export function parseWgetArgs(argv: readonly string[], columns = 80, stderrIsTty = true): Parsed {
  const g = getoptLong(argv.slice(1), SHORT, [...MODELLED, ...OTHERS]);
  if (g.error !== undefined) {
    // wget words the -n error its own way (main.c: `-n` takes v, c, d, H or p).
    return fail(`wget: ${g.error}\n${USAGE}`, 2);
  }
  let verbosity: WgetOptions['verbosity'] = 'verbose';
  let quiet = false;
  let output: string | undefined;
  let serverResponse = false;
  let spider = false;
  let timeoutMs: number | undefined;
  let tries = 20;
  let userAgent = WGET_USER_AGENT;
  const headers: string[] = [];
  for (const { letter, value = '' } of g.options) {
    if (letter === 'q') quiet = true;
    else if (letter === 'v') verbosity = 'verbose';
    else if (letter === 'nv' || (letter === 'n' && value === 'v')) verbosity = 'brief';
    else if (letter === 'n' && !'cdHp'.includes(value))
      return fail(`wget: illegal option -- \`-n${value}'\n${USAGE}`, 1);
    else if (letter === 'O') output = value;
    else if (letter === 'S') serverResponse = true;
    else if (letter === 'spider') spider = true;
    else if (letter === 'T') {
      const ms = timePeriod(value);
      if (typeof ms === 'string') return fail(`wget: --timeout: ${ms}\n`, 2);
      timeoutMs = ms === 0 ? undefined : ms;
    } else if (letter === 't') {
      if (/^inf$/i.test(value)) tries = 0;
      else if (/^\d+$/.test(value)) tries = Number(value);
      else return fail(labNote('wget.tries', { value }), 2);
    } else if (letter === 'U') userAgent = value;
    else if (letter === 'header') {
      if (!validHeader(value)) return fail(`wget: --header: Invalid header ‘${value}’.\n`, 2);
      headers.push(value);
    } else {
      const shown = letter.startsWith('--') ? letter : letter === 'n' ? `-n${value}` : `-${letter}`; // prettier-ignore
      return fail(labNote('wget.option', { option: shown }), 2);
    }
  }
  if (g.words.length === 0) return fail(`wget: missing URL\n${USAGE}`, 1);
  if (g.words.length > 1) return fail(labNote('wget.urls'), 2);
  const url = parseUrl(g.words[0] ?? '');
  if (url === undefined) return fail(`${g.words[0] ?? ''}: Invalid URL.\n`, 1);
  if ('ok' in url) return url;
  return {
    ok: true,
    opts: {
      ...url,
      output,
      verbosity: quiet ? 'quiet' : verbosity,
      serverResponse,
      spider,
      timeoutMs,
      tries,
      userAgent,
      headers,
      columns,
      progress: stderrIsTty ? 'bar' : 'dot',
    },
  };
}

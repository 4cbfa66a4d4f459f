/**
 * Client programs (curl, nc, dig, nslookup) as state machines inside the hosts state: they open
 * sockets, react to socket events and to their own timer, and record a transcript of what
 * happened. Their output text is a pure function of that transcript (../output).
 */
import type { DnsMessage, RRType } from '../dns/message';
import type { ResolvConf } from '../dns/resolv';
import type { SockAddr } from '../types';
import type { StdioWrite } from '../../model/stdio';

/** What a glibc stub resolver lookup (getaddrinfo, AF_UNSPEC) is doing. */
export interface ResolverState {
  readonly name: string;
  readonly conf: ResolvConf;
  readonly candidates: readonly string[];
  index: number;
  attempt: number;
  socket?: number | undefined;
  ids: { A: number; AAAA: number };
  answers: { A?: DnsMessage | undefined; AAAA?: DnsMessage | undefined };
  deadline: number;
  result?:
    | { readonly ok: true; readonly addrs: readonly string[] }
    | { readonly ok: false; readonly reason: 'nxdomain' | 'timeout' | 'refused' }
    | undefined;
}

/** One line of a program's transcript (virtual time `t`, ms). */
export type TranscriptEntry =
  | { readonly t: number; readonly kind: 'resolved'; readonly addr: string }
  | { readonly t: number; readonly kind: 'resolve-failed'; readonly reason: string }
  | { readonly t: number; readonly kind: 'trying'; readonly addr: string; readonly port: number }
  | { readonly t: number; readonly kind: 'connected'; readonly local: SockAddr }
  | { readonly t: number; readonly kind: 'connect-failed'; readonly errno: string }
  | { readonly t: number; readonly kind: 'sent'; readonly text: string }
  | { readonly t: number; readonly kind: 'received'; readonly text: string }
  | { readonly t: number; readonly kind: 'reset' }
  /** curl: the next URL of the command line starts (its connection number). */
  | { readonly t: number; readonly kind: 'next-url'; readonly index: number }
  /** curl: the transfer goes over the kept-alive connection number `conn`. */
  | { readonly t: number; readonly kind: 'reused'; readonly conn: number }
  | { readonly t: number; readonly kind: 'eof' }
  /** wget: try number `try` of the URL starts (its `--DATE--` line). */
  | { readonly t: number; readonly kind: 'wget-try'; readonly try: number }
  | { readonly t: number; readonly kind: 'deadline' }
  | { readonly t: number; readonly kind: 'udp-refused' }
  | {
      readonly t: number;
      readonly kind: 'dns-query';
      readonly server: SockAddr;
      readonly message: DnsMessage;
      readonly tcp: boolean;
    }
  | {
      readonly t: number;
      readonly kind: 'dns-response';
      readonly server: SockAddr;
      readonly message: DnsMessage;
      readonly tcp: boolean;
    }
  | { readonly t: number; readonly kind: 'dns-timeout'; readonly server: SockAddr }
  | { readonly t: number; readonly kind: 'dns-refused'; readonly server: SockAddr }
  | {
      readonly t: number;
      readonly kind: 'dns-unexpected-source';
      readonly from: SockAddr;
      readonly expected: SockAddr;
    }
  /** ping: an echo reply, as received (its source and TTL). */
  | { readonly t: number; readonly kind: 'echo-reply'; readonly seq: number; readonly from: string; readonly ttl: number } // prettier-ignore
  /** ping: an ICMP error about one of its requests. */
  | { readonly t: number; readonly kind: 'echo-error'; readonly seq: number; readonly from: string; readonly type: number; readonly code: number } // prettier-ignore
  /** ping: a request the local stack refused (EMSGSIZE), read from the socket's error queue. */
  | { readonly t: number; readonly kind: 'local-error'; readonly seq: number; readonly mtu: number } // prettier-ignore
  /** ping: the statistics, when it ends. */
  | { readonly t: number; readonly kind: 'ping-done'; readonly transmitted: number; readonly timeMs: number; readonly pipe: number }; // prettier-ignore

/** One URL of a curl command line. */
export interface CurlTarget {
  /** As typed. */
  readonly url: string;
  /** As curl prints it (%{url_effective}): scheme, host and port as typed, path `/` at least. */
  readonly effectiveUrl: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** This URL's -o (curl pairs the -o options with the URLs in order): `-` or /dev/null. */
  readonly output?: string | undefined;
}

/** The first URL's target, the flags, and the further URLs (fetched in order). */
export interface CurlOptions extends CurlTarget {
  /** URLs after the first, fetched one after the other with the same flags. */
  readonly more?: readonly CurlTarget[] | undefined;
  readonly silent: boolean;
  readonly showError: boolean;
  readonly verbose: boolean;
  /** -i / --include: the response's head before its body, on the output. */
  readonly include?: boolean | undefined;
  /** -I / --head: a HEAD request; the head is the output. */
  readonly head?: boolean | undefined;
  /** -m / --max-time, ms. */
  readonly maxTimeMs?: number | undefined;
  /** --connect-timeout, ms (curl's default: 300 s). */
  readonly connectTimeoutMs?: number | undefined;
  /** -w / --write-out FORMAT, printed after each transfer. */
  readonly writeOut?: string | undefined;
}

/** GNU Wget 1.21.3 fetching one http:// URL (./wget-args.ts). */
export interface WgetOptions {
  /** The URL as wget prints it: `http://HOST[:PORT]/PATH` (the port only when not 80). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** -O: `-` (stdout) or a file; undefined: the URL's file name (index.html for `/`). */
  readonly output?: string | undefined;
  /** -q, -nv, or the default (-v). */
  readonly verbosity: 'quiet' | 'brief' | 'verbose';
  /** -S / --server-response: the response's head on stderr. */
  readonly serverResponse: boolean;
  /** --spider: HEAD, nothing saved. */
  readonly spider: boolean;
  /** -T / --timeout, ms (connect and read); undefined: the kernel's connect timeout. */
  readonly timeoutMs?: number | undefined;
  /** -t / --tries (20); 0: no limit. */
  readonly tries: number;
  /** -U / --user-agent (Wget/1.21.3). */
  readonly userAgent: string;
  /** --header lines, in order, sent after wget's own. */
  readonly headers: readonly string[];
  /** The terminal's width: the progress bar takes it (wget reads it from stderr's tty). */
  readonly columns: number;
  /** The bar when stderr is a terminal, else the dots (bar_set_params: isatty(stderr)). */
  readonly progress: 'bar' | 'dot';
}

export interface NcOptions {
  readonly host: string;
  readonly port: number;
  readonly udp: boolean;
  readonly zero: boolean;
  readonly verbose: boolean;
  /** -w, ms. */
  readonly waitMs?: number | undefined;
  /** What the program reads on stdin (sent once connected). */
  readonly stdin: string;
}

export interface DigOptions {
  readonly name: string;
  readonly type: RRType;
  /** `@server`; absent: the first nameserver of resolv.conf. */
  readonly server?: string | undefined;
  readonly port: number;
  readonly short: boolean;
  readonly tcp: boolean;
  /** +tries (default 3) and +timeout (default 5 s). */
  readonly tries: number;
  readonly timeoutMs: number;
  /** The argv after `dig`, for the banner line. */
  readonly args: readonly string[];
  /** BIND ≤ 9.16: unconnected UDP sockets, `reply from unexpected source` (default: 9.18). */
  readonly legacy?: boolean | undefined;
  /** The display options (+[no]cmd, +[no]comments, sections, +[no]stats); default all on. */
  readonly display?: DigDisplayOptions | undefined;
  /**
   * printgreeting()'s text, made at the first name: the banner lines, '' when +nocmd came
   * before the name. Undefined: the banner from `args`.
   */
  readonly cmdline?: string | undefined;
  /** +search (or +domain=): walk the search list as dighost's next_origin() does. */
  readonly search?: boolean | undefined;
  /** +showsearch: print the NXDOMAIN answers of the names tried before the last, too. */
  readonly showSearch?: boolean | undefined;
  /** +ndots=N (default: resolv.conf's); +domain=NAME replaces the search list. */
  readonly ndots?: number | undefined;
  readonly domain?: string | undefined;
}

export interface DigDisplayOptions {
  readonly cmd: boolean;
  readonly comments: boolean;
  readonly question: boolean;
  readonly answer: boolean;
  readonly authority: boolean;
  readonly additional: boolean;
  readonly stats: boolean;
}

/** iputils ping: `-c`, `-i`, `-W`, `-w`, `-q`, `-n`, `-s`, a numeric destination. */
export interface PingOptions {
  readonly host: string;
  /** -c; undefined: until -w or the lab's limit. */
  readonly count?: number | undefined;
  /** -i, ms (default 1000). */
  readonly intervalMs: number;
  /** -W: how long to wait for the last answers, ms (default 10 s: MAXWAIT). */
  readonly timeoutMs: number;
  /** -w, ms. */
  readonly deadlineMs?: number | undefined;
  readonly quiet: boolean;
  /** -s: data bytes (56). */
  readonly size: number;
}

export interface NslookupOptions {
  readonly name: string;
  readonly server?: string | undefined;
  readonly port: number;
}

interface Base {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: number;
  done: boolean;
  exitCode?: number | undefined;
  /** The program's own timer (absolute ms). */
  wakeAt?: number | undefined;
  /** Hard stop of the lab (a program that would run forever is killed like Ctrl-C). */
  readonly killAt: number;
  readonly transcript: TranscriptEntry[];
  socket?: number | undefined;
  resolver?: ResolverState | undefined;
}

export interface CurlState extends Base {
  readonly kind: 'curl';
  readonly opts: CurlOptions;
  phase: 'resolve' | 'connect' | 'transfer' | 'done';
  addr?: string | undefined;
  response: string;
  /** Which URL is being fetched (0: opts' own, i: opts.more[i - 1]). */
  index: number;
  /** When the current transfer started (-m counts from here). */
  transferStart: number;
  /** Connections opened so far (curl numbers them #0, #1, …). */
  connections: number;
  /** curl's DNS cache: host name → the address it connected to. */
  dns: Record<string, string>;
}

export interface NcState extends Base {
  readonly kind: 'nc';
  readonly opts: NcOptions;
  phase: 'resolve' | 'connect' | 'probe' | 'io' | 'done';
  addr?: string | undefined;
  probesLeft: number;
  output: string;
}

export interface DnsToolState extends Base {
  readonly kind: 'dig' | 'nslookup';
  readonly dig?: DigOptions | undefined;
  readonly nslookup?: NslookupOptions | undefined;
  readonly conf: ResolvConf;
  /** The queries still to make: [name, type]; nslookup adds its AAAA lookup as it goes. */
  queue: [string, RRType][];
  /** nslookup: candidates of the current A lookup (search list). */
  candidates: string[];
  tryNo: number;
  queryId: number;
  cookie: string;
  server: SockAddr;
}

export interface PingState extends Base {
  readonly kind: 'ping';
  readonly opts: PingOptions;
  /** The ICMP echo identifier (what an ICMP socket's port is). */
  readonly id: number;
  transmitted: number;
  received: number;
  errors: number;
  /** Highest sequence number answered (iputils `acked`) and the largest in-flight count. */
  pipe: number;
  /** When the first and the last request left. */
  firstSent: number;
  lastSent: number;
}

export interface WgetState extends Base {
  readonly kind: 'wget';
  readonly opts: WgetOptions;
  /** `wait`: sleeping between two tries (wget's --waitretry). */
  phase: 'resolve' | 'connect' | 'transfer' | 'wait' | 'done';
  /** The address the name resolved to (wget's DNS cache: later tries do not ask again). */
  addr?: string | undefined;
  tryNo: number;
  response: string;
}

export type ProgramState = CurlState | NcState | DnsToolState | PingState | WgetState;

/** A program's result once it has finished. */
export interface ProgramResult {
  readonly done: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /** The writes in order, where `2>&1` depends on it (model/stdio.ts). */
  readonly writes?: readonly StdioWrite[];
}

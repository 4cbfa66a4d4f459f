/**
 * dig's output (BIND 9.18.49-1~deb12u3-Debian, bookworm's dnsutils), from a transcript. Layout
 * checked byte for byte against the real dig (golden tests); rules from bin/dig/dig.c:
 *
 * - the banner `; <<>> DiG VERSION <<>> ARGS`, `; (1 server found)` when `@server` was given,
 *   `;; global options: +cmd`; printed with the answer, or after the errors when none came;
 * - `;; WARNING: .local is reserved for Multicast DNS …` for names under `.local` (9.18.19+),
 *   `;; WARNING: recursion requested but not available` when rd is set and ra is not (CoreDNS's
 *   own answers);
 * - records in BIND's debug style: owner, TTL, class, type, data in columns 0/24/32/40/48,
 *   reached with tabs (8 columns each) or a single space when a field is too wide;
 * - `;; Query time: N msec` (virtual ms), `;; SERVER: IP#PORT(ARG) (UDP)`, `;; WHEN:` from the
 *   lab clock in UTC, `;; MSG SIZE  rcvd: N`;
 * - failures: `;; communications error to IP#53: timed out` (or `connection refused`) per try,
 *   then `;; no servers could be reached`, exit 9. `+short` prints only the answers' data.
 * - legacy (BIND ≤ 9.16, from its source, not run here): `;; reply from unexpected source: A#53,
 *   expected B#53` per stray reply and `;; connection timed out; no servers could be reached`.
 */
import { labNote } from '../../model/lab-notes';
import type { DnsMessage, ResourceRecord } from '../dns/message';
import { dnsWireSize, rdataText } from '../dns/message';
import type { DigDisplayOptions, DigOptions, TranscriptEntry } from '../programs/types';
import type { ToolOutput } from './curl';
import { digWhen, unixMs } from './time';

export const DIG_VERSION = '9.18.49-1~deb12u3-Debian';
export const DIG_LEGACY_VERSION = '9.16.50-Debian';

/** masterdump.c indent(): from column `width` to column `to` with tabs (8 wide), else a space. */
function padTo(width: number, to: number): [string, number] {
  const target = Math.max(to, width + 1);
  const tabs = Math.floor(target / 8) - Math.floor(width / 8);
  if (tabs > 0) return ['\t'.repeat(tabs) + ' '.repeat(target % 8), target];
  return [' '.repeat(target - width), target];
}

function columns(
  first: string,
  fields: readonly (readonly [string, number])[],
  width0 = first.length,
): string {
  let line = first;
  let width = width0;
  for (const [text, to] of fields) {
    const [pad, at] = padTo(width, to);
    line += pad + text;
    width = at + text.length;
  }
  return line;
}

/** A record line as dig prints it (BIND's debug style: columns 24, 32, 40, 48). */
export function rrLine(rr: ResourceRecord): string {
  return columns(rr.name, [
    [String(rr.ttl), 24],
    ['IN', 32],
    [rr.data.type, 40],
    [rdataText(rr.data), 48],
  ]);
}

/**
 * A question line: `;NAME`, then class and type at columns 32 and 40 — counted from after the
 * `;`, which dig prints before the record text (the real dig: a 31-character name gets a tab).
 */
export function questionLine(name: string, type: string): string {
  return columns(
    `;${name}`,
    [
      ['IN', 32],
      [type, 40],
    ],
    name.length,
  );
}

/** dig.c printgreeting(): the banner, as the parser made it or from the arguments. */
function greeting(opts: DigOptions, legacy: boolean): string {
  if (opts.cmdline !== undefined && !legacy) return opts.cmdline;
  if (opts.short) return '';
  const version = legacy ? DIG_LEGACY_VERSION : DIG_VERSION;
  const found = opts.server !== undefined ? '; (1 server found)\n' : '';
  return `\n; <<>> DiG ${version} <<>> ${opts.args.join(' ')}\n${found};; global options: +cmd\n`;
}

type DnsQueryEntry = Extract<TranscriptEntry, { kind: 'dns-query' }>;
type DnsResponseEntry = Extract<TranscriptEntry, { kind: 'dns-response' }>;

const ALL_SHOWN: DigDisplayOptions = {
  cmd: true,
  comments: true,
  question: true,
  answer: true,
  authority: true,
  additional: true,
  stats: true,
};

function flags(m: DnsMessage): string {
  const f = [
    ['qr', m.qr],
    ['aa', m.aa],
    ['tc', m.tc],
    ['rd', m.rd],
    ['ra', m.ra],
    ['ad', m.ad],
    ['cd', m.cd],
  ] as const;
  return f.flatMap(([n, on]) => (on ? [` ${n}`] : [])).join('');
}

/** dns_message_sectiontotext(): title and trailing blank line with comments; empty: nothing. */
function section(title: string, lines: readonly string[], comments: boolean): string {
  if (lines.length === 0) return '';
  const body = lines.map((l) => `${l}\n`).join('');
  return comments ? `;; ${title} SECTION:\n${body}\n` : body;
}

/** dig.c printmessage() and received() for the answer, in the order they print. */
function fullAnswer(
  opts: DigOptions,
  q: DnsQueryEntry,
  r: DnsResponseEntry,
  epochSeconds: number,
  legacy: boolean,
  first: boolean,
): string {
  const show = opts.display ?? ALL_SHOWN;
  const m = r.message;
  const name = m.question[0]?.name ?? '.';
  // printmessage() prints the greeting once, then clears it.
  let out = show.cmd && first ? greeting(opts, legacy) : '';
  if (show.comments) {
    out += ';; Got answer:\n';
    if (!legacy && /(^|\.)local\.$/i.test(name))
      out +=
        ';; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n';
    out += `;; ->>HEADER<<- opcode: QUERY, status: ${m.rcode}, id: ${m.id}\n`;
    const additional = m.additional.length + (m.edns === undefined ? 0 : 1);
    out += `;; flags:${flags(m)}; QUERY: ${m.question.length}, ANSWER: ${m.answer.length}, AUTHORITY: ${m.authority.length}, ADDITIONAL: ${additional}\n`;
    if (m.rd && !m.ra) out += ';; WARNING: recursion requested but not available\n';
    out += '\n';
    // The OPT pseudosection is printed with the comments only (printmessage()).
    if (m.edns !== undefined) {
      out += `;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: ${m.edns.udpSize}\n`;
      if (m.edns.cookie !== undefined) {
        const sent = q.message.edns?.cookie;
        out += `; COOKIE: ${m.edns.cookie}${m.edns.cookie === sent ? ' (echoed)' : ' (good)'}\n`;
      }
    }
  }
  const c = show.comments;
  if (show.question)
    out += section(
      'QUESTION',
      m.question.map((qq) => questionLine(qq.name, qq.type)),
      c,
    );
  if (show.answer) out += section('ANSWER', m.answer.map(rrLine), c);
  if (show.authority) out += section('AUTHORITY', m.authority.map(rrLine), c);
  if (show.additional) out += section('ADDITIONAL', m.additional.map(rrLine), c);
  if (!show.stats) return out;
  const ms = Math.floor(r.t - q.t);
  const server = `${r.server.addr}#${r.server.port}(${opts.server ?? r.server.addr})`;
  out += `;; Query time: ${ms} msec\n;; SERVER: ${server} (${r.tcp ? 'TCP' : 'UDP'})\n`;
  out += `;; WHEN: ${digWhen(unixMs(epochSeconds, r.t))}\n;; MSG SIZE  rcvd: ${dnsWireSize(m)}\n\n`;
  return out;
}

/**
 * The lab note for SRV targets that name an endpoint by its dashed IP
 * (`10-244-1-2.SVC.NS.svc.…`): a real endpoint with a hostname would be named by it instead.
 */
function endpointNameNote(answers: readonly ResourceRecord[]): string {
  const dashedTarget = answers.some(
    (rr) => rr.data.type === 'SRV' && /^\d+-\d+-\d+-\d+\.[^.]+\.[^.]+\.svc\./.test(rr.data.target),
  );
  return dashedTarget ? labNote('dig.srv') : '';
}

export function digOutput(
  opts: DigOptions,
  tr: readonly TranscriptEntry[],
  env: { readonly epochSeconds: number },
): ToolOutput {
  const legacy = opts.legacy === true;
  // Each answer with the query it answers. With +search only the last name's answer is
  // printed; +showsearch prints the NXDOMAINs before it too (dighost recv_done()).
  const answered: [DnsQueryEntry, DnsResponseEntry][] = [];
  let asked: DnsQueryEntry | undefined;
  for (const e of tr) {
    if (e.kind === 'dns-query') asked = e;
    if (e.kind === 'dns-response' && asked !== undefined) answered.push([asked, e]);
  }
  const printed = opts.showSearch === true ? answered : answered.slice(-1);
  let out = legacy ? greeting(opts, true).replace(/^\n/, '') : '';
  for (const e of tr) {
    if (e.kind === 'dns-unexpected-source' && legacy)
      out += `;; reply from unexpected source: ${e.from.addr}#${e.from.port}, expected ${e.expected.addr}#${e.expected.port}\n`;
    if (legacy) continue;
    if (e.kind === 'dns-timeout')
      out += `;; communications error to ${e.server.addr}#${e.server.port}: timed out\n`;
    if (e.kind === 'dns-refused')
      out += `;; communications error to ${e.server.addr}#${e.server.port}: connection refused\n`;
  }
  if (printed.length > 0) {
    if (opts.short) {
      // short_answer() prints the answer's data when +answer is on (+short sets it).
      const shown = opts.display?.answer ?? true;
      const answer = shown ? printed.flatMap(([, r]) => r.message.answer) : [];
      const lines = answer.map((rr) => `${rdataText(rr.data)}\n`).join('');
      return { stdout: out + lines, stderr: endpointNameNote(answer), exitCode: 0 };
    }
    const full = printed
      .map(([q, r], k) => fullAnswer(opts, q, r, env.epochSeconds, legacy, k === 0))
      .join('');
    return {
      stdout:
        out +
        (legacy
          ? full.replace(/^\n; <<>>[^\n]*\n(; \(1 server found\)\n)?;; global options: \+cmd\n/, '')
          : full),
      stderr: endpointNameNote(printed.flatMap(([, r]) => r.message.answer)),
      exitCode: 0,
    };
  }
  if (legacy)
    return {
      stdout: `${out};; connection timed out; no servers could be reached\n`,
      stderr: '',
      exitCode: 9,
    };
  return {
    // dighost prints the greeting with this error whatever +cmd says after the name.
    stdout: `${out}${greeting(opts, false)};; no servers could be reached\n`,
    stderr: '',
    exitCode: 9,
  };
}

export function digExitCode(tr: readonly TranscriptEntry[]): number {
  return tr.some((e) => e.kind === 'dns-response') ? 0 : 9;
}

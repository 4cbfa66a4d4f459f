/**
 * nslookup's output (BIND 9.18, bookworm), from a transcript; layout checked against the real
 * nslookup (golden tests), rules from bin/dig/nslookup.c and dighost.c:
 *
 * - every reply with rd set and ra clear adds `;; Got recursion not available from SERVER`
 *   (CoreDNS's own answers), a SERVFAIL adds `;; Got SERVFAIL reply from SERVER`;
 * - NXDOMAIN for a name of the search list moves on silently; the final A answer prints
 *   `Server:\t\tSERVER`, `Address:\tSERVER#53`, a blank line, then `Name:\tNAME` / `Address: IP`
 *   per A record (`NAME\tcanonical name = TARGET.` for a CNAME), or `** server can't find NAME:
 *   NXDOMAIN`; the AAAA answer that follows prints its records (none in an IPv4 cluster);
 * - `Non-authoritative answer:` when the A answer lacks aa; `*** Can't find NAME: No answer`
 *   when neither A nor AAAA had records;
 * - timeouts: `;; communications error to SERVER#53: timed out` per try, then `;; no servers
 *   could be reached`; a blank line always ends the output. Exit 1 on any failure.
 */
import type { TranscriptEntry } from '../programs/types';
import type { ToolOutput } from './curl';

function bare(name: string): string {
  return name.length > 1 && name.endsWith('.') ? name.slice(0, -1) : name;
}

export function nslookupOutput(tr: readonly TranscriptEntry[]): ToolOutput {
  let out = '';
  let failed = false;
  let aNoAnswer = false;
  for (let i = 0; i < tr.length; i++) {
    const e = tr[i] as TranscriptEntry;
    if (e.kind === 'dns-timeout' || e.kind === 'dns-refused') {
      const why = e.kind === 'dns-timeout' ? 'timed out' : 'connection refused';
      out += `;; communications error to ${e.server.addr}#${e.server.port}: ${why}\n`;
      continue;
    }
    if (e.kind !== 'dns-response') continue;
    const m = e.message;
    const server = e.server.addr;
    if (m.rcode === 'SERVFAIL') out += `;; Got SERVFAIL reply from ${server}\n`;
    else if (m.rd && !m.ra) out += `;; Got recursion not available from ${server}\n`;
    const q = m.question[0];
    const next = tr[i + 1];
    const type = q?.type ?? 'A';
    if (type === 'A' && m.rcode === 'NXDOMAIN' && next?.kind === 'dns-query') continue;
    if (type === 'A') out += `Server:\t\t${server}\nAddress:\t${server}#${e.server.port}\n\n`;
    if (m.rcode !== 'NOERROR') {
      out += `** server can't find ${bare(q?.name ?? '.')}: ${m.rcode}\n`;
      failed = true;
      continue;
    }
    if (!m.aa && type === 'A') out += 'Non-authoritative answer:\n';
    for (const rr of m.answer) {
      if (rr.data.type === 'A' || rr.data.type === 'AAAA')
        out += `Name:\t${bare(rr.name)}\nAddress: ${rr.data.address}\n`;
      else if (rr.data.type === 'CNAME')
        out += `${bare(rr.name)}\tcanonical name = ${rr.data.target}\n`;
    }
    if (m.answer.length === 0) {
      if (type === 'A') aNoAnswer = true;
      else if (aNoAnswer) out += `*** Can't find ${bare(q?.name ?? '.')}: No answer\n`;
    }
  }
  const last = tr.at(-1);
  if (last?.kind === 'dns-timeout' || last?.kind === 'dns-refused' || last === undefined) {
    out += ';; no servers could be reached\n';
    failed = true;
  }
  return { stdout: `${out}\n`, stderr: '', exitCode: failed ? 1 : 0 };
}

export function nslookupExitCode(tr: readonly TranscriptEntry[]): number {
  return nslookupOutput(tr).exitCode;
}

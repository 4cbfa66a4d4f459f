/**
 * What iputils ping (20221126) prints, from its transcript: the banner, a line per reply or
 * ICMP error, and finish()'s statistics. Times are the lab's: packets take no time on the wire,
 * so every round trip is 0.000 ms.
 */
import type { PingOptions, TranscriptEntry } from '../programs/types';

/** pr_icmph(): destination-unreachable codes. */
const UNREACH = [
  'Destination Net Unreachable',
  'Destination Host Unreachable',
  'Destination Protocol Unreachable',
  'Destination Port Unreachable',
  'Frag needed and DF set',
  'Source Route Failed',
  'Destination Net Unknown',
  'Destination Host Unknown',
  'Source Host Isolated',
  'Destination Net Prohibited',
  'Destination Host Prohibited',
  'Destination Net Unreachable for Type of Service',
  'Destination Host Unreachable for Type of Service',
  'Packet filtered',
  'Precedence Violation',
  'Precedence Cutoff',
];

function errorText(type: number, code: number): string {
  if (type === 11) return code === 0 ? 'Time to live exceeded' : 'Frag reassembly time exceeded';
  return UNREACH[code] ?? `Dest Unreachable, Bad Code: ${code}`;
}

/** printf("%g", (float)x). */
function g(x: number): string {
  return String(Number(Math.fround(x).toPrecision(6)));
}

export function pingOutput(
  opts: PingOptions,
  transcript: readonly TranscriptEntry[],
  exitCode: number,
): { stdout: string; stderr: string; exitCode: number } {
  let stdout = '';
  let stderr = '';
  let received = 0;
  let errors = 0;
  for (const e of transcript) {
    if (e.kind === 'connect-failed') stderr += 'ping: connect: Network is unreachable\n';
    else if (e.kind === 'resolve-failed')
      stderr += `ping: ${opts.host}: ${e.reason === 'nxdomain' ? 'Name or service not known' : 'Temporary failure in name resolution'}\n`; // prettier-ignore
    else if (e.kind === 'resolved')
      stdout += `PING ${opts.host} (${e.addr}) ${opts.size}(${opts.size + 28}) bytes of data.\n`;
    else if (e.kind === 'echo-reply') {
      received++;
      if (!opts.quiet) stdout += `${opts.size + 8} bytes from ${e.from}: icmp_seq=${e.seq} ttl=${e.ttl} time=0.000 ms\n`; // prettier-ignore
    } else if (e.kind === 'echo-error') {
      errors++;
      if (!opts.quiet) stdout += `From ${e.from} icmp_seq=${e.seq} ${errorText(e.type, e.code)}\n`;
    } else if (e.kind === 'local-error') {
      // receive_error_msg(): SO_EE_ORIGIN_LOCAL, EMSGSIZE; error() writes to stderr.
      errors++;
      stderr += `ping: local error: message too long, mtu=${e.mtu}\n`;
    } else if (e.kind === 'ping-done') {
      const tx = e.transmitted;
      stdout += `\n--- ${opts.host} ping statistics ---\n`;
      stdout += `${tx} packets transmitted, ${received} received`;
      if (errors > 0) stdout += `, +${errors} errors`;
      if (tx > 0) stdout += `, ${g(((tx - received) * 100) / tx)}% packet loss, time ${e.timeMs}ms`;
      stdout += '\n';
      const tail: string[] = [];
      if (received > 0) tail.push('rtt min/avg/max/mdev = 0.000/0.000/0.000/0.000 ms');
      if (e.pipe > 1) tail.push(`pipe ${e.pipe}`);
      stdout += `${tail.join(', ')}\n`;
    }
  }
  return { stdout, stderr, exitCode };
}

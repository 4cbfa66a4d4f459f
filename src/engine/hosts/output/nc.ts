/**
 * What OpenBSD netcat (Debian netcat-openbsd 1.219) prints, from a transcript; messages as the
 * real nc printed them (golden tests). Everything nc says goes to stderr; received data to stdout.
 *
 * - `-v` success: `Connection to HOST PORT port [tcp/http] succeeded!` — with ` (IP)` after a
 *   name; the service name comes from /etc/services (netbase 6.4), `*` when it has none;
 * - `-v` failure: `nc: connect to HOST port PORT (tcp) failed: Connection refused`, or with `-w`
 *   `… (tcp) timed out: Operation now in progress`; without `-v` nothing, exit 1;
 * - a name that does not resolve (always printed): `nc: getaddrinfo for host "nope" port 80:
 *   Name or service not known` (`Temporary failure in name resolution` when DNS timed out).
 */
import type { NcOptions, TranscriptEntry } from '../programs/types';
import { strerror } from './curl';
import type { ToolOutput } from './curl';
import { stdioAround } from '../../model/stdio';
import { serviceName as etcServiceName } from '../../netfilter/services';

/** The name nc prints in `[tcp/http]`: /etc/services' (netbase 6.4), `*` when it has none. */
export function serviceName(proto: 'tcp' | 'udp', port: number): string {
  return etcServiceName(port, proto) ?? '*';
}

function find<K extends TranscriptEntry['kind']>(
  tr: readonly TranscriptEntry[],
  kind: K,
): Extract<TranscriptEntry, { kind: K }> | undefined {
  return tr.find((e) => e.kind === kind) as Extract<TranscriptEntry, { kind: K }> | undefined;
}

export function ncOutput(opts: NcOptions, tr: readonly TranscriptEntry[]): ToolOutput {
  const proto = opts.udp ? 'udp' : 'tcp';
  const stdout = tr.map((e) => (e.kind === 'received' ? e.text : '')).join('');
  const resolveFailed = find(tr, 'resolve-failed');
  if (resolveFailed !== undefined) {
    const why =
      resolveFailed.reason === 'nxdomain'
        ? 'Name or service not known'
        : 'Temporary failure in name resolution';
    return {
      stdout: '',
      stderr: `nc: getaddrinfo for host "${opts.host}" port ${opts.port}: ${why}\n`,
      exitCode: 1,
    };
  }
  const trying = find(tr, 'trying');
  const connected = find(tr, 'connected');
  if (connected !== undefined) {
    const shown = trying !== undefined && trying.addr !== opts.host ? ` (${trying.addr})` : '';
    const line = `Connection to ${opts.host}${shown} ${opts.port} port [${proto}/${serviceName(proto, opts.port)}] succeeded!\n`;
    const stderr = opts.verbose ? line : '';
    // The line is printed on connecting; what arrives later is written to stdout unbuffered.
    return { stdout, stderr, exitCode: 0, writes: stdioAround(stderr, stdout, '') };
  }
  const failed = find(tr, 'connect-failed');
  const where = `nc: connect to ${opts.host} port ${opts.port} (${proto})`;
  if (failed !== undefined)
    return {
      stdout,
      stderr: opts.verbose ? `${where} failed: ${strerror(failed.errno)}\n` : '',
      exitCode: 1,
    };
  if (!opts.udp && find(tr, 'deadline') !== undefined)
    return {
      stdout,
      stderr: opts.verbose ? `${where} timed out: Operation now in progress\n` : '',
      exitCode: 1,
    };
  // UDP: a failed probe is silent with exit 1; data mode ends with exit 0 either way.
  const probeFailed = opts.verbose && find(tr, 'udp-refused') !== undefined;
  return { stdout, stderr: '', exitCode: probeFailed ? 1 : 0 };
}

export function ncExitCode(opts: NcOptions, tr: readonly TranscriptEntry[]): number {
  return ncOutput(opts, tr).exitCode;
}

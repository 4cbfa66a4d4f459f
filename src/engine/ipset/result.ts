/**
 * What an ipset command returns, and the shapes of its messages: ipset v7.17 prefixes each
 * error with its version (`ipset v7.17: …`) and adds a help line to usage errors (exit 2).
 */
export interface IpsetResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export const VERSION = 'ipset v7.17';

export const fail = (msg: string, code = 1): IpsetResult => ({
  stdout: '',
  stderr: `${VERSION}: ${msg}\n`,
  exitCode: code,
});

/** An option without its value, or a missing mandatory one, is a usage error (exit 2). */
export const usage = (msg: string): IpsetResult => ({
  stdout: '',
  stderr: `${VERSION}: ${msg}\nTry \`ipset help' for more information.\n`,
  exitCode: 2,
});

export const ok = (stdout = ''): IpsetResult => ({ stdout, stderr: '', exitCode: 0 });

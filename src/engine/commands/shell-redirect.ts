/**
 * The lab shell's output redirections (`> FILE`, `>> FILE`, `2>&1`, `>&2`, `&>`, `2>/dev/null`),
 * applied as bash applies them: left to right before the command runs, each file opened there
 * and then, and the command's output sent where they point once it has run. The files a
 * redirection can write are a node's /proc/sys (sim/proc-sys.ts); the host decides
 * (CommandWorld.openFile).
 */
import { labNote } from '../model/lab-notes';
import { mergeWrites } from '../model/stdio';
import type { CommandResult, HostFileWriter, OpenedFile } from './registry';
import { wordText } from './shell';
import type { Redirection } from './shell-types';

/** A word's expansion (shell-expand.ts): its fields, and the stderr of its substitutions. */
export interface Expanded {
  readonly fields: readonly string[];
  readonly stderr: string;
  readonly failed?: true;
}

/** Where a command's stdout or stderr goes: the terminal's fd 1 or 2, nowhere, or a file. */
export type Sink =
  | { readonly kind: 'tty'; readonly fd: 1 | 2 }
  | { readonly kind: 'null' }
  | { readonly kind: 'file'; readonly path: string; readonly writer: HostFileWriter }
  | { readonly kind: 'unmodelled'; readonly note: string };

export interface Sinks {
  readonly out: Sink;
  readonly err: Sink;
}

const TERMINAL: Sinks = { out: { kind: 'tty', fd: 1 }, err: { kind: 'tty', fd: 2 } };

/**
 * A command's output redirections, applied left to right as bash applies them before the
 * command runs: `2>&1` copies where fd 1 goes at that point, and a file is opened there and
 * then. The first that fails stops everything with bash's message: the command does not run,
 * and the redirections after it (even `2>/dev/null`) were never applied (seen with bash 5.2).
 */
export function openSinks(
  redirections: readonly Redirection[],
  expand: (word: string) => Expanded,
  openFile: (path: string) => OpenedFile | undefined,
): Sinks | { error: CommandResult } {
  // Nothing redirected: the tool's own writes stand (routeOutput passes them on as they are).
  if (redirections.every((r) => r.fd === 0)) return TERMINAL;
  let { out, err } = TERMINAL;
  for (const r of redirections) {
    if (r.fd === 0) continue;
    let sink: Sink;
    if (r.target === '&1') sink = out;
    else if (r.target === '&2') sink = err;
    else {
      const e = expand(r.target);
      if (e.failed === true) return { error: toSink(err, e.stderr) };
      const path = e.fields[0];
      if (path === undefined || e.fields.length > 1)
        return { error: toSink(err, `${e.stderr}bash: ${wordText(r.target)}: ambiguous redirect\n`) }; // prettier-ignore
      if (path === '/dev/null') sink = { kind: 'null' };
      else {
        const opened = openFile(path);
        if (opened === undefined)
          sink = { kind: 'unmodelled', note: labNote('shell.write', { path }) }; // prettier-ignore
        else if ('note' in opened) sink = { kind: 'unmodelled', note: opened.note };
        else if ('error' in opened)
          return { error: toSink(err, `${e.stderr}bash: ${path}: ${opened.error}\n`) };
        else sink = { kind: 'file', path, writer: opened };
      }
    }
    if (r.fd === 1 || r.fd === 'both') out = sink;
    if (r.fd === 2 || r.fd === 'both') err = sink;
  }
  return { out, err };
}

/** bash's own message about a redirection, written where fd 2 points at that moment. */
function toSink(err: Sink, message: string): CommandResult {
  if (err.kind === 'tty')
    return err.fd === 2 ? { stdout: '', stderr: message, exitCode: 1 } : { stdout: message, stderr: '', exitCode: 1 }; // prettier-ignore
  if (err.kind === 'file') err.writer.write(message);
  return { stdout: '', stderr: '', exitCode: 1 };
}

/**
 * What a program prints when its write to stdout fails, and its exit status (each seen on the
 * kernel writing `abc` to a /proc/sys file: bash 5.2's echo and printf, GNU grep, coreutils,
 * mawk).
 */
function writeError(program: string, error: string): { text: string; exitCode: number } {
  if (program === 'echo' || program === 'printf')
    return { text: `bash: ${program}: write error: ${error}\n`, exitCode: 1 };
  if (program === 'grep') return { text: `grep: write error: ${error}\n`, exitCode: 2 };
  if (program === 'awk')
    return { text: `awk: close failed on file /dev/stdout (${error})\n`, exitCode: 2 };
  if (program === 'sort') {
    const text = `sort: fflush failed: 'standard output': ${error}\nsort: write error\n`;
    return { text, exitCode: 2 };
  }
  return { text: `${program}: write error: ${error}\n`, exitCode: 1 };
}

/**
 * The command's output sent where its redirections point. Its stdout goes first: a file's
 * write of it can fail, and the program then says so on its stderr, which goes where fd 2
 * points (into the same file, or nowhere, after `2>&1` or `2>/dev/null`).
 */
export function routeOutput(
  sinks: Sinks,
  result: CommandResult,
  stdoutIsTty: boolean,
  program: string | undefined,
): CommandResult {
  if (sinks === TERMINAL) return result;
  for (const sink of [sinks.out, sinks.err]) {
    // A loop's output is not written to a file: each of its commands would write on its own.
    const note =
      sink.kind === 'unmodelled' ? sink.note
      : sink.kind === 'file' && program === undefined ? labNote('shell.write', { path: sink.path })
      : undefined; // prettier-ignore
    if (note !== undefined) return { stdout: '', stderr: `${result.stderr}${note}`, exitCode: 1 };
  }
  const { out, err } = sinks;
  if (out.kind === 'tty' && err.kind === 'tty' && out.fd === err.fd) {
    // `2>&1` or `>&2` on the terminal: both streams, in the order they were written.
    const merged = result.writes !== undefined ? mergeWrites(result.writes, stdoutIsTty) : result.stdout + result.stderr; // prettier-ignore
    const exitCode = result.exitCode;
    return out.fd === 1 ? { stdout: merged, stderr: '', exitCode } : { stdout: '', stderr: merged, exitCode }; // prettier-ignore
  }
  let exitCode = result.exitCode;
  let errText = result.stderr;
  const tty = { 1: '', 2: '' };
  if (out.kind === 'tty') tty[out.fd] += result.stdout;
  else if (out.kind === 'file' && result.stdout !== '') {
    const failed = out.writer.write(result.stdout);
    if (failed !== undefined && program !== undefined) {
      const e = writeError(program, failed);
      errText += e.text;
      exitCode = e.exitCode;
    }
  }
  if (err.kind === 'tty') tty[err.fd] += errText;
  else if (err.kind === 'file' && errText !== '') err.writer.write(errText);
  return { stdout: tty[1], stderr: tty[2], exitCode };
}

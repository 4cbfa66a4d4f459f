/**
 * kubectl's `-f/--filename` and `-R/--recursive`, as cli-runtime's resource builder reads them
 * (k8s.io/cli-runtime v0.32.4, pkg/resource/builder.go FilenameParam and Path, visitor.go
 * ExpandPathsToFileVisitors): `-` is stdin, a directory gives its .json, .yaml and .yml files in
 * lexical order (its subdirectories' too with -R, where they sort), a file named outright is read
 * whatever its name. Every path is checked before any object is sent: one that is missing makes
 * the whole command fail with nothing applied or deleted.
 */
import type { CommandContext, CommandResult } from '../registry';
import { missingFileMessage } from '../files';
import { labNote } from '../../model/lab-notes';
import { BAD_PATTERN, byCodePoint, cleanPath, goGlob, hasMeta } from './go-filepath';

/** One stream of manifests: a file, or stdin, named as kubectl names it in its errors. */
export interface ManifestSource {
  /** visitor.go: `STDIN` for `-f -`; else the path filepath.Walk built. */
  readonly source: string;
  readonly text: string;
}

/** builder.go:45 `FileExtensions`. */
const FILE_EXTENSIONS = ['.json', '.yaml', '.yml'];
/** builder.go:130 `StdinMultiUseError`. */
const STDIN_TWICE = 'standard input cannot be used for multiple arguments';

/**
 * The values of `-f`: a pflag StringSlice, so each is comma-separated (`-f a.yaml,b.yaml`), and
 * an empty value adds none (pflag's readAsCSV of "" is an empty list).
 */
export function filenameValues(flags: readonly string[]): string[] {
  return flags.flatMap((value) => (value === '' ? [] : value.split(',')));
}

/**
 * The builder's errors as kubectl prints them (cmd/util/helpers.go checkErr): one error is
 * `error: …`; several (an Aggregate) are printed one a line, without that prefix
 * (MultipleErrors). `server` errors are already worded `Error from server (…): …`.
 */
export function builderErrorsText(errors: readonly { text: string; server: boolean }[]): string {
  if (errors.length === 1) {
    const only = errors[0]!;
    return only.server || only.text.startsWith('error: ') ? `${only.text}\n` : `error: ${only.text}\n`; // prettier-ignore
  }
  return errors.map((e) => `${e.text}\n`).join('');
}

function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot);
}

/**
 * filepath.Walk from `root`: the files of a directory in lexical order, subdirectories walked
 * where they sort (with -R) or skipped; extensions are checked on every file but the root.
 */
function walk(ctx: CommandContext, root: string, recursive: boolean): string[] {
  const files: string[] = [];
  const visit = (path: string): void => {
    const entries = ctx.world.listDirectory?.(path);
    if (entries === undefined) {
      if (path === root || FILE_EXTENSIONS.includes(extensionOf(path))) files.push(path);
      return;
    }
    if (path !== root && !recursive) return;
    const sorted = [...entries].sort((a, b) => byCodePoint(a.name, b.name));
    for (const entry of sorted) {
      const child = cleanPath(`${path}/${entry.name}`);
      if (entry.directory) visit(child);
      else if (FILE_EXTENSIONS.includes(extensionOf(child))) files.push(child);
    }
  };
  visit(root);
  return files;
}

/**
 * builder.go expandIfFilePattern: a path that exists is itself; one that does not is a
 * pattern for filepath.Glob (the lab's shell leaves `*.yaml` to kubectl). The error's text,
 * or the lab's note for a host's system file, when nothing is found.
 */
function expandIfFilePattern(
  ctx: CommandContext,
  name: string,
  texts: Map<string, string>,
): string[] | string | { note: string } {
  if (ctx.world.listDirectory?.(name) !== undefined) return [name];
  // Read once: a scenario-sized file is megabytes.
  const text = ctx.world.readFile(name);
  if (text !== undefined) {
    texts.set(name, text);
    return [name];
  }
  const note = missingFileMessage(name, '');
  if (note !== '') return { note };
  // builder.go:49 pathNotExistError; a malformed pattern is filepath.ErrBadPattern.
  const notExist = `the path "${name}" does not exist`;
  if (!hasMeta(name)) return notExist;
  const matches = goGlob(name, (dir) => ctx.world.listDirectory?.(dir));
  if (matches === BAD_PATTERN) return `pattern "${name}" is not valid: ${BAD_PATTERN}`;
  return matches.length === 0 ? notExist : matches;
}

/**
 * Reads every `-f` the builder would (in order), or returns the command's failure: the
 * builder's errors, or the lab's note for what it cannot read (a URL, a host's system file).
 */
export function readManifestSources(
  ctx: CommandContext,
  filenames: readonly string[],
  recursive: boolean,
): ManifestSource[] | CommandResult {
  const sources: ManifestSource[] = [];
  const errors: string[] = [];
  let stdinUsed = false;
  const texts = new Map<string, string>();
  const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });
  for (const name of filenames) {
    if (name === '-') {
      if (stdinUsed) errors.push(STDIN_TWICE);
      stdinUsed = true;
      sources.push({ source: 'STDIN', text: ctx.stdin });
      continue;
    }
    if (name.startsWith('http://') || name.startsWith('https://'))
      return fail(labNote('kubectl.filename-url', { url: name }));
    const matches = expandIfFilePattern(ctx, name, texts);
    if (typeof matches === 'string') {
      errors.push(matches);
      continue;
    }
    if ('note' in matches) return fail(matches.note);
    const before = sources.length;
    for (const match of matches) {
      const isDirectory = ctx.world.listDirectory?.(match) !== undefined;
      for (const path of isDirectory ? walk(ctx, match, recursive) : [match]) {
        const fileText = texts.get(path) ?? ctx.world.readFile(path);
        // A link to nowhere, a file without read permission: kubectl would print the
        // system's reason, which the lab is not told.
        if (fileText === undefined) return fail(labNote('kubectl.filename-unreadable', { path }));
        sources.push({ source: path, text: fileText });
      }
    }
    // builder.go:448: only while nothing at all has been found or refused yet.
    if (sources.length === 0 && before === 0 && errors.length === 0)
      errors.push(`error reading [${matches.join(' ')}]: recognized file extensions are [${FILE_EXTENSIONS.join(' ')}]`); // prettier-ignore
  }
  if (errors.length > 0) return fail(builderErrorsText(errors.map((text) => ({ text, server: false })))); // prettier-ignore
  return sources;
}

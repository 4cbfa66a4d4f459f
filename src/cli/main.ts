/**
 * `kube-proxy-lab`: the headless twin of the lab's terminal.
 *
 *   kube-proxy-lab run [--echo] [SCENARIO.yaml] [SCRIPT]   run `TARGET$ COMMAND` lines
 *   kube-proxy-lab check SCENARIO.yaml                      validate only
 *   kube-proxy-lab scenario                                 print the built-in scenario
 *   kube-proxy-lab link SCENARIO.yaml [--base URL]          the web lab's link for it
 *
 * Each command prints exactly what the real tool prints on that host: its stdout to stdout,
 * its stderr to stderr. Only this file touches the process, the file system and the streams.
 */
import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { stepsText, traceEntries } from '../explain/trace-text';
import { explainIn, outputIn, type Texts } from '../explain/words';
import {
  DEFAULT_SCENARIO,
  diagnosticToString,
  explainText,
  readLabNotes,
  runScript,
  traceCursor,
  traceSince,
  TRACE_PROTOCOL_VERSION,
  World,
  type Diagnostic,
  type DirectoryEntry,
  type TraceStep,
} from '../engine';
import { DEFAULT_BASE, linkBase, MAX_LINK_CHARS, scenarioLink } from './link';
import { runOptions } from './run-options';

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readFile: (path: string) => string | undefined;
  /** A directory's entries (`kubectl apply -f DIR/`); undefined when path is no directory. */
  readonly listDirectory?: (path: string) => readonly DirectoryEntry[] | undefined;
  readonly readStdin: () => string;
  /**
   * The width of the terminal the commands print to (`ss` spreads its table over it): the
   * CLI's own terminal when it writes to one, else 80 columns.
   */
  readonly columns?: number;
}

/** The terminal width commands print to when the CLI does not write to a terminal. */
const DEFAULT_COLUMNS = 80;

const USAGE = `Usage:
  kube-proxy-lab run [--echo | --trace[=all] | --json] [--lang zh-CN] [SCENARIO.yaml] [SCRIPT]
  kube-proxy-lab check SCENARIO.yaml
  kube-proxy-lab scenario
  kube-proxy-lab link SCENARIO.yaml [--base URL]

run      Runs one command per line, written TARGET$ COMMAND (TARGET: a node name,
         pod/NAME, pod/NAMESPACE/NAME or an external client's name), against the
         scenario (default: the built-in one). The script comes from SCRIPT or
         standard input. --echo prints each prompt line before its output;
         --json prints instead one JSON document: every command with its output
         and the trace steps of every packet it caused (trace protocol v${TRACE_PROTOCOL_VERSION}).
         --trace prints each prompt line, the command's output, then the
         packets it caused, step by step as the web lab's event list shows
         them: host, hook, table, chain, rule, conntrack, NAT, verdict, and
         why (--trace=all: every rule tried too). --lang zh-CN puts the lab's
         own words (its notes, the steps' explanations) in Chinese; the
         tools' output stays as the tools print it.
check    Validates a scenario: errors as FILE:LINE:COL: message, exit status 1.
scenario Prints the built-in scenario.
link     Prints the web lab's link that opens the scenario (checked first): the
         text travels in the link itself, after #. --base is where the lab is
         served (default http://127.0.0.1:5173/, as npm start serves it).
`;

/** One command of a `--json` run: its prompt line, output, and the packets' trace steps. */
interface JsonCommand {
  readonly line: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  readonly steps: readonly TraceStep[];
}

/**
 * A file's text, as UTF-8. An ASCII file (scenarios nearly always are) is made into a string
 * byte for byte, the same text without UTF-8's decoding: a 10,000-Service scenario (12 MB) is
 * read in 100 ms instead of 150, touching 24 MB of fresh memory instead of 40.
 */
function readText(file: string | number): string {
  const bytes = readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

function nodeIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    ...(process.stdout.isTTY ? { columns: process.stdout.columns } : {}),
    readFile: (path) => {
      try {
        return readText(path);
      } catch {
        return undefined;
      }
    },
    listDirectory: (path) => {
      try {
        // The named directory itself may be a link to one (kubectl's os.Stat follows it);
        // its entries are typed as lstat sees them, as filepath.Walk does.
        if (!statSync(path).isDirectory()) return undefined;
        return readdirSync(path, { withFileTypes: true }).map((e) => ({
          name: e.name,
          directory: e.isDirectory(),
        }));
      } catch {
        return undefined;
      }
    },
    readStdin: () => {
      try {
        return readText(0);
      } catch {
        return '';
      }
    },
  };
}

function printDiagnostics(io: CliIo, file: string, diagnostics: readonly Diagnostic[]): boolean {
  let errors = false;
  for (const d of diagnostics) {
    io.stderr(`${diagnosticToString(file, d)}\n`);
    if (d.severity === 'error') errors = true;
  }
  return errors;
}

function check(io: CliIo, args: readonly string[]): number {
  const file = args[0];
  if (file === undefined || args.length > 1) {
    io.stderr(USAGE);
    return 2;
  }
  const text = io.readFile(file);
  if (text === undefined) {
    io.stderr(`kube-proxy-lab: cannot read ${file}\n`);
    return 1;
  }
  const { diagnostics } = World.fromScenario(text);
  return printDiagnostics(io, file, diagnostics) ? 1 : 0;
}

async function link(io: CliIo, args: readonly string[]): Promise<number> {
  const at = args.indexOf('--base');
  const baseArg = at >= 0 ? args[at + 1] : DEFAULT_BASE;
  const files = args.filter((_, i) => at < 0 || (i !== at && i !== at + 1));
  const file = files[0];
  if (file === undefined || files.length > 1 || baseArg === undefined || file.startsWith('-')) {
    io.stderr(USAGE);
    return 2;
  }
  const base = linkBase(baseArg);
  if (typeof base !== 'string') {
    io.stderr(`kube-proxy-lab: --base: ${base.error}\n`);
    return 2;
  }
  const text = io.readFile(file);
  if (text === undefined) {
    io.stderr(`kube-proxy-lab: cannot read ${file}\n`);
    return 1;
  }
  if (printDiagnostics(io, file, World.fromScenario(text).diagnostics)) return 1;
  const url = await scenarioLink(base, text);
  if (url.length > MAX_LINK_CHARS) {
    io.stderr(
      `kube-proxy-lab: ${file} makes a link of ${url.length} characters (at most ${MAX_LINK_CHARS}); hand out the file instead\n`,
    );
    return 1;
  }
  io.stdout(`${url}\n`);
  return 0;
}

/** A command's output with the lab's notes in the chosen language (the tool's lines as printed). */
function inLanguage(text: string, texts: Texts | undefined): string {
  return texts === undefined
    ? text
    : outputIn({ terminal: text, notes: readLabNotes(text) }, texts);
}

function run(io: CliIo, args: readonly string[]): number {
  const options = runOptions(args);
  if (typeof options === 'string') {
    io.stderr(`${options}${USAGE}`);
    return 2;
  }
  const { echo, json, trace, texts, files } = options;
  let scenarioFile: string | undefined;
  let scriptFile: string | undefined;
  if (files.length === 2) [scenarioFile, scriptFile] = files;
  else if (files.length === 1) {
    const only = files[0]!;
    if (/\.ya?ml$/i.test(only)) scenarioFile = only;
    else scriptFile = only;
  }
  let scenario = DEFAULT_SCENARIO;
  if (scenarioFile !== undefined) {
    const text = io.readFile(scenarioFile);
    if (text === undefined) {
      io.stderr(`kube-proxy-lab: cannot read ${scenarioFile}\n`);
      return 1;
    }
    scenario = text;
  }
  let script: string;
  if (scriptFile !== undefined && scriptFile !== '-') {
    const text = io.readFile(scriptFile);
    if (text === undefined) {
      io.stderr(`kube-proxy-lab: cannot read ${scriptFile}\n`);
      return 1;
    }
    script = text;
  } else script = io.readStdin();

  const { world, diagnostics } = World.fromScenario(scenario);
  world.terminalColumns = io.columns ?? DEFAULT_COLUMNS;
  const scenarioBroken = printDiagnostics(io, scenarioFile ?? 'built-in scenario', diagnostics);
  const commands: JsonCommand[] = [];
  let cursor = traceCursor(world);
  const transcript = !json && (echo || trace !== undefined);
  // A command's output in English goes out as it is made: a node's whole iptables-save is
  // never held at once (TextBuilder). Translated output (--lang) and --json need all of it.
  const streaming = !json && texts === undefined;
  const failed = runScript(world, script, {
    readFile: io.readFile,
    ...(io.listDirectory ? { listDirectory: io.listDirectory } : {}),
    ...(streaming ? { stdoutStream: io.stdout } : {}),
    onCommandStart: (line) => {
      if (transcript) io.stdout(`${line}\n`);
    },
    onOutput: (line, result) => {
      if (json) {
        commands.push({ line: line ?? null, ...result, steps: traceSince(world, cursor) });
        cursor = traceCursor(world);
        return;
      }
      // The command's stdout, then its stderr (issue 2's transcript; the web lab's terminal
      // interleaves them as a real one does, lab-session.ts).
      io.stdout(inLanguage(result.stdout, texts));
      io.stderr(inLanguage(result.stderr, texts));
      if (trace !== undefined) {
        // The packets the command caused, as the web lab's event list shows them.
        const steps = traceSince(world, cursor).map((s) => ({ ...s, text: explainText(s.why) }));
        cursor = traceCursor(world);
        const explain = (s: (typeof steps)[number]) => explainIn(s, texts);
        const text = stepsText(traceEntries([{ steps }]), 0, trace === 'all', explain);
        io.stdout(text === '' ? '\n' : `\n${text}\n`);
      }
    },
  });
  if (json) {
    const doc = {
      version: TRACE_PROTOCOL_VERSION,
      scenario: scenarioFile ?? 'built-in',
      seed: world.cluster.lab.seed,
      commands,
    };
    io.stdout(`${JSON.stringify(doc, null, 1)}\n`);
  }
  return failed !== 0 ? failed : scenarioBroken ? 1 : 0;
}

/** Runs the CLI; returns the process exit status. */
export async function main(argv: readonly string[], io: CliIo = nodeIo()): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return run(io, rest);
    case 'check':
      return check(io, rest);
    case 'scenario':
      io.stdout(DEFAULT_SCENARIO);
      return 0;
    case 'link':
      return link(io, rest);
    case '-h':
    case '--help':
    case 'help':
      io.stdout(USAGE);
      return 0;
    default:
      io.stderr(
        command === undefined ? USAGE : `kube-proxy-lab: unknown command ${command}\n${USAGE}`,
      );
      return 2;
  }
}

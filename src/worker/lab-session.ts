/**
 * The engine behind the web lab: one running World and the answers the lab protocol promises
 * (src/protocol/lab.ts). Plain TypeScript with no worker globals, so the same class runs inside
 * the Web Worker (lab.worker.ts) and in Node tests.
 *
 * Everything the panels show comes from the lab's own commands (`iptables-save -c`,
 * `conntrack -L`, `ipvsadm -Ln`, `nft list ruleset`), so a view is always exactly what the
 * terminal prints, and new proxy modes show up here as soon as their commands exist.
 */
import {
  createLabRegistry,
  DEFAULT_SCENARIO,
  explainText,
  hostView,
  labNote,
  loadScenario,
  measureScale,
  mergeWrites,
  hereDocUnfinished,
  parseScript,
  resolveTarget,
  runCommandLine,
  runScript,
  traceCursor,
  traceSince,
  World,
  type Diagnostic,
  readLabNotes,
} from '../engine';
import type {
  CommandAnswer,
  HostTarget,
  LabApi,
  LabDiagnostic,
  LoadAnswer,
  ScaleFigures,
  ScenarioRefusal,
  SendAnswer,
  SendRequest,
  Setting,
  Topology,
  Views,
} from '../protocol/lab';
import { LAB_PROTOCOL_VERSION } from '../protocol/lab';
import type { CheckResult } from '../protocol/lessons';
import { findLesson } from '../lessons/catalog';
import { LessonTracker } from '../lessons/checks';
import { diffNodeTables, listTables, type NodeTables } from './rule-diff';
import { refusalDiagnostic, refusalOf } from './scenario-refusal';
import { commandForSend } from './send-command';
import { sendRequestProblems } from './send-input';
import { withSetting } from './settings';
import { topologyOf } from './topology';

function toLabDiagnostics(diagnostics: readonly Diagnostic[]): LabDiagnostic[] {
  return diagnostics.map((d) => ({
    severity: d.severity,
    message: d.message,
    line: d.line,
    col: d.col,
  }));
}

const hasErrors = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.some((d) => d.severity === 'error');

/** The command that lists a mode's rules; iptables-save until the mode's own tool exists. */
const RULES_COMMAND = {
  iptables: 'iptables-save -c',
  ipvs: 'ipvsadm -Ln',
  nftables: 'nft list ruleset',
} as const;

/** `command not found`, as bash reports it (exit 127): the lab has no such tool yet. */
const NOT_FOUND = 127;

export class LabSession implements LabApi {
  private world: World;
  private readonly registry = createLabRegistry();
  private readonly lessons = new LessonTracker();

  constructor(text: string = DEFAULT_SCENARIO) {
    this.world = World.fromScenario(text).world;
  }

  version(): number {
    return LAB_PROTOCOL_VERSION;
  }

  defaultScenario(): string {
    return DEFAULT_SCENARIO;
  }

  validate(text: string): LabDiagnostic[] {
    const { cluster, diagnostics } = loadScenario(text);
    const refusal = hasErrors(diagnostics) ? undefined : refusalOf(text, cluster.nodes.length);
    const found = toLabDiagnostics(diagnostics);
    return refusal === undefined ? found : [refusalDiagnostic(refusal), ...found];
  }

  load(text: string): LoadAnswer {
    const { world, diagnostics } = World.fromScenario(text);
    if (hasErrors(diagnostics)) return this.rejected(diagnostics);
    const refusal = refusalOf(text, world.cluster.nodes.length);
    if (refusal !== undefined) return this.rejected(diagnostics, refusal);
    this.world = world;
    return {
      accepted: true,
      diagnostics: toLabDiagnostics(diagnostics),
      topology: this.topology(),
      ruleDiffs: [],
    };
  }

  apply(text: string): LoadAnswer {
    // As a learner re-applying an edited scenario: objects that still exist keep their
    // ClusterIPs, NodePorts and pod IPs; kube-proxy on every node syncs the change.
    const { cluster, diagnostics } = loadScenario(text, { previous: this.world.cluster });
    if (hasErrors(diagnostics)) return this.rejected(diagnostics);
    const refusal = refusalOf(text, cluster.nodes.length);
    if (refusal !== undefined) return this.rejected(diagnostics, refusal);
    const before = this.tablesByNode();
    this.world.setCluster(cluster);
    return {
      accepted: true,
      diagnostics: toLabDiagnostics(diagnostics),
      topology: this.topology(),
      ruleDiffs: diffNodeTables(before, this.tablesByNode()),
    };
  }

  send(req: SendRequest): SendAnswer {
    const before = this.allViews();
    // Refused field by field, nothing run: the UI says each problem in the learner's language.
    const problems = sendRequestProblems(req, this.topology());
    if (problems.length > 0) return { problems, runs: [], before, after: before };
    const line = commandForSend(this.world.cluster, req);
    const runs: CommandAnswer[] = [];
    for (let i = 0; i < req.count; i++) runs.push(this.run(req.from, line));
    return { runs, before, after: this.allViews() };
  }

  run(host: HostTarget, line: string, columns?: number): CommandAnswer {
    const prompt = `${host}$ ${line}`;
    if (hereDocUnfinished(line)) return { ...failed(host, ''), exitCode: 0, continues: true };
    // Line breaks only as a here-document's lines (a lesson's `kubectl apply -f - <<EOF` step):
    // a script would read anything else after the first as lines of its own.
    if (line.includes('\n') && !isOneCommand(prompt, line))
      return failed(host, 'kube-proxy-lab: one command line at a time\n');
    // A terminal on a host the cluster no longer has (a node or pod deleted meanwhile): say so
    // as the terminal's own note, not as the CLI's "script line 1:" error.
    const target = parseScript(prompt).lines[0]?.target;
    if (target !== undefined && typeof resolveTarget(this.world.cluster, target) === 'string')
      return { ...failed(host, labNote('terminal.no-host', { host })), prompt };
    this.world.terminalColumns = columns;
    const cursor = traceCursor(this.world);
    let stdout = '';
    let stderr = '';
    let terminal = '';
    let exitCode = 0;
    runScript(this.world, prompt, {
      readFile: () => undefined,
      registry: this.registry,
      onOutput: (_line, result, writes) => {
        stdout += result.stdout;
        stderr += result.stderr;
        terminal += mergeWrites(writes, true);
        exitCode = result.exitCode;
      },
    });
    const steps = traceSince(this.world, cursor).map((s) => ({ ...s, text: explainText(s.why) }));
    return { prompt, stdout, stderr, terminal, notes: readLabNotes(terminal), exitCode, steps };
  }

  views(node: string): Views {
    const mode = this.world.cluster.kubeProxy.mode;
    let rulesCommand: string = RULES_COMMAND[mode];
    let rules = this.quiet(node, rulesCommand);
    if (rules.exitCode === NOT_FOUND) {
      rulesCommand = RULES_COMMAND.iptables;
      rules = this.quiet(node, rulesCommand);
    }
    const ct = this.quiet(node, 'conntrack -L');
    return {
      node,
      rules: rules.stdout + rules.stderr,
      rulesCommand,
      conntrack: ct.stdout,
      conntrackSummary: ct.stderr,
      now: this.world.nowSeconds(),
    };
  }

  allViews(): Views[] {
    return this.world.cluster.nodes.map((n) => this.views(n.meta.name));
  }

  withSetting(text: string, setting: Setting): string {
    return withSetting(text, setting);
  }

  scalePoint(services: number): ScaleFigures[] {
    // Bounded: the browser is not the place for 10,000 Services (npm run bench measures them).
    const n = Math.max(1, Math.min(2_000, Math.floor(services)));
    return measureScale(n, ['iptables', 'ipvs', 'nftables'], () => performance.now());
  }

  lessonBeginStep(): void {
    this.lessons.beginStep(this.world);
  }

  lessonCheck(
    lessonId: string,
    stepIndex: number,
    answers: Readonly<Record<string, string>>,
  ): CheckResult[] {
    const step = findLesson(lessonId)?.steps[stepIndex];
    if (step === undefined) return [];
    return this.lessons.check(this.world, step.checks, answers);
  }

  topology(): Topology {
    const errors: string[] = [];
    const mode = this.world.cluster.kubeProxy.mode;
    const first = this.world.cluster.nodes[0]?.meta.name;
    if (mode !== 'iptables' && first !== undefined) {
      const probe = this.quiet(first, RULES_COMMAND[mode]);
      if (probe.exitCode === NOT_FOUND) errors.push(`mode-unsupported:${mode}`);
    }
    for (const node of this.world.cluster.nodes) {
      const error = this.world.kernel(node.meta.name)?.lastRestoreError ?? '';
      if (error !== '') errors.push(`${node.meta.name}: ${error.trim()}`);
    }
    return topologyOf(this.world, errors);
  }

  private rejected(diagnostics: readonly Diagnostic[], refusal?: ScenarioRefusal): LoadAnswer {
    const found = toLabDiagnostics(diagnostics);
    return {
      accepted: false,
      diagnostics: refusal === undefined ? found : [refusalDiagnostic(refusal), ...found],
      topology: this.topology(),
      ruleDiffs: [],
      ...(refusal === undefined ? {} : { refused: refusal }),
    };
  }

  /** A view command on a node, run outside the terminal's history (tcpdump's cursor stays). */
  private quiet(node: string, line: string) {
    const view = hostView(this.world, { kind: 'node', name: node }, () => undefined);
    return runCommandLine(this.registry, { world: view }, line);
  }

  /** Every node's kernel tables (rule-diff.ts), listed outside the terminal's history. */
  private tablesByNode(): Map<string, NodeTables> {
    const out = new Map<string, NodeTables>();
    for (const node of this.world.cluster.nodes) {
      const name = node.meta.name;
      out.set(
        name,
        listTables((line) => this.quiet(name, line)),
      );
    }
    return out;
  }
}

/** The prompt is one command of a script: its line breaks are all its here-documents'. */
function isOneCommand(prompt: string, line: string): boolean {
  const parsed = parseScript(prompt);
  return parsed.diagnostics.length === 0 && parsed.lines.length === 1 && parsed.lines[0]!.command === line.trim(); // prettier-ignore
}

function failed(host: HostTarget, stderr: string): CommandAnswer {
  return {
    prompt: `${host}$`,
    stdout: '',
    stderr,
    terminal: stderr,
    notes: readLabNotes(stderr),
    exitCode: 1,
    steps: [],
  };
}

import type {
  CommandAnswer,
  LabApi,
  LabDiagnostic,
  RuleDiff,
  ScenarioRefusal,
  SendProblem,
  SendRequest,
  Setting,
  Topology,
  Views,
} from '../../protocol/lab';
import type { TraceEntry } from '../../explain/trace-text';

/** The engine as the store sees it: the worker client, or a LabSession inline in tests. */
export interface LabCaller {
  call<K extends keyof LabApi>(
    method: K,
    ...args: Parameters<LabApi[K]>
  ): Promise<ReturnType<LabApi[K]>>;
}

export type PanelTab = 'scenario' | 'events' | 'rules' | 'inspector' | 'terminal' | 'settings';

export interface ScenarioSlice {
  /** The editor's text: saved on every change, whether or not it is valid. */
  text: string;
  /** The last text the running cluster was built from. */
  goodText: string;
  presetId: string;
  diagnostics: readonly LabDiagnostic[];
  lastApply:
    | {
        readonly accepted: boolean;
        readonly ruleDiffs: readonly RuleDiff[];
        readonly refused?: ScenarioRefusal;
      }
    | undefined;
  setText(text: string): void;
  applyText(): Promise<void>;
  /** Loads a preset; `text` undefined = the built-in scenario. */
  loadPreset(id: string, text: string | undefined): Promise<void>;
  changeSetting(setting: Setting): Promise<void>;
  /**
   * The lab's own comments in the scenario (editor and last good text) in the language now
   * chosen: called when the learner switches language. Nothing but those comments changes.
   */
  relocalizeScenario(): Promise<void>;
  /**
   * The editor's text before a shared link replaced it (kept in storage too), while the
   * learner may still want it back.
   */
  beforeLink: string | undefined;
  /** Opens a scenario a link carried: loads it as a preset would, keeping the previous text. */
  openLink(text: string): Promise<void>;
  /** Puts the text from before the link back into the editor (not applied). */
  restoreBeforeLink(): void;
}

export interface SimSlice {
  engine: 'starting' | 'ready' | 'busy';
  /** What the lab has to tell: the worker restarted, a request failed. */
  notice:
    | { readonly kind: 'restarted' | 'error' | 'link' | 'link-error'; readonly detail: string }
    | undefined;
  /** Shows a notice (a link that cannot be read, …). */
  tell(kind: 'link-error', detail: string): void;
  topology: Topology | undefined;
  views: Readonly<Record<string, Views>>;
  start(): Promise<void>;
  refreshViews(): Promise<void>;
  /**
   * Rebuilds the cluster from the last applied text, as at its first start: empty conntrack
   * tables, zero counters, the virtual clock and the seeded draws from the beginning. The
   * editor's text stays; the same packets then play exactly as they did the first time.
   */
  restartCluster(): Promise<void>;
  runTerminal(host: string, line: string, columns?: number): Promise<CommandAnswer | undefined>;
  dismissNotice(): void;
  workerRestarted(detail: string): Promise<void>;
}

export interface TraceData {
  readonly request: SendRequest | undefined;
  readonly runs: readonly CommandAnswer[];
  readonly entries: readonly TraceEntry[];
  readonly before: Readonly<Record<string, Views>>;
  readonly after: Readonly<Record<string, Views>>;
}

export interface TraceSlice {
  trace: TraceData | undefined;
  /** Why the worker refused the last send (empty: it ran); cleared when the draft changes. */
  sendProblems: readonly SendProblem[];
  send(req: SendRequest): Promise<void>;
}

export interface PlaybackSlice {
  /** Index of the current trace entry; -1 = before the first step. */
  cursor: number;
  playing: boolean;
  /** Steps per second. */
  speed: number;
  play(): void;
  pause(): void;
  stepForward(): void;
  stepBack(): void;
  seek(index: number): void;
  setSpeed(speed: number): void;
}

/** A command line typed into the terminal but not run: `cursor` in code points of `line`. */
export interface TerminalDraft {
  readonly host: string;
  readonly line: string;
  readonly cursor: number;
}

export interface ViewSlice {
  tab: PanelTab;
  viewNode: string;
  /** The side panels (tabs) are shown; hidden gives the graph the room (projector). */
  editorOpen: boolean;
  largeText: boolean;
  allSteps: boolean;
  /** A line of the scenario to show in the editor (`seq` tells one request from the next). */
  reveal: { readonly line: number; readonly seq: number } | undefined;
  /** A line to put into the terminal's prompt, unrun, until the terminal takes it. */
  terminalDraft: TerminalDraft | undefined;
  /** Opens the Terminal tab on `draft.host` with `draft.line` typed, for the learner to finish. */
  draftInTerminal(draft: TerminalDraft): void;
  /** The terminal has taken the draft. */
  clearTerminalDraft(): void;
  /** The packet picker's choice (source, destination, protocol, count). */
  draft: SendRequest;
  setDraft(draft: Partial<SendRequest>): void;
  setTab(tab: PanelTab): void;
  /** Opens the Scenario tab on `line` of the editor's text. */
  revealLine(line: number): void;
  setViewNode(node: string): void;
  toggleEditor(): void;
  toggleLargeText(): void;
  toggleAllSteps(): void;
}

export type AppState = ScenarioSlice & SimSlice & TraceSlice & PlaybackSlice & ViewSlice;

/**
 * What a lesson is: plain data, no code. A lesson folder (src/lessons/NN-slug/) holds its
 * scenario (Kubernetes YAML), its steps, predict-then-reveal questions, tiered hints, the checks
 * that decide when a step is done (specs only: src/lessons/checks evaluates them against the
 * engine's state), and the reference solution the tests play. Every text is in zh-CN and English.
 *
 * Nothing here imports the engine, so the UI can import lessons directly.
 */

export type Lang = 'zh-CN' | 'en';

/** One text in both languages. Inline `code` in backticks; paragraphs separated by blank lines. */
export interface Text {
  readonly 'zh-CN': string;
  readonly en: string;
}

/** A multiple-choice question asked before a key step; the answer is revealed after choosing. */
export interface ChoiceQuestion {
  readonly kind: 'choice';
  readonly id: string;
  readonly prompt: Text;
  readonly choices: readonly { readonly text: Text; readonly correct?: true }[];
  /** Shown once the learner has chosen: why the right answer is right. */
  readonly reveal: Text;
}

/**
 * A question the learner answers by reading the lab (a chain name, a count, an address): an
 * `answer` check compares what they typed with the value computed from the engine's state.
 */
export interface ValueQuestion {
  readonly kind: 'value';
  readonly id: string;
  readonly prompt: Text;
  /** Placeholder text of the input box (e.g. `KUBE-SVC-…`). */
  readonly placeholder?: string;
  readonly reveal: Text;
}

export type Question = ChoiceQuestion | ValueQuestion;

/**
 * A command the learner must complete before it can run: `placeholder` (one word of `line`)
 * stands for a name only the lab's output tells, such as the pod that answered or a chain's
 * hash. Run as written it would fail (`pods "ECHO-POD" not found`), so the panel never runs it:
 * it puts the line into the terminal for the learner to finish.
 */
export interface CommandToComplete {
  readonly line: string;
  readonly placeholder: string;
  /** What to put in place of the placeholder, and where to read it. */
  readonly fill: Text;
}

/** A `TARGET$ COMMAND` line the panel runs as written, or one the learner completes. */
export type StepCommand = string | CommandToComplete;

/** A parameter of a check: plain values, or references the checker resolves against the lab. */
export type CheckParam = string | number | boolean | readonly string[];

/** One check: a kind from src/lessons/checks and its parameters, with what it checks in words. */
export interface CheckSpec {
  readonly id: string;
  readonly kind: string;
  readonly params: Readonly<Record<string, CheckParam>>;
  /** What must be true, as the learner sees it (`your Service has three ready endpoints`). */
  readonly label: Text;
}

/**
 * What the reference solution does, in order: run `TARGET$ COMMAND` lines as in the terminal,
 * append manifests to the scenario and apply it, edit the scenario text and apply it (what the
 * YAML editor's Apply does), or answer a value question.
 */
export type SolutionAction =
  | { readonly run: string }
  | { readonly apply: string }
  | { readonly replace: string; readonly with: string }
  | { readonly answer: string; readonly value: string };

/** An edit of the scenario in the editor: the first `replace` becomes `with`, then Apply. */
export interface ScenarioEdit {
  readonly replace: string;
  readonly with: string;
}

export interface Step {
  readonly id: string;
  readonly title: Text;
  readonly body: Text;
  /** Questions to answer before the commands are shown (predict, then reveal). */
  readonly predict?: readonly Question[];
  /**
   * Commands to try, as `TARGET$ COMMAND` lines: the panel runs each as written, except those
   * to complete, which it puts into the terminal.
   */
  readonly commands?: readonly StepCommand[];
  /** A change to make in the editor (e.g. kube-proxy's mode), when the step asks for one. */
  readonly edit?: ScenarioEdit;
  /** One command to send many times with one click (the lab's shell has no loops). */
  readonly batch?: { readonly command: string; readonly times: number };
  /** YAML the learner adds or changes in the editor, when the step asks for an edit. */
  readonly yaml?: string;
  /**
   * A chart the step shows, computed by the engine in the worker: `scale` is the scale
   * experiment (rules and a first packet's cost per proxy mode as Services grow).
   */
  readonly chart?: 'scale';
  /** Value questions answered after running the commands (checked against the lab). */
  readonly ask?: readonly ValueQuestion[];
  readonly checks: readonly CheckSpec[];
  /** Hints in tiers: a nudge, a pointer, then nearly the answer. */
  readonly hints: readonly [Text, Text, Text];
  readonly solution: readonly SolutionAction[];
  /** A plausible wrong attempt: after it, at least `failing` checks must still fail. */
  readonly wrong?: {
    readonly actions: readonly SolutionAction[];
    readonly failing: readonly string[];
  };
  /** Said after the step is done: what it showed. */
  readonly takeaway?: Text;
}

export interface Lesson {
  /** Folder name: `09-same-node-bridge`. */
  readonly id: string;
  readonly number: number;
  readonly title: Text;
  readonly goal: Text;
  /** The scenario the lesson starts from (the editor's content). */
  readonly scenario: string;
  readonly steps: readonly Step[];
  /**
   * Set when the lesson needs an engine feature that is not in the lab yet: its text is
   * complete, its checks cannot run, and the panel says so.
   */
  readonly waitingFor?: { readonly feature: string; readonly note: Text };
  /** Where the lesson simplifies on purpose (shown with the goal). */
  readonly simplification?: Text;
  /** Textbook sections the lesson goes with. */
  readonly textbook: Text;
}

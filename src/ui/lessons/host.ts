/**
 * What the lessons panel needs from the rest of the lab. The app wires it to its store and the
 * worker; the panel itself knows nothing about either (and nothing about the engine).
 */
import type { ScaleFigures } from '../../protocol/lab';
import type { CheckResult } from '../../protocol/lessons';
import type { CommandToComplete } from '../../lessons/types';

export interface CommandOutput {
  readonly prompt: string;
  readonly output: string;
  readonly exitCode: number;
}

export interface LessonHost {
  /** Replaces the editor's scenario with the lesson's and (re)starts the lab on it. */
  loadScenario(lessonId: string, text: string): Promise<void>;
  /** Adds a YAML document to the end of the editor's scenario and applies it. */
  appendAndApply(yaml: string): Promise<void>;
  /**
   * Replaces the first `from` in the editor's scenario with `to` and applies it; false, and
   * nothing changed or applied, when the scenario has no `from` (an edit of text another
   * change of the step adds, made first).
   */
  editAndApply(from: string, to: string): Promise<boolean>;
  /** Runs one `TARGET$ COMMAND` line as the terminal does. */
  run(line: string): Promise<CommandOutput>;
  /**
   * Puts a command to complete into the terminal's prompt on its host, unrun, the cursor just
   * after the placeholder (so Ctrl+W deletes it).
   */
  completeInTerminal(command: CommandToComplete): void;
  /** From now on, only what happens counts for the current step's checks. */
  beginStep(): Promise<void>;
  /** The scale experiment at `services` Services, every mode, measured in the worker. */
  scalePoint(services: number): Promise<readonly ScaleFigures[]>;
  /** Runs a step's checks in the worker, against the lab as it is now. */
  check(
    lessonId: string,
    stepIndex: number,
    answers: Readonly<Record<string, string>>,
  ): Promise<readonly CheckResult[]>;
}

/**
 * A step's command lines as text, whether the panel runs them or the learner completes them
 * (see CommandToComplete in ./types.ts).
 */
import type { CommandToComplete, StepCommand } from './types';

export function commandLine(command: StepCommand): string {
  return typeof command === 'string' ? command : command.line;
}

export function isToComplete(command: StepCommand): command is CommandToComplete {
  return typeof command !== 'string';
}

/** `pod/client$ curl …` → target and command, as the lab's scripts write them. */
export function splitPrompt(line: string): { target: string; command: string } | undefined {
  const at = line.indexOf('$ ');
  if (at <= 0) return undefined;
  return { target: line.slice(0, at), command: line.slice(at + 2) };
}

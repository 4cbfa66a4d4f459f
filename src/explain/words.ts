/**
 * The lab's own words in the reader's language: a trace step's explanation and the lab's notes
 * in a command's output. English comes from the engine (LabStep.text, the notes as printed);
 * zh-CN from the texts in ./zh-CN, filled with the same parameters. A real tool's output is
 * never translated: only the lines the engine recognises as its own notes (readLabNotes).
 */
import type { CommandAnswer, LabStep } from '../protocol/lab';

/** zh-CN texts by message id: trace explanations and terminal notes. */
export interface Texts {
  readonly trace: Readonly<Record<string, string>>;
  readonly notes: Readonly<Record<string, string>>;
}

/** `{name}` placeholders replaced by their parameters (unknown ones left as they are). */
export function fill(
  template: string,
  params: Readonly<Record<string, unknown>> | undefined,
): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => {
    const v = params?.[name];
    return v === undefined ? m : String(v);
  });
}

/** A step's explanation: zh-CN when asked for and known, else the engine's English. */
export function explainIn(step: LabStep, texts: Texts | undefined): string {
  const template = texts?.trace[step.why.id];
  return template === undefined ? step.text : fill(template, step.why.params);
}

/** A command's output with the lab's notes in the given texts; every other line as printed. */
export function outputIn(
  answer: Pick<CommandAnswer, 'terminal' | 'notes'>,
  texts: Texts | undefined,
): string {
  if (texts === undefined || answer.notes.length === 0) return answer.terminal;
  const lines = answer.terminal.split('\n');
  for (const note of answer.notes) {
    const template = texts.notes[note.id];
    if (template !== undefined && note.line < lines.length)
      lines[note.line] = fill(template, note.params);
  }
  return lines.join('\n');
}

/**
 * A trace as plain text, for a lab report, a slide or the CLI's `run --trace`: each command's
 * prompt line and output, then its packets' steps (the key steps, or all of them), each with
 * its host, what happened in kernel vocabulary, the packet's header after it, the rule or
 * conntrack entry it concerns, and why, in the reader's language.
 */
import type { CommandAnswer, LabStep } from '../protocol/lab';
import type { PacketHeader } from '../protocol/trace';
import { ENGLISH_STEP_WORDS, headerLine, stepTitle, type StepWords } from './format';

export interface TraceEntry {
  readonly step: LabStep;
  /** Index into the answer's runs (one per client program run). */
  readonly run: number;
  /** The packet's header as it is after this step (NAT rewrites included). */
  readonly header: PacketHeader | undefined;
  /** The host the step happens on, as the graph names it (`node-1`, `pod/ns/name`, `laptop`). */
  readonly host: string;
}

export function traceEntries(runs: readonly Pick<CommandAnswer, 'steps'>[]): TraceEntry[] {
  const headers = new Map<number, PacketHeader>();
  const out: TraceEntry[] = [];
  runs.forEach((run, i) => {
    for (const step of run.steps) {
      if (step.kind === 'send' || step.kind === 'wire') headers.set(step.packetId, step.packet);
      if (step.kind === 'nat') headers.set(step.packetId, step.after);
      if (step.kind === 'ipvs' && step.after !== undefined) headers.set(step.packetId, step.after);
      out.push({ step, run: i, header: headers.get(step.packetId), host: step.at.host });
    }
  });
  return out;
}

/** The steps worth a line in the short event list (no rule that did not match, no policy). */
export function isKeyStep(step: LabStep): boolean {
  if (step.kind === 'rule') return step.matched;
  return step.kind !== 'policy';
}

/** What the text is made of, in the reader's language. */
export interface TraceWords {
  /** A command's output as the terminal shows it (the lab's notes translated). */
  readonly output: (run: Pick<CommandAnswer, 'terminal' | 'notes'>) => string;
  /** Why a step happened. */
  readonly explain: (step: LabStep) => string;
  /** How each step is numbered and named (default: the CLI's, STEP_LABELS_BY_SEQ). */
  readonly labels?: StepLabels;
}

/** How a block names its step: its number and the lab's words in its title. */
export interface StepLabels {
  /** The step's number; `index` is its place in the whole list of entries (0-based). */
  readonly number: (entry: TraceEntry, index: number) => number;
  readonly words: StepWords;
}

/**
 * The CLI's: a step is numbered by its seq, the number `run --json` gives the same step, and
 * titled in English. The web lab numbers steps as its player counts them instead
 * (src/ui/packets/trace-text.ts).
 */
export const STEP_LABELS_BY_SEQ: StepLabels = {
  number: (entry) => entry.step.seq,
  words: ENGLISH_STEP_WORDS,
};

export interface TraceForText {
  readonly runs: readonly Pick<CommandAnswer, 'prompt' | 'terminal' | 'notes'>[];
  readonly entries: readonly TraceEntry[];
}

const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? '' : `    ${l}`))
    .join('\n');

/** One run's steps (entries of other runs are skipped), a block each. */
export function stepsText(
  entries: readonly TraceEntry[],
  run: number,
  allSteps: boolean,
  explain: (step: LabStep) => string,
  labels: StepLabels = STEP_LABELS_BY_SEQ,
): string {
  let out = '';
  entries.forEach((e, index) => {
    if (e.run !== run || !(allSteps || isKeyStep(e.step))) return;
    const s = e.step;
    const header = s.kind === 'nat' ? '' : headerLine(e.header);
    const where = `${e.host}${s.at.iface ? ` (${s.at.iface})` : ''}`;
    out += `#${labels.number(e, index)}  ${where}  ${stepTitle(s, labels.words)}`;
    out += header === '' ? '\n' : `  ·  ${header}\n`;
    // A chain's end (an implicit RETURN) has no rule text.
    if (s.kind === 'rule' && s.rule !== '') out += `${indent(s.rule)}\n`;
    if (s.kind === 'conntrack' && s.entry !== '') out += `${indent(s.entry)}\n`;
    out += `${indent(explain(s))}\n`;
  });
  return out;
}

export function traceText(trace: TraceForText, allSteps: boolean, words: TraceWords): string {
  let out = '';
  trace.runs.forEach((run, r) => {
    const output = words.output(run).replace(/\n*$/, '\n');
    out += `${run.prompt}\n${output === '\n' ? '' : output}\n`;
    out += stepsText(trace.entries, r, allSteps, words.explain, words.labels);
    out += '\n';
  });
  return out.replace(/\n+$/, '\n');
}

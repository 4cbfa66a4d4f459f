/**
 * The trace as plain text, for a lab report or a slide: each client program's prompt line and
 * output as the terminal showed it, then the steps the event list shows (the key steps, or all
 * of them), each with its host, what happened in kernel vocabulary, the packet's header after
 * it, the rule or conntrack entry it concerns, and why, in the lab's language. Nothing of it
 * leaves the browser unless the learner pastes or saves it.
 */
import { explainStep, terminalText, withoutTerminalStyles } from '../i18n';
import type { TraceEntry } from '../store/trace-model';
import { isKeyStep } from '../store/trace-model';
import { headerLine, stepTitle } from './format';
import type { CommandAnswer } from '../../protocol/lab';

export interface TraceForText {
  readonly runs: readonly Pick<CommandAnswer, 'prompt' | 'terminal' | 'notes'>[];
  readonly entries: readonly TraceEntry[];
}

const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? '' : `    ${l}`))
    .join('\n');

export function traceText(trace: TraceForText, allSteps: boolean, lng: string): string {
  let out = '';
  trace.runs.forEach((run, r) => {
    const output = withoutTerminalStyles(terminalText(run, lng)).replace(/\n*$/, '\n');
    out += `${run.prompt}\n${output === '\n' ? '' : output}\n`;
    for (const e of trace.entries) {
      if (e.run !== r || !(allSteps || isKeyStep(e.step))) continue;
      const s = e.step;
      const header = s.kind === 'nat' ? '' : headerLine(e.header);
      out += `#${s.seq}  ${e.host}${s.at.iface ? ` (${s.at.iface})` : ''}  ${stepTitle(s)}`;
      out += header === '' ? '\n' : `  ·  ${header}\n`;
      // A chain's end (an implicit RETURN) has no rule text.
      if (s.kind === 'rule' && s.rule !== '') out += `${indent(s.rule)}\n`;
      if (s.kind === 'conntrack' && s.entry !== '') out += `${indent(s.entry)}\n`;
      out += `${indent(explainStep(s, lng))}\n`;
    }
    out += '\n';
  });
  return out.replace(/\n+$/, '\n');
}

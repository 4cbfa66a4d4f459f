/**
 * The trace as plain text for Events ▸ Copy as text / Save as text (explain/trace-text.ts), in
 * the lab's language, without the terminal's bold. Nothing of it leaves the browser unless the
 * learner pastes or saves it.
 */
import { traceText as text, type TraceForText } from '../../explain/trace-text';
import { explainStep, terminalText, withoutTerminalStyles } from '../i18n';

export function traceText(trace: TraceForText, allSteps: boolean, lng: string): string {
  return text(trace, allSteps, {
    output: (run) => withoutTerminalStyles(terminalText(run, lng)),
    explain: (step) => explainStep(step, lng),
  });
}

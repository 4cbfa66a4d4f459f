/**
 * The trace as plain text for Events ▸ Copy as text / Save as text (explain/trace-text.ts), in
 * the lab's language, without the terminal's bold. Nothing of it leaves the browser unless the
 * learner pastes or saves it.
 */
import { traceText as text, type TraceForText } from '../../explain/trace-text';
import { explainStep, stepWords, terminalText, withoutTerminalStyles } from '../i18n';
import { stepNumber } from '../store/trace-model';

export function traceText(trace: TraceForText, allSteps: boolean, lng: string): string {
  return text(trace, allSteps, {
    output: (run) => withoutTerminalStyles(terminalText(run, lng)),
    explain: (step) => explainStep(step, lng),
    // Numbered as the player and the event list count, so "#17" in a report is "Step 17".
    labels: { number: (_entry, index) => stepNumber(index), words: stepWords(lng) },
  });
}

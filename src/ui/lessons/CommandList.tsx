/**
 * A step's commands: each line the lab runs as written has a Run button; a line with a
 * placeholder (a name only the lab's output tells, such as the pod that answered) is never run
 * blindly — it would only fail, `pods "ECHO-POD" not found` — so its button puts it into the
 * terminal, unrun, for the learner to complete, and says how. Then the batch button and what
 * the commands printed.
 */
import { useState } from 'react';
import { isToComplete, splitPrompt } from '../../lessons/step-commands';
import type { CommandToComplete, Lang, Step } from '../../lessons/types';
import type { CommandOutput } from './host';
import { Markup } from './Markup';
import { t } from './strings';

export interface CommandListProps {
  readonly step: Step;
  readonly lang: Lang;
  readonly active: boolean;
  /** What a button of the step is doing (the buttons wait), if anything. */
  readonly busy: string | undefined;
  readonly outputs: readonly CommandOutput[];
  readonly runLines: (lines: readonly string[], label: string) => void;
  readonly completeInTerminal: (command: CommandToComplete) => void;
}

export function CommandList(props: CommandListProps) {
  const { step, lang, active, busy, outputs } = props;
  // The lines put into the terminal: the panel then says how to finish them there.
  const [handedOver, setHandedOver] = useState<readonly number[]>([]);
  return (
    <div className="commands">
      <h4>{t(lang, 'try')}</h4>
      <ul>
        {(step.commands ?? []).map((command, i) =>
          isToComplete(command) ? (
            <li key={i} className="to-complete" data-testid={`command-${i}`}>
              <code>
                <WithPlaceholder line={command.line} placeholder={command.placeholder} />
              </code>
              {active && (
                <button
                  type="button"
                  data-testid={`complete-${i}`}
                  disabled={busy !== undefined}
                  onClick={() => {
                    props.completeInTerminal(command);
                    setHandedOver((h) => (h.includes(i) ? h : [...h, i]));
                  }}
                >
                  {t(lang, 'complete')}
                </button>
              )}
              <div className="fill muted">
                {t(lang, 'fillIn', { placeholder: command.placeholder })}
                <Markup text={command.fill[lang]} />
                {handedOver.includes(i) && (
                  <p data-testid={`completing-${i}`}>
                    {t(lang, 'completing', {
                      host: splitPrompt(command.line)?.target ?? '',
                      placeholder: command.placeholder,
                    })}
                  </p>
                )}
              </div>
            </li>
          ) : (
            <li key={i} data-testid={`command-${i}`}>
              <code>{command}</code>
              {active && (
                <button
                  type="button"
                  data-testid={`run-${i}`}
                  disabled={busy !== undefined}
                  onClick={() => props.runLines([command], `run-${i}`)}
                >
                  {t(lang, 'run')}
                </button>
              )}
            </li>
          ),
        )}
      </ul>
      {step.batch !== undefined && active && (
        <button
          type="button"
          data-testid="run-batch"
          disabled={busy !== undefined}
          onClick={() =>
            props.runLines(
              Array.from({ length: step.batch!.times }, () => step.batch!.command),
              'batch',
            )
          }
        >
          {busy === 'batch' ? t(lang, 'running') : t(lang, 'batch', { n: step.batch.times })}
        </button>
      )}
      {outputs.length > 0 && (
        <pre className="outputs" data-testid="step-output">
          {outputs.map((o) => `${o.prompt}${o.output}`).join('')}
        </pre>
      )}
    </div>
  );
}

/** The line with its placeholder marked, so that no one takes it for a name that exists. */
function WithPlaceholder({ line, placeholder }: { line: string; placeholder: string }) {
  const at = line.indexOf(placeholder);
  if (at < 0) return <>{line}</>;
  return (
    <>
      {line.slice(0, at)}
      <mark className="placeholder">{placeholder}</mark>
      {line.slice(at + placeholder.length)}
    </>
  );
}

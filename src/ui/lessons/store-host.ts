/**
 * The lessons panel's LessonHost on top of the lab's store and worker client: loading a
 * lesson is loading a preset, a YAML edit goes through the editor's text and Apply, commands
 * run as the terminal runs them (so their packets animate like any other), and checks are
 * judged in the worker.
 */
import i18next from 'i18next';
import { terminalText, withoutTerminalStyles } from '../i18n';
import type { LabCaller } from '../store/types';
import type { AppStore } from '../store';
import type { CommandOutput, LessonHost } from './host';
import { lessonPresetId } from '../app/presets';
import { splitPrompt } from '../../lessons/step-commands';

export function createLessonHost(store: AppStore, lab: LabCaller): LessonHost {
  return {
    async loadScenario(lessonId, text) {
      // The scenario picker names the lesson (src/ui/app/presets.ts: lessonPresetId).
      await store.getState().loadPreset(lessonPresetId(lessonId), text);
    },
    async appendAndApply(yaml) {
      const s = store.getState();
      s.setText(`${s.text.replace(/\s*$/, '\n')}${yaml.replace(/^\n+/, '')}`);
      await store.getState().applyText();
    },
    async editAndApply(from, to) {
      const s = store.getState();
      if (!s.text.includes(from)) return false;
      s.setText(s.text.replace(from, to));
      await store.getState().applyText();
      return true;
    },
    async run(line): Promise<CommandOutput> {
      const parts = splitPrompt(line);
      if (parts === undefined) return { prompt: line, output: '', exitCode: 2 };
      const answer = await store.getState().runTerminal(parts.target, parts.command);
      if (answer === undefined) return { prompt: `${line}\n`, output: '', exitCode: 1 };
      return {
        prompt: `${answer.prompt}\n`,
        // As the terminal shows it: the streams in the order written, the lab's notes translated.
        output: withoutTerminalStyles(terminalText(answer, i18next.language)),
        exitCode: answer.exitCode,
      };
    },
    completeInTerminal({ line, placeholder }) {
      const parts = splitPrompt(line);
      if (parts === undefined) return;
      const at = parts.command.indexOf(placeholder);
      // The line editor counts code points, not UTF-16 units.
      const cursor = [...parts.command.slice(0, at < 0 ? undefined : at + placeholder.length)]
        .length;
      store.getState().draftInTerminal({ host: parts.target, line: parts.command, cursor });
    },
    async beginStep() {
      await lab.call('lessonBeginStep');
    },
    async scalePoint(services) {
      return lab.call('scalePoint', services);
    },
    async check(lessonId, stepIndex, answers) {
      return lab.call('lessonCheck', lessonId, stepIndex, answers);
    },
  };
}

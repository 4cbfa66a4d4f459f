/**
 * Monaco, bundled and slim (core API, editor features, YAML highlighting), with monaco-yaml
 * and the lab's JSON schema for every kind a scenario accepts. Only the lazily loaded editor
 * chunk imports this file: the app shell never carries Monaco, and nothing comes from a CDN.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/yaml/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import i18next from 'i18next';
import { configureMonacoYaml, type MonacoYamlOptions } from 'monaco-yaml';
import { currentLanguage, type Language } from '../i18n';
import { localizedSchema } from './schema-descriptions';
import schema from './scenario.schema.json';
import YamlWorker from './yaml.worker?worker';

export const SCENARIO_URI = 'file:///scenario/scenario.yaml';

interface LegacyWorkerOptions {
  readonly label?: string;
  readonly moduleId?: string;
  readonly createData?: unknown;
  readonly host?: Record<string, (...args: unknown[]) => unknown>;
  readonly keepIdleModels?: boolean;
}

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(moduleId: string, label: string): Worker };
  }
}

window.MonacoEnvironment = {
  getWorker: (_moduleId, label) => (label === 'yaml' ? new YamlWorker() : new EditorWorker()),
};

// monaco-worker-manager (used by monaco-yaml 5.5.1) still calls createWebWorker with the
// pre-0.55 options { label, moduleId, createData }; Monaco 0.55+ wants { worker }. Adapt the
// old call the way Monaco's own language features start theirs (upstream monaco-yaml#272).
const createWebWorker = ((opts: LegacyWorkerOptions & { worker?: Worker }) => {
  if (opts.worker !== undefined) return monaco.editor.createWebWorker(opts as never);
  const worker = window.MonacoEnvironment!.getWorker('workerMain.js', opts.label ?? 'yaml');
  worker.postMessage('ignore');
  worker.postMessage(opts.createData);
  return monaco.editor.createWebWorker({
    worker,
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.keepIdleModels !== undefined ? { keepIdleModels: opts.keepIdleModels } : {}),
  } as never);
}) as typeof monaco.editor.createWebWorker;

const monacoForYaml = { ...monaco, editor: { ...monaco.editor, createWebWorker } };

const optionsIn = (lang: Language): MonacoYamlOptions => ({
  enableSchemaRequest: false,
  hover: true,
  completion: true,
  validate: true,
  format: { enable: false },
  schemas: [
    {
      fileMatch: ['**/scenario.yaml'],
      uri: 'file:///schemas/scenario.schema.json',
      // Hover texts in the learner's language (schema-descriptions.ts).
      schema: localizedSchema(schema, lang) as never,
    },
  ],
});

const monacoYaml = configureMonacoYaml(
  monacoForYaml as typeof monaco,
  optionsIn(currentLanguage()),
);
i18next.on('languageChanged', () => void monacoYaml.update(optionsIn(currentLanguage())));

export { monaco };

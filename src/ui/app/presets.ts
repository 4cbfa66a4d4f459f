/**
 * Presets: the built-in scenario (the worker knows it) and every experiment under scenarios/,
 * bundled as text. Titles come from each experiment's README heading, "zh-CN / English" (only
 * the heading is bundled: vite.config.ts readmeTitle).
 */
const SCENARIOS = import.meta.glob('../../../scenarios/*/scenario.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const TITLES = import.meta.glob('../../../scenarios/*/README.md', {
  query: '?title',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export interface Preset {
  readonly id: string;
  readonly title: { readonly 'zh-CN': string; readonly en: string };
  /** Undefined for the built-in scenario: ask the worker. */
  readonly text: string | undefined;
}

function titleOf(readmeHeading: string | undefined, id: string): Preset['title'] {
  const heading = readmeHeading !== undefined && readmeHeading !== '' ? readmeHeading : id;
  const [num, rest = heading] = heading.includes(' · ') ? heading.split(' · ') : ['', heading];
  const [zh = rest, en = rest] = rest.split(' / ');
  const prefix = num ? `${num} · ` : '';
  return { 'zh-CN': prefix + zh.trim(), en: prefix + en.trim() };
}

export const PRESETS: readonly Preset[] = [
  { id: 'builtin', title: { 'zh-CN': '内置场景', en: 'Built-in scenario' }, text: undefined },
  ...Object.entries(SCENARIOS)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, text]) => {
      const id = path.split('/').at(-2) ?? path;
      return { id, title: titleOf(TITLES[path.replace('scenario.yaml', 'README.md')], id), text };
    }),
];

/** The picker's id for a lesson's scenario, loaded from the lessons panel. */
export function lessonPresetId(lessonId: string): string {
  return `lesson:${lessonId}`;
}

/** The lesson a preset id names, if it is a lesson's scenario. */
export function lessonOfPreset(presetId: string): string | undefined {
  return presetId.startsWith('lesson:') ? presetId.slice('lesson:'.length) : undefined;
}

/** The picker's id for a scenario opened from a file (the file's name). */
export function filePresetId(fileName: string): string {
  return `file:${fileName}`;
}

/** The file a preset id names, if the scenario was opened from one. */
export function fileOfPreset(presetId: string): string | undefined {
  return presetId.startsWith('file:') ? presetId.slice('file:'.length) : undefined;
}

/**
 * The name "Save file" offers: the opened file's own, else the preset's or lesson's id
 * (`03-hairpin.yaml`), else `scenario.yaml` for the built-in one.
 */
export function saveFileName(presetId: string): string {
  const file = fileOfPreset(presetId);
  if (file !== undefined) return file;
  const id = lessonOfPreset(presetId) ?? presetId;
  const safe = id.replace(/[^A-Za-z0-9._-]+/g, '-');
  return id === 'builtin' || safe === '' ? 'scenario.yaml' : `${safe}.yaml`;
}

/** Preset ids of opened files and lessons, and the name "Save file" offers. */
import { describe, expect, it } from 'vitest';
import {
  fileOfPreset,
  filePresetId,
  lessonPresetId,
  PRESETS,
  saveFileName,
} from '../../src/ui/app/presets';

describe('presets', () => {
  it('names an opened file, and saves under its name', () => {
    const id = filePresetId('my lab.yaml');
    expect(fileOfPreset(id)).toBe('my lab.yaml');
    expect(saveFileName(id)).toBe('my lab.yaml');
    expect(fileOfPreset('builtin')).toBeUndefined();
  });

  it("offers the preset's or the lesson's id as a file name, scenario.yaml for the built-in one", () => {
    expect(saveFileName('builtin')).toBe('scenario.yaml');
    expect(saveFileName('03-hairpin')).toBe('03-hairpin.yaml');
    expect(saveFileName(lessonPresetId('10-hairpin'))).toBe('10-hairpin.yaml');
    expect(saveFileName('a/b:c')).toBe('a-b-c.yaml');
    expect(PRESETS.map((p) => saveFileName(p.id))).toContain('01-cross-node-clusterip.yaml');
  });

  it("titles each experiment with its README's heading, in both languages", () => {
    const ping = PRESETS.find((p) => p.id === '09-ping');
    expect(ping?.title).toEqual({
      'zh-CN': '09 · ping：Pod 与 ClusterIP',
      en: '09 · ping: a pod, and a ClusterIP',
    });
    expect(PRESETS.every((p) => p.title.en !== p.id)).toBe(true);
  });
});

/** The scenario schema's hover texts in zh-CN: every one translated, nothing else changed. */
import { describe, expect, it } from 'vitest';
import schema from '../../src/ui/editor/scenario.schema.json';
import { localizedSchema, SCHEMA_DESCRIPTIONS_ZH } from '../../src/ui/editor/schema-descriptions';

function descriptions(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) descriptions(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'description' || k === 'title') && typeof v === 'string') out.push(v);
      else descriptions(v, out);
    }
  return out;
}

const withoutDescriptions = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (k, v: unknown) =>
      k === 'description' || k === 'title' ? undefined : v,
    ),
  );

describe('scenario schema descriptions', () => {
  it('has a Chinese text for every title and description, and changes nothing else', () => {
    const en = descriptions(schema);
    expect(en.length).toBeGreaterThan(10);
    const zh = localizedSchema(schema, 'zh-CN');
    const translated = descriptions(zh);
    expect(translated).toEqual(en.map((d) => SCHEMA_DESCRIPTIONS_ZH[d]));
    for (const d of translated) expect(d).toMatch(/[\u4e00-\u9fff]/);
    expect(withoutDescriptions(zh)).toEqual(withoutDescriptions(schema));
    expect(localizedSchema(schema, 'en')).toBe(schema);
  });

  it('lists no description the schema does not have', () => {
    const en = new Set(descriptions(schema));
    for (const key of Object.keys(SCHEMA_DESCRIPTIONS_ZH)) expect(en.has(key), key).toBe(true);
  });
});

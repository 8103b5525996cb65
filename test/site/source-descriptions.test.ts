import { describe, expect, it } from 'vitest';
import { SOURCE_MODULES } from '../../build-scripts/sources/index.js';
import { CATALOGUES } from '../../src/site/i18n/index.js';
import { SOURCE_DESCRIPTIONS_ZH } from '../../src/site/i18n/source-descriptions.zh-TW.js';

/**
 * Every source's description in Chinese (/zh-TW/sources/ showed the registry's English):
 * one per source module, for no other source, and Chinese (mostly Han characters, not the English
 * with a few words changed).
 */
describe('the sources’ descriptions in Chinese', () => {
  const ids = SOURCE_MODULES.map((m) => m.info.source_id);

  it('has one for every source module, and none for a source that is not one', () => {
    expect(ids.filter((id) => SOURCE_DESCRIPTIONS_ZH[id] === undefined)).toEqual([]);
    expect(Object.keys(SOURCE_DESCRIPTIONS_ZH).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('writes each in Chinese, and the English pages keep the registry’s own', () => {
    for (const m of SOURCE_MODULES) {
      const zh = CATALOGUES['zh-TW'].sources.description(m.info.source_id, m.info.description)!;
      const han = [...zh].filter((c) => /\p{Script=Han}/u.test(c)).length;
      const latinWords = zh.match(/[A-Za-z]{4,}/g) ?? [];
      expect(han, m.info.source_id).toBeGreaterThan(30);
      // Only names of things (columns, sites, other source ids) stay in Latin letters.
      expect(latinWords.length, `${m.info.source_id}: ${latinWords.join(' ')}`).toBeLessThanOrEqual(4);
      expect(CATALOGUES.en.sources.description(m.info.source_id, m.info.description)).toBe(m.info.description);
    }
  });
});

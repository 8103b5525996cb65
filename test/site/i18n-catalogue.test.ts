import { describe, expect, it } from 'vitest';
import { carryableReason, EMPTY_REASON } from '../../build-scripts/fetch/carry-forward.js';
import { ROUTES } from '../../src/contract/routes.js';
import { CAUSE_KINDS, SCORE_COMPONENTS, VERDICTS } from '../../src/contract/vocabulary.js';
import { FLAG_CATALOGUE } from '../../src/methodology/rules.js';
import { reasonDetail, scoreReasons } from '../../src/methodology/score.js';
import { GLOSSARY } from '../../src/site/i18n/glossary.js';
import { CATALOGUES, l10n, LOCALES, scriptMessagesJs } from '../../src/site/i18n/index.js';
import { pageUrlsFor } from '../../src/site/i18n/paths.js';
import { englishWords } from './english-ui.js';

/**
 * The message catalogues: the same keys in every language (the type forces it; this holds it at
 * run time too), a text for every id of the contract, the publishers' terms, and the script texts'
 * placeholders.
 */

/** Every key path of a catalogue, with the kind of value there (string, function, object). */
function shape(m: unknown, at = ''): string[] {
  if (m && typeof m === 'object') return Object.entries(m).flatMap(([k, v]) => shape(v, at ? `${at}.${k}` : k));
  return [`${at}: ${typeof m}`];
}

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the catalogues', () => {
  it('have the same keys, with the same kind of value, in every language', () => {
    const english = shape(CATALOGUES.en);
    expect(english.length).toBeGreaterThan(200);
    for (const locale of LOCALES) expect(shape(CATALOGUES[locale]), locale).toEqual(english);
  });

  it('name every verdict, component, cause kind and flag of the contract in every language', () => {
    for (const locale of LOCALES) {
      const t = CATALOGUES[locale];
      for (const v of VERDICTS) expect(t.verdict[v], `${locale} ${v}`).toMatch(/\S/);
      for (const c of SCORE_COMPONENTS) expect(t.component[c], `${locale} ${c}`).toMatch(/\S/);
      for (const k of CAUSE_KINDS) expect(t.cause[k], `${locale} ${k}`).toMatch(/\S/);
      for (const f of FLAG_CATALOGUE) for (const text of Object.values(t.flag[f.id])) expect(text, `${locale} ${f.id}`).toMatch(/\S/);
    }
  });

  it('give every operation of the route table a summary in Traditional Chinese, with no English word', () => {
    const zh = CATALOGUES['zh-TW'];
    for (const op of ROUTES) {
      const text = zh.docs.operation(op.id, op.summary);
      expect(englishWords(text), `${op.id}: ${text}`).toEqual([]);
    }
  });

  it('fill the scripts’ texts with the same placeholders in every language', () => {
    for (const [group, texts] of Object.entries(CATALOGUES.en.script)) {
      for (const [key, text] of Object.entries(texts)) {
        for (const locale of LOCALES)
          expect(
            placeholders((CATALOGUES[locale].script as Record<string, Record<string, string>>)[group]![key]!),
            `${locale} ${group}.${key}`,
          ).toEqual(placeholders(text));
      }
    }
    const js = scriptMessagesJs();
    for (const locale of LOCALES) expect(js).toContain(JSON.stringify(locale));
  });

  it('write the English reasons exactly as the API’s detail, and the Chinese ones without English words', () => {
    const base = {
      asof: '2026-10-31',
      companySourceId: 'SRC-X',
      cbamExposed: false,
      registryTotal: null,
      carbonFee: { obligated: true, sourceId: 'SRC-X' },
      disclosure: { year: 2024, scope1: 1, scope2: 2, scope3: null, scope1Verified: true, scope2Verified: false, sourceId: 'SRC-X' },
      assurance: { level: 'limited' as const, year: 2023, sourceId: 'SRC-X' },
      penalties: [{ date: '2026-01-02', fine: 2_000_000, serious: true, sourceId: 'SRC-X' }],
      conduct: [],
    };
    for (const input of [base, { ...base, disclosure: null, assurance: null, penalties: [], cbamExposed: true }]) {
      for (const r of scoreReasons(input)) {
        expect(CATALOGUES.en.reason(r)).toBe(reasonDetail(r));
        expect(englishWords(CATALOGUES['zh-TW'].reason(r)), CATALOGUES['zh-TW'].reason(r)).toEqual([]);
      }
    }
  });
});

describe('the glossary', () => {
  it('is what the Chinese pages call the publishers’ terms', () => {
    const t = CATALOGUES['zh-TW'];
    const texts = t.methodology.texts;
    const zh = JSON.stringify([
      t,
      texts.definitions(null as never),
      texts.rules(null as never),
      [1, 2, 3].map((n) => t.company.scope(n as 1 | 2 | 3)),
    ]);
    for (const term of ['確信', '碳費', '裁處', '永續報告書', '溫室氣體', '範疇一', '範疇二', '範疇三']) {
      expect(
        GLOSSARY.some((g) => g.zh.includes(term)),
        term,
      ).toBe(true);
      expect(zh, term).toContain(term);
    }
  });
});

describe('page URLs in each language', () => {
  it('keep the English URLs and put the others under their prefix', () => {
    expect(pageUrlsFor('en').company('D1101')).toBe('/company/D1101/');
    expect(pageUrlsFor('zh-TW').company('D1101')).toBe('/zh-TW/company/D1101/');
    expect(pageUrlsFor('zh-TW').ranking(2, { kind: 'industry', value: '水泥工業', slug: '01' })).toBe('/zh-TW/ranking/industry/01/page/2/');
    expect(pageUrlsFor('zh-TW').notFound).toBe('/zh-TW/404.html');
    expect(pageUrlsFor('zh-TW').asset('site.css')).toBe('/assets/site.css');
    expect(l10n('zh-TW').lang).toBe('zh-Hant-TW');
  });

  it('write numbers and dates in each language’s form', () => {
    expect(l10n('en').f.number(1234567.891)).toBe('1,234,567.89');
    expect(l10n('zh-TW').f.number(1234567.891)).toBe('1,234,567.89');
    expect(l10n('zh-TW').f.date('2026-10-31T00:00:00Z')).toBe('2026年10月31日');
    expect(l10n('zh-TW').f.money(1_200_000)).toBe('新臺幣 1,200,000 元');
    expect(l10n('zh-TW').f.percent(0.3282)).toBe('32.82%');
  });
});

describe("the sources page's carried-forward line", () => {
  it('says in Chinese which of the carried failures it was, from the reason the fetch gives', () => {
    // The Chinese text is chosen by the reason's opening words: each carryable kind must reach its own words.
    const zh = (reason: string) => CATALOGUES['zh-TW'].sources.carriedText('A', reason, 'B');
    expect(zh(carryableReason('blocked', 'x')!)).toContain('拒絕了本服務的連線');
    expect(zh(carryableReason('not-found', 'x')!)).toContain('「找不到網頁」而非資料');
    expect(zh(carryableReason('unavailable', 'x')!)).toContain('在多次重試後仍無法取得');
    expect(zh(EMPTY_REASON)).toContain('是空的');
    expect(CATALOGUES.en.sources.carriedText('A', carryableReason('not-found', 'x')!, 'B')).toContain(
      'gave nothing usable: a not-found page where data was expected (x)',
    );
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbersOf } from './html.js';

/**
 * The ETF and company pages of the hand-made snapshot (test/helpers/hand-built-snapshot.ts),
 * rendered in a child process with the page workers' loaders: weights read as percentages, each
 * ETF page says its period, the publisher's cut-off and the weight its holdings cover, and a
 * company page says what kind of assurance it has, under which standard, and who else verified it.
 */
let work: string;
let pages: Record<string, string>;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'assurance-etf-pages-'));
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './build-scripts/pages/register-astro.mjs',
      'test/site/render-hand-built.ts',
      join(work, 'snapshot'),
      'H0001',
      'H0002',
      'H0004',
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  pages = JSON.parse(out.trim().split('\n').pop()!) as Record<string, string>;
}, 150_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The visible text of a page's main part: tags dropped (a term and its description apart), spaces collapsed. */
const textOf = (html: string) =>
  /<main[^>]*>(.*)<\/main>/s
    .exec(html)![1]!
    .replace(/<\/(dt|dd)>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('the ETF page', () => {
  it('shows weights as percentages (32.82 %), never the fraction with a percent sign (0.3282 %)', () => {
    const html = pages['etf/HE001']!;
    const weights = numbersOf(html).filter((n) => /^holdings\.\d+\.weight$/.test(n.field));
    expect(weights.map((n) => [n.value, n.text])).toEqual([
      [0.3282, '32.82 %'],
      [0.1, '10 %'],
      [0.07, '7 %'],
      [0.12341, '12.34 %'],
    ]);
    expect(html).not.toContain('0.3282 %');
    expect(textOf(pages['etf/HE002']!)).toContain('60 %');
  });

  it('says the period, the 1 % floor and the share of net assets the listed holdings cover', () => {
    const text = textOf(pages['etf/HE001']!);
    expect(text).toContain('2026Q3');
    expect(text).toContain('Only holdings of 1 % of net assets or more are published');
    expect(text).toContain('Listed weight 62.16 % of net assets');
    expect(text).toContain('the holdings below cover 62.16 % of the fund');
    expect(text).toContain('SRC-SITCA-ETF-HOLDINGS');
    const numbers = new Map(numbersOf(pages['etf/HE001']!).map((n) => [n.field, n]));
    expect(numbers.get('listed_weight')).toMatchObject({ value: 0.6216, text: '62.16 %' });
    expect(numbers.get('holdings_min_weight')).toMatchObject({ value: 0.01, text: '1 %' });
  });

  it('says every holding is listed when the publisher has no cut-off', () => {
    const text = textOf(pages['etf/HE002']!);
    expect(text).toContain('2026Q2');
    expect(text).toContain('Every holding is published; the listed weights add up to 100 % of net assets.');
    expect(text).not.toContain('Only holdings of');
  });
});

describe('the company page’s assurance', () => {
  const section = (ticker: string) =>
    textOf(pages[`company/${ticker}`]!.replace(/^.*?(<section aria-labelledby="assurance-h">.*?<\/section>).*$/s, '<main>$1</main>'));

  it('a CPA assurance: its kind, level, standard and the verifier beside it', () => {
    expect(pages['company/H0001']).toContain('data-assurance-kind="cpa"');
    const text = section('H0001');
    expect(text).toContain('CPA assurance by 示範聯合會計師事務所 of the report for 2025.');
    expect(text).toContain('Reasonable assurance');
    expect(text).toContain('Standard 確信準則3000號');
    expect(text).toContain('Also verified by BSI Taiwan (AA1000AS v3)');
  });

  it('a third-party verification: said to be no CPA assurance, with an unstated standard said so', () => {
    expect(pages['company/H0002']).toContain('data-assurance-kind="third_party"');
    const text = section('H0002');
    expect(text).toContain('Third-party verification by SGS Taiwan of the report for 2024.');
    expect(text).toContain('no CPA assurance');
    expect(text).toContain('Standard not stated in the filing');
    expect(text).not.toContain('Also verified by');
  });

  it('no assurance', () => {
    expect(section('H0004')).toContain('No assured sustainability report on record.');
  });
});

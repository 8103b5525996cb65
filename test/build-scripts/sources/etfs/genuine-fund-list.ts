import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The genuine TWSE fund list (test/fixtures/genuine/SRC-TWSE-ETF-LIST, provenance in its
 * PROVENANCE.md): 209 funds in the older 24-key schema, served 2025-11-23 with 出表日期 1131230. The
 * file is a caller's wrapper around the answer; `response.body` is the publisher's array as served.
 */
export const GENUINE_FUND_LIST_FILE = join(import.meta.dirname, '../../../fixtures/genuine/SRC-TWSE-ETF-LIST/GET__opendata_t187ap47_L.json');

interface Wrapper {
  response: { status_code: number; body: Record<string, string>[] };
}

/** The publisher's records, keys and values as served. */
export const genuineFundList: Record<string, string>[] = (JSON.parse(readFileSync(GENUINE_FUND_LIST_FILE, 'utf8')) as Wrapper).response.body;

/** A sources folder holding the answer as an operator places it: the body alone, as t187ap47_L.json. */
export const genuineFundListFolder = (fixtureDir: (files: Record<string, string>) => string): string =>
  fixtureDir({ 't187ap47_L.json': JSON.stringify(genuineFundList, null, 2) });

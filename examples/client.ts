/**
 * A typed client for the ESG disclosure credibility API, in a few lines: the types come from the
 * published OpenAPI document (examples/api-types.ts, `npm run client:types`) and openapi-fetch makes
 * every call from them, so a wrong path, parameter or body is a compile error, not a 400.
 *
 *   ESG_API=http://localhost:8080 ESG_API_KEY=… npx tsx examples/client.ts
 *
 * ESG_API_KEY is optional: without it computed calls are counted on the free tier, which has no
 * evidence packs (the pack step then says so and is skipped).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import type { components, paths } from './api-types.js';

export type CompanySummary = components['schemas']['CompanySummary'];

export function apiClient(baseUrl = process.env.ESG_API ?? 'http://localhost:8080', key = process.env.ESG_API_KEY) {
  return createClient<paths>({ baseUrl, headers: key ? { 'X-API-Key': key } : {} });
}
type Client = ReturnType<typeof apiClient>;

/** Every error body is the same envelope: say its code and message. */
function failed(what: string, error: { error: { code: string; message: string } } | undefined, status: number): Error {
  return new Error(`${what}: ${status} ${error ? `${error.error.code}: ${error.error.message}` : ''}`);
}

/** One company's summary (a static file: free, never counted). */
export async function company(api: Client, ticker: string): Promise<CompanySummary> {
  const { data, error, response } = await api.GET('/api/v1/company/{ticker}', { params: { path: { ticker } } });
  if (!data) throw failed(`company ${ticker}`, error, response.status);
  return data.company;
}

/** A filtered ranking page: the worst companies of one industry first. */
export async function worstInIndustry(api: Client, industry: string, limit = 10) {
  const { data, error, response } = await api.GET('/api/v1/ranking', { params: { query: { industry, sort: 'score_asc', limit } } });
  if (!data) throw failed(`ranking of ${industry}`, error, response.status);
  return { total: data.meta.total, entries: data.data };
}

/** Summaries of many companies in one call; unknown codes come back as items with an error. */
export async function batch(api: Client, tickers: string[]) {
  const { data, error, response } = await api.POST('/api/v1/batch', { body: { tickers } });
  if (!data) throw failed('batch', error, response.status);
  return data;
}

/** An evidence pack (a zip), written to `file`; needs a developer or commercial key. */
export async function pack(api: Client, tickers: string[], file: string): Promise<{ file: string; bytes: number; name: string }> {
  const { data, error, response } = await api.POST('/api/v1/packs', { body: { tickers }, parseAs: 'arrayBuffer' });
  if (!data) throw failed('pack', error, response.status);
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'evidence-pack.zip';
  writeFileSync(file, Buffer.from(data));
  return { file, bytes: data.byteLength, name };
}

async function main(): Promise<void> {
  const api = apiClient();
  const d1101 = await company(api, 'D1101');
  console.log(`${d1101.ticker} ${d1101.company_name}: ${d1101.credibility_score} (${d1101.verdict}), rank ${d1101.rank}`);

  const worst = await worstInIndustry(api, d1101.industry, 5);
  console.log(`\nThe 5 lowest of ${worst.total} in ${d1101.industry}:`);
  for (const e of worst.entries) console.log(`  ${e.rank}\t${e.ticker}\t${e.credibility_score}\t${e.company_name}`);

  const found = await batch(api, ['D1101', 'D1104', 'D9999']);
  console.log(`\nBatch: ${found.meta.found} found, ${found.meta.not_found} not found`);
  for (const item of found.data)
    console.log(`  ${item.ticker}: ${item.ok ? `${item.company.credibility_score} ${item.company.verdict}` : item.error.message}`);

  try {
    const p = await pack(api, ['D1101', 'D1104', 'D1139'], 'pack.zip');
    console.log(
      `\nEvidence pack ${p.name}: ${p.bytes} bytes in ${p.file}; check it with: unzip ${p.file} && cd ${p.name.replace(/\.zip$/, '')} && sha256sum -c SHA256SUMS`,
    );
  } catch (e) {
    console.log(`\nNo evidence pack: ${(e as Error).message}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();

/**
 * Compiled (never run) with examples/ by test/examples/client.test.ts: each line below is a mistake
 * the generated types must refuse. If one compiled, its @ts-expect-error would itself be an error.
 */
import { apiClient } from '../../examples/client.js';

const api = apiClient('http://localhost:8080');

export async function mistakes(): Promise<void> {
  // @ts-expect-error: no such path
  await api.GET('/api/v1/companies/{ticker}', { params: { path: { ticker: 'D1101' } } });
  // @ts-expect-error: a misspelled query parameter
  await api.GET('/api/v1/ranking', { params: { query: { industri: '水泥工業' } } });
  // @ts-expect-error: sort takes score_desc or score_asc only
  await api.GET('/api/v1/ranking', { params: { query: { sort: 'name' } } });
  // @ts-expect-error: the batch body is {tickers}
  await api.POST('/api/v1/batch', { body: { codes: ['D1101'] } });
  // @ts-expect-error: packs are POSTed, not fetched
  await api.GET('/api/v1/packs');
  const { data } = await api.GET('/api/v1/company/{ticker}', { params: { path: { ticker: 'D1101' } } });
  // @ts-expect-error: a summary has no such field
  console.log(data?.company.credibility);
}

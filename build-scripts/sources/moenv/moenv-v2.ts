import type { FetchPlan, FetchSession, PlanContext } from '../kit/source.js';

/**
 * MOENV open data v2 (`data.moenv.gov.tw/api/v2/<dataset>`): GET pages of at most 1,000 records with
 * `format=json&api_key=KEY&offset=N&limit=1000` until a short page. Each page is kept as served,
 * `<dataset>.<page, 4 digits>.json`, so every record traces to the exact bytes MOENV sent; the key
 * never reaches a file name, the manifest or a message.
 */

export const MOENV_PAGE = 1000;
/** A source of more pages than this is a server ignoring `offset`, not data. */
const MAX_PAGES = 5000;

const SITE = 'https://data.moenv.gov.tw';

/** The answer a MOENV dataset's fetch writes for page n (from 1): `EMS_P_46.0001.json`. */
export const moenvPageFile = (dataset: string, n: number) => `${dataset}.${String(n).padStart(4, '0')}.json`;

/** The answers a MOENV dataset's fetch writes: `EMS_P_46.0001.json`, … */
export const moenvPageFiles = (dataset: string) => new RegExp(`^${dataset}\\.\\d{4}\\.json$`);

/** The dataset's page for people (its description, licence and downloads): where its facts link. */
export const moenvDatasetPage = (dataset: string) => `${SITE}/dataset/detail/${dataset}`;

export function moenvPlan(dataset: string): FetchPlan {
  return {
    url: `${SITE}/api/v2/${dataset}`,
    needs: ['moenv-key'],
    async run(session: FetchSession, ctx: PlanContext) {
      let previousSha = '';
      for (let n = 1, offset = 0; ; n++, offset += MOENV_PAGE) {
        if (n > MAX_PAGES) throw new Error(`more than ${MAX_PAGES} pages: the server seems to ignore offset`);
        const page = new URL(ctx.url);
        page.searchParams.set('format', 'json');
        page.searchParams.set('offset', String(offset));
        page.searchParams.set('limit', String(MOENV_PAGE));
        page.searchParams.set('api_key', ctx.moenvKey);
        const kept = await session.request({
          file: moenvPageFile(dataset, n),
          method: 'GET',
          url: page.toString(),
          expect: 'json',
        });
        if (kept.records === MOENV_PAGE && kept.sha256 === previousSha)
          throw new Error(`page at offset ${offset} repeats the previous page: the server ignores offset`);
        previousSha = kept.sha256;
        if (kept.records < MOENV_PAGE) return;
      }
    },
  };
}

import * as layouts from '../adapters/layouts.js';

/**
 * Where each source is downloaded from: the one catalogue of publisher endpoints. Every URL can be
 * replaced per source through the environment (`FETCH_URL_<source id with _ for ->`, e.g.
 * `FETCH_URL_SRC_TWSE_COMPANY`), which is how tests point the fetch at a local replay server and how
 * an operator fills in a source whose publisher has no machine-readable endpoint we know of.
 */

export interface Endpoint {
  readonly sourceId: string;
  /** File written in the sources folder: the layout's served form, so the adapters find it. */
  readonly file: string;
  /** Publisher URL, or null when no public machine-readable endpoint is known (see `note`). */
  readonly url: string | null;
  readonly form: 'json' | 'csv';
  /** MOENV open data v2: `offset`/`limit` pages of 1,000 until a short page, `api_key` required. */
  readonly paged: boolean;
  readonly note?: string;
}

const TWSE = 'https://openapi.twse.com.tw/v1/opendata';
const TPEX = 'https://www.tpex.org.tw/openapi/v1';
const MOENV = 'https://data.moenv.gov.tw/api/v2';

const json = (layout: { sourceId: string; file: string }, url: string, paged = false): Endpoint => ({
  sourceId: layout.sourceId,
  file: layout.file,
  url,
  form: 'json',
  paged,
});

export const ENDPOINTS: readonly Endpoint[] = [
  json(layouts.twseCompanyLayout, `${TWSE}/t187ap03_L`),
  json(layouts.tpexCompanyLayout, `${TPEX}/mopsfin_t187ap03_O`),
  json(layouts.twseGhgLayout, `${TWSE}/t187ap46_L_1`),
  json(layouts.tpexGhgLayout, `${TPEX}/t187ap46_O_1`),
  json(layouts.penaltyLayout, `${MOENV}/EMS_P_46`, true),
  json(layouts.registryLayout, `${MOENV}/GHG_P_01`, true),
  {
    sourceId: layouts.esgReportLayout.sourceId,
    file: layouts.esgReportLayout.file,
    url: null,
    form: 'csv',
    paged: false,
    note: 'MOPS publishes report filings only through its t100sb11 query pages; export them as CSV (UTF-8 or Big5) and name the URL or drop the file in',
  },
  {
    sourceId: layouts.etfHoldingsLayout.sourceId,
    file: layouts.etfHoldingsLayout.file,
    url: null,
    form: 'csv',
    paged: false,
    note: 'MOPS publishes quarterly ETF holdings only through its t78sb39_new query pages; export them as CSV and name the URL or drop the file in',
  },
];

/** The environment variable that overrides a source's URL. */
export const urlVariable = (sourceId: string) => `FETCH_URL_${sourceId.replace(/-/g, '_')}`;

/** The catalogue with environment overrides applied. */
export function resolveEndpoints(env: NodeJS.ProcessEnv): Endpoint[] {
  return ENDPOINTS.map((e) => {
    const override = env[urlVariable(e.sourceId)];
    if (!override) return e;
    // The override's own extension (or format parameter) says what it serves.
    const path = override.split('?')[0]!;
    const form = /\.csv$/i.test(path) || /[?&]format=csv\b/i.test(override) ? 'csv' : /\.json$/i.test(path) ? 'json' : e.form;
    return { ...e, url: override, form, file: e.file.replace(/\.(json|csv)$/, `.${form}`) };
  });
}

import { cbamProductsList } from './cbam-products/cbam-products.js';
import { mopsEtfHoldingsModule } from './etfs/mops-etf-holdings.js';
import { moenvRegistryModule } from './moenv/moenv-ghg-registry.js';
import { moenvPenaltiesModule } from './moenv/moenv-penalties.js';
import { mopsEsgReportModule } from './esg-reports/mops-esg-report.js';
import type { SourceInfo } from './kit/registry-info.js';
import { sitcaEtfHoldingsModule } from './etfs/sitca-etf-holdings.js';
import type { ReferenceList, SourceModule } from './kit/source.js';
import { tpexCompanyModule } from './company-lists/tpex-company.js';
import { tpexGhgModule } from './ghg-disclosures/tpex-esg-ghg.js';
import { twseCompanyModule } from './company-lists/twse-company.js';
import { twseEtfListModule } from './etfs/twse-etf-list.js';
import { twseGhgModule } from './ghg-disclosures/twse-esg-ghg.js';
import { twseDisclosureBreachesModule } from './disclosure-conduct/twse-disclosure-breaches.js';
import { tpexDisclosureBreachesModule } from './disclosure-conduct/tpex-disclosure-breaches.js';
import { twseSanctionsModule } from './disclosure-conduct/twse-sanctions.js';
import { tpexSanctionsModule } from './disclosure-conduct/tpex-sanctions.js';

/**
 * Every source, one module each: the fetcher, the registry, the file hashing, the assertions and the
 * snapshot loader (by the kind each module's reader yields) iterate over this list. Adding a
 * publisher is one module and one line here.
 */
export const SOURCE_MODULES: readonly SourceModule[] = [
  twseCompanyModule,
  tpexCompanyModule,
  twseGhgModule,
  tpexGhgModule,
  moenvPenaltiesModule,
  moenvRegistryModule,
  mopsEsgReportModule,
  twseEtfListModule,
  sitcaEtfHoldingsModule,
  mopsEtfHoldingsModule,
  twseDisclosureBreachesModule,
  tpexDisclosureBreachesModule,
  twseSanctionsModule,
  tpexSanctionsModule,
];

/** The lists the project maintains, read beside the sources (kit/source.ts, `ReferenceList`). */
export const REFERENCE_LISTS: readonly ReferenceList[] = [cbamProductsList];

/**
 * The source of the registry sites: the carbon fee is computed from one registry's sites (and cites
 * it even for a company with no site), so exactly one module may yield them.
 */
export const REGISTRY_SOURCE_ID: string = (() => {
  const registries = SOURCE_MODULES.filter((m) => m.read?.kind === 'registry-sites');
  if (registries.length !== 1) throw new Error(`one source of registry sites expected, found ${registries.length}`);
  return registries[0]!.info.source_id;
})();

/** What the registry says of each source, in the list's order. */
export const SOURCES: readonly SourceInfo[] = SOURCE_MODULES.map((m) => m.info);

export function sourceModule(id: string): SourceModule {
  const m = SOURCE_MODULES.find((x) => x.info.source_id === id);
  if (!m) throw new Error(`unknown source id ${id}`);
  return m;
}

export const sourceInfo = (id: string): SourceInfo => sourceModule(id).info;

/** The environment variable that replaces a source's URL (`FETCH_URL_SRC_MOPS_ESGREPORT`, …). */
export const urlVariable = (sourceId: string) => `FETCH_URL_${sourceId.replace(/-/g, '_')}`;

/**
 * The link of one fact: its record where the source has a record form that covers it, else the
 * dataset. `{name}` markers are filled from `values`; a marker without a value is a bug, not a
 * silent gap.
 */
export function factLink(sourceId: string, values: Record<string, string | number>): string {
  const { record_link: form, homepage_url } = sourceInfo(sourceId);
  if (!form || (form.until_year !== undefined && Number(values.year) > form.until_year)) return homepage_url;
  return form.template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`template ${form.template}: no value for {${key}}`);
    return encodeURIComponent(String(v));
  });
}

import { NO_OPEN_DATA_LICENCE, type RegistryResponse } from '../../src/contract/registry.js';
import type { SnapshotEntry } from '../../src/contract/snapshots.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { disclaimerFor } from '../../src/views/envelope.js';
import { serviceUrl } from '../downloads/snapshot-facts.js';

/**
 * Who makes the dataset: the service's operator, the same entity CITATION.cff names as its author
 * (a test holds the two to the same name).
 */
export const DATASET_CREATOR_NAME = 'ESG Credibility API project';

/**
 * schema.org Dataset (what Google Dataset Search and similar crawlers read) for one snapshot: its
 * download files as distributions, with their URLs, types, sizes and SHA-256, the licences its
 * sources grant, and who made it. Carried by /downloads/ (the current snapshot) and by each
 * snapshot's own download folder page; `pageUrl` is the page that carries it (a path on the service).
 */
export function datasetJsonLd(meta: SnapshotMeta, entry: SnapshotEntry, registry: RegistryResponse, pageUrl: string) {
  const home = serviceUrl(meta.service_host) ?? '/';
  const site = home.replace(/\/$/, '');
  const demo = entry.kind === 'demo';
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: `${demo ? '[DEMO, fictional] ' : ''}ESG disclosure credibility of Taiwan-listed companies, snapshot ${entry.dataset_snapshot_id}`,
    description:
      `Credibility scores (methodology ${entry.methodology_version}) of the ESG and carbon disclosures of ` +
      `Taiwan-listed companies: environmental penalties, carbon disclosure, carbon-fee liability, assurance and ` +
      `greenwashing-risk flags, each fact traced to its public source. Data as of ${entry.data_asof}. ` +
      `${disclaimerFor(meta)}`,
    url: `${site}${pageUrl}`,
    version: entry.dataset_snapshot_id,
    datePublished: entry.published_at,
    dateModified: entry.published_at,
    temporalCoverage: `../${entry.data_asof}`,
    spatialCoverage: { '@type': 'Place', name: 'Taiwan' },
    keywords: ['ESG', 'carbon disclosure', 'greenhouse gas', 'greenwashing', 'Taiwan'],
    isAccessibleForFree: true,
    creator: { '@type': 'Organization', name: DATASET_CREATOR_NAME, url: home },
    // Only real licences: a source published without one (SITCA, id `none`) names its own page there.
    license: [...new Set(registry.data.filter((s) => s.licence.id !== NO_OPEN_DATA_LICENCE).map((s) => s.licence.url))],
    isBasedOn: registry.data.map((s) => s.homepage_url),
    distribution: entry.files.map((f) => ({
      '@type': 'DataDownload',
      name: f.path.slice(f.path.lastIndexOf('/') + 1),
      encodingFormat: f.mediatype,
      contentUrl: `${site}${f.path}`,
      contentSize: `${f.bytes} B`,
      sha256: f.sha256,
    })),
  };
}

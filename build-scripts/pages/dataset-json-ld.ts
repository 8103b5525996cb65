import type { RegistryResponse } from '../../src/contract/registry.js';
import type { SnapshotsResponse } from '../../src/contract/snapshots.js';
import { pageUrls } from '../../src/site/paths.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { disclaimerFor } from '../../src/views/envelope.js';

/**
 * schema.org Dataset for /downloads/ (what Google Dataset Search and similar crawlers read): the
 * current snapshot's files as distributions, with sizes and SHA-256, and the sources' licences.
 */
export function datasetJsonLd(meta: SnapshotMeta, snapshots: SnapshotsResponse, registry: RegistryResponse) {
  const site = `https://${meta.service_host}`;
  const current = snapshots.data.find((s) => s.dataset_snapshot_id === meta.dataset_snapshot_id);
  const demo = meta.kind === 'demo';
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: `${demo ? '[DEMO, fictional] ' : ''}ESG disclosure credibility of Taiwan-listed companies, snapshot ${meta.dataset_snapshot_id}`,
    description: `Credibility scores (methodology ${meta.methodology_version}) of the ESG and carbon disclosures of Taiwan-listed companies: environmental penalties, carbon disclosure, carbon-fee liability, assurance and greenwashing-risk flags, each fact traced to its public source. ${disclaimerFor(meta)}`,
    url: `${site}${pageUrls.downloads}`,
    version: meta.dataset_snapshot_id,
    dateModified: meta.published_at,
    temporalCoverage: `../${meta.data_asof}`,
    spatialCoverage: { '@type': 'Place', name: 'Taiwan' },
    isAccessibleForFree: true,
    license: [...new Set(registry.data.map((s) => s.licence.url))],
    isBasedOn: registry.data.map((s) => s.homepage_url),
    distribution: (current?.files ?? []).map((f) => ({
      '@type': 'DataDownload',
      name: f.path.slice(f.path.lastIndexOf('/') + 1),
      encodingFormat: f.mediatype,
      contentUrl: `${site}${f.path}`,
      contentSize: `${f.bytes} B`,
      sha256: f.sha256,
    })),
  };
}

import { OGDL_TW } from '../sources/kit/registry-info.js';
import { SCORE_NAME } from '../../src/methodology/rules.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { serviceUrl } from './snapshot-facts.js';

/**
 * CITATION.cff (Citation File Format 1.2.0) for one snapshot, written by hand: the file is a flat
 * list of keys, and every string is emitted double-quoted (JSON string syntax is valid YAML), so no
 * value can change meaning, whatever characters it holds, and no YAML library is needed.
 */

/** Who the dataset is by: the project itself, an entity in CFF terms. */
const PROJECT_ENTITY = 'ESG Credibility API project';

const q = (s: string) => JSON.stringify(s);

export function citationCff(meta: SnapshotMeta): string {
  const id = meta.dataset_snapshot_id;
  const home = serviceUrl(meta.service_host);
  const abstract = [
    `${SCORE_NAME} of Taiwan-listed companies, with the disclosure, assurance, penalty and carbon-fee facts it is computed from,`,
    `as of ${meta.data_asof} (methodology ${meta.methodology_version}, snapshot ${id}).`,
    meta.kind === 'demo'
      ? 'This is a demo snapshot: the companies and facts in it are fictional.'
      : 'Built from open government and stock-exchange data; each fact names its source.',
  ].join(' ');
  const lines = [
    'cff-version: 1.2.0',
    `message: ${q('If you use this dataset, please cite it using the metadata from this file.')}`,
    'type: dataset',
    `title: ${q(`${SCORE_NAME}, snapshot ${id}`)}`,
    `version: ${q(id)}`,
    // Quoted: a bare date would load as a YAML date, not the string the CFF schema asks for.
    `date-released: ${q(meta.published_at.slice(0, 10))}`,
    'authors:',
    `  - name: ${q(PROJECT_ENTITY)}`,
    ...(home ? [`    website: ${q(home)}`] : []),
    `license-url: ${q(OGDL_TW.url)}`,
    ...(home ? [`url: ${q(home)}`] : []),
    `abstract: ${q(abstract)}`,
    'keywords:',
    ...['ESG', 'carbon disclosure', 'greenhouse gas', 'Taiwan'].map((k) => `  - ${q(k)}`),
  ];
  return lines.join('\n') + '\n';
}

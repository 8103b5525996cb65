import { createHash } from 'node:crypto';
import { SCORE_NAME } from '../methodology/rules.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyRecord, ConductSummary, SourceRecord } from '../snapshot/store.js';
import { urls } from '../contract/urls.js';
import { CANONICAL_SECTIONS } from '../contract/vocabulary.js';
import { citation } from './company.js';
import { rankingCsvHeader, rankingCsvLine } from './ranking-csv.js';
import { registryView } from './registry.js';
import { API_BASE } from '../contract/api-paths.js';
import { fullPath, operation, type OperationId } from '../contract/routes.js';

/** An operation's request line, `GET /api/v1/company/{ticker}`, as the README names each file's path. */
const get = (id: OperationId) => `GET ${fullPath(operation(id))}`;
/**
 * An evidence pack (contract 4.7): the files a person hands over to show where a score came from.
 * Everything here is a pure function of (snapshot, codes): the codes are sorted, so the same set in
 * any order or case makes the same files, and the zip written from them is the same bytes.
 */

/** One company's files as the static tree serves them: the pack holds those exact bodies. */
export interface PackCompany {
  record: CompanyRecord;
  /** Its conduct rows in brief, for companies.csv's conduct columns. */
  conduct: ConductSummary;
  /** GET /company/{ticker} */
  summary: Buffer;
  /** GET /company/{ticker}/canonical */
  canonical: Buffer;
  /** GET /company/{ticker}/history */
  history: Buffer;
}

export interface PackInputs {
  meta: SnapshotMeta;
  /** In any order; the pack sorts them by ticker. */
  companies: PackCompany[];
  /** Every source of the snapshot; the pack keeps those the companies' facts cite. */
  sources: SourceRecord[];
  /** GET /methodology, as served. */
  methodology: Buffer;
  /** The snapshot's CITATION.cff, as in its download folder. */
  citationCff: Buffer;
}

export interface PackFile {
  /** Path inside the pack's top folder. */
  name: string;
  bytes: Buffer;
}

/** The pack's file name and its top folder: named by the snapshot. */
export const packName = (meta: SnapshotMeta) => `evidence-pack-${meta.dataset_snapshot_id}`;

/** Every `source_id` value anywhere in a JSON body (facts, flags, causes): what the body cites. */
export function citedSourceIds(json: Buffer): Set<string> {
  const ids = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'source_id' && typeof x === 'string') ids.add(x);
        else walk(x);
      }
    }
  };
  walk(JSON.parse(json.toString('utf8')));
  return ids;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const json = (v: unknown) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`, 'utf8');

/** The pack's files in their order in the zip, SHA256SUMS last (it lists every other file). */
export function packFiles(p: PackInputs): PackFile[] {
  const { meta } = p;
  const companies = [...p.companies].sort((a, b) => (a.record.ticker < b.record.ticker ? -1 : a.record.ticker > b.record.ticker ? 1 : 0));
  const cited = new Set<string>();
  for (const c of companies) for (const id of [...citedSourceIds(c.summary), ...citedSourceIds(c.canonical)]) cited.add(id);
  const sources = p.sources.filter((s) => cited.has(s.source_id));

  const files: PackFile[] = [];
  files.push({
    name: 'README.md',
    bytes: Buffer.from(
      readme(
        meta,
        companies.map((c) => c.record),
        sources,
      ),
      'utf8',
    ),
  });
  files.push({ name: 'CITATION.cff', bytes: p.citationCff });
  files.push({
    name: 'companies.csv',
    bytes: Buffer.from(rankingCsvHeader() + companies.map((c) => rankingCsvLine(meta, c.record, c.conduct)).join(''), 'utf8'),
  });
  for (const c of companies) {
    const t = c.record.ticker;
    files.push({ name: `companies/${t}/summary.json`, bytes: c.summary });
    files.push({ name: `companies/${t}/canonical.json`, bytes: c.canonical });
    files.push({ name: `companies/${t}/history.json`, bytes: c.history });
  }
  files.push({ name: 'methodology.json', bytes: p.methodology });
  files.push({ name: 'sources.json', bytes: json(registryView(meta, sources)) });
  files.push({ name: 'SHA256SUMS', bytes: Buffer.from(files.map((f) => `${sha256(f.bytes)}  ${f.name}\n`).join(''), 'utf8') });
  return files;
}

function readme(meta: SnapshotMeta, companies: CompanyRecord[], sources: SourceRecord[]): string {
  const id = meta.dataset_snapshot_id;
  const host = `https://${meta.service_host}`;
  const name = packName(meta);
  const lines = [
    `# Evidence pack: ${companies.length} ${companies.length === 1 ? 'company' : 'companies'}, snapshot ${id}`,
    '',
    ...(meta.kind === 'demo' ? ['**Demo snapshot: the companies and facts in it are fictional.**', ''] : []),
    `${SCORE_NAME} and the facts behind it, as published by ${meta.service_host} in snapshot ${id}`,
    `(data as of ${meta.data_asof}, methodology ${meta.methodology_version}, published ${meta.published_at}).`,
    '',
    '## Request',
    '',
    `POST ${host}${urls.packs} with the tickers, sorted: ${companies.map((c) => c.ticker).join(', ')}.`,
    'The same snapshot and tickers, in any order or case, give this pack byte for byte.',
    '',
    '## Files',
    '',
    '| file | what it is |',
    '|---|---|',
    "| `companies.csv` | one row per company: the summary, columns as the ranking's CSV export (UTF-8 with BOM) |",
    `| \`companies/{ticker}/summary.json\` | the company summary, exactly the body of \`${get('company')}\` |`,
    `| \`companies/{ticker}/canonical.json\` | its ${CANONICAL_SECTIONS.length} sections (${CANONICAL_SECTIONS.map((s) => `\`${s}\``).join(', ')}) ` +
      `with every fact's \`source_id\`, exactly \`${get('canonical')}\` |`,
    `| \`companies/{ticker}/history.json\` | its score in every published snapshot, exactly \`${get('history')}\` |`,
    '| `sources.json` | the registry entries of exactly the sources these facts cite, each with the sha256 of the publisher files its facts came from |',
    `| \`methodology.json\` | how the score is computed, exactly \`${get('methodology')}\` |`,
    '| `CITATION.cff` | how to cite the snapshot |',
    '| `SHA256SUMS` | the sha256 of every other file |',
    '',
    '## Sources cited',
    '',
    ...(sources.length === 0
      ? ['None: these companies have no sourced facts in this snapshot.']
      : sources.map((s) => `- \`${s.source_id}\`: ${s.name} (${s.owner_org_name}; licence: ${s.licence_name})`)),
    '',
    '## Verify',
    '',
    'Every file is intact when this prints `OK` for each:',
    '',
    '```sh',
    `unzip ${name}.zip && cd ${name} && sha256sum -c SHA256SUMS`,
    '```',
    '',
    `Each JSON file is the body the service serves for that path in this snapshot, byte for byte; pinned reads ` +
      `keep it readable after newer snapshots are published, e.g. \`${host}${urls.pinned(id, urls.canonical(companies[0]?.ticker ?? '{ticker}').slice(API_BASE.length + 1))}\`.`,
    `The publisher files behind each source are listed in \`sources.json\` with their sha256, as fetched for this ` +
      `snapshot; the whole snapshot can be downloaded from \`${host}${urls.downloadFolder(id)}/\`.`,
    '',
    '## Cite',
    '',
    citation(meta),
    '',
  ];
  return lines.join('\n');
}

import { OGDL_TW } from '../sources/kit/registry-info.js';
import { CONDUCT_KINDS } from '../../src/contract/vocabulary.js';
import { SCORE_NAME } from '../../src/methodology/rules.js';
import { BOOLEAN_COLUMNS, JSON_ARRAY_COLUMNS } from './column-kinds.js';
import { serviceUrl, type SnapshotFacts } from './snapshot-facts.js';
import type { ColumnInfo, TableInfo } from './tables.js';

/**
 * The Frictionless Data Package v2.0 descriptor of a download folder: one tabular resource per CSV
 * (with its Table Schema, size and hash), the licence and the sources. Only CSVs are resources; the
 * SQLite file and the JSON-tree archive are named in the description.
 */

const DATAPACKAGE_PROFILE = 'https://datapackage.org/profiles/2.0/datapackage.json';

export interface CsvResourceInput {
  table: TableInfo;
  fileName: string;
  bytes: number;
  sha256: string;
}

type Field = Record<string, unknown> & { name: string; type: string };

/**
 * What a table's rows are and what its columns hold, where the name alone does not say it: the
 * resource's `description` and its fields' `description` (and `constraints`) in the descriptor.
 */
const TABLE_NOTES: Readonly<Record<string, { description: string; fields: Readonly<Record<string, Record<string, unknown>>> }>> = {
  disclosure_conduct: {
    description:
      'Each company’s conduct as a discloser (methodology 1.2): the exchanges’ penalties for disclosure breaches ' +
      '(TWSE and TPEx t187ap23) and the FSC sanctions in its cases (t187ap22), one row a decision; the ' +
      '`disclosure_conduct` section of each company’s canonical view.',
    fields: {
      ticker: { description: 'The company’s stock code (companies.ticker).' },
      record_id: { description: 'Stable within the source: made from the dataset, the code, the date and a digest of the summary.' },
      kind: {
        description:
          '`breach`: the exchange’s penalty for a disclosure breach (t187ap23); `sanction`: an FSC sanction in the company’s case (t187ap22).',
        constraints: { enum: [...CONDUCT_KINDS] },
      },
      date: { description: '發函日期: when the decision was sent, ISO 8601 (YYYY-MM-DD).' },
      summary: { description: '違規事由, cleaned (references decoded, line breaks as one space).' },
      rule: { description: 'The articles named; empty when none.' },
      fine: { description: 'NT$, where the dataset has an amount field (t187ap23); empty otherwise (a fine in 裁處情形 stays text).' },
      decision: { description: '裁處情形 (t187ap22); empty otherwise.' },
      source_id: { description: 'The source the row was read from (sources.source_id).' },
      source_url: { description: 'The dataset the row is in.' },
    },
  },
};

/** Table Schema field for one column, from its declared SQLite type and what the column is known to hold. */
function tableSchemaField(table: string, c: ColumnInfo): Field {
  if (JSON_ARRAY_COLUMNS.has(c.name)) {
    return { name: c.name, type: 'array', description: 'A JSON array, written as its JSON text.' };
  }
  switch (c.declaredType) {
    case 'INTEGER':
      return BOOLEAN_COLUMNS.has(c.name)
        ? { name: c.name, type: 'boolean', trueValues: ['1'], falseValues: ['0'] }
        : { name: c.name, type: 'integer' };
    case 'REAL':
      return { name: c.name, type: 'number' };
    case 'TEXT':
      return { name: c.name, type: 'string' };
    default:
      // A new storage type needs a decision about its CSV form; do not guess.
      throw new Error(`${table}.${c.name}: declared type ${JSON.stringify(c.declaredType)} has no Table Schema mapping`);
  }
}

function resource(r: CsvResourceInput) {
  const notes = TABLE_NOTES[r.table.name];
  const fields = r.table.columns.map((c) => {
    const f = tableSchemaField(r.table.name, c);
    return notes?.fields[c.name] ? { ...f, ...notes.fields[c.name] } : f;
  });
  const schema: Record<string, unknown> = { fields };
  if (r.table.primaryKey.length > 0) schema.primaryKey = r.table.primaryKey;
  if (r.table.uniqueKeys.length > 0) schema.uniqueKeys = r.table.uniqueKeys;
  return {
    name: r.table.name,
    ...(notes ? { description: notes.description } : {}),
    type: 'table',
    path: r.fileName,
    format: 'csv',
    mediatype: 'text/csv',
    encoding: 'utf-8',
    bytes: r.bytes,
    hash: `sha256:${r.sha256}`,
    // The defaults except the line end: rows end in \n, not \r\n.
    dialect: { header: true, delimiter: ',', lineTerminator: '\n', quoteChar: '"', doubleQuote: true },
    schema,
  };
}

/**
 * Licences: OGDL Taiwan (every government and exchange source's), plus any other licence a source of
 * this snapshot names. A source published without an open-data licence (SITCA, `licence_id` none)
 * adds none: its registry entry says so, and the package does not pretend one.
 */
function licences(facts: SnapshotFacts) {
  const out = [{ name: OGDL_TW.id, path: OGDL_TW.url, title: OGDL_TW.name }];
  for (const s of facts.sources) {
    if (s.licence_id === 'none') continue;
    if (out.some((l) => l.name === s.licence_id || l.path === s.licence_url)) continue;
    out.push({ name: s.licence_id, path: s.licence_url, title: s.licence_name });
  }
  // The profile restricts `name` to [-a-zA-Z0-9._]; a licence id outside that is kept by path and title only.
  return out.map((l) => (/^[-a-zA-Z0-9._]+$/.test(l.name) ? l : { path: l.path, title: l.title }));
}

function packageName(snapshotId: string): string {
  return `esg-credibility-${snapshotId.replace(/\./g, '-')}`.toLowerCase();
}

export interface DatapackageNames {
  sqliteFile: string;
  archiveFile: string;
}

/** The descriptor object; keys are in a fixed order so its JSON text is the same on every run. */
export function buildDatapackage(facts: SnapshotFacts, csvs: readonly CsvResourceInput[], files: DatapackageNames) {
  const m = facts.meta;
  const demo = m.kind === 'demo';
  const home = serviceUrl(m.service_host);
  const description = [
    `${SCORE_NAME} of Taiwan-listed companies with the facts behind it (carbon disclosures, assurance, ` +
      `environmental penalties, disclosure conduct, carbon-fee liability, ETF holdings), snapshot ${m.dataset_snapshot_id}: data as of ` +
      `${m.data_asof}, methodology ${m.methodology_version}.`,
    demo ? 'This is a demo snapshot: every company and fact in it is fictional.' : '',
    `Each table is one CSV resource below. The same tables, with indexes, are in the SQLite database ` +
      `${files.sqliteFile}; ${files.archiveFile} holds the whole static JSON tree of the API for this snapshot. ` +
      `SHA256SUMS lists a checksum for every file.`,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    $schema: DATAPACKAGE_PROFILE,
    name: packageName(m.dataset_snapshot_id),
    title: `${SCORE_NAME}, snapshot ${m.dataset_snapshot_id}${demo ? ' (demo, fictional data)' : ''}`,
    description,
    version: m.dataset_snapshot_id,
    created: m.published_at,
    ...(home ? { homepage: home } : {}),
    keywords: ['ESG', 'carbon disclosure', 'greenhouse gas', 'Taiwan', 'credibility score'],
    licenses: licences(facts),
    sources: facts.sources.map((s) => ({ title: s.name, path: s.homepage_url })),
    resources: csvs.map(resource),
  };
}

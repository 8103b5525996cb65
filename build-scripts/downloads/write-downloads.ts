import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256sums } from './checksums.js';
import { citationCff } from './citation.js';
import { buildDatapackage, type CsvResourceInput } from './datapackage.js';
import { digestFile, type Digest } from './digest.js';
import { linkOrCopy } from './link-or-copy.js';
import { publishedEpochSeconds, readSnapshotFacts, type SnapshotFacts } from './snapshot-facts.js';
import { listDataTables } from './tables.js';
import { writeTreeArchive } from './tree-archive.js';
import { writeTableCsv } from './write-csv.js';

/**
 * The download folder of one snapshot (contract section 5): a CSV per data table, the SQLite file,
 * datapackage.json, CITATION.cff, the JSON tree as a .tar.gz, and SHA256SUMS over all of them.
 * Every byte is a function of the database and the tree, so rebuilding the same snapshot gives the
 * same folder. This writes the folder only; publishing it atomically is the caller's job.
 */

export interface DownloadFile {
  name: string;
  bytes: number;
  sha256: string;
  mediatype: string;
}

const SQLITE_FILE = 'snapshot.sqlite';
const DATAPACKAGE_FILE = 'datapackage.json';
const CITATION_FILE = 'CITATION.cff';
const ARCHIVE_FILE = 'api-v1-tree.tar.gz';
const SUMS_FILE = 'SHA256SUMS';

const MEDIATYPES: Record<string, string> = {
  [SQLITE_FILE]: 'application/vnd.sqlite3',
  [DATAPACKAGE_FILE]: 'application/json',
  [CITATION_FILE]: 'application/x-yaml',
  [ARCHIVE_FILE]: 'application/gzip',
  [SUMS_FILE]: 'text/plain',
};
const mediatypeOf = (name: string) => MEDIATYPES[name] ?? (name.endsWith('.csv') ? 'text/csv' : 'application/octet-stream');

export interface WriteDownloadsOptions {
  /** The snapshot SQLite file; opened read-only. */
  dbPath: string;
  /** Root of the static JSON tree already written (contains api/v1/...). */
  treeDir: string;
  /** The folder to create and fill; it must not exist yet or be empty. */
  outDir: string;
  /** Tree paths (relative to treeDir, posix) to leave out of the archive. Asked about files only. */
  excludeFromArchive: (relPath: string) => boolean;
}

/** Writes the folder; returns every file in it (SHA256SUMS included), sorted by name. */
export async function writeDownloads(o: WriteDownloadsOptions): Promise<DownloadFile[]> {
  mkdirSync(o.outDir, { recursive: true });
  // A leftover file would be listed in SHA256SUMS or, worse, clash with one written here.
  if (readdirSync(o.outDir).length > 0) throw new Error(`download folder ${o.outDir} is not empty`);

  const digests = new Map<string, Digest>();
  const record = async (name: string) => {
    digests.set(name, await digestFile(join(o.outDir, name)));
  };

  const db = new Database(o.dbPath, { readonly: true, fileMustExist: true });
  let facts: SnapshotFacts;
  const csvs: CsvResourceInput[] = [];
  try {
    facts = readSnapshotFacts(db);
    for (const table of listDataTables(db)) {
      const fileName = `${table.name}.csv`;
      await writeTableCsv(db, table, join(o.outDir, fileName));
      await record(fileName);
      const d = digests.get(fileName)!;
      csvs.push({ table, fileName, bytes: d.bytes, sha256: d.sha256 });
    }
  } finally {
    db.close();
  }

  linkOrCopy(o.dbPath, join(o.outDir, SQLITE_FILE));
  await record(SQLITE_FILE);

  const dp = buildDatapackage(facts, csvs, { sqliteFile: SQLITE_FILE, archiveFile: ARCHIVE_FILE });
  writeFileSync(join(o.outDir, DATAPACKAGE_FILE), JSON.stringify(dp, null, 2) + '\n', { flag: 'wx' });
  await record(DATAPACKAGE_FILE);

  writeFileSync(join(o.outDir, CITATION_FILE), citationCff(facts.meta), { flag: 'wx' });
  await record(CITATION_FILE);

  await writeTreeArchive({
    treeDir: o.treeDir,
    outPath: join(o.outDir, ARCHIVE_FILE),
    exclude: o.excludeFromArchive,
    mtimeSeconds: publishedEpochSeconds(facts.meta),
    // When the download folder lives inside the tree, it must not archive itself.
    skipDirs: [o.outDir],
  });
  await record(ARCHIVE_FILE);

  const listed = [...digests].map(([name, d]) => ({ name, sha256: d.sha256 }));
  writeFileSync(join(o.outDir, SUMS_FILE), sha256sums(listed), { flag: 'wx' });
  await record(SUMS_FILE);

  return [...digests]
    .map(([name, d]) => ({ name, bytes: d.bytes, sha256: d.sha256, mediatype: mediatypeOf(name) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

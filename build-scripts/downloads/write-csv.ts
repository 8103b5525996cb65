import type Database from 'better-sqlite3';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { csvRow } from './csv.js';
import { tableRows, type TableInfo } from './tables.js';

/** Rows are gathered into chunks of about this size: one stream write per row would dominate the time. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Streams one table to `path` as CSV (header = column names) and returns its row count. Rows are
 * read with a cursor, so a large table never sits in memory. The database connection is busy until
 * this resolves: write tables one after another.
 */
export async function writeTableCsv(db: Database.Database, table: TableInfo, path: string): Promise<number> {
  let rows = 0;
  async function* text() {
    let chunk = csvRow(table.columns.map((c) => c.name));
    for (const row of tableRows(db, table)) {
      chunk += csvRow(row);
      rows++;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk;
  }
  await pipeline(Readable.from(text()), createWriteStream(path, { flags: 'wx' }));
  return rows;
}

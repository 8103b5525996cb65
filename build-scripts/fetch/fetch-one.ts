import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { FetchedFile } from '../snapshot/sources-manifest.js';
import { checkBody } from './check-body.js';
import type { Endpoint } from './endpoints.js';
import { download, FetchFailure, type HttpOptions } from './http.js';

/** MOENV open data v2 serves at most this many records a page; a shorter page is the last. */
export const MOENV_PAGE = 1000;
/** A source of more pages than this is a server ignoring `offset`, not data. */
const MAX_PAGES = 5000;

const isoSecond = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The URL as recorded: never the key. */
function withoutKey(url: string): string {
  const u = new URL(url);
  u.searchParams.delete('api_key');
  return u.toString();
}

/** A source served in one response (TWSE, TPEx, a CSV export): downloaded, checked, renamed into place. */
export async function fetchWhole(e: Endpoint, work: string, http: HttpOptions, now: () => Date): Promise<FetchedFile> {
  const url = e.url!;
  const part = join(work, `${e.file}.part`);
  const retrievedAt = isoSecond(now());
  const d = await download(url, part, http);
  const records = await checkBody(part, e.form, d.contentType);
  renameSync(part, join(work, e.file));
  return { file: e.file, source_id: e.sourceId, url: withoutKey(url), retrieved_at: retrievedAt, http_status: d.status, bytes: d.bytes, sha256: d.sha256, records };
}

/** Writes text to a file with backpressure, hashing what it writes. */
class HashedFile {
  private readonly out;
  private readonly hash = createHash('sha256');
  bytes = 0;
  private failure: Error | null = null;
  constructor(path: string) {
    this.out = createWriteStream(path);
    this.out.on('error', (e) => (this.failure = e));
  }
  async write(text: string): Promise<void> {
    if (this.failure) throw this.failure;
    const buf = Buffer.from(text, 'utf8');
    this.hash.update(buf);
    this.bytes += buf.length;
    if (!this.out.write(buf)) await once(this.out, 'drain');
  }
  async close(): Promise<string> {
    this.out.end();
    await once(this.out, 'close');
    if (this.failure) throw this.failure;
    return this.hash.digest('hex');
  }
  destroy(): void {
    this.out.destroy();
  }
}

/**
 * A MOENV v2 dataset: pages of 1,000 (`offset`, `limit`, `api_key`) until a short page. Each page
 * is checked as it arrives and its records appended to one JSON array; the manifest keeps every
 * page's URL (without the key), size and sha256, so each record still traces to the bytes served.
 */
export async function fetchPaged(e: Endpoint, work: string, key: string, http: HttpOptions, now: () => Date): Promise<FetchedFile> {
  const base = new URL(e.url!);
  base.searchParams.set('format', 'json');
  base.searchParams.set('limit', String(MOENV_PAGE));
  const retrievedAt = isoSecond(now());
  const part = join(work, `${e.file}.part`);
  const pagePath = join(work, `${e.file}.page`);
  const out = new HashedFile(part);
  const pages: NonNullable<FetchedFile['pages']> = [];
  let records = 0;
  try {
    await out.write('[');
    for (let offset = 0; ; offset += MOENV_PAGE) {
      if (pages.length >= MAX_PAGES) throw new FetchFailure(`more than ${MAX_PAGES} pages: the server seems to ignore offset`);
      const page = new URL(base);
      page.searchParams.set('offset', String(offset));
      page.searchParams.set('api_key', key);
      const d = await download(page.toString(), pagePath, http);
      let inPage = 0;
      try {
        inPage = await checkBody(pagePath, 'json', d.contentType, (value) => out.write(`${records + inPage++ === 0 ? '' : ','}${JSON.stringify(value)}`));
      } catch (err) {
        if (err instanceof FetchFailure) throw new FetchFailure(`page at offset ${offset}: ${err.message}`, err.status);
        throw err;
      }
      const previous = pages[pages.length - 1];
      if (previous && inPage === MOENV_PAGE && previous.sha256 === d.sha256) throw new FetchFailure(`page at offset ${offset} repeats the previous page: the server ignores offset`);
      pages.push({ url: withoutKey(page.toString()), http_status: d.status, bytes: d.bytes, sha256: d.sha256, records: inPage });
      records += inPage;
      if (inPage < MOENV_PAGE) break;
    }
    await out.write(']');
    const sha256 = await out.close();
    renameSync(part, join(work, e.file));
    return { file: e.file, source_id: e.sourceId, url: withoutKey(base.toString()), retrieved_at: retrievedAt, http_status: 200, bytes: out.bytes, sha256, records, pages };
  } catch (err) {
    out.destroy();
    throw err;
  } finally {
    rmSync(pagePath, { force: true });
  }
}

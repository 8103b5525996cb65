import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yazl from 'yazl';
import { parseCode } from '../../src/contract/params.js';
import type { InputOf } from '../../src/contract/routes.js';
import { DOWNLOADS_DIR, fileForUrlPath } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { packFiles, packName, type PackCompany } from '../../src/views/pack.js';
import type { RouteContext } from './context.js';
import { ApiError, badRequest } from '../../src/contract/errors.js';
import { unknownTickers } from '../../src/contract/named-errors.js';
import { NO_STORE } from '../../src/contract/headers.js';
import { storedHistoryFile } from './pinned-history.js';

/** A file of the snapshot's tree, read fresh (a pack must not push the hot files out of the shim's cache). */
function treeFile(dir: string, treePath: string): Buffer | null {
  try {
    return readFileSync(join(dir, 'tree', treePath));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ApiError('UPSTREAM_FAILURE', 'The snapshot’s static files cannot be read.');
  }
}

function required(dir: string, treePath: string): Buffer {
  const bytes = treeFile(dir, treePath);
  if (!bytes) throw new ApiError('UPSTREAM_FAILURE', 'The snapshot’s static files cannot be read.');
  return bytes;
}

/**
 * A company's history file. The snapshot this shim answers from may have stopped being current a
 * moment ago and dropped its history files: the history store has the same bytes (pinned-history.ts).
 */
function historyOf(ctx: RouteContext, t: string): Buffer {
  const treePath = fileForUrlPath(urls.history(t));
  return (
    treeFile(ctx.store.dir, treePath) ??
    storedHistoryFile(ctx.source.root, ctx.store.meta.dataset_snapshot_id, urls.history(t))?.bytes ??
    required(ctx.store.dir, treePath)
  );
}

/** Files at least this large are deflated in the zip; smaller ones are stored. */
const DEFLATE_FROM = 16 * 1024;

/**
 * The zip's timestamps: the snapshot's publish time, as DOS wall-clock fields. yazl writes DOS
 * times in the process's local zone, so the Date is built from the UTC fields, and the extended
 * (UTC) timestamp is left out: the same pack is the same bytes whatever TZ the shim runs in.
 */
function zipTime(meta: SnapshotMeta): Date {
  const t = new Date(meta.published_at);
  return new Date(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds());
}

/**
 * POST /packs (contract 4.7): an evidence pack for 1–50 companies as a zip, streamed. The body is
 * validated and every file read before the first byte goes out, so any error is still the JSON
 * envelope; what is held in memory is the pack's own files (a few MB at 50 companies).
 */
export async function packs(input: InputOf<'packs'>, ctx: RouteContext): Promise<void> {
  void input.query; // takes none: a query string is a 400, before the body is looked at
  const codes = input.body;
  const malformed = codes.filter((c) => typeof parseCode(c, 'ticker') !== 'string');
  if (malformed.length > 0) {
    throw badRequest(
      `Malformed ${malformed.length === 1 ? 'code' : 'codes'}: ${malformed.map((c) => JSON.stringify(c.slice(0, 40))).join(', ')}; a ticker is 1 to 12 letters or digits.`,
    );
  }
  const { store } = ctx;
  const unknown = codes.filter((c) => !store.company(c));
  if (unknown.length > 0) throw unknownTickers(unknown);

  const dir = store.dir;
  const meta = store.meta;
  const companies: PackCompany[] = codes.map((t) => ({
    record: store.company(t)!,
    conduct: store.conductSummary(t),
    summary: required(dir, fileForUrlPath(urls.company(t))),
    canonical: required(dir, fileForUrlPath(urls.canonical(t))),
    history: historyOf(ctx, t),
  }));
  const files = packFiles({
    meta,
    companies,
    sources: store.sources(),
    methodology: required(dir, fileForUrlPath(urls.methodology)),
    citationCff: required(dir, join(DOWNLOADS_DIR, meta.dataset_snapshot_id, 'CITATION.cff')),
  });

  const name = packName(meta);
  const zip = new yazl.ZipFile();
  const mtime = zipTime(meta);
  // Small files are stored, larger ones deflated: a company's three files are 1–5 KB each, and
  // deflating 150 of them cost more than the rest of a pack (yazl runs one zlib stream per entry, each
  // with its own buffers: several times the time and tens of MB for a 50-company pack, against
  // stored files; bench/results.md) to save about 100 KB.
  for (const f of files)
    zip.addBuffer(f.bytes, `${name}/${f.name}`, { mtime, mode: 0o100644, compress: f.bytes.length >= DEFLATE_FROM, forceDosTimestamp: true });
  zip.end();

  const { res } = ctx;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', `attachment; filename="${name}.zip"`);
  res.setHeader('Cache-Control', NO_STORE);
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.on('error', reject);
    res.on('close', resolve);
    zip.outputStream.pipe(res);
  });
}

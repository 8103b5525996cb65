import Database from 'better-sqlite3';
import type { ErrorBody } from '../../src/contract/common.js';
import { RequestRuleError } from '../../src/contract/parse-request.js';
import type { ErrorCode } from '../../src/contract/vocabulary.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { ApiError, badRequest, bodyTooLarge } from '../../src/contract/errors.js';

/** SQLite's codes for a database file that cannot be read as one (not a busy lock, not a bad query). */
const UNREADABLE_DATABASE = /^SQLITE_(CORRUPT|NOTADB|IOERR|CANTOPEN)/;

/** Whether SQLite said a database file cannot be read: damaged, truncated, not a database, or an I/O error. */
export function isUnreadableDatabase(e: unknown): boolean {
  return e instanceof Database.SqliteError && UNREADABLE_DATABASE.test(e.code);
}

/** Maps anything thrown (ours, a broken request rule, body-parser's, a bug) onto an ApiError; bugs get a generic message. */
export function toApiError(err: unknown): { error: ApiError; unexpected: boolean } {
  if (err instanceof ApiError) return { error: err, unexpected: false };
  if (err instanceof RequestRuleError) return { error: badRequest(err.message), unexpected: false };
  const e = err as { type?: string; status?: number; statusCode?: number } | null;
  switch (e?.type) {
    case 'entity.too.large':
      return { error: bodyTooLarge(), unexpected: false };
    case 'entity.parse.failed':
      return { error: badRequest('The request body is not valid JSON.'), unexpected: false };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { error: badRequest('The request body must be UTF-8 JSON.'), unexpected: false };
    case 'request.aborted':
    case 'request.size.invalid':
      return { error: badRequest('The request body was incomplete.'), unexpected: false };
  }
  // A snapshot's database that cannot be read is the contract's 502, not a bug of ours.
  if (isUnreadableDatabase(err)) return { error: new ApiError('UPSTREAM_FAILURE', 'The snapshot’s data cannot be read.'), unexpected: false };
  const status = e?.status ?? e?.statusCode;
  if (status === 400) return { error: badRequest('Malformed request.'), unexpected: false };
  return { error: new ApiError('INTERNAL', 'Internal error. The request id identifies it in our logs.'), unexpected: true };
}

/**
 * The one error envelope (contract 2): the error, and the three snapshot fields, or nulls when no
 * snapshot can be read (there is nothing to name).
 */
export function errorBody(snapshots: { current(): Pick<SnapshotStore, 'meta'> }, code: ErrorCode, message: string, requestId: string): ErrorBody {
  let fields: Pick<ErrorBody, 'methodology_version' | 'dataset_snapshot_id' | 'data_asof'>;
  try {
    const { meta } = snapshots.current();
    fields = { methodology_version: meta.methodology_version, dataset_snapshot_id: meta.dataset_snapshot_id, data_asof: meta.data_asof };
  } catch {
    fields = { methodology_version: null, dataset_snapshot_id: null, data_asof: null };
  }
  return { ok: false, error: { code, message, request_id: requestId }, ...fields };
}

/**
 * Downloads in the nginx front: `/api/v1/downloads/{id}/{file}` is a file of snapshot
 * {id}'s own tree, so nginx sends it itself, as it sends the tree's JSON, rather than through a
 * shim. Per client, `limit_conn` caps the connections downloading at once (the shim's
 * DOWNLOADS_PER_CLIENT, answered 429 in the envelope), and a client that stops reading is cut
 * after DOWNLOAD_STALL_MS (`send_timeout`, with a reset: `reset_timedout_connection` in the
 * server). What a download holds meanwhile is the kernel's send buffer only: sendfile moves the
 * bytes from the file to the socket, and the listen socket's `sndbuf` bounds that buffer, so a
 * file larger than it stays "being sent", and counted by `limit_conn`, until the client takes it.
 */
import { type DownloadLimits } from '../../src/contract/downloads.js';
import { DOWNLOAD_DEFAULT_TYPE, DOWNLOAD_MEDIA_TYPES, DOWNLOAD_NAME, FOLDER_PAGE } from '../../src/contract/downloads.js';
import { API_BASE, DOWNLOADS_DIR } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import { literal } from './nginx-errors.js';

/** The limit_conn zone, keyed by the client's address (IPv6 whole): 10 MB holds some 80,000 clients at once. */
const ZONE = 'esg_downloads';

/**
 * The send buffer of every client connection nginx accepts (`listen … sndbuf=`; Linux doubles it):
 * the most the kernel holds for a client that does not read. 256 KiB lets one connection carry
 * about 5 MB/s at 100 ms round trip; a larger one serves far clients faster and holds more per
 * stalled connection.
 */
export const DEFAULT_SEND_BUFFER_KIB = 256;

/** `NGINX_SEND_BUFFER_KIB` from the environment (README "Environment"), else the default; `fail` names a bad value. */
export function sendBufferFromEnv(env: NodeJS.ProcessEnv, fail: (message: string) => never): number {
  const value = env.NGINX_SEND_BUFFER_KIB;
  if (value === undefined || value === '') return DEFAULT_SEND_BUFFER_KIB;
  if (!/^\d{1,6}$/.test(value) || Number(value) < 4) fail(`NGINX_SEND_BUFFER_KIB must be a whole number of KiB, at least 4; got ${value}`);
  return Number(value);
}

/**
 * Map rows (`$esg_file`): a download, and a download folder's page, of the snapshot the URL names.
 * `get` is the rows' method prefix, `api` the base path as a regex, `snapshotId` an id's regex.
 */
export function downloadMapRows(get: string, api: string, snapshotId: string): [string, string][] {
  // Checked against the URL table, as nginx-config.ts checks the tree's.
  if (urls.downloadFolder('X') !== `${API_BASE}/downloads/X` || DOWNLOADS_DIR !== 'api/v1/downloads') {
    throw new Error('static-paths.ts changed the downloads; update build-scripts/deploy/nginx-downloads.ts');
  }
  const name = DOWNLOAD_NAME.source.replace(/^\^|\$$/g, '');
  const folder = `/$esg_did/tree/${DOWNLOADS_DIR}/$esg_did`;
  const base = `${get}${api}/downloads/(?<esg_did>${snapshotId})/`;
  // Any query: the shim ignores it on a download, and sent there a download escaped
  // limit_conn and the fixed send buffer (1,000 unread requests with `?x` held 2 GB).
  const query = '(?:\\?.*)?$';
  return [
    [`${base}(?<esg_dname>${name})${query}`, `${folder}/$esg_dname`],
    [`${base}${query}`, `${folder}/${FOLDER_PAGE}`],
  ];
}

/** http level: the zone `limit_conn` counts in. */
export const downloadZone = () => `limit_conn_zone $binary_remote_addr zone=${ZONE}:10m;`;

/**
 * The downloads' location: the file the map names, whatever its query, or the shim (misses, pruned
 * ids, other spellings: it owns those answers; nginx never writes what it passes on to disk,
 * proxy_max_temp_file_size in nginx-config.ts). `errorPages` and `headers` are the server's, repeated
 * because a location that sets any inherits none.
 */
export function downloadLocation(o: {
  snapshotsDir: string;
  limits: Pick<DownloadLimits, 'perClient' | 'stallMs'>;
  errorPages: string[];
  headers: string[];
}): string[] {
  const types = Object.entries(DOWNLOAD_MEDIA_TYPES).map(([ext, type]) => `    ${literal(type)} ${ext.slice(1)};`);
  return [
    `location ^~ ${API_BASE}/downloads/ {`,
    ...[
      `root ${o.snapshotsDir};`,
      `limit_conn ${ZONE} ${o.limits.perClient};`,
      'limit_conn_status 429;',
      'limit_conn_log_level warn;',
      `send_timeout ${Math.ceil(o.limits.stallMs / 1000)}s;`,
      // Downloads are large: the kernel copies file to socket, nginx holds no buffer of its own.
      'sendfile on;',
      'sendfile_max_chunk 512k;',
      'types {',
      ...types,
      '}',
      `default_type ${literal(DOWNLOAD_DEFAULT_TYPE)};`,
      ...o.errorPages,
      'try_files $esg_file @esg_shim;',
      ...o.headers,
    ].map((l) => `    ${l}`),
    '}',
  ];
}

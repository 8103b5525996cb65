/**
 * How many downloads (`/api/v1/downloads/…`) the shim sends at once: 2,000 unread
 * requests for snapshot.sqlite from one client once held 453 MB in the shim and stalled the front.
 * Each cap is an environment variable (README "Environment"); nginx takes the same values when its
 * config is generated (build-scripts/deploy/nginx-downloads.ts).
 */
export interface DownloadLimits {
  /** Connections one client (an IP, IPv6 by /56, as quotas count) may be downloading on at once. */
  perClient: number;
  /** Connections this shim may be downloading on at once, all clients together. */
  total: number;
  /** A download whose client takes no bytes for this long is cut with a reset. */
  stallMs: number;
}

/**
 * A browser opens at most 6 connections to one host, so a person is never refused; 64 downloads
 * hold at most 64 × 128 KiB in the shim (see DOWNLOAD_CHUNK_BYTES); 30 s is nginx's send_timeout.
 */
export const DEFAULT_DOWNLOAD_LIMITS: Readonly<DownloadLimits> = { perClient: 6, total: 64, stallMs: 30_000 };

/** Seconds a refused download is told to wait: slots free as other downloads end (nginx tells the same). */
export const DOWNLOAD_RETRY_AFTER_S = 5;

/** The 429 message for a client over its cap, the shim's and nginx's. */
export const tooManyDownloads = (perClient: number) =>
  `Too many downloads at once: at most ${perClient} connections from one client may be downloading. Finish or close one, then retry after ${DOWNLOAD_RETRY_AFTER_S} s.`;

const ENV_NAMES: Record<keyof DownloadLimits, string> = { perClient: 'DOWNLOADS_PER_CLIENT', total: 'DOWNLOADS_MAX', stallMs: 'DOWNLOAD_STALL_MS' };

/** The limits from the environment: a whole number ≥ 1 each, else `fail` with one line naming the variable. */
export function downloadLimitsFromEnv(env: NodeJS.ProcessEnv, fail: (message: string) => never): DownloadLimits {
  const limits = { ...DEFAULT_DOWNLOAD_LIMITS };
  for (const key of Object.keys(ENV_NAMES) as (keyof DownloadLimits)[]) {
    const value = env[ENV_NAMES[key]];
    if (value === undefined || value === '') continue;
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) fail(`${ENV_NAMES[key]} must be a whole number of at least 1; got ${value}`);
    limits[key] = Number(value);
  }
  return limits;
}

/** Content type by extension (nginx sends the same: build-scripts/deploy/nginx-downloads.ts). */
export const DOWNLOAD_MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.sqlite': 'application/vnd.sqlite3',
  '.gz': 'application/gzip',
  '.cff': 'application/x-yaml; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};
/** Any other file (SHA256SUMS). */
export const DOWNLOAD_DEFAULT_TYPE = 'text/plain; charset=utf-8';
/** The folder's own page (build-scripts/pages: DownloadFolder.astro), answered at `/downloads/{id}/`. */
export const FOLDER_PAGE = 'index.html';
/** What a download's name may be (nginx serves the same names: build-scripts/deploy/nginx-downloads.ts). */
export const DOWNLOAD_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

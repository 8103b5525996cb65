/**
 * The nginx front of the production shape: serves every static file of the current
 * snapshot straight from `<snapshots>/current/tree`, and hands everything that needs computing to an
 * upstream of N shims. Generated from the same URL rules the tree writer and the shim use, so it
 * cannot drift from them:
 *
 * - API paths (src/contract/urls.ts `fileForUrlPath`): `/api/v1/x` and `/api/v1/x.json` are
 *   `api/v1/x.json`, `/api/v1/` is `api/v1/index.json`, `/api/v1/feed.atom` keeps its extension,
 *   `?page=N` alone on /ranking and /changes is `…/page/N.json`; pinned reads
 *   `/api/v1/snapshots/{id}/…` are the same files in snapshot {id}'s own tree.
 * - Pages (src/site/i18n/paths.ts `fileForPageUrl`): a folder URL is its `index.html`, assets keep their names.
 * - Headers (build-scripts/deploy/headers.ts): the shim's CORS, caching, security headers and
 *   content types.
 *
 * - Downloads `/api/v1/downloads/{id}/{file}` are snapshot {id}'s files, whatever their query,
 *   capped per client (build-scripts/deploy/nginx-downloads.ts).
 *
 * One rule decides what nginx serves itself: a GET or HEAD whose request line, exactly as the
 * client sent it, names a file by those mappings, and the file exists. Everything else goes to the
 * shim: query strings (other than a lone `page=N`, and any on a page or a download), POST, `/usage`, other spellings
 * (lower-case codes, percent-encoding, empty or dot segments), misses (the JSON 404 envelope, the
 * HTML 404 page, redirects to a folder URL), and snapshot ids that are malformed, unknown (404) or
 * pruned (410: the folder is gone, the shim knows it from pruned.json). The shim owns every rule
 * about those, so nginx never answers them differently.
 */
import { LIMITS, SNAPSHOT_ID_PATTERN } from '../../src/contract/vocabulary.js';
import { ROUTES } from '../../src/contract/routes.js';
import { DEFAULT_DOWNLOAD_LIMITS, type DownloadLimits } from '../../src/contract/downloads.js';
import { KEEP_ALIVE } from '../../src/contract/keep-alive.js';
import { MCP_PATH } from '../../src/contract/api-paths.js';
import { OAUTH_CORS_PATHS } from '../../src/contract/oauth.js';
import { API_BASE, DOWNLOADS_DIR, fileForUrlPath } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import { fileForPageUrl } from '../../src/site/i18n/paths.js';
import {
  API_CSP,
  BEARER_PREFLIGHT_RESPONSE_HEADERS,
  DOCS_PAGE_CSP,
  DOCS_PAGE_URLS,
  PAGE_CSP,
  PREFLIGHT_RESPONSE_HEADERS,
  STATIC_HEADERS,
  TREE_CONTENT_TYPES,
} from './headers.js';
import { DEFAULT_SEND_BUFFER_KIB, downloadLocation, downloadMapRows, downloadZone } from './nginx-downloads.js';
import { addHeaders, errorLocations, errorPages, literal, ownErrors } from './nginx-errors.js';

export interface NginxOptions {
  /** SNAPSHOTS_DIR, absolute: the `<id>/` folders and the `current` symlink. */
  snapshotsDir: string;
  /** The shims, `host:port` each (loopback addresses: the shims must not be reachable around nginx). */
  upstreams: string[];
  /**
   * Shims among `upstreams` that get nothing new (`server … down`): a rolling restart regenerates
   * the config with the shim it restarts here and reloads nginx before stopping it (deploy/README.md).
   */
  down?: string[];
  /** What nginx listens on: a port, or `address:port`. */
  listen: string;
  /** Folder for nginx's pid file, error log, access log and temp files (full config only). */
  runtimeDir: string;
  /** `full`: a whole nginx.conf for `nginx -c` (default); `http`: the http-level part for an `include` in an existing nginx.conf. */
  mode?: 'full' | 'http';
  /** Worker user when the master runs as root (`user …;`); it must be able to read the snapshots. */
  user?: string;
  workerProcesses?: number | 'auto';
  serverName?: string;
  /** Access log path, or `off`; default `<runtimeDir>/access.log`. */
  accessLog?: string;
  /** `http` mode: the error log of the nginx.conf that includes this (default Debian's `/var/log/nginx/error.log`); `full` writes `<runtimeDir>/error.log`. */
  errorLog?: string;
  /** Downloads per client at once and the stall cut (the shim's DOWNLOADS_PER_CLIENT, DOWNLOAD_STALL_MS). */
  downloads?: Pick<DownloadLimits, 'perClient' | 'stallMs'>;
  /** Each client connection's send buffer, KiB (NGINX_SEND_BUFFER_KIB). */
  sendBufferKiB?: number;
  /** How long a shim may take to answer (send and read timeouts), seconds; default 60. */
  upstreamTimeoutS?: number;
}

/**
 * A segment of an API path (words, codes, page numbers): no dot, so a `.json` suffix stays outside
 * it. Map captures become nginx variables, so they are named `esg_…`.
 */
const SEG = '[A-Za-z0-9_-]+';
/** A segment of a page path, as the shim's pages route takes it: never starting with a dot (no `..`). */
const PAGE_SEG = '[A-Za-z0-9_-][A-Za-z0-9._-]*';
/** SNAPSHOT_ID_PATTERN without its anchors, its groups made non-capturing. */
const SNAPSHOT_ID = SNAPSHOT_ID_PATTERN.source.replace(/^\^|\$$/g, '').replace(/\((?!\?)/g, '(?:');
/** A path below /api/v1, never into the downloads (their own rows and location) or a nested pinned read. */
const API_PATH = `(?!${DOWNLOADS_DIR.split('/').pop()}(?:/|$)|snapshots/)(?:${SEG}/)*${SEG}`;
/** Anything like /api, in any case, is the API's (its 404 is the JSON envelope, never the HTML page). */
const NOT_API = '(?![Aa][Pp][Ii](?:/|\\?|$))';
const GET = '^(?:GET|HEAD) ';
const API = escapeRegex(API_BASE);

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, (c) => (c === '/' ? '/' : `\\${c}`));
}

/** An nginx double-quoted string holding a regex or variables (`$name` is interpolated). */
function q(value: string): string {
  if (/["\n]/.test(value)) throw new Error(`cannot quote for nginx: ${value}`);
  return `"${value}"`;
}

/** The file a relative URL is written to, as the tree writer writes it, for the map's values. */
const apiFile = (url: string) => `/current/tree/${fileForUrlPath(url)}`;
/** Lists whose `?page=N` alone is a static page (the route table's `pages`): `/api/v1/<list>?page=N` is `<list>/page/N.json`. */
const LIST_PAGES = ROUTES.filter((op) => op.pages).map((op) => op.path.slice(1));

/**
 * `$esg_file`: the file (under the snapshots folder) a GET or HEAD names by the tree's mappings, or
 * "" when the request is the shim's. First match wins.
 */
function fileMap(): string {
  // Checked against the URL table, so a change of the tree's layout fails here, not in production.
  const expect = (got: string, want: string) => {
    if (got !== want) throw new Error(`static-paths.ts changed: ${got} ≠ ${want}; update build-scripts/deploy/nginx-config.ts`);
  };
  expect(fileForUrlPath(urls.index), 'api/v1/index.json');
  expect(fileForUrlPath(urls.company('X')), 'api/v1/company/X.json');
  expect(fileForUrlPath(urls.feed), 'api/v1/feed.atom');
  expect(fileForUrlPath(urls.rankingPage(2)), 'api/v1/ranking/page/2.json');
  expect(fileForUrlPath(urls.changesPage(2)), 'api/v1/changes/page/2.json');
  expect(fileForPageUrl('/company/X/'), 'company/X/index.html');
  expect(fileForPageUrl('/assets/site.css'), 'assets/site.css');
  const feed = escapeRegex(urls.feed.slice(API_BASE.length + 1));
  const pinned = `${API}/snapshots/(?<esg_sid>${SNAPSHOT_ID})`;
  const rows: [string, string][] = [
    // First, as most requests are company files: no other row's language overlaps it (API_PATH has
    // no dot, no query, no `snapshots/`, at least one segment), so the order changes no answer and
    // the commonest request runs one regex instead of seven.
    [`${GET}${API}/(?<esg_path>${API_PATH})(?:\\.json)?$`, `/current/tree/${fileForUrlPath(`${API_BASE}/$esg_path`)}`],
    [`${GET}${API}/?$`, apiFile(urls.index)],
    [`${GET}${pinned}/?$`, `/$esg_sid/tree/${fileForUrlPath(urls.index)}`],
    [`${GET}${pinned}/${feed}$`, `/$esg_sid/tree/${fileForUrlPath(urls.feed)}`],
    [`${GET}${pinned}/(?<esg_path>${API_PATH})(?:\\.json)?$`, `/$esg_sid/tree/${fileForUrlPath(`${API_BASE}/$esg_path`)}`],
    [
      `${GET}${API}/(?<esg_list>${LIST_PAGES.join('|')})(?:\\.json)?\\?page=(?<esg_n>[1-9][0-9]{0,5})$`,
      `/current/tree/${fileForUrlPath(`${API_BASE}/$esg_list/page/$esg_n`)}`,
    ],
    [`${GET}${API}/${feed}$`, apiFile(urls.feed)],
    ...downloadMapRows(GET, API, SNAPSHOT_ID),
    // Pages take any query (the shim ignores it); a folder URL is its index.html.
    [`${GET}(?<esg_page>/${NOT_API}(?:${PAGE_SEG}/)*)(?:\\?.*)?$`, '/current/tree${esg_page}index.html'],
    [`${GET}(?<esg_page>/${NOT_API}(?:${PAGE_SEG}/)*${PAGE_SEG})(?:\\?.*)?$`, '/current/tree$esg_page'],
  ];
  return [
    '# What nginx serves itself: the file a GET or HEAD names, exactly as sent; "" sends it to the shim.',
    'map "$request_method $request_uri" $esg_file {',
    '    default "";',
    ...rows.map(([re, file]) => `    ${q(`~${re}`)} ${q(file)};`),
    '}',
  ].join('\n');
}

/**
 * `$esg_csp`: the page policy for pages (the API reference's for its own file in each language),
 * the API's for everything else, decided by the file as server/routes/pages.ts decides it. Keyed
 * on the file alone, the reference's pages are exact (hashed) keys and the rest one regex.
 */
function cspMap(): string {
  return [
    'map $esg_file $esg_csp {',
    `    default ${literal(API_CSP)};`,
    ...DOCS_PAGE_URLS.map((docs) => `    ${q(`/current/tree/${fileForPageUrl(docs)}`)} ${literal(DOCS_PAGE_CSP)};`),
    `    ${q('~\\.html$')} ${literal(PAGE_CSP)};`,
    '}',
  ].join('\n');
}

/** `$esg_request_id`: nginx's 128 random bits in the UUID v4 form the shim's X-Request-Id has. */
function requestIdMap(): string {
  return [
    'map $request_id $esg_request_id {',
    '    default $request_id;',
    `    ${q('~^(?<esg_r1>.{8})(?<esg_r2>.{4}).(?<esg_r3>.{3}).(?<esg_r4>.{3})(?<esg_r5>.{12})$')} "$esg_r1-$esg_r2-4$esg_r3-a$esg_r4-$esg_r5";`,
    '}',
  ].join('\n');
}

/** A query parameter named `t` (as the shim reads it: `%74` too; any case), whatever its value. */
const TOKEN_PARAM = '(?:t|%74)(?:=|&|$)';

/**
 * `$esg_log_uri`: the request line's URI as the access log writes it, with a one-time token taken
 * out. A mailed link carries its token in the query (`/keys/link?t=…`, `/oauth/consent?t=…`, in
 * either language), and whoever read it in the log could spend it first: confirm a key request,
 * rotate a key, or answer a sign-in. So from the first parameter named `t` (as the shim reads it:
 * `%74` too, in any case) the query is written `t=REDACTED`, on every path, whatever follows.
 */
function loggedUriMap(): string {
  return [
    'map $request_uri $esg_log_uri {',
    '    default $request_uri;',
    `    ${q(`~*^(?<esg_log_head>[^?]*\\?(?:[^&]*&)*?)${TOKEN_PARAM}`)} "\${esg_log_head}t=REDACTED";`,
    '}',
    '',
    // nginx's error log writes the request line as it came, token and all, when a shim fails it
    // (a refused connection, tried again on the next shim, is enough): such a request goes to
    // @esg_shim_token, whose error log takes only lines of level crit and above.
    'map $request_uri $esg_has_token {',
    '    default "";',
    `    ${q(`~*^[^?]*\\?(?:[^&]*&)*?${TOKEN_PARAM}`)} 1;`,
    '}',
  ].join('\n');
}

/** The POSTs that only read (the route table's: batch, packs): a retry on another shim does them no harm. */
export const READ_ONLY_POSTS: readonly string[] = ROUTES.filter((op) => op.method === 'POST').map((op) => `${API_BASE}${op.path}`);
/** OAuth's endpoints whose preflight allows `Authorization` (the shim's own rule, server/app.ts). */
export const BEARER_PREFLIGHT_PATHS: readonly string[] = OAUTH_CORS_PATHS;

/**
 * `$esg_shim_how`: how @esg_shim passes a request on. `retry`: a GET or HEAD, or a POST that only
 * reads, is tried on the next shim when one fails (proxyToShims). `once`: any other POST (or PUT,
 * DELETE…) changes something: it mails a link (/keys/…, /oauth/sign-in), spends a one-time link or
 * an authorization request (/oauth/consent), spends a code or rotates a refresh token (/token, where
 * the same refresh token presented twice is taken for a stolen one and ends the grant), registers a
 * client (/register) or revokes (/revoke). A shim may have done it and then failed before answering;
 * tried again on another, the person would get a second mail, "already answered" instead of the
 * redirect, or be signed out. So it goes to @esg_shim_once, which still tries the next shim when a
 * connection cannot be made (nothing was sent), never once the request was sent. Unknown is `once`:
 * a new endpoint is safe until it is listed here as read-only. `preflight` and `bearer-preflight`:
 * an OPTIONS, answered here (contract 1), with `Authorization` allowed at OAuth's endpoints as the
 * shim allows it. Exact keys are matched before the regexes, the regexes in order.
 */
function shimHowMap(): string {
  return [
    'map "$request_method $uri" $esg_shim_how {',
    '    default once;',
    `    ${q('~^(?:GET|HEAD) ')} retry;`,
    // A regex, not exact keys: the longest path would not fit the map's default hash bucket.
    `    ${q(`~^OPTIONS (?:${BEARER_PREFLIGHT_PATHS.map(escapeRegex).join('|')})$`)} bearer-preflight;`,
    `    ${q('~^OPTIONS ')} preflight;`,
    ...READ_ONLY_POSTS.map((path) => `    ${q(`POST ${path}`)} retry;`),
    '}',
  ].join('\n');
}

function upstreamBlock(upstreams: string[], down: string[] = []): string {
  for (const u of upstreams) if (!/^[A-Za-z0-9.:[\]-]+:\d{1,5}$/.test(u)) throw new Error(`an upstream is host:port, got "${u}"`);
  for (const d of down) if (!upstreams.includes(d)) throw new Error(`--down names a shim that is not an upstream: "${d}"`);
  if (upstreams.every((u) => down.includes(u))) throw new Error('every upstream is down: at least one shim must answer');
  return [
    'upstream esg_shims {',
    // A shim that fails a connection is left alone for 5 s, while the others answer. One `down`
    // gets nothing new: a shim stopping closes its listening socket, and a connection nginx opened
    // just then is reset with the request sent on it, which nginx cannot resend if it changes
    // something (31 of 128,737 such POSTs got 502 over rolling restarts). Reloaded with
    // the shim down first, nginx opens no connection to it, and the shim stops with nothing coming.
    ...upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=5s${down.includes(u) ? ' down' : ''};`),
    '    keepalive 64;',
    '    keepalive_requests 10000;',
    // nginx closes an idle connection to a shim before the shim would (it keeps one 65 s) and before a
    // draining shim stops listening (5 s): nginx never reuses a connection the shim is closing
    // (server/keep-alive.ts, server/shutdown.ts). A shim's answer with `Connection: close` (all of
    // them while it drains) ends that connection here too; the next request opens a new one.
    `    keepalive_timeout ${KEEP_ALIVE.frontMs / 1000}s;`,
    '}',
  ].join('\n');
}

function listenDirective(listen: string, sendBufferKiB: number): string {
  if (!/^(?:[A-Za-z0-9.:[\]-]+:)?\d{1,5}$/.test(listen)) throw new Error(`--listen is a port or address:port, got "${listen}"`);
  if (!Number.isInteger(sendBufferKiB) || sendBufferKiB < 4)
    throw new Error(`the send buffer is a whole number of KiB, at least 4, got ${sendBufferKiB}`);
  // A fixed send buffer (no autotuning up to 4 MB): see build-scripts/deploy/nginx-downloads.ts.
  return `listen ${listen} sndbuf=${sendBufferKiB}k;`;
}

/**
 * How a request goes to the shims: their headers pass through unchanged, nothing is cached, a dead
 * shim is skipped. `retryPosts: false` for requests that change something (shimHowMap): those are
 * retried only when no byte of them reached a shim.
 */
function proxyToShims(o: NginxOptions, retryPosts = true): string[] {
  return [
    'proxy_pass http://esg_shims;',
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    'proxy_set_header Host $host;',
    // Set, never appended: a client's own X-Forwarded-For must not reach the shim (TRUST_PROXY believes this one hop).
    'proxy_set_header X-Forwarded-For $remote_addr;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_redirect off;',
    // A refused or reset connection is retried on the next shim, a POST that only reads too
    // (`non_idempotent`: batch, packs, MCP tools): a shim stopping gracefully resets only requests it
    // never read (those left in its accept queue as it stops listening), so a retried POST runs once;
    // without it, nginx answered those with 502. A POST that changes something is not (shimHowMap):
    // nginx retries it only if it could not be sent at all. Retries stop 10 s after the first try.
    retryPosts ? 'proxy_next_upstream error timeout non_idempotent;' : 'proxy_next_upstream error timeout;',
    `proxy_next_upstream_tries ${o.upstreams.length};`,
    'proxy_next_upstream_timeout 10s;',
    'proxy_connect_timeout 2s;',
    `proxy_send_timeout ${o.upstreamTimeoutS ?? 60}s;`,
    `proxy_read_timeout ${o.upstreamTimeoutS ?? 60}s;`,
    // Room in memory for a whole computed answer (a 100-company batch is about 100 KB): with the
    // default 8 × 4 KB, nginx spooled every larger answer to a temporary file and read it back,
    // and a batch through nginx lost about a fifth of the shim's req/s (bench/results.md). Buffers are taken as an
    // answer needs them. Past these, nothing is written to disk: nginx reads more of the answer as
    // the client takes it, so a client that does not read holds at most these buffers here, and
    // the shim's own limits (its download slots, its stall cut) apply to it. Spooled, 1,000 unread
    // downloads with a query string held 2 GB of temp files.
    'proxy_buffer_size 16k;',
    'proxy_buffers 32 8k;',
    'proxy_busy_buffers_size 64k;',
    'proxy_max_temp_file_size 0;',
  ];
}

/**
 * The http-level part: types, log format, maps, the upstream and the server. Over 80 lines because
 * it is the config's text in the order nginx reads it (the parts with logic of their own are the
 * functions above); split further, a reader would have to put the block back together to check it.
 */
export function nginxHttpBlock(o: NginxOptions): string {
  if (!o.snapshotsDir.startsWith('/')) throw new Error(`the snapshots folder must be an absolute path, got "${o.snapshotsDir}"`);
  if (o.upstreams.length === 0) throw new Error('at least one upstream shim is needed');
  const accessLog = o.accessLog ?? `${o.runtimeDir}/access.log`;
  const errorLog = (o.mode ?? 'full') === 'full' ? `${o.runtimeDir}/error.log` : (o.errorLog ?? '/var/log/nginx/error.log');
  const indent = (lines: string[], n = 4) => lines.map((l) => (l === '' ? '' : ' '.repeat(n) + l));
  // No X-Request-Id on the files nginx serves: the contract asks one of every shim response, and a
  // file here is what a CDN or static host serves, which has none. Drawing 128 random bits and
  // shaping them per file cost a static file a tenth of nginx's CPU (bench, "Production shape").
  const staticHeaders = [...addHeaders(STATIC_HEADERS, false), 'add_header Content-Security-Policy $esg_csp;'];
  const downloads = o.downloads ?? DEFAULT_DOWNLOAD_LIMITS;
  const errors = ownErrors({ perClientDownloads: downloads.perClient, upstreamTimeoutS: o.upstreamTimeoutS ?? 60 });
  const server = [
    'server {',
    ...indent([
      listenDirective(o.listen, o.sendBufferKiB ?? DEFAULT_SEND_BUFFER_KIB),
      `server_name ${o.serverName ?? '_'};`,
      '',
      // The tree's content types, here rather than at http level, so an include beside the system's mime.types adds no duplicate.
      'types {',
      ...Object.entries(TREE_CONTENT_TYPES).map(([ext, type]) => `    ${literal(type)} ${ext};`),
      '}',
      'default_type application/octet-stream;',
      // The shim decides about `//`, dot segments and encodings: nginx must not rewrite them first.
      'merge_slashes off;',
      'server_tokens off;',
      'charset off;',
      // gzip would turn the files' strong ETags weak (contract 1 wants them strong): compress at a CDN instead.
      'gzip off;',
      // The tree's files are small (a company file is a few KB): one read and one write of headers and
      // body together cost a static file less than sendfile, which corks the socket, writes the
      // headers, sends the body and uncorks (a measurable share of nginx's CPU per file, bench/results.md).
      'sendfile off;',
      // Room for what the shim refuses with its own envelope (URL over 8 KiB: 414, headers over 16 KiB: 431, body over 64 KiB: 413).
      `client_max_body_size ${(LIMITS.bodyBytes * 2) / 1024}k;`,
      'large_client_header_buffers 8 32k;',
      'client_header_timeout 10s;',
      'client_body_timeout 10s;',
      'send_timeout 30s;',
      // A connection cut for a timeout is reset, so the kernel drops what it still held for it.
      'reset_timedout_connection on;',
      'keepalive_timeout 65s;',
      // A client (a CDN's edge, a program) may keep one connection for many requests: reconnecting
      // every 10,000 cost a static file a few per cent of nginx's CPU at full load (bench/results.md).
      'keepalive_requests 100000;',
      // No open_file_cache: each request resolves `current` afresh, so a publish is served at once and no answer mixes snapshots.
      // Buffered: one write per 64 KiB of lines (or per second) instead of one per request.
      accessLog === 'off' ? 'access_log off;' : `access_log ${accessLog} esg_json buffer=64k flush=1s;`,
      'recursive_error_pages on;',
      ...errorPages(errors),
      '',
      'location / {',
      ...indent([
        `root ${o.snapshotsDir};`,
        ...errorPages(errors),
        // No `if`: when the map names no file ("", a POST, a preflight, a query), try_files tests the
        // root folder itself, which is no file, and hands the request to the shim.
        'try_files $esg_file @esg_shim;',
        ...staticHeaders,
      ]),
      '}',
      '',
      '# Downloads: files of each snapshot, a few at a time per client.',
      ...downloadLocation({ snapshotsDir: o.snapshotsDir, limits: downloads, errorPages: errorPages(errors), headers: staticHeaders }),
      '',
      '# Everything computed, and every miss: the shim answers, its headers pass through unchanged, nothing is cached.',
      'location @esg_shim {',
      ...indent([
        // A location that sets any error_page inherits none: the server's are repeated (nginx's 502, 504).
        ...errorPages(errors),
        // 419 to 421 are no answers: they only lead on to the locations below (shimHowMap says which).
        'error_page 419 = @esg_preflight;',
        'error_page 420 = @esg_preflight_bearer;',
        'error_page 421 = @esg_shim_once;',
        'error_page 418 = @esg_shim_token;',
        'if ($esg_shim_how = preflight) { return 419; }',
        'if ($esg_shim_how = bearer-preflight) { return 420; }',
        'if ($esg_has_token) { return 418; }',
        'if ($esg_shim_how = once) { return 421; }',
        ...proxyToShims(o),
      ]),
      '}',
      '',
      "# A request with a one-time token in its query: as a request that changes something, and nginx's",
      '# error log, which would write its request line, takes nothing of it but crit and above.',
      'location @esg_shim_token {',
      ...indent([...errorPages(errors), ...proxyToShims(o, false), `error_log ${errorLog} crit;`]),
      '}',
      '',
      '# A request that changes something (a POST to /token, /oauth/consent, the keys page…): never tried twice.',
      'location @esg_shim_once {',
      ...indent([...errorPages(errors), ...proxyToShims(o, false)]),
      '}',
      '',
      '# The MCP endpoint (docs/mcp.md): every method to a shim (its preflight allows the MCP headers, its',
      '# GET and DELETE are 405), answers passed on as they come (an event stream must not wait in a buffer).',
      `location = ${MCP_PATH} {`,
      ...indent([...proxyToShims(o), 'proxy_buffering off;']),
      '}',
      '',
      '# Contract 1: a preflight is 204 with the allowed methods and headers, answered here even with every shim down.',
      'location @esg_preflight {',
      ...indent(['add_header X-Request-Id $esg_request_id always;', ...addHeaders(PREFLIGHT_RESPONSE_HEADERS, true), 'return 204;']),
      '}',
      '',
      "# The same at OAuth's endpoints a browser client calls, which take `Authorization` (server/app.ts).",
      'location @esg_preflight_bearer {',
      ...indent(['add_header X-Request-Id $esg_request_id always;', ...addHeaders(BEARER_PREFLIGHT_RESPONSE_HEADERS, true), 'return 204;']),
      '}',
      '',
      ...errorLocations(errors),
    ]),
    '}',
  ];
  return [
    `# Generated by \`npm run deploy:nginx\` (build-scripts/deploy/nginx-config.ts). Do not edit: regenerate.`,
    'log_format esg_json escape=json \'{"time":"$time_iso8601","request_id":"$sent_http_x_request_id","client":"$remote_addr",\'',
    '    \'"method":"$request_method","uri":"$esg_log_uri","status":$status,"bytes":$body_bytes_sent,"seconds":$request_time,\'',
    '    \'"upstream":"$upstream_addr","upstream_status":"$upstream_status","upstream_seconds":"$upstream_response_time"}\';',
    '',
    loggedUriMap(),
    '',
    fileMap(),
    '',
    cspMap(),
    '',
    shimHowMap(),
    '',
    requestIdMap(),
    '',
    downloadZone(),
    '',
    upstreamBlock(o.upstreams, o.down),
    '',
    ...server,
    '',
  ].join('\n');
}

/** A whole nginx.conf, for `nginx -c FILE` (add `-g 'daemon off;'` to keep it in the foreground). */
export function nginxConfig(o: NginxOptions): string {
  if ((o.mode ?? 'full') === 'http') return nginxHttpBlock(o);
  const r = o.runtimeDir;
  if (!r.startsWith('/')) throw new Error(`the runtime folder must be an absolute path, got "${r}"`);
  return [
    ...(o.user ? [`user ${o.user};`] : []),
    `worker_processes ${o.workerProcesses ?? 'auto'};`,
    // The maps are regular expressions run on every request: compiled to machine code.
    'pcre_jit on;',
    `pid ${r}/nginx.pid;`,
    `error_log ${r}/error.log warn;`,
    'events { worker_connections 4096; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${r}/tmp/${t};`),
    ...nginxHttpBlock(o)
      .split('\n')
      .map((l) => (l === '' ? '' : `    ${l}`)),
    '}',
    '',
  ].join('\n');
}

/**
 * npm run deploy:nginx -- --snapshots DIR --upstream 127.0.0.1:8081,127.0.0.1:8082 [--down 127.0.0.1:8081] --listen 8080 --out FILE
 *     [--runtime DIR] [--mode full|http] [--user NAME] [--workers N] [--server-name NAME]
 *     [--static-host DIR]
 *
 * Writes the nginx front of deploy/README.md: a whole nginx.conf (`--mode full`, the default, run
 * with `nginx -c FILE`) or its http-level part for an `include` (`--mode http`). `--runtime` holds
 * the pid file, logs and temp files (default: FILE's folder). `--static-host DIR` also
 * writes `_headers` and `_redirects` for a static host (Netlify, Cloudflare Pages) into DIR.
 * The caps on downloads come from the environment, as the shims take them (README "Environment"):
 * DOWNLOADS_PER_CLIENT, DOWNLOAD_STALL_MS and NGINX_SEND_BUFFER_KIB.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { downloadLimitsFromEnv } from '../../src/contract/downloads.js';
import { nginxConfig } from './nginx-config.js';
import { sendBufferFromEnv } from './nginx-downloads.js';
import { staticHostHeaders, staticHostRedirects } from './static-host.js';

const { values } = parseArgs({
  options: {
    snapshots: { type: 'string' },
    upstream: { type: 'string' },
    down: { type: 'string' },
    listen: { type: 'string', default: '8080' },
    out: { type: 'string' },
    runtime: { type: 'string' },
    mode: { type: 'string', default: 'full' },
    user: { type: 'string' },
    workers: { type: 'string' },
    'server-name': { type: 'string' },
    'access-log': { type: 'string' },
    'error-log': { type: 'string' },
    'static-host': { type: 'string' },
  },
});

function fail(message: string): never {
  process.stderr.write(`deploy:nginx: ${message}\n`);
  process.exit(2);
}

if (!values.out && !values['static-host']) fail('give --out FILE (the nginx config) and/or --static-host DIR (_headers and _redirects)');
if (values.out) {
  if (!values.snapshots) fail('--snapshots DIR is required (the SNAPSHOTS_DIR the shims serve)');
  if (!values.upstream) fail('--upstream HOST:PORT[,HOST:PORT…] is required (the shims)');
  if (values.mode !== 'full' && values.mode !== 'http') fail(`--mode is full or http, got "${values.mode}"`);
  const out = resolve(values.out);
  const runtimeDir = resolve(values.runtime ?? dirname(out));
  const workers = values.workers === undefined || values.workers === 'auto' ? 'auto' : Number(values.workers);
  if (workers !== 'auto' && !(Number.isInteger(workers) && workers > 0)) fail(`--workers is a whole number or auto, got "${values.workers}"`);
  const downloads = downloadLimitsFromEnv(process.env, fail);
  const sendBufferKiB = sendBufferFromEnv(process.env, fail);
  let text: string;
  try {
    text = nginxConfig({
      snapshotsDir: resolve(values.snapshots),
      upstreams: values.upstream
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
      down: (values.down ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
      listen: values.listen!,
      runtimeDir,
      mode: values.mode,
      user: values.user,
      workerProcesses: workers,
      serverName: values['server-name'],
      // An include lives among the system's config files: its log goes where the system's do.
      accessLog: values['access-log'] ?? (values.mode === 'http' ? '/var/log/nginx/esg-access.log' : undefined),
      // An include's requests carrying a one-time token log errors of level crit and above only, to the including nginx.conf's error log.
      errorLog: values['error-log'],
      downloads,
      sendBufferKiB,
    });
  } catch (e) {
    fail((e as Error).message);
  }
  mkdirSync(dirname(out), { recursive: true });
  if (values.mode === 'full')
    for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(runtimeDir, 'tmp', t), { recursive: true });
  writeFileSync(out, text);
  process.stderr.write(`deploy:nginx: wrote ${out}${values.mode === 'full' ? `; start it with: nginx -c ${out}` : ''}\n`);
}
if (values['static-host']) {
  const dir = resolve(values['static-host']);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '_headers'), staticHostHeaders());
  writeFileSync(join(dir, '_redirects'), staticHostRedirects());
  process.stderr.write(`deploy:nginx: wrote ${join(dir, '_headers')} and ${join(dir, '_redirects')}; copy them beside the tree's index.html\n`);
}

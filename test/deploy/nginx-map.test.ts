import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nginxConfig } from '../../build-scripts/deploy/nginx-config.js';
import { apiSegments } from '../../src/contract/request-path.js';
import { Router } from '../../server/router.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { DOWNLOADS_DIR, fileForUrlPath } from '../../src/contract/api-paths.js';
import { NGINX } from './front.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/** The shim's router: what it would serve for a path. */
const router = new Router();

/**
 * The generated `$esg_file` map (what nginx serves itself), read with JavaScript's regular
 * expressions (the patterns use nothing PCRE and JavaScript read differently), checked against
 * the tree and the shim's router without starting nginx: every file of the tree is reached by its
 * URL, only files the shim serves at that URL are reachable, and every other spelling goes to the
 * shim. test/deploy/front.test.ts checks the same through a running nginx.
 */
const config = nginxConfig({ snapshotsDir: '/srv/esg/snapshots', upstreams: ['127.0.0.1:8081'], listen: '8080', runtimeDir: '/run/esg' });
const rows = [...config.matchAll(/^\s+"~(.+)" "(.+)";$/gm)]
  .filter((m) => m[1]!.startsWith('^(?:GET|HEAD) '))
  .map((m) => ({ re: new RegExp(m[1]!), file: m[2]! }));

/** The file nginx serves for a request line, or '' when the shim answers it. */
function fileFor(method: string, requestUri: string): string {
  for (const { re, file } of rows) {
    const m = re.exec(`${method} ${requestUri}`);
    if (m) return file.replace(/\$\{?(esg_\w+)\}?/g, (_s, name: string) => m.groups![name]!);
  }
  return '';
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('the nginx map', () => {
  it('has every rule the tree needs', () => {
    expect(rows.length).toBe(11);
  });

  it('reaches every file of the tree by its URL, and only files the shim serves at that URL', () => {
    const snapshot = currentSnapshotDir(demoSnapshotsDir)!;
    const tree = join(snapshot, 'tree');
    const files = walk(tree).map((f) => relative(tree, f));
    expect(files.length).toBeGreaterThan(7000);
    let api = 0;
    for (const file of files) {
      if (file.startsWith(`${DOWNLOADS_DIR}/`)) {
        // Each download is read from the folder of the snapshot its URL names, as the shim reads it.
        const id = file.split('/')[3]!;
        const url = file.endsWith('/index.html') ? `/${file.slice(0, -'index.html'.length)}` : `/${file}`;
        expect(fileFor('GET', url), url).toBe(`/${id}/tree/${file}`);
        expect(fileFor('HEAD', url), url).toBe(`/${id}/tree/${file}`);
        for (const method of ['POST', 'OPTIONS']) expect(fileFor(method, url), `${method} ${url}`).toBe('');
        // Whatever its query: the shim would ignore it, and its answer escaped nginx's caps.
        expect(fileFor('GET', `${url}?x=1`), `${url} with a query`).toBe(`/${id}/tree/${file}`);
        expect(fileFor('GET', `${url}?`), `${url} with an empty query`).toBe(`/${id}/tree/${file}`);
        continue;
      }
      if (file.startsWith('api/')) {
        api++;
        const url = `/${file.replace(/\.json$/, '')}`;
        // The shim's router gives this URL this very file: nginx exposes nothing the shim would not serve.
        const route = router.fileOf(apiSegments(url)!);
        expect(route && fileForUrlPath(route.url), url).toBe(file);
        for (const spelling of new Set([url, `/${file}`])) expect(fileFor('GET', spelling), spelling).toBe(`/current/tree/${file}`);
        expect(fileFor('HEAD', url)).toBe(`/current/tree/${file}`);
        expect(fileFor('POST', url)).toBe('');
        expect(fileFor('GET', `${url}?x=1`), `${url} with a query`).toBe('');
        continue;
      }
      const page = file.endsWith('index.html') ? `/${file.slice(0, -'index.html'.length)}` : `/${file}`;
      expect(fileFor('GET', page), page).toBe(`/current/tree/${file}`);
      expect(fileFor('GET', `${page}?utm=1`), page).toBe(`/current/tree/${file}`);
    }
    expect(api).toBeGreaterThan(5000);
    const id = snapshot.split('/').pop()!;
    expect(fileFor('GET', `/api/v1/snapshots/${id}/company/D1101/canonical`)).toBe(`/${id}/tree/api/v1/company/D1101/canonical.json`);
    expect(fileFor('GET', `/api/v1/snapshots/${id}.2/feed.atom`)).toBe(`/${id}.2/tree/api/v1/feed.atom`);
    expect(fileFor('GET', `/api/v1/snapshots/${id}`)).toBe(`/${id}/tree/api/v1/index.json`);
    expect(fileFor('GET', '/api/v1/ranking?page=7')).toBe('/current/tree/api/v1/ranking/page/7.json');
    expect(fileFor('GET', '/api/v1/changes.json?page=1')).toBe('/current/tree/api/v1/changes/page/1.json');
  });

  it('sends every other spelling to the shim, which owns its rules', () => {
    const toShim = [
      '/api/v1/company/d1101', // files are upper-case; the shim upper-cases codes
      '/api/v1/company/%44%31%31%30%31',
      '/api/v1//company/D1101',
      '/api/v1/./company/D1101',
      '/api/v1/company/../company/D1101',
      '/api/v1/company/D1101/',
      '/api/v1/openapi.json.json',
      '/api/v1/ranking?page=0',
      '/api/v1/ranking?page=02',
      '/api/v1/ranking?page=2&page=3',
      '/api/v1/ranking?limit=5',
      '/api/v1/ranking?',
      '/api/v1/usage',
      '/api/v1/downloads/2026-11-01',
      '/api/v1/downloads/2026-11-01/..%2Fsnapshot.sqlite',
      '/api/v1/downloads/2026-11-01/.build.lock',
      '/api/v1/downloads/2026-11-01/../2026-11-01/SHA256SUMS',
      '/api/v1/downloads/latest/SHA256SUMS',
      '/api/v1/downloads/2026-11-01/x/SHA256SUMS',
      '/api/v1/snapshots/current/company/D1101',
      '/api/v1/snapshots/2026-11-01/downloads/2026-11-01/SHA256SUMS',
      '/api/v1/snapshots/2026-11-01/snapshots/2026-11-01/company/D1101',
      '/api/v1/snapshots/2026-11-01/ranking?page=2',
      '/api',
      '/api?x',
      '/API/v1/company/D1101',
      '/Api/x',
      '/.hidden',
      '/company/../api/v1/',
      '/company/%44/',
      '//company/D1101/',
    ];
    // Either the map names no file, or one the tree does not have (try_files then hands the request on).
    const snapshots = demoSnapshotsDir;
    const served = (uri: string) => {
      const file = fileFor('GET', uri);
      return file !== '' && existsSync(join(snapshots, file)) && statSync(join(snapshots, file)).isFile();
    };
    for (const uri of toShim) expect(served(uri), uri).toBe(false);
    expect(fileFor('GET', '/api/v1/company/d1101')).toBe('/current/tree/api/v1/company/d1101.json'); // a miss on a case-sensitive file system
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'FOO']) expect(fileFor(method, '/api/v1/company/D1101'), method).toBe('');
  });
});

/**
 * The generated `$esg_shim_how` map (how @esg_shim passes a request on), read as nginx reads a map:
 * exact keys first, then the regexes in order, else the default.
 */
function shimHow(method: string, uri: string): string {
  const body = /map "\$request_method \$uri" \$esg_shim_how \{\n([\s\S]*?)\n\s*\}/.exec(config)![1]!;
  const entries = [...body.matchAll(/^\s+(?:"([^"]+)"|(default)) (\S+);$/gm)].map((m) => ({ key: m[1] ?? m[2]!, value: m[3]! }));
  const line = `${method} ${uri}`;
  const exact = entries.find((e) => !e.key.startsWith('~') && e.key === line);
  if (exact) return exact.value;
  const regex = entries.find((e) => e.key.startsWith('~') && new RegExp(e.key.slice(1)).test(line));
  return regex?.value ?? entries.find((e) => e.key === 'default')!.value;
}

describe('the retry policy', () => {
  it('a POST that changes something goes to @esg_shim_once; one that only reads, a GET or a HEAD, may be retried', () => {
    for (const path of ['/token', '/register', '/revoke', '/oauth/sign-in', '/oauth/consent', '/keys/ask', '/keys/manage', '/keys/link'])
      for (const prefix of path.startsWith('/keys/') ? ['', '/zh-TW'] : [''])
        expect(shimHow('POST', prefix + path), `POST ${prefix}${path}`).toBe('once');
    for (const method of ['PUT', 'DELETE', 'PATCH']) expect(shimHow(method, '/token'), method).toBe('once');
    // Unknown POSTs are not retried until listed as read-only.
    expect(shimHow('POST', '/api/v1/something-new')).toBe('once');
    for (const path of ['/api/v1/batch', '/api/v1/packs']) expect(shimHow('POST', path), path).toBe('retry');
    for (const method of ['GET', 'HEAD'])
      for (const path of ['/authorize', '/oauth/consent', '/api/v1/usage', '/.well-known/oauth-authorization-server'])
        expect(shimHow(method, path), `${method} ${path}`).toBe('retry');
    // The once location retries only what never reached a shim; the other keeps retrying read-only POSTs.
    const location = (name: string) => new RegExp(`location ${name} \\{([\\s\\S]*?)\\n\\s*\\}`).exec(config)![1]!;
    expect(location('@esg_shim_once')).toContain('proxy_next_upstream error timeout;');
    expect(location('@esg_shim_once')).not.toContain('non_idempotent');
    expect(location('@esg_shim')).toContain('proxy_next_upstream error timeout non_idempotent;');
    expect(location('@esg_shim')).toContain('if ($esg_shim_how = once) { return 421; }');
  });

  it("a preflight to OAuth's endpoints allows Authorization, as the shim's; the API's does not", () => {
    for (const path of [
      '/token',
      '/register',
      '/revoke',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
    ])
      expect(shimHow('OPTIONS', path), path).toBe('bearer-preflight');
    for (const path of ['/api/v1/batch', '/oauth/consent', '/token/x', '/.well-known/oauth-protected-resource/x'])
      expect(shimHow('OPTIONS', path), path).toBe('preflight');
    const bearer = /location @esg_preflight_bearer \{([\s\S]*?)\n\s*\}/.exec(config)![1]!;
    expect(bearer).toMatch(/add_header Access-Control-Allow-Headers "[^"]*\bAuthorization\b[^"]*" always;/);
    expect(bearer).toMatch(/add_header Access-Control-Allow-Headers "Content-Type, /);
  });
});

describe.skipIf(!NGINX)('nginx -t', () => {
  it("sends the keys page's form posts and mailed links to the shim, in every language", () => {
    for (const prefix of ['', '/zh-TW']) {
      for (const path of ['/keys/ask', '/keys/manage', '/keys/link']) expect(fileFor('POST', prefix + path), `POST ${prefix}${path}`).toBe('');
      // A mailed link is a page path to the map, but no file of the tree is there: try_files passes it to the shim.
      for (const method of ['GET', 'HEAD']) {
        const file = fileFor(method, `${prefix}/keys/link?t=${'A'.repeat(43)}`);
        expect(file === '' || !existsSync(join(demoSnapshotsDir, file)), `${method} ${prefix}/keys/link: ${file}`).toBe(true);
      }
    }
  });

  it('accepts the whole config and the include inside a stock http block', () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-nginx-t-'));
    try {
      for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, 'tmp', t), { recursive: true });
      const snapshotsDir = demoSnapshotsDir;
      const options = { snapshotsDir, upstreams: ['127.0.0.1:8081', '127.0.0.1:8082'], listen: '127.0.0.1:8080', runtimeDir: dir };
      writeFileSync(join(dir, 'full.conf'), nginxConfig(options));
      writeFileSync(join(dir, 'esg.conf'), nginxConfig({ ...options, mode: 'http' }));
      // Debian's own nginx.conf, in short: the system's types and gzip at http level, the include beside them.
      const stock = [
        `pid ${dir}/stock.pid;`,
        `error_log ${dir}/error.log;`,
        'events {}',
        'http {',
        '  types { text/html html; application/json json; }',
        '  default_type application/octet-stream;',
        '  gzip on;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/tmp/${t};`),
        `  include ${dir}/esg.conf;`,
        '}',
        '',
      ].join('\n');
      writeFileSync(join(dir, 'stock.conf'), stock);
      for (const conf of ['full.conf', 'stock.conf']) {
        const r = spawnSync(NGINX!, ['-t', '-p', dir, '-c', join(dir, conf)], { encoding: 'utf8', timeout: 20_000 });
        expect(r.status, `${conf}: ${r.stderr}`).toBe(0);
        expect(r.stderr, conf).not.toMatch(/\[warn\]|\[emerg\]/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

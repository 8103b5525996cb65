import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CSP, DOCS_PAGE_CSP, PAGE_CSP, STATIC_HEADERS } from '../../build-scripts/deploy/headers.js';
import { staticHostHeaders, staticHostRedirects } from '../../build-scripts/deploy/static-host.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { fileForPageUrl } from '../../src/site/i18n/paths.js';
import { staticCases } from '../server/cases/static-cases.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * The generated `_redirects` and `_headers`, read as the two hosts document and implement them
 * (Cloudflare Pages: workers-sdk's asset worker `rules-engine.ts` and `parseRedirects.ts`;
 * Netlify: docs.netlify.com "Redirects and rewrites", "Custom headers"): every case of the
 * project's list, in both spellings, reaches its file of the tree, a miss gets its language's 404
 * page with status 404, and every path gets exactly the shim's headers with one
 * Content-Security-Policy.
 */
let store: SnapshotStore;
let tree: string;
beforeAll(() => {
  store = SnapshotStore.open(currentSnapshotDir(demoSnapshotsDir)!);
  tree = join(store.dir, 'tree');
});
afterAll(() => store.close());

/** Cloudflare's rule pattern: `*` is a greedy splat, `:name` one segment; anchored. */
function rulePattern(from: string): RegExp {
  const escaped = from
    .split('*')
    .map((s) => s.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&'))
    .join('(?<splat>.*)');
  return new RegExp(`^${escaped.replace(/:([A-Za-z]\w*)/g, (_m, name: string) => `(?<${name}>[^/]+)`)}$`);
}
const fill = (to: string, groups: Record<string, string>) => to.replace(/:([A-Za-z]\w*)/g, (m, name: string) => groups[name] ?? m);

/** The status codes Cloudflare Pages takes in `_redirects` (workers-sdk's PERMITTED_STATUS_CODES); it skips any other line with a warning. */
const CLOUDFLARE_STATUSES = new Set([200, 301, 302, 303, 307, 308]);

interface Rule {
  from: string;
  query?: [string, string];
  to: string;
  status: number;
  /** Whether Cloudflare Pages keeps the rule (Netlify keeps every one). */
  cloudflare: boolean;
}
function parseRedirects(text: string): { rules: Rule[]; cloudflareSkips: number } {
  const rules: Rule[] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const t = line.split(/\s+/);
    if (t.length === 4) {
      const [k, v] = t[1]!.split('=') as [string, string];
      // Cloudflare: "Expected exactly 2 or 3 whitespace-separated tokens".
      rules.push({ from: t[0]!, query: [k, v], to: t[2]!, status: Number(t[3]), cloudflare: false });
    } else {
      expect(t.length, line).toBe(3);
      rules.push({ from: t[0]!, to: t[1]!, status: Number(t[2]), cloudflare: CLOUDFLARE_STATUSES.has(Number(t[2])) });
    }
  }
  return { rules, cloudflareSkips: rules.filter((r) => !r.cloudflare).length };
}

const isFile = (rel: string) => existsSync(join(tree, rel)) && statSync(join(tree, rel)).isFile();

/** The file a URL names in the tree: the file itself, or a folder URL's `index.html`. */
function existing(path: string): string | null {
  const rel = path.slice(1);
  if (isFile(rel)) return rel;
  return path.endsWith('/') && isFile(`${rel}index.html`) ? `${rel}index.html` : null;
}

/** Cloudflare's 404 page for a path: the nearest `404.html` up its folders. */
function nearest404(path: string): string {
  const folders = path.split('/').slice(1, -1);
  for (let i = folders.length; i >= 0; i--) {
    const candidate = [...folders.slice(0, i), '404.html'].join('/');
    if (isFile(candidate)) return candidate;
  }
  throw new Error(`no 404.html above ${path}`);
}

interface Served {
  file: string;
  status: number;
}

/**
 * What a host serves for a URL. Cloudflare follows the first matching rule it kept even when a file
 * exists, and answers a miss with the nearest 404.html up the path. Netlify serves an existing file
 * (or a folder's index.html) first, as no rule here is forced, matches query conditions, answers a
 * 404 rule with its page and status, and any other miss with the root 404.html.
 */
function serve(host: 'cloudflare' | 'netlify', rules: Rule[], url: string): Served {
  const [path, query = ''] = url.split('?') as [string, string?];
  const params = new URLSearchParams(query);
  const miss = (): Served => ({ file: host === 'netlify' ? '404.html' : nearest404(path), status: 404 });
  const file = existing(path);
  if (host === 'netlify' && file) return { file, status: 200 };
  for (const r of rules) {
    if (host === 'cloudflare' ? !r.cloudflare : r.query && !params.has(r.query[0])) continue;
    const m = rulePattern(r.from).exec(path);
    if (!m) continue;
    const groups = { ...m.groups };
    if (r.query) groups[r.query[1].slice(1)] = params.get(r.query[0])!;
    expect([200, 404], r.from).toContain(r.status);
    const target = fill(r.to, groups).slice(1);
    return isFile(target) ? { file: target, status: r.status } : miss();
  }
  return file ? { file, status: 200 } : miss();
}

const HOSTS = ['cloudflare', 'netlify'] as const;

describe('_redirects', () => {
  it('every case, in every spelling, reaches its file on both hosts; ?page=N on Netlify', () => {
    const { rules, cloudflareSkips } = parseRedirects(staticHostRedirects());
    // Cloudflare skips the two query rules and the Chinese 404 rule.
    expect(cloudflareSkips).toBe(3);
    // Cloudflare Pages' documented limits: 2,000 static and 100 dynamic rules, static ones first
    // (a line it skips for its status is counted first: workers-sdk's parseRedirects.ts).
    const dynamic = rules.filter((r) => !r.query && /[:*]/.test(r.from));
    expect(dynamic.length).toBeLessThanOrEqual(100);
    const firstDynamic = rules.findIndex((r) => !r.query && /[:*]/.test(r.from));
    expect(rules.slice(firstDynamic).every((r) => r.query || /[:*]/.test(r.from))).toBe(true);
    const urls = staticCases(store).flatMap((c) => [
      c.url,
      c.url.endsWith('/') ? `${c.url}index.json` : c.url.endsWith('.json') ? c.url : `${c.url}.json`,
    ]);
    urls.push('/api/v1', '/api/v1/index', '/api/v1/openapi', '/api/v1/feed.atom', '/api/v1/changes/page/1', '/api/v1/changes/page/1.json');
    for (const url of urls) {
      for (const host of HOSTS)
        expect(serve(host, rules, url), `${host} ${url}`).toEqual({ file: fileForUrlPath(url.replace(/^\/api\/v1$/, '/api/v1/')), status: 200 });
    }
    expect(serve('netlify', rules, '/api/v1/ranking?page=2')).toEqual({ file: 'api/v1/ranking/page/2.json', status: 200 });
    expect(serve('netlify', rules, '/api/v1/changes?page=1')).toEqual({ file: 'api/v1/changes/page/1.json', status: 200 });
    const id = store.meta.dataset_snapshot_id;
    for (const page of [
      '/',
      '/company/D1101/',
      '/ranking/',
      '/docs/',
      '/assets/site.css',
      '/favicon.ico',
      '/404.html',
      '/zh-TW/',
      '/zh-TW/company/D1101/',
      '/zh-TW/research/',
      `/zh-TW/downloads/${id}/`,
      '/zh-TW/docs/',
      '/zh-TW/404.html',
    ]) {
      for (const host of HOSTS) expect(serve(host, rules, page), `${host} ${page}`).toEqual({ file: fileForPageUrl(page), status: 200 });
    }
  });

  it("a miss gets its language's 404 page with status 404 on both hosts", () => {
    const { rules } = parseRedirects(staticHostRedirects());
    // Netlify's alone: Cloudflare Pages has no status 404 in `_redirects`, and finds the nearest 404.html itself.
    expect(rules.filter((r) => r.status === 404)).toEqual([{ from: '/zh-TW/*', to: '/zh-TW/404.html', status: 404, cloudflare: false }]);
    for (const host of HOSTS) {
      for (const url of ['/zh-TW/no/such/page/', '/zh-TW/company/NOPE1/', '/zh-TW/missing', '/zh-TW/ranking/page/999/']) {
        expect(serve(host, rules, url), `${host} ${url}`).toEqual({ file: fileForPageUrl('/zh-TW/404.html'), status: 404 });
      }
      for (const url of ['/no/such/page/', '/company/NOPE1/', '/missing', '/zh-TWX/']) {
        expect(serve(host, rules, url), `${host} ${url}`).toEqual({ file: fileForPageUrl('/404.html'), status: 404 });
      }
    }
  });
});

describe('_headers', () => {
  /** Cloudflare applies every matching rule in order, joining two values of one header; Netlify merges them too. */
  function headersFor(path: string): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    let pattern: RegExp | null = null;
    for (const line of staticHostHeaders().split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      if (!line.startsWith(' ')) {
        pattern = rulePattern(line);
        continue;
      }
      if (!pattern!.test(path)) continue;
      const i = line.indexOf(':');
      (out[line.slice(0, i).trim()] ??= []).push(line.slice(i + 1).trim());
    }
    return out;
  }

  it("within the hosts' limits, every path gets the shim's headers and exactly one policy, the right one", () => {
    const text = staticHostHeaders();
    expect(text.split('\n').filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith(' ')).length).toBeLessThanOrEqual(100); // Cloudflare: 100 rules
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(2000);
    const expected: [string, string][] = [
      ...staticCases(store).map((c) => [c.url, API_CSP] as [string, string]),
      ['/api/v1', API_CSP],
      ['/api/v1/feed.atom', API_CSP],
      ['/api/v1/openapi', API_CSP],
      ['/api/v1/company/D1101.json', API_CSP],
      ['/', PAGE_CSP],
      ['/company/D1101/', PAGE_CSP],
      ['/ranking/page/2/', PAGE_CSP],
      ['/etf/', PAGE_CSP],
      ['/methodology/', PAGE_CSP],
      ['/404.html', PAGE_CSP],
      ['/research/', PAGE_CSP],
      ['/downloads/', PAGE_CSP],
      [`/api/v1/downloads/${store.meta.dataset_snapshot_id}/`, PAGE_CSP],
      ['/docs/', DOCS_PAGE_CSP],
      // The Traditional Chinese pages: the same policies under /zh-TW/.
      ['/zh-TW/', PAGE_CSP],
      ['/zh-TW/company/D1101/', PAGE_CSP],
      ['/zh-TW/ranking/page/2/', PAGE_CSP],
      ['/zh-TW/etf/', PAGE_CSP],
      ['/zh-TW/methodology/', PAGE_CSP],
      ['/zh-TW/404.html', PAGE_CSP],
      ['/zh-TW/research/', PAGE_CSP],
      ['/zh-TW/downloads/', PAGE_CSP],
      [`/zh-TW/downloads/${store.meta.dataset_snapshot_id}/`, PAGE_CSP],
      ['/zh-TW/sources/', PAGE_CSP],
      ['/zh-TW/docs/', DOCS_PAGE_CSP],
      ['/assets/site.css', API_CSP],
      ['/search/index.json', API_CSP],
      ['/favicon.ico', API_CSP],
    ];
    for (const [path, csp] of expected) {
      const h = headersFor(path);
      expect(h['Content-Security-Policy'], path).toEqual([csp]);
      for (const [k, v] of Object.entries(STATIC_HEADERS)) expect(h[k], `${path} ${k}`).toEqual([v]);
    }
  });
});

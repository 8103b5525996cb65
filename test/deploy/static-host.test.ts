import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_CSP, DOCS_PAGE_CSP, PAGE_CSP, STATIC_HEADERS } from '../../build-scripts/deploy/headers.js';
import { staticHostHeaders, staticHostRedirects } from '../../build-scripts/deploy/static-host.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { fileForUrlPath } from '../../src/site/static-paths.js';
import { fileForPageUrl } from '../../src/site/paths.js';
import { staticCases } from '../server/cases/static-cases.js';

/**
 * The generated `_redirects` and `_headers`, read as the two hosts document and implement them
 * (Cloudflare Pages: workers-sdk's asset worker `rules-engine.ts` and `parseRedirects.ts`;
 * Netlify: docs.netlify.com "Redirects and rewrites", "Custom headers"): every case of the
 * project's list, in both spellings, reaches its file of the tree, and every path gets exactly
 * the shim's headers with one Content-Security-Policy.
 */
let store: SnapshotStore;
let tree: string;
beforeAll(() => {
  store = SnapshotStore.open(currentSnapshotDir(inject('demoSnapshotsDir'))!);
  tree = join(store.dir, 'tree');
});
afterAll(() => store.close());

/** Cloudflare's rule pattern: `*` is a greedy splat, `:name` one segment; anchored. */
function rulePattern(from: string): RegExp {
  const escaped = from.split('*').map((s) => s.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&')).join('(?<splat>.*)');
  return new RegExp(`^${escaped.replace(/:([A-Za-z]\w*)/g, (_m, name: string) => `(?<${name}>[^/]+)`)}$`);
}
const fill = (to: string, groups: Record<string, string>) => to.replace(/:([A-Za-z]\w*)/g, (m, name: string) => groups[name] ?? m);

interface Rule {
  from: string;
  query?: [string, string];
  to: string;
  status: number;
}
function parseRedirects(text: string): { rules: Rule[]; cloudflareSkips: number } {
  const rules: Rule[] = [];
  let cloudflareSkips = 0;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const t = line.split(/\s+/);
    if (t.length === 4) {
      const [k, v] = t[1]!.split('=') as [string, string];
      rules.push({ from: t[0]!, query: [k, v], to: t[2]!, status: Number(t[3]) });
      cloudflareSkips++; // "Expected exactly 2 or 3 whitespace-separated tokens"
    } else {
      expect(t.length, line).toBe(3);
      rules.push({ from: t[0]!, to: t[1]!, status: Number(t[2]) });
    }
  }
  return { rules, cloudflareSkips };
}

const isFile = (rel: string) => existsSync(join(tree, rel)) && statSync(join(tree, rel)).isFile();

/** The file a host serves for a URL: Cloudflare follows the first matching rule even when a file exists; Netlify serves an existing file first and matches query conditions. */
function resolve(host: 'cloudflare' | 'netlify', rules: Rule[], url: string): string | null {
  const [path, query = ''] = url.split('?') as [string, string?];
  const params = new URLSearchParams(query);
  if (host === 'netlify' && isFile(path.slice(1))) return path.slice(1);
  for (const r of rules) {
    if (r.query && (host === 'cloudflare' || !params.has(r.query[0]))) continue;
    const m = rulePattern(r.from).exec(path);
    if (!m) continue;
    const groups = { ...m.groups };
    if (r.query) groups[r.query[1].slice(1)] = params.get(r.query[0])!;
    expect(r.status).toBe(200);
    const target = fill(r.to, groups).slice(1);
    return isFile(target) ? target : null;
  }
  if (isFile(path.slice(1))) return path.slice(1);
  return path.endsWith('/') && isFile(`${path.slice(1)}index.html`) ? `${path.slice(1)}index.html` : null;
}

describe('_redirects', () => {
  it('every case, in every spelling, reaches its file on both hosts; ?page=N on Netlify', () => {
    const { rules, cloudflareSkips } = parseRedirects(staticHostRedirects());
    expect(cloudflareSkips).toBe(2);
    // Cloudflare Pages' documented limits: 2,000 static and 100 dynamic rules, static ones first.
    const dynamic = rules.filter((r) => !r.query && /[:*]/.test(r.from));
    expect(dynamic.length).toBeLessThanOrEqual(100);
    const firstDynamic = rules.findIndex((r) => !r.query && /[:*]/.test(r.from));
    expect(rules.slice(firstDynamic).every((r) => r.query || /[:*]/.test(r.from))).toBe(true);
    const urls = staticCases(store).flatMap((c) => [c.url, c.url.endsWith('/') ? `${c.url}index.json` : c.url.endsWith('.json') ? c.url : `${c.url}.json`]);
    urls.push('/api/v1', '/api/v1/index', '/api/v1/openapi', '/api/v1/feed.atom', '/api/v1/changes/page/1', '/api/v1/changes/page/1.json');
    for (const url of urls) {
      for (const host of ['cloudflare', 'netlify'] as const) expect(resolve(host, rules, url), `${host} ${url}`).toBe(fileForUrlPath(url.replace(/^\/api\/v1$/, '/api/v1/')));
    }
    expect(resolve('netlify', rules, '/api/v1/ranking?page=2')).toBe('api/v1/ranking/page/2.json');
    expect(resolve('netlify', rules, '/api/v1/changes?page=1')).toBe('api/v1/changes/page/1.json');
    for (const page of ['/', '/company/D1101/', '/ranking/', '/docs/', '/assets/site.css', '/favicon.ico', '/zh-TW/', '/zh-TW/company/D1101/', '/zh-TW/docs/', '/zh-TW/404.html']) {
      for (const host of ['cloudflare', 'netlify'] as const) expect(resolve(host, rules, page), `${host} ${page}`).toBe(fileForPageUrl(page));
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

  it('within the hosts\' limits, every path gets the shim\'s headers and exactly one policy, the right one', () => {
    const text = staticHostHeaders();
    expect(text.split('\n').filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith(' ')).length).toBeLessThanOrEqual(100); // Cloudflare: 100 rules
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(2000);
    const expected: [string, string][] = [
      ...staticCases(store).map((c) => [c.url, API_CSP] as [string, string]),
      ['/api/v1', API_CSP], ['/api/v1/feed.atom', API_CSP], ['/api/v1/openapi', API_CSP], ['/api/v1/company/D1101.json', API_CSP],
      ['/', PAGE_CSP], ['/company/D1101/', PAGE_CSP], ['/ranking/page/2/', PAGE_CSP], ['/etf/', PAGE_CSP], ['/methodology/', PAGE_CSP], ['/404.html', PAGE_CSP],
      ['/research/', PAGE_CSP], ['/downloads/', PAGE_CSP], [`/api/v1/downloads/${store.meta.dataset_snapshot_id}/`, PAGE_CSP],
      ['/docs/', DOCS_PAGE_CSP],
      // The Traditional Chinese pages (issue 26): the same policies under /zh-TW/.
      ['/zh-TW/', PAGE_CSP], ['/zh-TW/company/D1101/', PAGE_CSP], ['/zh-TW/ranking/page/2/', PAGE_CSP], ['/zh-TW/etf/', PAGE_CSP], ['/zh-TW/methodology/', PAGE_CSP],
      ['/zh-TW/404.html', PAGE_CSP], ['/zh-TW/research/', PAGE_CSP], ['/zh-TW/downloads/', PAGE_CSP], [`/zh-TW/downloads/${store.meta.dataset_snapshot_id}/`, PAGE_CSP],
      ['/zh-TW/sources/', PAGE_CSP], ['/zh-TW/docs/', DOCS_PAGE_CSP],
      ['/assets/site.css', API_CSP], ['/search/index.json', API_CSP], ['/favicon.ico', API_CSP],
    ];
    for (const [path, csp] of expected) {
      const h = headersFor(path);
      expect(h['Content-Security-Policy'], path).toEqual([csp]);
      for (const [k, v] of Object.entries(STATIC_HEADERS)) expect(h[k], `${path} ${k}`).toEqual([v]);
    }
  });
});

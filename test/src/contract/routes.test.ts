import { describe, expect, it } from 'vitest';
import { apiSegments } from '../../../src/contract/request-path.js';
import { canonicalUrls, operation, readParams, RouteMatcher, ROUTES, urlOf } from '../../../src/contract/routes.js';
import { urls } from '../../../src/contract/urls.js';

const matcher = new RouteMatcher();
const files = ROUTES.filter((op) => op.method === 'GET' && op.file);
const canonical = canonicalUrls(files);

describe('the route table', () => {
  it('matches each operation’s own URL to it, with its parameters read', () => {
    const values = { ticker: 'D1101', code: '00850', page: '3', id: '2026-11-01', file: 'SHA256SUMS', path: 'company/D1101' };
    for (const op of listedRoutes()) {
      const url = urlOf(op, values);
      const match = matcher.match(apiSegments(url)!);
      expect(match?.ops, url).toContain(op);
      expect(readParams(match!)).toMatchObject(Object.fromEntries(Object.entries(values).filter(([k]) => op.path.includes(`{${k}}`))));
    }
  });

  it('makes every operation’s URL from its path: a string when it has no parameter, else a function of them in order', () => {
    const all = urls as unknown as Record<string, string | ((...v: string[]) => string)>;
    expect(Object.keys(all)).toEqual(ROUTES.map((op) => op.id));
    for (const op of ROUTES) {
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const url = all[op.id]!;
      if (names.length === 0) expect(url, op.id).toBe(urlOf(op));
      else
        expect((url as (...v: string[]) => string)(...names.map((n) => `<${n}>`)), op.id).toBe(
          urlOf(op, Object.fromEntries(names.map((n) => [n, `<${n}>`]))),
        );
    }
    expect(urls.company('D1101')).toBe('/api/v1/company/D1101');
    expect(urls.pinned('2026-11-01', 'company/D1101')).toBe('/api/v1/snapshots/2026-11-01/company/D1101');
    expect(urls.index).toBe('/api/v1/');
  });

  it('reads a lower-case code upper-cased and refuses a malformed one', () => {
    expect(readParams(matcher.match(['company', 'd1101'])!)).toEqual({ ticker: 'D1101' });
    expect(() => readParams(matcher.match(['company', 'D-1'])!)).toThrow(/Malformed ticker/);
    expect(() => readParams(matcher.match(['ranking', 'page', '0'])!)).toThrow(/Malformed page/);
  });

  it('has no path for a bare word that names no operation', () => {
    expect(matcher.match(['company'])).toBeNull();
    expect(matcher.match(['sources'])).toBeNull();
    expect(matcher.match(['company', 'D1101', 'other'])).toBeNull();
  });

  it('knows the canonical spelling of each static file, and nothing else, for the fast path', () => {
    expect(canonical('/api/v1/company/D1101')).toBe(operation('company'));
    expect(canonical('/api/v1/company/D1101/canonical')).toBe(operation('canonical'));
    expect(canonical('/api/v1/ranking/page/12')).toBe(operation('rankingPage'));
    expect(canonical('/api/v1/feed.atom')).toBe(operation('feed'));
    for (const other of [
      '/api/v1/company/d1101',
      '/api/v1/company/D1101.json',
      '/api/v1/company/D1101?x=1',
      '/api/v1/company/D%31101',
      '/api/v1/ranking/page/012',
      '/api/v1/company/D1101/',
    ]) {
      expect(canonical(other), other).toBeNull();
    }
  });
});

function listedRoutes() {
  return ROUTES.filter((op) => op.listed !== false);
}

import { describe, expect, it } from 'vitest';
import { useDynamicServer, api, qs, expectBadParam } from './harness.js';

useDynamicServer();

describe('every 400 message names the offending parameter', () => {
  it('on every query endpoint', async () => {
    const cases: [string, string][] = [
      ['/company/D1101/canonical?fields=nope', 'fields'],
      ['/company/D1101/canonical?fields=', 'fields'],
      ['/company/D1101/canonical?zzz=1', 'zzz'],
      ['/company/D1101/canonical?fields=flags&fields=flags', 'fields'],
      ['/ranking?limit=0', 'limit'],
      ['/ranking?limit=201', 'limit'],
      ['/ranking?page=0', 'page'],
      ['/ranking?sort=best', 'sort'],
      ['/ranking?industry=', 'industry'],
      ['/ranking?assurance_level=full', 'assurance_level'],
      ['/ranking?market_type=nyse', 'market_type'],
      ['/ranking?gf=XX-1', 'gf'],
      [`/ranking?q=${'x'.repeat(101)}`, 'q'],
      ['/ranking?mode=wide', 'mode'],
      ['/ranking?format=xml', 'format'],
      ['/ranking?foo=bar', 'foo'],
      ['/ranking?mode=full&mode=full', 'mode'],
      ['/compare?tickers=D1101', 'tickers'],
      ['/compare', 'tickers'],
      ['/compare?tickers=D1101,D1102&fields=x', 'fields'],
      ['/compare?tickers=D1101,D1102&bar=1', 'bar'],
      ['/sources/registry?gov_only=yes', 'gov_only'],
      ['/sources/registry?owner_org=', 'owner_org'],
      ['/sources/registry?org=TWSE', 'org'],
      ['/?x=1', 'x'],
      ['/company/D1101?fields=flags', 'fields'],
      ['/methodology?v=1', 'v'],
      ['/etf?page=2', 'page'],
    ];
    for (const [url, param] of cases) {
      const res = await api(url);
      expect(res.status, url).toBe(400);
      expectBadParam(res, param);
    }
  });

  it('on /compare, a malformed code inside tickers', async () => {
    for (const tickers of ['D1101,D-1102', 'D1101,']) {
      expectBadParam(await api(`/compare?${qs({ tickers })}`), 'tickers');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, raw } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * One rule for every path (docs/api-decisions.md, "Paths"): fixed words are lower-case and case-sensitive, codes are
 * case-insensitive, each segment is percent-decoded once after splitting, empty segments stay where
 * they are, and integers in a path follow the query's rule.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(demoSnapshotsDir);
});
afterAll(() => server.close());
const get = (path: string) => raw(server.base, path);

describe('paths', () => {
  it('an empty code is a 400 and never shifts the segments after it', async () => {
    for (const path of ['/api/v1/company//canonical', '/api/v1/company/', '/api/v1/etf/', '/api/v1/company//canonical.json']) {
      const body = expectEnvelope(await get(path), 400, 'BAD_REQUEST');
      expect(body.error.message, path).toMatch(/Empty (ticker|fund code)/);
      expect(body.error.message, path).not.toContain('CANONICAL');
    }
  });

  it('percent-encoded letters in a path are decoded once, then validated', async () => {
    const plain = await get('/api/v1/company/D1101');
    for (const path of ['/api/v1/company/%44%31%31%30%31', '/api/v1/company/%64%31%31%30%31', '/api/v1/company/D11%301']) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.text, path).toBe(plain.text);
    }
    expect((await get('/api/v1/company/%44%31%31%30%31/canonical')).text).toBe((await get('/api/v1/company/D1101/canonical')).text);
    // Decoded once: %2544 is the three characters "%44", not "D".
    expectEnvelope(await get('/api/v1/company/%2544%31%31%30%31'), 400, 'BAD_REQUEST');
    // An encoded slash stays inside its segment.
    expectEnvelope(await get('/api/v1/company/D1101%2Fcanonical'), 400, 'BAD_REQUEST');
    expectEnvelope(await get('/api/v1/company/%E0%A4%A'), 400, 'BAD_REQUEST');
  });

  it('fixed path words are case-sensitive everywhere; codes are not', async () => {
    for (const path of [
      '/API/V1/company/D1101',
      '/api/v1/COMPANY/D1101',
      '/Api/v1/company/D1101',
      '/api/v1/company/D1101/CANONICAL',
      '/api/v1/Ranking',
    ]) {
      expectEnvelope(await get(path), 404, 'NOT_FOUND');
    }
    expect((await get('/api/v1/company/d1101')).status).toBe(200);
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/HEALTHZ')).status).toBe(404);
  });

  it('integers in a path follow the query rule: plain decimal digits, leading zeros allowed', async () => {
    const page2 = await get('/api/v1/ranking/page/2');
    expect(page2.status).toBe(200);
    for (const path of ['/api/v1/ranking/page/02', '/api/v1/ranking/page/002.json', '/api/v1/ranking?page=02', '/api/v1/ranking?page=2']) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.text, path).toBe(page2.text);
    }
    for (const path of ['/api/v1/ranking/page/0', '/api/v1/ranking/page/-1', '/api/v1/ranking/page/1.5', '/api/v1/ranking/page/%31%2E5']) {
      expectEnvelope(await get(path), 400, 'BAD_REQUEST');
    }
  });

  it('a query string that is not valid percent-encoded UTF-8 is a 400, not an empty answer', async () => {
    for (const query of ['q=%FF', 'q=%zz', 'q=%E6%B0', 'industry=%C0%AF', '%FF=1']) {
      const body = expectEnvelope(await get(`/api/v1/ranking?${query}`), 400, 'BAD_REQUEST');
      expect(body.error.message, query).toMatch(/percent-encoded UTF-8/);
    }
    expect((await get('/api/v1/ranking?q=%E6%B0%B4')).status).toBe(200);
  });
});

import { describe, expect, it } from 'vitest';
import { batchResponseSchema } from '../../../src/contract/batch.js';
import { useDynamicServer, API, ENVELOPE, server, companies, type Res, api, expectError, expectBadParam, expectSuccessEnvelope } from './harness.js';

useDynamicServer();

describe('POST /batch', () => {
  const post = (body: string | Uint8Array<ArrayBuffer>, contentType: string | null = 'application/json', path = '/batch') =>
    api(path, { method: 'POST', body, headers: contentType === null ? {} : { 'Content-Type': contentType } });
  const postJson = (value: unknown) => post(JSON.stringify(value));

  function expectBatchOk(res: Res): void {
    expectSuccessEnvelope(res);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    expect(Object.keys(res.body).sort()).toEqual([...ENVELOPE, 'data', 'meta'].sort());
  }

  it('the spliced body is byte for byte JSON.stringify of the schema-valid BatchResponse', async () => {
    const tickers = [companies[0]!.ticker, 'nope-1', 'Z9', companies[3]!.ticker.toLowerCase(), companies[0]!.ticker];
    const first = await postJson({ tickers });
    const again = await postJson({ tickers }); // second time from cached fragments
    const parsed = batchResponseSchema.parse(first.body);
    expect(first.text).toBe(JSON.stringify(parsed));
    expect(again.text).toBe(first.text);
  });

  it('one code: the company summary', async () => {
    const res = await postJson({ tickers: ['d1101'] });
    expectBatchOk(res);
    const company = (await api('/company/D1101')).body.company;
    expect(res.body.data).toEqual([{ ticker: 'D1101', ok: true, company }]);
    expect(res.body.meta).toEqual({ requested: 1, found: 1, not_found: 0 });
  });

  it('100 codes, in request order', async () => {
    const tickers = companies
      .slice(0, 100)
      .map((c) => c.ticker)
      .reverse();
    const res = await postJson({ tickers });
    expectBatchOk(res);
    expect(res.body.data.map((d: any) => d.ticker)).toEqual(tickers);
    expect(res.body.data.every((d: any) => d.ok === true)).toBe(true);
    expect(res.body.meta).toEqual({ requested: 100, found: 100, not_found: 0 });
    for (const d of res.body.data.slice(0, 5)) expect(d.company).toEqual((await api(`/company/${d.ticker}`)).body.company);
  });

  it('removes duplicates case-insensitively, keeping first-occurrence order', async () => {
    const res = await postJson({ tickers: ['D1102', 'd1101', 'D1101', 'd1102', 'D1102'] });
    expectBatchOk(res);
    expect(res.body.data.map((d: any) => d.ticker)).toEqual(['D1102', 'D1101']);
    expect(res.body.meta).toEqual({ requested: 2, found: 2, not_found: 0 });
    // 150 items that are 100 distinct codes are fine.
    const hundred = companies.slice(0, 100).map((c) => c.ticker);
    const many = await postJson({ tickers: [...hundred, ...hundred.slice(0, 50).map((t) => t.toLowerCase())] });
    expectBatchOk(many);
    expect(many.body.meta.requested).toBe(100);
  });

  it('reports unknown (NOT_FOUND) and malformed (BAD_REQUEST) codes as items; still 200', async () => {
    const res = await postJson({ tickers: ['D1101', 'd9999', 'D-1', 'D1102', 'ABCDEFGHIJKLM', ''] });
    expectBatchOk(res);
    const [a, b, c, d, e, f] = res.body.data;
    expect(res.body.data).toHaveLength(6);
    expect(a).toMatchObject({ ticker: 'D1101', ok: true });
    expect(b).toEqual({ ticker: 'D9999', ok: false, error: { code: 'NOT_FOUND', message: expect.stringContaining('D9999') } });
    expect(c).toEqual({ ticker: 'D-1', ok: false, error: { code: 'BAD_REQUEST', message: expect.any(String) } });
    expect(d).toMatchObject({ ticker: 'D1102', ok: true });
    expect(e).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(f).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(res.body.meta).toEqual({ requested: 6, found: 2, not_found: 4 });
    const none = await postJson({ tickers: ['zz1', 'ZZ2'] });
    expectBatchOk(none);
    expect(none.body.meta).toEqual({ requested: 2, found: 0, not_found: 2 });
  });

  it('400 for 101 distinct codes, an empty list, missing tickers, extra keys, non-string items', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `X${i}`);
    for (const body of [
      { tickers: many },
      { tickers: [] },
      {},
      { ticker: ['D1101'] },
      { tickers: ['D1101'], fields: 'flags' },
      { tickers: [1] },
      { tickers: ['D1101', null] },
      { tickers: [['D1101']] },
      { tickers: [{ ticker: 'D1101' }] },
      { tickers: 'D1101' },
      { tickers: null },
      { tickers: { 0: 'D1101' } },
    ]) {
      expectError(await postJson(body), 400, 'BAD_REQUEST');
    }
  });

  it('400 for a body that is not an object, or not JSON', async () => {
    for (const raw of [
      '["D1101"]',
      '"D1101"',
      '42',
      'null',
      'true',
      '{"tickers": [',
      '{tickers: ["D1101"]}',
      "{'tickers': ['D1101']}",
      'tickers=D1101',
      '\u0000',
      '{"tickers":["D1101"]} x',
    ]) {
      expectError(await post(raw), 400, 'BAD_REQUEST');
    }
  });

  it('400 for a wrong or missing Content-Type', async () => {
    const body = JSON.stringify({ tickers: ['D1101'] });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'text/json']) {
      expectError(await post(body, type), 400, 'BAD_REQUEST', 'Content-Type');
    }
    expectError(await post(new TextEncoder().encode(body), null), 400, 'BAD_REQUEST', 'Content-Type');
    // Parameters on the right type are fine.
    expectBatchOk(await post(body, 'application/json; charset=utf-8'));
    expectBatchOk(await post(body, 'Application/JSON'));
  });

  it('413 for a body over 64 KiB', async () => {
    const big = JSON.stringify({ tickers: ['D1101', 'x'.repeat(70 * 1024)] });
    expectError(await post(big), 413, 'PAYLOAD_TOO_LARGE');
    const padded = `{"tickers": ["D1101"]${' '.repeat(65 * 1024)}}`;
    expectError(await post(padded), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('405 with Allow for GET, HEAD, PUT and DELETE', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await api('/batch', { method });
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toContain('POST');
      expect(res.headers.get('allow')).not.toContain('GET');
    }
    const head = await fetch(`${server.base}${API}/batch`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toContain('POST');
  });

  it('400 for any query parameter (the endpoint lists none)', async () => {
    const res = await post(JSON.stringify({ tickers: ['D1101'] }), 'application/json', '/batch?mode=full');
    expectBadParam(res, 'mode');
  });
});

import { request, type IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/common.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * Property-based fuzzing of the shim's computed endpoints with random and hostile query strings and
 * bodies, sent byte for byte (node:http, no client-side normalisation). Whatever arrives, the shim
 * must never answer 5xx, every error must be the contract's envelope with the response's request id,
 * and every 200 must be JSON (or CSV when asked for).
 */
const NUM_RUNS = 150;
const TIME_LIMIT_MS = 20_000;
const TEST_TIMEOUT_MS = 45_000;
const JSON_TYPE = 'application/json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: RunningServer;
let host: string;
let port: number;

beforeAll(async () => {
  server = await startServer(demoSnapshotsDir);
  const url = new URL(server.base);
  host = url.hostname;
  port = Number(url.port);
});
afterAll(async () => {
  await server?.close();
});

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Sends exactly this request line and body. `path` must be printable ASCII (the generators ensure it). */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string | Uint8Array): Promise<RawResponse> {
  // Frame any body with Content-Length: Node sends a GET or DELETE body unframed otherwise, and the
  // server would read it as the start of the next request on the kept-alive connection.
  const framed = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = request({ host, port, method, path, headers: framed }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Checks the invariants every response must keep. */
function checkResponse(r: RawResponse, what: string, o: { csvAllowed?: boolean } = {}): void {
  const ctx = `${what} → ${r.status} ${r.text.slice(0, 300)}`;
  expect(r.status, ctx).toBeLessThan(500);
  const requestId = r.headers['x-request-id'];
  expect(requestId, ctx).toMatch(UUID);
  expect(r.headers['access-control-allow-origin'], ctx).toBe('*');
  if (r.status === 200) {
    if (r.headers['content-type'] === CSV_TYPE) {
      expect(o.csvAllowed, ctx).toBe(true);
      expect(r.text.split('\n')[0], ctx).toMatch(/^\uFEFFticker,company_name,/);
      return;
    }
    expect(r.headers['content-type'], ctx).toBe(JSON_TYPE);
    let body: any;
    expect(() => (body = JSON.parse(r.text)), ctx).not.toThrow();
    expect(body.ok, ctx).toBe(true);
    return;
  }
  expect(r.headers['content-type'], ctx).toBe(JSON_TYPE);
  expect(r.headers['cache-control'], ctx).toBe('no-store');
  let body: any;
  expect(() => (body = JSON.parse(r.text)), ctx).not.toThrow();
  const parsed = errorBodySchema.safeParse(body);
  expect(parsed.success, `${ctx} ${parsed.success ? '' : parsed.error.message}`).toBe(true);
  expect(body.error.request_id, ctx).toBe(requestId);
}

// ---------------------------------------------------------------------------------------------
// Generators. Everything that ends up in a request line is printable ASCII: characters outside
// 0x21–0x7E are percent-encoded byte by byte (UTF-8, lone surrogates as U+FFFD), so arbitrary
// Unicode and control characters reach the server encoded, while raw `%`, `&`, `=`, `#`, `+`,
// quotes and brackets reach it as they are.

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes every byte of the UTF-8 form except unreserved characters. */
function pctEncode(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Leaves printable ASCII as is (raw, hostile) and encodes the rest. */
function rawAscii(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c >= 0x21 && c <= 0x7e ? ch : pctEncode(ch);
  }
  return out;
}

/** Pieces sent as they are: broken encodings, traversal, SQL and FTS syntax, separators. */
const HOSTILE_RAW = [
  '%E0%A4%A',
  '%E0%A4',
  '%',
  '%%',
  '%%%',
  '%zz',
  '%1',
  '%G0',
  '%00',
  '%0A',
  '%0D%0A',
  '%09',
  '%7F',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '%EF%BB%BF',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '%F4%90%80%80',
  '../',
  '..%2F..%2Fetc%2Fpasswd',
  '....//',
  '%2e%2e%2f',
  "'%20OR%201=1%20--",
  "'OR'1'='1",
  '1;DROP%20TABLE%20companies;--',
  '%22a%22%20OR%20b*',
  '"a"OR(b*)',
  'NEAR(a%20b)',
  'NEAR(',
  'a%20AND%20b',
  'NOT%20x',
  '^abc',
  '{col}:x',
  'search_text:a',
  '*',
  '"',
  "'",
  '""',
  "''",
  '\\',
  '\\"',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '<script>',
  '&',
  '&&',
  '=',
  '==',
  '#',
  '#frag',
  '+',
  '++',
  '%2B',
  '%26',
  '%3D',
  '%23',
  '%3F',
  '?',
  '??',
  ';',
  ',',
  ',,',
  '|',
  '`',
  '$',
  '@',
  '!',
  '~',
  '%u0041',
  '&#x41;',
  '\\u0000',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
];

const hostileRaw = fc.constantFrom(...HOSTILE_RAW);
/** Arbitrary Unicode (any code point, including controls and lone surrogates), encoded. */
const unicodeEncoded = fc.string({ unit: 'binary', maxLength: 24 }).map(pctEncode);
/** Arbitrary printable-ASCII text sent raw (`&`, `=`, `%`, `#` included). */
const asciiRaw = fc.string({ unit: 'binary-ascii', maxLength: 24 }).map(rawAscii);
/** CJK, full-width and combining text (NFC/NFD forms), encoded. */
const cjkEncoded = fc
  .constantFrom(
    '半導體業',
    '水泥工業',
    '示範',
    '虛構',
    '晶',
    '股份有限公司',
    'Ｄ１１０１',
    'D\u0301',
    'e\u0301',
    '\u00e9',
    '\u200b',
    '\ufeff',
    '\u202e',
    '\u0000',
    '\r\n',
    '\t',
    ' ',
  )
  .chain((base) => fc.nat({ max: 3 }).map((n) => pctEncode(base.repeat(n + 1))));
const longValue = fc
  .tuple(fc.constantFrom('a', '示', '%', 'D1101,', '%E7%A4%BA', '%20', 'GF-'), fc.integer({ min: 20, max: 700 }))
  .map(([s, n]) => rawAscii(s.repeat(n)));

/** A value: a valid one for the key half of the time (so requests get past validation), else hostile. */
function valueFor(valid: readonly string[]): fc.Arbitrary<string> {
  const validValue = valid.length ? fc.constantFrom(...valid).map(pctEncode) : fc.constant('');
  const piece = fc.oneof(
    { weight: 3, arbitrary: validValue },
    { weight: 3, arbitrary: hostileRaw },
    { weight: 2, arbitrary: unicodeEncoded },
    { weight: 2, arbitrary: asciiRaw },
    { weight: 2, arbitrary: cjkEncoded },
    { weight: 1, arbitrary: longValue },
    { weight: 1, arbitrary: fc.constant('') },
  );
  return fc.oneof(
    { weight: 5, arbitrary: validValue },
    { weight: 5, arbitrary: fc.array(piece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')) },
  );
}

const JUNK_KEYS = [
  '',
  'foo',
  'LIMIT',
  ' limit',
  'limit ',
  'limit[]',
  'q[0]',
  '__proto__',
  'constructor',
  'callback',
  'api_key',
  'fields%00',
  '%00',
  '%E0%A4%A',
  'tickers%5B%5D',
  'Q',
  'page%20',
  'format.csv',
];

/** A query string built from keys of the endpoint (often repeated) and junk, with odd separators. */
function queryFor(spec: Record<string, readonly string[]>): fc.Arbitrary<string> {
  const validKeys = Object.keys(spec);
  const validValues = (key: string): readonly string[] => (Object.hasOwn(spec, key) ? spec[key]! : []);
  const key = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...validKeys) },
    { weight: 1, arbitrary: fc.constantFrom(...JUNK_KEYS).map(rawAscii) },
    { weight: 1, arbitrary: unicodeEncoded },
    { weight: 1, arbitrary: asciiRaw },
  );
  const pair = key.chain((k) =>
    fc.oneof(
      { weight: 10, arbitrary: valueFor(validValues(k)).map((v) => ({ k, text: `${k}=${v}` })) },
      { weight: 1, arbitrary: fc.constant({ k, text: k }) },
      { weight: 1, arbitrary: valueFor(validValues(k)).map((v) => ({ k, text: `${k}=${v}=${v}` })) },
    ),
  );
  // Mostly distinct keys (requests that can pass validation), sometimes a repeated one.
  const pairs = fc.oneof(
    { weight: 4, arbitrary: fc.uniqueArray(pair, { maxLength: 6, selector: (p) => p.k }) },
    { weight: 1, arbitrary: fc.array(pair, { maxLength: 6 }) },
  );
  return fc
    .tuple(pairs, fc.constantFrom('&', '&', '&', '&', '&&', ';', '&amp;'), fc.boolean(), fc.nat({ max: 4 }))
    .map(([ps, sep, leadingAmp, dup]) => {
      const texts = ps.map((p) => p.text);
      const all = dup === 0 && texts.length > 0 ? [...texts, texts[0]!] : texts;
      return (leadingAmp ? '&' : '') + all.join(sep);
    });
}

const TICKERS = ['D1101', 'd1102', 'D1595', 'D2900', 'D1143', 'D9999', 'ZZ1', 'x', 'D-1101', 'ABCDEFGHIJKLM', '', ' D1101 ', '示範', 'D1101.json'];
const SECTIONS = ['penalties', 'carbon', 'carbon_disclosure', 'carbon_fee', 'assurance', 'flags', 'FLAGS', ' Carbon ', 'nope', ''];

const sectionList = fc.array(fc.constantFrom(...SECTIONS), { minLength: 0, maxLength: 7 }).map((xs) => xs.join(','));
const tickerList = fc.array(fc.constantFrom(...TICKERS), { minLength: 0, maxLength: 8 }).map((xs) => xs.join(','));

/** Runs a property with the suite's bounds; `examples` are always tried first. */
async function assertEndpoint<Ts extends [unknown, ...unknown[]]>(prop: fc.IAsyncPropertyWithHooks<Ts>, examples: Ts[] = []): Promise<void> {
  await fc.assert(prop, { numRuns: NUM_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false, examples });
}

/** Keeps a generated path within what Node's HTTP parser takes (16 KiB of headers). */
const MAX_PATH = 7000;
const clip = (path: string) => (path.length > MAX_PATH ? path.slice(0, MAX_PATH) : path);

describe('fuzz: never 5xx, every error is the envelope', () => {
  it('GET /company/{ticker}/canonical?fields=…', { timeout: TEST_TIMEOUT_MS }, async () => {
    const spec = { fields: [...SECTIONS, 'penalties,carbon,carbon_fee,assurance,flags'] };
    const ticker = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...TICKERS).map(pctEncode) },
      { weight: 1, arbitrary: hostileRaw },
      { weight: 1, arbitrary: asciiRaw.filter((s) => !s.includes('/') && !s.includes('?') && !s.includes('#')) },
    );
    const query = fc.oneof(
      queryFor(spec),
      sectionList.map((s) => `fields=${pctEncode(s)}`),
    );
    await assertEndpoint(
      fc.asyncProperty(ticker, fc.constantFrom('canonical', 'canonical.json'), query, async (t, leaf, q) => {
        const path = clip(`/api/v1/company/${t}/${leaf}?${q}`);
        checkResponse(await send('GET', path), `GET ${path}`);
      }),
    );
  });

  it('GET /ranking?…', { timeout: TEST_TIMEOUT_MS }, async () => {
    const spec: Record<string, readonly string[]> = {
      limit: ['1', '50', '200', '0', '201', '-1', '1.5', ' 5', '007'],
      page: ['1', '2', '9', '36', '999999999', '0', '1e3'],
      sort: ['score_desc', 'score_asc', 'SCORE_DESC'],
      industry: ['半導體業', '水泥工業', '鋼鐵工業', 'nope'],
      assurance_level: ['none', 'limited', 'reasonable', 'full'],
      market_type: ['listed', 'otc', 'TWSE'],
      gf: ['GF-P01', 'gf-p01', 'GF-ZZ9', 'GF-', 'XX-1', 'GF-D02'],
      q: ['d1', 'D110', '示範', '晶', '股份有限', '"a" OR b*', 'NEAR(a b)', "' OR 1=1 --", 'a*', '(', '"', 'D1101 OR D1102', '^D1', 'search_text:D1'],
      mode: ['compact', 'full'],
      format: ['json', 'csv', 'csv', 'xml'],
    };
    await assertEndpoint(
      fc.asyncProperty(queryFor(spec), fc.constantFrom('/api/v1/ranking', '/api/v1/ranking.json'), async (q, base) => {
        const path = clip(`${base}?${q}`);
        checkResponse(await send('GET', path), `GET ${path}`, { csvAllowed: true });
      }),
      // Hand-picked hostile searches, always tried: FTS syntax, SQL, quotes, long and broken input.
      [
        'q=%22a%22%20OR%20b*',
        'q=NEAR(a%20b)',
        "q='%20OR%201=1%20--",
        'q=D110',
        'q=%E8%82%A1%E4%BB%BD%E6%9C%89%E9%99%90',
        'q=%E0%A4%A',
        'q=a%22b',
        `q=${'x'.repeat(100)}`,
        'q=*&format=csv',
        'q=(((&mode=full',
      ].map((q) => [q, '/api/v1/ranking'] as [string, string]),
    );
  });

  it('GET /compare?tickers=…&fields=…', { timeout: TEST_TIMEOUT_MS }, async () => {
    const spec: Record<string, readonly string[]> = {
      tickers: [
        'D1101,D1102',
        'D1101,d1101,D1102',
        'D1101,D1102,D1103,D1104,D1105',
        'D1101',
        'D1101,D9999,ZZ1',
        'D1101,D-1',
        'D1101,,D1102',
        'D1101,D1102,D1103,D1104,D1105,D1106',
      ],
      fields: SECTIONS,
    };
    const query = fc.oneof(
      queryFor(spec),
      fc.tuple(tickerList, fc.option(sectionList)).map(([t, f]) => `tickers=${pctEncode(t)}${f === null ? '' : `&fields=${pctEncode(f)}`}`),
    );
    await assertEndpoint(
      fc.asyncProperty(query, async (q) => {
        const path = clip(`/api/v1/compare?${q}`);
        checkResponse(await send('GET', path), `GET ${path}`);
      }),
    );
  });

  it('GET /sources/registry?gov_only=…&owner_org=…', { timeout: TEST_TIMEOUT_MS }, async () => {
    const spec: Record<string, readonly string[]> = {
      gov_only: ['true', 'false', 'yes', 'TRUE', '1'],
      owner_org: ['MOENV', 'moenv', 'TWSE', 'tpex', 'MOPS', 'FSC', 'nope'],
    };
    await assertEndpoint(
      fc.asyncProperty(queryFor(spec), async (q) => {
        const path = clip(`/api/v1/sources/registry?${q}`);
        checkResponse(await send('GET', path), `GET ${path}`);
      }),
    );
  });

  it('POST /batch with random JSON and non-JSON bodies', { timeout: TEST_TIMEOUT_MS }, async () => {
    const tickerItem = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...TICKERS) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    );
    const tickersBody = fc
      .tuple(
        fc.array(tickerItem, { minLength: 0, maxLength: 110 }),
        fc.option(
          fc.dictionary(fc.constantFrom('fields', 'ticker', '__proto__', 'constructor', 'Tickers', ''), fc.jsonValue({ maxDepth: 1 }), {
            maxKeys: 2,
          }),
        ),
      )
      .map(([tickers, extra]) => JSON.stringify({ tickers, ...(extra ?? {}) }));
    const manyDistinct = fc
      .integer({ min: 95, max: 105 })
      .map((n) => JSON.stringify({ tickers: Array.from({ length: n }, (_, i) => `D${1101 + i}`) }));
    const body = fc.oneof(
      { weight: 5, arbitrary: tickersBody },
      { weight: 1, arbitrary: manyDistinct },
      { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 80 }) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '',
          '{',
          '{"tickers": [',
          '{"tickers":["D1101"]}junk',
          '{"tickers":["D1101"],"tickers":["D1102"]}',
          '{"__proto__":{"tickers":["D1101"]}}',
          '{"tickers":{"length":1,"0":"D1101"}}',
          `{"tickers":["${'x'.repeat(70 * 1024)}"]}`,
          `${'['.repeat(20000)}${']'.repeat(20000)}`,
          '{"tickers":["\\ud800"]}',
          '\ufeff{"tickers":["D1101"]}',
          '{"tickers":["D1101"]}\u0000',
          'tickers=D1101',
          "' OR 1=1 --",
        ),
      },
    );
    const contentType = fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'application/json; charset=utf-8',
          'APPLICATION/JSON',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'application/json;',
          'application/json ; x=y',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=zz',
          'application/jsonx',
          'application/*',
          '*/*',
          '',
          'none',
        ),
      },
      { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')) },
    );
    const encoding = fc.constantFrom(undefined, undefined, undefined, 'gzip', 'deflate', 'br', 'identity', 'x-unknown');
    const query = fc.oneof({ weight: 5, arbitrary: fc.constant('') }, { weight: 1, arbitrary: queryFor({ tickers: ['D1101'] }).map((q) => `?${q}`) });
    await assertEndpoint(
      fc.asyncProperty(body, contentType, encoding, query, async (b, type, enc, q) => {
        const headers: Record<string, string> = {};
        if (type !== 'none') headers['Content-Type'] = type;
        if (enc !== undefined) headers['Content-Encoding'] = enc;
        const path = clip(`/api/v1/batch${q}`);
        const r = await send('POST', path, headers, b);
        const shown = typeof b === 'string' ? b.slice(0, 120) : `<${b.length} bytes>`;
        checkResponse(r, `POST ${path} [${type}${enc ? `, ${enc}` : ''}] ${JSON.stringify(shown)}`);
        expect(r.headers['cache-control']).toBe('no-store');
      }),
    );
  });

  it('any method on the dynamic paths', { timeout: TEST_TIMEOUT_MS }, async () => {
    const paths = [
      '/api/v1/compare?tickers=D1101,D1102',
      '/api/v1/ranking?limit=1',
      '/api/v1/sources/registry?gov_only=true',
      '/api/v1/company/D1101/canonical?fields=flags',
      '/api/v1/batch',
    ];
    await assertEndpoint(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
        fc.constantFrom(...paths),
        fc.option(fc.string({ unit: 'binary-ascii', maxLength: 40 })),
        async (method, path, body) => {
          const headers: Record<string, string> = body === null ? {} : { 'Content-Type': 'application/json' };
          const r = await send(method, path, headers, body ?? undefined);
          checkResponse(r, `${method} ${path} ${JSON.stringify(body)}`);
          if (r.status === 405) expect(r.headers.allow).toMatch(/OPTIONS/);
        },
      ),
    );
  });

  it('still answers /healthz and a plain request after the runs', async () => {
    const health = await send('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ ok: true });
    const ranking = await send('GET', '/api/v1/ranking?limit=1');
    expect(ranking.status).toBe(200);
    expect(JSON.parse(ranking.text).data).toHaveLength(1);
  });
});

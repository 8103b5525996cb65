import fc from 'fast-check';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexResponseSchema } from '../../src/contract/api-index.js';
import { canonicalViewSchema } from '../../src/contract/canonical.js';
import { companyResponseSchema } from '../../src/contract/company.js';
import { compareResponseSchema } from '../../src/contract/compare.js';
import { etfListResponseSchema, etfResponseSchema } from '../../src/contract/etf.js';
import { methodologyResponseSchema } from '../../src/contract/methodology.js';
import { rankingResponseSchema } from '../../src/contract/ranking.js';
import { registryResponseSchema } from '../../src/contract/registry.js';
import { snapshotsResponseSchema } from '../../src/contract/snapshots.js';
import { usageResponseSchema } from '../../src/contract/usage.js';
import { expectEnvelope, raw } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * Property test over generated paths and query strings: every answer is a 2xx/304 whose body is valid
 * against the schema of the resource the path names (computed here independently of the router, so a
 * shifted segment shows as a body of the wrong kind or the wrong code), or a 4xx error envelope.
 * Never a 5xx.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(demoSnapshotsDir);
});
afterAll(() => server.close());

const WORDS = [
  'company',
  'canonical',
  'etf',
  'ranking',
  'page',
  'sources',
  'registry',
  'methodology',
  'snapshots',
  'openapi.json',
  'compare',
  'index',
  'downloads',
];
const segment = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.constantFrom(...WORDS).map((w) => w.toUpperCase()),
  fc.constantFrom(
    'D1101',
    'd1104',
    'D1139',
    'DE5001',
    'de5002',
    'D9999',
    'D1101.json',
    'canonical.json',
    '02',
    '2',
    '0',
    '1.5',
    '-1',
    '',
    '..',
    '.',
    'a'.repeat(13),
  ),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
/** Percent-encodes a segment wholly, partly or not at all (only printable ASCII goes out raw). */
const encoded = fc.tuple(segment, fc.constantFrom('none', 'all', 'unsafe')).map(([s, how]) => {
  const safe = (c: string) => /^[A-Za-z0-9._~-]$/.test(c);
  return [...s]
    .map((c) => (how === 'all' || !safe(c) ? [...Buffer.from(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('') : c))
    .join('');
});
const query = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('page', 'limit', 'fields', 'tickers', 'q', 'gf', 'x', 'sort', 'gov_only'),
        fc.constantFrom('1', '02', '0', 'abc', 'carbon', 'D1101,D1104', '%FF', '%E6%B0%B4', 'GF-P01', 'score_asc', 'true', ''),
      ),
      { maxLength: 3 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
);

/** The resource a decoded path names, by the contract's rules (docs/api-decisions.md, "Paths"), or null for none. */
function resourceOf(segments: string[]): { schema: z.ZodType; code?: string } | null {
  const last = segments.length - 1;
  const s = segments.map((x, i) => (i === last ? x.replace(/\.json$/, '') : x));
  const code = (x: string | undefined) => (x !== undefined && /^[0-9A-Za-z]{1,12}$/.test(x) ? x.toUpperCase() : null);
  const key = s.join('/');
  if (s.length === 0 || key === 'index') return { schema: indexResponseSchema };
  const fixed: Record<string, z.ZodType> = {
    etf: etfListResponseSchema,
    ranking: rankingResponseSchema,
    'sources/registry': registryResponseSchema,
    methodology: methodologyResponseSchema,
    snapshots: snapshotsResponseSchema,
    compare: compareResponseSchema,
    usage: usageResponseSchema,
  };
  if (fixed[key]) return { schema: fixed[key]! };
  if (s[0] === 'company' && s.length === 2 && code(s[1])) return { schema: companyResponseSchema, code: code(s[1])! };
  if (s[0] === 'company' && s.length === 3 && s[2] === 'canonical' && code(s[1])) return { schema: canonicalViewSchema, code: code(s[1])! };
  if (s[0] === 'etf' && s.length === 2 && code(s[1])) return { schema: etfResponseSchema, code: code(s[1])! };
  if (s[0] === 'ranking' && s[1] === 'page' && s.length === 3 && /^\d+$/.test(s[2]!) && Number(s[2]) >= 1) return { schema: rankingResponseSchema };
  return null;
}

describe('fuzz: generated paths', () => {
  it('answer a valid body of the resource they name, or a 4xx envelope; never a 5xx or a shifted segment', { timeout: 60_000 }, async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(encoded, { maxLength: 4 }), query, async (parts, q) => {
        const path = `/api/v1/${parts.join('/')}${q === '' ? '' : `?${q}`}`;
        const r = await raw(server.base, path);
        expect(r.status, path).toBeLessThan(500);
        if (r.status >= 400) {
          const { error } = expectEnvelope(r, r.status, JSON.parse(r.text).error.code);
          // A 404 for a code names the code at its own position, never a word shifted into it.
          const unknown = /^Unknown (?:ticker|fund code): (.*)$/.exec(error.message);
          if (unknown)
            expect(unknown[1], path).toBe(
              decodeURIComponent(parts[1]!)
                .replace(/\.json$/, '')
                .toUpperCase(),
            );
          return;
        }
        answered++;
        let decoded: string[];
        try {
          decoded = parts.map(decodeURIComponent);
        } catch {
          throw new Error(`${path}: ${r.status} for a path that is not valid percent-encoding`);
        }
        if (decoded[0] === 'downloads' || decoded[0] === 'openapi.json' || decoded[0] === 'openapi') return;
        const resource = resourceOf(parts.length === 1 && parts[0] === '' ? [] : decoded);
        expect(resource, `${path} answered ${r.status} but names no resource`).not.toBeNull();
        const body = JSON.parse(r.text);
        const parsed = resource!.schema.safeParse(body);
        expect(parsed.success, `${path}: ${r.text.slice(0, 200)}`).toBe(true);
        if (resource!.code) expect(body.ticker ?? body.company?.ticker ?? body.etf_code, path).toBe(resource!.code);
      }),
      { numRuns: 400, interruptAfterTimeLimit: 30_000 },
    );
    // Runs may be cut short on a busy machine (interruptAfterTimeLimit); a few answered paths still show the property was exercised.
    expect(answered, 'some generated paths name resources').toBeGreaterThan(3);
  });
});

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryCounters } from '../../../server/access/counters.js';
import { KeyStore } from '../../../server/access/key-store.js';
import { bucketsFor } from '../../../server/access/metered.js';
import { Meter } from '../../../server/access/meter.js';
import { toApiError } from '../../../server/errors.js';
import { T0 } from './harness.js';

/**
 * POST /packs is not built yet (contract 4.7); its quota is. A minimal app puts the meter in front of
 * a handler exactly as the shim will, so packs/day and its 403 are tested through the meter's API.
 */
let dir: string;
let keys: KeyStore;
let meter: Meter;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-meter-'));
  keys = KeyStore.open(join(dir, 'keys.sqlite'), { maxStalenessMs: 0 });
  meter = new Meter({ keys, counters: memoryCounters(), clock: () => T0 });
  const app = express();
  app.post('/api/v1/packs', async (req: Request, res: Response, next: NextFunction) => {
    try {
      await meter.meter(req, res, bucketsFor('POST', ['packs'], ''));
      res.json({ ok: true });
    } catch (e) {
      next(e);
    }
  });
  app.get('/api/v1/usage', async (req: Request, res: Response) => {
    res.json((await meter.usage(req)).buckets);
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { error } = toApiError(err);
    res.status(error.status).set(error.headers).json({ code: error.code, message: error.message });
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await meter?.close();
  rmSync(dir, { recursive: true, force: true });
});

const pack = async (key?: string) => {
  const res = await fetch(`${base}/api/v1/packs`, { method: 'POST', headers: key ? { 'X-API-Key': key } : {} });
  return { status: res.status, body: (await res.json()) as { code?: string; message?: string }, ratelimit: res.headers.get('ratelimit') };
};

describe('packs/day', () => {
  it('is 403 FORBIDDEN for the free and academic tiers, naming the tiers that include packs', async () => {
    for (const key of [undefined, keys.create({ tier: 'academic', owner: 'a' }).key]) {
      const r = await pack(key);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('FORBIDDEN');
      expect(r.body.message).toMatch(/does not include evidence packs; the tiers that do: developer, commercial\./);
    }
  });

  it('a 403 still counts as a call (a 4xx other than 429)', async () => {
    const buckets = (await (await fetch(`${base}/api/v1/usage`)).json()) as { bucket: string; used: number }[];
    expect(buckets.find((b) => b.bucket === 'calls/day')!.used).toBe(1);
    expect(buckets.find((b) => b.bucket === 'packs/day')!.used).toBe(0);
  });

  it('counts 10 a day for the developer tier and 50 for the commercial tier', async () => {
    for (const [tier, limit] of [['developer', 10], ['commercial', 50]] as const) {
      const key = keys.create({ tier, owner: tier }).key;
      const answers = await Promise.all(Array.from({ length: limit + 4 }, () => pack(key)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(limit);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(4);
      expect(refused[0]!.body.message).toContain('packs/day');
      expect(refused[0]!.ratelimit).toMatch(/^"packs\/day";r=0;t=\d+$/);
    }
  });
});

describe('which calls are metered', () => {
  it.each([
    ['GET', ['company', 'D1101'], '', []],
    ['GET', ['ranking'], '', []],
    ['GET', ['usage'], '', []],
    ['GET', ['usage'], 'x=1', []],
    ['GET', ['ranking'], 'limit=5', ['calls/day', 'calls/min']],
    ['GET', ['ranking'], 'format=csv&q=x', ['calls/day', 'calls/min', 'csv/day']],
    ['GET', ['ranking'], 'format=json', ['calls/day', 'calls/min']],
    ['GET', ['company', 'D1101', 'canonical'], 'fields=flags', ['calls/day', 'calls/min']],
    ['GET', ['company', 'D1101'], 'x=1', ['calls/day', 'calls/min']],
    ['POST', ['batch'], '', ['calls/day', 'calls/min', 'batch/day']],
    ['POST', ['packs'], '', ['calls/day', 'calls/min', 'packs/day']],
  ] as const)('%s %j ?%s', (method, segments, query, buckets) => {
    expect(bucketsFor(method, segments, query)).toEqual(buckets);
  });
});

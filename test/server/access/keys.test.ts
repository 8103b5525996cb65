import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../src/contract/common.js';
import { KeyStore } from '../../../server/access/key-store.js';
import { startMetered, type Metered } from './harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

const run = promisify(execFile);
const KEY = /^esg_[0-9a-f]{10}_[A-Za-z0-9_-]{43}$/;

/** The bytes of the SQLite file and its WAL, where a key written in clear would land. */
const storeBytes = (path: string) =>
  [path, `${path}-wal`, `${path}-shm`]
    .filter(existsSync)
    .map((p) => readFileSync(p).toString('latin1'))
    .join('');

describe('key store', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'esg-keystore-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('verifies a live key, refuses wrong secrets, unknown ids, malformed keys and revoked keys', () => {
    const store = KeyStore.open(join(dir, 'a.sqlite'), { maxStalenessMs: 0 });
    const { record, key } = store.create({ tier: 'developer', owner: 'lab' });
    expect(key).toMatch(KEY);
    expect(store.verify(key)).toMatchObject({ id: record.id, tier: 'developer', owner: 'lab', revoked_at: null });
    const wrongSecret = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect(store.verify(wrongSecret)).toBeNull();
    expect(store.verify(key.replace(record.id, '0000000000'))).toBeNull();
    expect(store.verify('')).toBeNull();
    expect(store.verify(`${key} `)).toBeNull();
    expect(store.revoke(record.id)).toBe('revoked');
    expect(store.revoke(record.id)).toBe('already revoked');
    expect(store.revoke('nope')).toBe('unknown');
    expect(store.verify(key)).toBeNull();
    expect(store.list()[0]).toMatchObject({ id: record.id, revoked_at: expect.any(String) });
    expect(JSON.stringify(store.list())).not.toContain('hash');
    store.close();
  });

  it('holds only the SHA-256 of a key, never the key', () => {
    const path = join(dir, 'b.sqlite');
    const store = KeyStore.open(path);
    const keys = [store.create({ tier: 'academic', owner: 'a' }).key, store.create({ tier: 'commercial', owner: 'c', daily: 9, perMinute: 2 }).key];
    store.close();
    const bytes = storeBytes(path);
    for (const key of keys) {
      expect(bytes).not.toContain(key);
      expect(bytes).not.toContain(key.slice(15)); // the secret part alone
    }
  });

  it('a running reader sees a key created or revoked by another process within a second', async () => {
    const path = join(dir, 'c.sqlite');
    const reader = KeyStore.open(path); // default staleness: 1 s
    const writer = KeyStore.open(path);
    expect(reader.verify('esg_0000000000_' + 'x'.repeat(43))).toBeNull();
    const { record, key } = writer.create({ tier: 'academic', owner: 'w' });
    const seen = async (want: boolean) => {
      const start = performance.now();
      while ((reader.verify(key) !== null) !== want) {
        expect(performance.now() - start).toBeLessThan(2000);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await seen(true);
    writer.revoke(record.id);
    await seen(false);
    reader.close();
    writer.close();
  });

  it('rejects what the contract does not allow', () => {
    const store = KeyStore.open(join(dir, 'd.sqlite'));
    expect(() => store.create({ tier: 'free' as never, owner: 'x' })).toThrow(/tier/);
    expect(() => store.create({ tier: 'academic', owner: ' ' })).toThrow(/owner/);
    expect(() => store.create({ tier: 'academic', owner: 'x', daily: 5 })).toThrow(/commercial/);
    expect(() => store.create({ tier: 'commercial', owner: 'x', daily: 0 })).toThrow(/whole/);
    store.close();
  });
});

describe('npm run keys', () => {
  let dir: string;
  let keysDb: string;
  const keys = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', ...args], { env: { ...process.env, KEYS_DB: keysDb } });
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'esg-keys-cli-'));
    keysDb = join(dir, 'sub', 'keys.sqlite');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('create prints the key alone on its last line; list never shows it; revoke ends it', async () => {
    const created = await keys('create', '--tier', 'commercial', '--owner', 'ACME Corp', '--daily', '250000', '--per-minute', '600');
    const lines = created.stdout.trimEnd().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(KEY);
    const id = key.slice(4, 14);
    const listed = await keys('list');
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toMatch(/commercial\s+ACME Corp\s+250000\s+600/);
    expect(listed.stdout).not.toContain(key.slice(15));
    expect(storeBytes(keysDb)).not.toContain(key);
    const store = KeyStore.open(keysDb, { maxStalenessMs: 0 });
    expect(store.verify(key)).toMatchObject({ id, daily_limit: 250000, per_minute_limit: 600 });
    expect((await keys('revoke', id)).stdout).toContain(`Revoked key ${id}`);
    expect(store.verify(key)).toBeNull();
    store.close();
    expect((await keys('list')).stdout).toMatch(new RegExp(`${id}.*\\d{4}-\\d{2}-\\d{2}T[^\\n]*Z\\s*$`, 'm'));
  });

  it.each([
    [['create', '--tier', 'free', '--owner', 'x'], /--tier must be one of academic, developer, commercial/],
    [['create', '--tier', 'academic'], /--owner is required/],
    [['create', '--tier', 'academic', '--owner', 'x', '--daily', '10'], /commercial keys only/],
    [['create', '--tier', 'commercial', '--owner', 'x', '--per-minute', '1.5'], /whole number/],
    [['revoke'], /one key id/],
    [['rotate'], /unknown command/],
  ])('refuses %j', async (args, message) => {
    const err = (await keys(...args).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    ))!;
    expect(err).not.toBeNull();
    expect(err.code).toBe(2);
    expect(err.stderr).toMatch(message);
  });

  it('revoking an unknown id exits 1', async () => {
    const err = (await keys('revoke', 'ffffffffff').then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    ))!;
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('No key with id ffffffffff');
  });
});

describe('keys over HTTP', () => {
  let m: Metered;
  beforeAll(async () => {
    m = await startMetered(demoSnapshotsDir);
  });
  afterAll(() => m?.close());

  it('unknown, malformed, wrong-secret and revoked keys are 401 UNAUTHORIZED, on metered calls and /usage', async () => {
    const key = m.newKey('academic');
    expect((await m.call('/ranking?limit=1', { key })).status).toBe(200);
    const bad = [key.slice(0, -2) + 'zz', 'esg_0123456789_' + 'a'.repeat(43), 'hello', ''];
    for (const k of bad) {
      for (const path of ['/ranking?limit=1', '/usage']) {
        const r = await m.call(path, { key: k });
        expect(r.status, `${path} ${k}`).toBe(401);
        const body = errorBodySchema.parse(r.body);
        expect(body.error.code).toBe('UNAUTHORIZED');
        expect(body.error.message).toMatch(/X-API-Key.*not a live key/);
        expect(r.headers.get('ratelimit')).toBeNull();
      }
    }
    m.keys.revoke(key.slice(4, 14));
    expect((await m.call('/ranking?limit=1', { key })).status).toBe(401);
    // Static files are served as a CDN would: the key is not looked at.
    expect((await m.call('/company/D1101', { key: 'hello' })).status).toBe(200);
  });

  it('no key appears in clear text in logs, responses or the key store', async () => {
    const key = m.newKey('developer');
    const nearMiss = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    const texts: string[] = [];
    const record = (r: Awaited<ReturnType<Metered['call']>>) => texts.push(r.text, JSON.stringify([...r.headers]));
    for (const k of [key, nearMiss]) {
      record(await m.call('/ranking?limit=1', { key: k }));
      record(await m.call('/usage', { key: k }));
      record(await m.call('/ranking?limit=0', { key: k }));
      record(await m.call('/batch', { key: k, body: { tickers: ['D1101'] } }));
      record(await m.call('/compare?tickers=D1101', { key: k }));
    }
    const spent = m.newKey('commercial', { daily: 1 });
    record(await m.call('/ranking?limit=1', { key: spent }));
    record(await m.call('/ranking?limit=1', { key: spent }));
    expect(texts.join('\n')).toContain('RATE_LIMITED');
    const everything = [...texts, ...m.logs, storeBytes(m.keysPath)].join('\n');
    for (const k of [key, nearMiss, spent]) {
      expect(everything).not.toContain(k);
      expect(everything).not.toContain(k.slice(15));
    }
  });
});

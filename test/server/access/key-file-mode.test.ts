import { execFile } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../server/access/key-store.js';

const run = promisify(execFile);
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** The keys database holds owners and key hashes: nobody but its owner reads it. */
describe('the keys database file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'esg-keymode-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is created 0600 under a umask that would make it world-readable, and its WAL files follow', () => {
    const path = join(dir, 'new', 'keys.sqlite');
    const before = process.umask(0o022);
    try {
      const store = KeyStore.open(path);
      store.create({ tier: 'academic', owner: 'mode test' });
      expect(modeOf(path).toString(8)).toBe('600');
      // WAL mode: the write left a -wal and -shm beside it while the store is open.
      for (const side of [`${path}-wal`, `${path}-shm`].filter(existsSync)) expect(modeOf(side).toString(8), side).toBe('600');
      store.close();
    } finally {
      process.umask(before);
    }
  });

  it('npm run keys create makes it 0600 too', async () => {
    const keysDb = join(dir, 'cli', 'keys.sqlite');
    await run(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', 'create', '--tier', 'academic', '--owner', 'cli mode test'], {
      env: { ...process.env, KEYS_DB: keysDb },
    });
    expect(modeOf(keysDb).toString(8)).toBe('600');
  });

  it('an existing file keeps the mode its operator gave it', () => {
    const path = join(dir, 'existing.sqlite');
    closeSync(openSync(path, 'w'));
    chmodSync(path, 0o640);
    KeyStore.open(path).close();
    expect(modeOf(path).toString(8)).toBe('640');
  });
});
